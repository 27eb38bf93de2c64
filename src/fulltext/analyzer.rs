//! Analyzers: how a full-text index turns a property value (and a query's words) into terms,
//! after the analyzers of the same names Neo4j's full-text indexes offer.

use unicode_segmentation::UnicodeSegmentation;

/// Lucene's English stop words, which the `standard` and `stop` analyzers leave out.
pub const ENGLISH_STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// The analyzers Neo4j 5 offers (`db.index.fulltext.listAvailableAnalyzers()`): grape offers
/// [`Analyzer::ALL`] of them.
pub const NEO4J_ANALYZERS: &[&str] = &[
    "arabic",
    "armenian",
    "basque",
    "bengali",
    "brazilian",
    "bulgarian",
    "catalan",
    "cjk",
    "classic",
    "czech",
    "danish",
    "dutch",
    "email",
    "english",
    "estonian",
    "finnish",
    "french",
    "galician",
    "german",
    "greek",
    "hindi",
    "hungarian",
    "indonesian",
    "irish",
    "italian",
    "keyword",
    "latvian",
    "lithuanian",
    "norwegian",
    "persian",
    "portuguese",
    "romanian",
    "russian",
    "simple",
    "sorani",
    "spanish",
    "standard",
    "standard-folding",
    "standard-no-stop-words",
    "stop",
    "swedish",
    "thai",
    "turkish",
    "unicode_whitespace",
    "url",
    "url_or_email",
    "whitespace",
];

/// The message for an analyzer name grape does not offer: Neo4j's for a name Neo4j does not
/// know either; for one of Neo4j's others (the language analyzers, which stem), that grape
/// lacks it.
pub fn unknown_analyzer_message(name: &str) -> String {
    if NEO4J_ANALYZERS.contains(&name) {
        let offered: Vec<&str> = Analyzer::ALL.iter().map(|a| a.name()).collect();
        format!(
            "grape does not implement Neo4j's full-text analyzer '{name}'; it offers: {}.",
            offered.join(", ")
        )
    } else {
        format!("No such full-text analyzer: '{name}'.")
    }
}

/// The longest term the word tokenizers emit; a longer word is cut into pieces of this many
/// characters, as Lucene's StandardTokenizer cuts them.
const MAX_TOKEN_CHARS: usize = 255;

/// A full-text analyzer, by the name Neo4j gives it (`fulltext.analyzer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Analyzer {
    /// `standard-no-stop-words` (Neo4j's default): Unicode words (UAX #29), lower-cased.
    StandardNoStopWords,
    /// `standard`: Unicode words, lower-cased, English stop words removed.
    Standard,
    /// `simple`: runs of letters, lower-cased.
    Simple,
    /// `stop`: runs of letters, lower-cased, English stop words removed.
    Stop,
    /// `whitespace`: split on Java whitespace, case kept.
    Whitespace,
    /// `unicode_whitespace`: split on Unicode whitespace, case kept.
    UnicodeWhitespace,
    /// `keyword`: the whole value is one term, as it is.
    Keyword,
}

/// One term of an analyzed text and its position (stop words leave gaps).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub position: u32,
}

impl Analyzer {
    /// Every analyzer grape offers, in `db.index.fulltext.listAvailableAnalyzers()` order.
    pub const ALL: [Analyzer; 7] = [
        Analyzer::Keyword,
        Analyzer::Simple,
        Analyzer::Standard,
        Analyzer::StandardNoStopWords,
        Analyzer::Stop,
        Analyzer::UnicodeWhitespace,
        Analyzer::Whitespace,
    ];

    /// The analyzer's name in index settings and procedure options.
    pub fn name(self) -> &'static str {
        match self {
            Analyzer::StandardNoStopWords => "standard-no-stop-words",
            Analyzer::Standard => "standard",
            Analyzer::Simple => "simple",
            Analyzer::Stop => "stop",
            Analyzer::Whitespace => "whitespace",
            Analyzer::UnicodeWhitespace => "unicode_whitespace",
            Analyzer::Keyword => "keyword",
        }
    }

    /// What the analyzer does, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            Analyzer::StandardNoStopWords => {
                "The default analyzer: splits text into words by the Unicode word-break rules \
                 (UAX #29) and lower-cases them; keeps stop words; does no stemming."
            }
            Analyzer::Standard => {
                "Splits text into words by the Unicode word-break rules (UAX #29), lower-cases \
                 them and leaves out English stop words; does no stemming."
            }
            Analyzer::Simple => {
                "Splits text at everything that is not a letter and lower-cases the words."
            }
            Analyzer::Stop => {
                "Splits text at everything that is not a letter, lower-cases the words and \
                 leaves out English stop words."
            }
            Analyzer::Whitespace => {
                "Splits text at Java whitespace (not at non-breaking spaces); keeps case."
            }
            Analyzer::UnicodeWhitespace => "Splits text at Unicode whitespace; keeps case.",
            Analyzer::Keyword => "Keeps the whole value as one term, unchanged: for exact matches.",
        }
    }

    /// The words the analyzer leaves out.
    pub fn stop_words(self) -> &'static [&'static str] {
        match self {
            Analyzer::Standard | Analyzer::Stop => ENGLISH_STOP_WORDS,
            _ => &[],
        }
    }

    /// The analyzer of that name (exact, as Neo4j matches it).
    pub fn by_name(name: &str) -> Option<Analyzer> {
        Analyzer::ALL.into_iter().find(|a| a.name() == name)
    }

    fn lower_cases(self) -> bool {
        !matches!(
            self,
            Analyzer::Whitespace | Analyzer::UnicodeWhitespace | Analyzer::Keyword
        )
    }

    /// How a term that is not analyzed (a wildcard, prefix, fuzzy, range or regular-expression
    /// term of a query) is normalized: lower-cased where the analyzer lower-cases.
    pub fn normalize(self, term: &str) -> String {
        if self.lower_cases() {
            lower(term)
        } else {
            term.to_string()
        }
    }

    /// The terms of `text`, with positions counted from `first_position`; returns the position
    /// after the last one (so that the values of a list continue one another).
    pub fn analyze(self, text: &str, first_position: u32, out: &mut Vec<Token>) -> u32 {
        let mut position = first_position;
        let mut emit = |word: &str, out: &mut Vec<Token>| {
            let text = if self.lower_cases() {
                lower(word)
            } else {
                word.to_string()
            };
            if !self.stop_words().contains(&text.as_str()) {
                out.push(Token { text, position });
            }
            // A stop word still takes its position: a phrase does not match across it.
            position = position.saturating_add(1);
        };
        match self {
            Analyzer::StandardNoStopWords | Analyzer::Standard => {
                for word in text.unicode_words() {
                    for piece in pieces(word) {
                        emit(piece, out);
                    }
                }
            }
            Analyzer::Simple | Analyzer::Stop => {
                for word in text.split(|c: char| !c.is_alphabetic()) {
                    if !word.is_empty() {
                        for piece in pieces(word) {
                            emit(piece, out);
                        }
                    }
                }
            }
            Analyzer::Whitespace => {
                for word in text.split(crate::value::java_whitespace) {
                    if !word.is_empty() {
                        for piece in pieces(word) {
                            emit(piece, out);
                        }
                    }
                }
            }
            Analyzer::UnicodeWhitespace => {
                for word in text.split(char::is_whitespace) {
                    if !word.is_empty() {
                        for piece in pieces(word) {
                            emit(piece, out);
                        }
                    }
                }
            }
            Analyzer::Keyword => emit(text, out),
        }
        position
    }

    /// The terms of `text` alone (positions from 0).
    pub fn terms(self, text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        self.analyze(text, 0, &mut out);
        out
    }
}

/// Lower-cases as Lucene's LowerCaseFilter does: one character for one character (where
/// Unicode's full mapping gives several, the first).
fn lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

/// `word` cut into pieces of at most [`MAX_TOKEN_CHARS`] characters.
fn pieces(word: &str) -> impl Iterator<Item = &str> {
    let mut rest = word;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = rest
            .char_indices()
            .nth(MAX_TOKEN_CHARS)
            .map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(a: Analyzer, s: &str) -> Vec<(String, u32)> {
        a.terms(s)
            .into_iter()
            .map(|t| (t.text, t.position))
            .collect()
    }

    #[test]
    fn standard_splits_unicode_words_and_lower_cases() {
        let got = texts(
            Analyzer::StandardNoStopWords,
            "The Matrix: Reloaded (2003), Keanu's 3.14 e-mail",
        );
        let words: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            words,
            ["the", "matrix", "reloaded", "2003", "keanu's", "3.14", "e", "mail"]
        );
        assert_eq!(got.last().unwrap().1, 7);
    }

    #[test]
    fn stop_words_leave_position_gaps() {
        let got = texts(Analyzer::Standard, "the lord of the rings");
        assert_eq!(got, [("lord".to_string(), 1), ("rings".to_string(), 4)]);
        assert_eq!(texts(Analyzer::Stop, "To be or NOT").len(), 0);
    }

    #[test]
    fn whitespace_and_keyword_keep_case() {
        assert_eq!(
            texts(Analyzer::Whitespace, "Foo\u{a0}Bar  Baz"),
            [("Foo\u{a0}Bar".to_string(), 0), ("Baz".to_string(), 1)]
        );
        assert_eq!(
            texts(Analyzer::UnicodeWhitespace, "Foo\u{a0}Bar"),
            [("Foo".to_string(), 0), ("Bar".to_string(), 1)]
        );
        assert_eq!(
            texts(Analyzer::Keyword, "New York"),
            [("New York".to_string(), 0)]
        );
        assert_eq!(
            texts(Analyzer::Simple, "R2-D2 droids"),
            [
                ("r".to_string(), 0),
                ("d".to_string(), 1),
                ("droids".to_string(), 2)
            ]
        );
    }

    #[test]
    fn long_words_are_cut_and_names_resolve() {
        let long = "x".repeat(600);
        let got = Analyzer::StandardNoStopWords.terms(&long);
        assert_eq!(
            got.iter().map(|t| t.text.len()).collect::<Vec<_>>(),
            [255, 255, 90]
        );
        for a in Analyzer::ALL {
            assert_eq!(Analyzer::by_name(a.name()), Some(a));
        }
        assert_eq!(Analyzer::by_name("english"), None);
        assert_eq!(Analyzer::StandardNoStopWords.normalize("ÉTÉ"), "été");
        assert_eq!(Analyzer::Keyword.normalize("ÉTÉ"), "ÉTÉ");
    }
}
