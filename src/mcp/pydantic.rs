//! The argument errors mcp-neo4j-cypher's tools answer with: FastMCP validates a call's
//! arguments with pydantic 2 (2.14 in the tested environment), whose error text a client sees
//! as the tool's result (`1 validation error for call[read_neo4j_cypher]` …).

use super::driver_view::{from_json, python_repr};
use serde_json::{Map, Value as Json};

/// What a field takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    Int,
    Str,
    Dict,
}

/// The pydantic version whose documentation links the errors name.
const PYDANTIC_DOCS: &str = "https://errors.pydantic.dev/2.14/v/";

fn python_type(j: &Json) -> &'static str {
    match j {
        Json::Null => "NoneType",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_f64() => "float",
        Json::Number(_) => "int",
        Json::String(_) => "str",
        Json::Array(_) => "list",
        Json::Object(_) => "dict",
    }
}

/// pydantic-core's display of an input value: its `repr`, the middle cut out past 50
/// characters.
fn shown(repr: String) -> String {
    let chars: Vec<char> = repr.chars().collect();
    if chars.len() <= 50 {
        return repr;
    }
    let head: String = chars[..25].iter().collect();
    let tail: String = chars[chars.len() - 24..].iter().collect();
    format!("{head}...{tail}")
}

/// The error for one field's value, or `None` when pydantic (in lax mode) takes it.
fn field_error(want: Want, v: &Json) -> Option<(&'static str, &'static str)> {
    match (want, v) {
        (Want::Str, Json::String(_)) => None,
        (Want::Str, _) => Some(("string_type", "Input should be a valid string")),
        (Want::Dict, Json::Object(_)) => None,
        (Want::Dict, _) => Some(("dict_type", "Input should be a valid dictionary")),
        (Want::Int, Json::Bool(_)) => None,
        (Want::Int, Json::Number(n)) => match n.as_i64() {
            Some(_) => None,
            None => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => None,
                Some(f) if f.is_finite() => Some((
                    "int_from_float",
                    "Input should be a valid integer, got a number with a fractional part",
                )),
                _ => Some(("finite_number", "Input should be a finite number")),
            },
        },
        (Want::Int, Json::String(s)) if s.trim().parse::<i64>().is_ok() => None,
        (Want::Int, Json::String(_)) => Some((
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
        )),
        (Want::Int, _) => Some(("int_type", "Input should be a valid integer")),
    }
}

/// pydantic's validation error for a call of `tool` with `args`, given its fields (name,
/// kind, required), or `None` when the arguments validate.
pub(crate) fn check(
    tool: &str,
    args: &Map<String, Json>,
    fields: &[(&str, Want, bool)],
) -> Option<String> {
    let mut errors = Vec::new();
    for (name, want, required) in fields {
        match args.get(*name) {
            None if *required => {
                let all = from_json(&Json::Object(args.clone()));
                errors.push(format!(
                    "{name}\n  Missing required argument [type=missing_argument, input_value={}, input_type=dict]\n    For further information visit {PYDANTIC_DOCS}missing_argument",
                    shown(python_repr(&all))
                ));
            }
            None => {}
            Some(v) => {
                if let Some((ty, msg)) = field_error(*want, v) {
                    errors.push(format!(
                        "{name}\n  {msg} [type={ty}, input_value={}, input_type={}]\n    For further information visit {PYDANTIC_DOCS}{ty}",
                        shown(python_repr(&from_json(v))),
                        python_type(v)
                    ));
                }
            }
        }
    }
    if errors.is_empty() {
        return None;
    }
    let n = errors.len();
    Some(format!(
        "{n} validation error{} for call[{tool}]\n{}",
        if n == 1 { "" } else { "s" },
        errors.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_query_as_pydantic_reports_it() {
        let args = Map::new();
        assert_eq!(
            check("read_neo4j_cypher", &args, &[("query", Want::Str, true)]).unwrap(),
            "1 validation error for call[read_neo4j_cypher]\nquery\n  Missing required argument [type=missing_argument, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.14/v/missing_argument"
        );
    }

    #[test]
    fn long_inputs_are_cut_in_the_middle() {
        assert_eq!(shown("x".repeat(50)), "x".repeat(50));
        let s = shown(format!("'{}'", "a".repeat(60)));
        assert_eq!(s, format!("'{}...{}'", "a".repeat(24), "a".repeat(23)));
    }
}
