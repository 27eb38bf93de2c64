//! Signatures as Neo4j prints them, parsed: `name(arg :: TYPE, opt = default :: TYPE) :: RESULT`
//! for functions, `… :: (column :: TYPE, …)` for procedures; and the argument-count checks
//! Neo4j makes at compile time, with its messages.

use super::{Function, Procedure};

/// One argument or output column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    /// As Neo4j prints it: `STRING`, `LIST<INTEGER | FLOAT>`, `ANY`.
    pub ty: String,
    /// The default value's text, for an optional argument (`{}`, `null`, `-1`).
    pub default: Option<String>,
}

/// A parsed signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub params: Vec<Param>,
    /// A function's result type (empty for procedures).
    pub result: String,
    /// A procedure's output columns (empty for functions and `VOID` procedures).
    pub outputs: Vec<Param>,
}

/// How many arguments a call may pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub min: usize,
    /// `None`: any number (`coalesce`).
    pub max: Option<usize>,
}

impl Signature {
    /// Parses `name(params) :: result`; `None` when the parameter list is not a list of
    /// `name [= default] :: TYPE` (the built-ins whose arguments are syntax).
    pub fn parse(text: &str) -> Option<Signature> {
        let open = text.find('(')?;
        let name = text[..open].trim().to_string();
        let close = matching_paren(text, open)?;
        let params = split_top(&text[open + 1..close])
            .into_iter()
            .map(parse_param)
            .collect::<Option<Vec<_>>>()?;
        let rest = text[close + 1..].trim();
        // A procedure without outputs prints none (`db.awaitIndexes(…)`).
        let rest = if rest.is_empty() {
            "VOID"
        } else {
            rest.strip_prefix("::")?.trim()
        };
        let (result, outputs) = if let Some(inner) = rest.strip_prefix('(') {
            // A procedure: `(col :: TYPE, …)`.
            let inner = inner.strip_suffix(')')?;
            let outputs = split_top(inner)
                .into_iter()
                .map(parse_param)
                .collect::<Option<Vec<_>>>()?;
            (String::new(), outputs)
        } else if rest.eq_ignore_ascii_case("VOID") {
            (String::new(), Vec::new())
        } else {
            (rest.to_string(), Vec::new())
        };
        Some(Signature {
            name,
            params,
            result,
            outputs,
        })
    }

    /// How many arguments the signature takes: the arguments without a default, up to all.
    pub fn arity(&self) -> Arity {
        Arity {
            min: self.required(),
            max: Some(self.params.len()),
        }
    }

    fn required(&self) -> usize {
        self.params.iter().filter(|p| p.default.is_none()).count()
    }

    /// As Neo4j prints a signature in its error messages: defaults as `name  =  value`, a
    /// procedure's outputs without brackets.
    pub fn display(&self) -> String {
        let params: Vec<String> = self.params.iter().map(display_param).collect();
        let mut s = format!("{}({})", self.name, params.join(", "));
        if !self.outputs.is_empty() {
            let outs: Vec<String> = self.outputs.iter().map(display_param).collect();
            s.push_str(" :: ");
            s.push_str(&outs.join(", "));
        } else if !self.result.is_empty() {
            s.push_str(" :: ");
            s.push_str(&self.result);
        }
        s
    }
}

fn display_param(p: &Param) -> String {
    match &p.default {
        Some(d) => format!("{}  =  {} :: {}", p.name, d, p.ty),
        None => format!("{} :: {}", p.name, p.ty),
    }
}

/// `name :: TYPE` or `name = default :: TYPE`.
fn parse_param(text: &str) -> Option<Param> {
    let text = text.trim();
    // The type follows the last top-level `::` (a default may be a map with `:` inside).
    let sep = find_top(text, "::")?;
    let (head, ty) = (text[..sep].trim(), text[sep + 2..].trim());
    if ty.is_empty() || ty.contains("::") || ty.starts_with("VARIABLE") {
        return None;
    }
    let (name, default) = match head.split_once('=') {
        Some((n, d)) => (n.trim(), Some(d.trim().to_string())),
        None => (head, None),
    };
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '`'));
    plain.then(|| Param {
        name: name.trim_matches('`').to_string(),
        ty: ty.to_string(),
        default,
    })
}

/// The index of the bracket closing the `(` at `open`.
fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => {
                depth -= 1;
                if depth == 0 {
                    return (c == ')').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first occurrence of `pat` outside brackets.
fn find_top(text: &str, pat: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            _ if depth == 0 && text[i..].starts_with(pat) => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits at commas outside brackets; an empty list gives no parts.
fn split_top(text: &str) -> Vec<&str> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Built-in functions whose catalogue signature lists every argument, although the trailing
/// ones are optional: the least number of arguments Neo4j accepts.
const FEWER_ARGUMENTS: &[(&str, usize)] = &[
    ("btrim", 1),
    ("ltrim", 1),
    ("range", 2),
    ("round", 1),
    ("rtrim", 1),
    ("substring", 2),
];

/// Built-in functions Neo4j registers the way it registers plugin functions (temporal values,
/// durations, graph and database names): a wrong argument count gets the plugin message.
fn checked_as_plugin(f: &Function) -> bool {
    if !f.built_in {
        return true;
    }
    let lower = f.name.to_ascii_lowercase();
    let head = lower.split('.').next().unwrap_or(&lower);
    matches!(
        head,
        "date" | "datetime" | "localdatetime" | "localtime" | "time" | "duration"
    ) || matches!(
        lower.as_str(),
        "db.namefromelementid" | "graph.names" | "graph.propertiesbyname"
    )
}

pub(super) fn function_arity(f: &Function) -> Option<Arity> {
    let lower = f.name.to_ascii_lowercase();
    match lower.as_str() {
        "coalesce" => {
            return Some(Arity { min: 1, max: None });
        }
        // `trim(input)`, `trim(spec, input)`, `trim(spec, chars, input)`: how Neo4j reads
        // `trim([LEADING|TRAILING|BOTH] [chars] FROM input)`.
        "trim" => {
            return Some(Arity {
                min: 1,
                max: Some(3),
            });
        }
        // Neo4j does not count `timestamp`'s arguments.
        "timestamp" => return None,
        _ => {}
    }
    let mut arity = f.signature()?.arity();
    if let Some((_, min)) = FEWER_ARGUMENTS.iter().find(|(n, _)| *n == lower) {
        arity.min = *min;
    }
    Some(arity)
}

pub(super) fn function_arity_error(f: &Function, given: usize) -> Option<String> {
    let arity = f.arity()?;
    let few = given < arity.min;
    let many = arity.max.is_some_and(|m| given > m);
    if !few && !many {
        return None;
    }
    if !checked_as_plugin(f) {
        // The catalogue's name, whatever the query's case (the 5.26 server names `char_length`
        // as it is, where its offline frontend names `character_length`).
        let what = if few { "Insufficient" } else { "Too many" };
        return Some(format!("{what} parameters for function '{}'", f.name));
    }
    let sig = f.signature()?;
    let total = sig.params.len();
    // Neo4j counts the defaults as given when too few are.
    let got = if few {
        given + (total - sig.required())
    } else {
        given
    };
    let types: Vec<&str> = sig.params.iter().map(|p| p.ty.as_str()).collect();
    Some(format!(
        "Function call does not provide the required number of arguments: expected {total} got \
         {got}.\n\nFunction {} has signature: {}\nmeaning that it expects {total} {} of type {}",
        sig.name,
        sig.display(),
        plural("argument", total),
        types.join(", ")
    ))
}

/// The text of the GQL status `42I13` Neo4j 5.26 gives a built-in function called with a wrong
/// number of arguments: the function as `written` in the query, the count it expected (the
/// fewest its overloads take when too few were given, the most when too many) and every
/// overload's signature (defaults as `name = value`), joined by `or`. `None` where the
/// count is right or the function is checked as a plugin (another message, no `42I13`).
pub(super) fn function_arity_gql(f: &Function, written: &str, given: usize) -> Option<String> {
    let arity = f.arity()?;
    let few = given < arity.min;
    let many = arity.max.is_some_and(|m| given > m);
    if (!few && !many) || checked_as_plugin(f) {
        return None;
    }
    let (name, expected, overloads) = if f.name.eq_ignore_ascii_case("trim") {
        // Neo4j's `trim` takes its SQL form as two arguments.
        (
            written,
            2,
            "trim(input :: STRING) :: STRING or trim([[LEADING | TRAILING | BOTH] \
             [trimCharacterString :: STRING] FROM] input :: STRING) :: STRING"
                .to_string(),
        )
    } else {
        let sig = f.signature()?;
        let result = sig.result.as_str();
        let max = arity.max.unwrap_or(sig.params.len()).min(sig.params.len());
        let min = arity.min.min(max);
        let overloads: Vec<String> = (min..=max)
            .map(|n| {
                let params: Vec<String> = sig.params[..n]
                    .iter()
                    .map(|p| match &p.default {
                        Some(d) => format!("{} = {d} :: {}", p.name, p.ty),
                        None => format!("{} :: {}", p.name, p.ty),
                    })
                    .collect();
                format!("{}({}) :: {result}", sig.name, params.join(", "))
            })
            .collect();
        let expected = if few { arity.min } else { max };
        (written, expected, overloads.join(" or "))
    };
    Some(format!(
        "The procedure or function call does not provide the required number of arguments; \
         expected {expected} but got {given}.\n\nThe procedure or function {name}() has the \
         signature: {overloads}."
    ))
}

pub(super) fn procedure_arity_error(p: &Procedure, given: usize) -> Option<String> {
    p.signature()?.procedure_arity_error(given)
}

impl Signature {
    /// Neo4j's compile-time error for a call of this procedure with `given` arguments, if the
    /// count is wrong.
    pub fn procedure_arity_error(&self, given: usize) -> Option<String> {
        procedure_arity_message(self, given)
    }
}

fn procedure_arity_message(sig: &Signature, given: usize) -> Option<String> {
    let (required, total) = (sig.required(), sig.params.len());
    let head = if given < required {
        format!(
            "Procedure call does not provide the required number of arguments: got {given} \
             expected at least {required} (total: {total}, {} of which have default values).",
            total - required
        )
    } else if given > total {
        let expected = if total == 0 {
            "none".to_string()
        } else {
            format!("no more than {total}")
        };
        format!("Procedure call provides too many arguments: got {given} expected {expected}.")
    } else {
        return None;
    };
    let meaning = if required == 0 {
        "no arguments".to_string()
    } else {
        let types: Vec<&str> = sig.params[..required]
            .iter()
            .map(|p| p.ty.as_str())
            .collect();
        format!(
            "at least {required} {} of {} {}",
            plural("argument", required),
            plural("type", required),
            types.join(", ")
        )
    };
    Some(format!(
        "{head}\n\nProcedure {} has signature: {}\nmeaning that it expects {meaning}\n",
        sig.name,
        sig.display()
    ))
}

/// The message Neo4j gives for `YIELD column` where the procedure has no such output.
pub fn unknown_output_message(column: &str) -> String {
    format!("Unknown procedure output: `{column}`")
}

fn plural(word: &str, n: usize) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{function, procedure};

    #[test]
    fn signatures_parse() {
        let s = Signature::parse(
            "apoc.coll.flatten(coll :: LIST<ANY>, recursive = false :: BOOLEAN) :: LIST<ANY>",
        )
        .unwrap();
        assert_eq!(s.name, "apoc.coll.flatten");
        assert_eq!(s.params.len(), 2);
        assert_eq!(s.params[1].default.as_deref(), Some("false"));
        assert_eq!(s.result, "LIST<ANY>");
        assert_eq!(
            s.arity(),
            Arity {
                min: 1,
                max: Some(2)
            }
        );
        let p = Signature::parse(
            "db.index.fulltext.queryNodes(indexName :: STRING, queryString :: STRING, \
             options = {} :: MAP) :: (node :: NODE, score :: FLOAT)",
        )
        .unwrap();
        assert_eq!(p.outputs.len(), 2);
        assert_eq!(p.params[2].default.as_deref(), Some("{}"));
        assert_eq!(
            p.display(),
            "db.index.fulltext.queryNodes(indexName :: STRING, queryString :: STRING, \
             options  =  {} :: MAP) :: node :: NODE, score :: FLOAT"
        );
        let defaults = Signature::parse(
            "apoc.agg.percentiles(value :: INTEGER | FLOAT, percentiles = [0.5, 0.75] :: \
             LIST<FLOAT>) :: LIST<ANY>",
        )
        .unwrap();
        assert_eq!(defaults.params[1].default.as_deref(), Some("[0.5, 0.75]"));
        assert!(Signature::parse(
            "all(variable :: VARIABLE IN list :: LIST<ANY> WHERE predicate :: ANY) :: BOOLEAN"
        )
        .is_none());
        assert_eq!(
            Signature::parse("db.awaitIndexes(timeOutSeconds = 300 :: INTEGER)")
                .unwrap()
                .outputs,
            vec![]
        );
    }

    /// Every signature in the catalogue parses, except the built-ins whose arguments are syntax.
    #[test]
    fn the_catalogue_parses() {
        let odd: Vec<&str> = crate::catalogue::functions()
            .iter()
            .filter(|f| f.signature().is_none())
            .map(|f| f.name)
            .collect();
        assert_eq!(odd, ["all", "any", "none", "reduce", "single", "trim"]);
        for p in crate::catalogue::procedures() {
            let s = p
                .signature()
                .unwrap_or_else(|| panic!("{}", p.signature_text));
            assert_eq!(s.name, p.name);
        }
    }

    /// The `42I13` texts Neo4j 5.26.30 sent (asked of the oracle through the Python driver).
    #[test]
    fn arity_gql_texts_are_neo4js() {
        let g = |n: &str, k: usize| function(n).unwrap().arity_gql(n, k);
        let text = |e: usize, k: usize, sig: &str| {
            format!(
                "The procedure or function call does not provide the required number of \
                 arguments; expected {e} but got {k}.\n\nThe procedure or function {sig}."
            )
        };
        assert_eq!(
            g("size", 2).unwrap(),
            text(
                1,
                2,
                "size() has the signature: size(input :: STRING | LIST<ANY>) :: INTEGER"
            )
        );
        assert_eq!(g("substring", 4).unwrap(), text(3, 4, "substring() has the signature: substring(original :: STRING, start :: INTEGER) :: STRING or substring(original :: STRING, start :: INTEGER, length :: INTEGER) :: STRING"));
        assert_eq!(g("round", 0).unwrap(), text(1, 0, "round() has the signature: round(value :: FLOAT) :: FLOAT or round(value :: FLOAT, precision :: INTEGER | FLOAT) :: FLOAT or round(value :: FLOAT, precision :: INTEGER | FLOAT, mode :: STRING) :: FLOAT"));
        assert_eq!(
            g("coalesce", 0).unwrap(),
            text(
                1,
                0,
                "coalesce() has the signature: coalesce(input :: ANY) :: ANY"
            )
        );
        assert_eq!(
            g("rand", 1).unwrap(),
            text(0, 1, "rand() has the signature: rand() :: FLOAT")
        );
        assert_eq!(
            g("char_length", 0).unwrap(),
            text(
                1,
                0,
                "char_length() has the signature: char_length(input :: STRING) :: INTEGER"
            )
        );
        assert_eq!(g("range", 1).unwrap(), text(2, 1, "range() has the signature: range(start :: INTEGER, end :: INTEGER) :: LIST<INTEGER> or range(start :: INTEGER, end :: INTEGER, step :: INTEGER) :: LIST<INTEGER>"));
        assert_eq!(g("trim", 0).unwrap(), text(2, 0, "trim() has the signature: trim(input :: STRING) :: STRING or trim([[LEADING | TRAILING | BOTH] [trimCharacterString :: STRING] FROM] input :: STRING) :: STRING"));
        assert_eq!(g("size", 1), None);
        // The name as written, the signature as catalogued; defaults with single spaces.
        assert_eq!(
            function("stdev").unwrap().arity_gql("stDev", 0).unwrap(),
            text(
                1,
                0,
                "stDev() has the signature: stdev(input :: FLOAT) :: FLOAT"
            )
        );
        assert_eq!(g("normalize", 3).unwrap(), text(2, 3, "normalize() has the signature: normalize(input :: STRING) :: STRING or normalize(input :: STRING, normalForm = NFC :: [NFC, NFD, NFKC, NFKD]) :: STRING"));
        // Functions Neo4j checks as plugins have no `42I13`.
        assert_eq!(g("apoc.text.join", 1), None);
        assert_eq!(g("datetime", 3), None);
    }

    /// The messages Neo4j's frontend gives (recorded from `@neo4j-cypher/language-support`).
    #[test]
    fn arity_messages_are_neo4js() {
        let f = |n: &str, k: usize| function(n).unwrap().arity_error(k);
        assert_eq!(
            f("substring", 1).as_deref(),
            Some("Insufficient parameters for function 'substring'")
        );
        assert_eq!(f("substring", 2), None);
        assert_eq!(f("substring", 3), None);
        assert_eq!(
            f("substring", 4).as_deref(),
            Some("Too many parameters for function 'substring'")
        );
        assert_eq!(f("round", 1), None);
        assert_eq!(
            f("round", 4).as_deref(),
            Some("Too many parameters for function 'round'")
        );
        assert_eq!(
            f("coalesce", 0).as_deref(),
            Some("Insufficient parameters for function 'coalesce'")
        );
        assert_eq!(f("coalesce", 9), None);
        assert_eq!(f("timestamp", 1), None);
        assert_eq!(
            f("char_length", 0).as_deref(),
            Some("Insufficient parameters for function 'char_length'")
        );
        assert_eq!(
            f("rand", 1).as_deref(),
            Some("Too many parameters for function 'rand'")
        );
        assert_eq!(
            f("apoc.text.join", 1).as_deref(),
            Some(
                "Function call does not provide the required number of arguments: expected 2 \
                 got 1.\n\nFunction apoc.text.join has signature: apoc.text.join(texts :: \
                 LIST<STRING>, delimiter :: STRING) :: STRING\nmeaning that it expects 2 \
                 arguments of type LIST<STRING>, STRING"
            )
        );
        // Defaults count as given when too few are (Neo4j's arithmetic).
        assert!(f("apoc.coll.flatten", 0).unwrap().starts_with(
            "Function call does not provide the required number of arguments: expected 2 got 1."
        ));
        assert!(f("date.truncate", 0)
            .unwrap()
            .contains("expected 3 got 2.\n\nFunction date.truncate has signature: date.truncate(unit :: STRING, input  =  DEFAULT_TEMPORAL_ARGUMENT :: ANY, fields  =  null :: MAP) :: DATE\nmeaning that it expects 3 arguments of type STRING, ANY, MAP"));
        assert_eq!(f("date.truncate", 1), None);
        assert!(f("date", 2)
            .unwrap()
            .ends_with("meaning that it expects 1 argument of type ANY"));
        assert!(f("duration", 0).unwrap().contains("expected 1 got 0."));
        assert_eq!(f("date", 0), None);
        let p = |n: &str, k: usize| procedure(n).unwrap().arity_error(k);
        assert_eq!(
            p("db.labels", 1).as_deref(),
            Some(
                "Procedure call provides too many arguments: got 1 expected none.\n\nProcedure \
                 db.labels has signature: db.labels() :: label :: STRING\nmeaning that it \
                 expects no arguments\n"
            )
        );
        assert_eq!(
            p("db.index.fulltext.queryNodes", 1).as_deref(),
            Some(
                "Procedure call does not provide the required number of arguments: got 1 \
                 expected at least 2 (total: 3, 1 of which have default values).\n\nProcedure \
                 db.index.fulltext.queryNodes has signature: db.index.fulltext.queryNodes(\
                 indexName :: STRING, queryString :: STRING, options  =  {} :: MAP) :: node :: \
                 NODE, score :: FLOAT\nmeaning that it expects at least 2 arguments of types \
                 STRING, STRING\n"
            )
        );
        assert!(p("db.index.fulltext.queryNodes", 4).unwrap().starts_with(
            "Procedure call provides too many arguments: got 4 expected no more than 3."
        ));
        assert!(p("apoc.meta.data", 2)
            .unwrap()
            .ends_with("meaning that it expects no arguments\n"));
        assert_eq!(p("apoc.meta.data", 0), None);
        assert!(procedure("db.labels").unwrap().has_output("label"));
        assert!(!procedure("db.labels").unwrap().has_output("foo"));
    }
}
