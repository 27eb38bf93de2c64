"""Google BLEU as Hugging Face `evaluate`'s `google_bleu` computes it: NLTK's corpus_gleu over
the 13a tokenizer (sacreBLEU's, whose text `evaluate` splits into tokens), n = 1..4.

Reads JSON [[reference, prediction], ...] on stdin; prints JSON {"sentence": [...], "corpus": x}.
"""

import json
import sys

from nltk.translate import gleu_score
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

tok = Tokenizer13a()
pairs = json.load(sys.stdin)
refs = [[tok(r).split()] for r, _ in pairs]
hyps = [tok(p).split() for _, p in pairs]
sentence = [
    gleu_score.corpus_gleu([r], [h], min_len=1, max_len=4) for r, h in zip(refs, hyps)
]
corpus = gleu_score.corpus_gleu(refs, hyps, min_len=1, max_len=4)
print(json.dumps({"sentence": sentence, "corpus": corpus, "tokens": [" ".join(h) for h in hyps]}))
