"""Reference p-values from SciPy: McNemar's exact test as the two-sided binomial test at 1/2
(scipy.stats.binomtest) and the exact paired permutation test of the mean difference
(scipy.stats.permutation_test, permutation_type="samples", every permutation).

Reads JSON {"mcnemar": [[b, c], ...], "paired": [[[x...], [y...]], ...]} on stdin."""

import json
import sys

import numpy as np
from scipy import stats

q = json.load(sys.stdin)
mcnemar = [stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0 for b, c in q["mcnemar"]]
paired = []
for x, y in q["paired"]:
    res = stats.permutation_test(
        (np.array(y), np.array(x)),
        lambda a, b: np.mean(a - b),
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    paired.append(res.pvalue)
print(json.dumps({"mcnemar": mcnemar, "paired": paired}))
