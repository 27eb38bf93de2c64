//! APOC's conversions (`apoc.convert.*`, `apoc.json.*`, Cypher literals) and math (`apoc.math.*`).

use super::*;

/// A value as Cypher literal text (`apoc.text.toCypher`).
pub(super) fn to_cypher(run: &Runner, v: &Value) -> Result<String> {
    Ok(match v {
        Value::Null => "null".into(),
        Value::String(s) => {
            let mut out = String::new();
            crate::syntax::write_string_literal(&mut out, s);
            out
        }
        Value::List(xs) => format!(
            "[{}]",
            xs.iter()
                .map(|x| to_cypher(run, x))
                .collect::<Result<Vec<_>>>()?
                .join(",")
        ),
        // (APOC writes lists and maps without spaces: `{a:1,b:'x'}`.)
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, x)| Ok(format!("{}:{}", cypher_key(k), to_cypher(run, x)?)))
                .collect::<Result<Vec<_>>>()?
                .join(",")
        ),
        Value::Node(nid) => {
            let labels: String = run
                .graph()
                .labels(*nid)
                .iter()
                .map(|l| format!(":{}", cypher_key(l)))
                .collect();
            let props = to_cypher(run, &Value::Map(run.java_properties(v)?))?;
            if props == "{}" {
                format!("({labels})")
            } else {
                format!("({labels} {props})")
            }
        }
        other => other.to_string(),
    })
}

pub(super) fn cypher_key(k: &str) -> String {
    let plain = k
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && k.chars().all(|c| c.is_alphanumeric() || c == '_');
    if plain {
        k.to_string()
    } else {
        format!("`{}`", k.replace('`', "``"))
    }
}

family! {
    /// The `apoc.math.*` functions.
    MathFn {
        "apoc.math.cosh" => Cosh,
        "apoc.math.coth" => Coth,
        "apoc.math.csch" => Csch,
        "apoc.math.maxbyte" => MaxByte,
        "apoc.math.maxdouble" => MaxDouble,
        "apoc.math.maxint" => MaxInt,
        "apoc.math.maxlong" => MaxLong,
        "apoc.math.minbyte" => MinByte,
        "apoc.math.mindouble" => MinDouble,
        "apoc.math.minint" => MinInt,
        "apoc.math.minlong" => MinLong,
        "apoc.math.sech" => Sech,
        "apoc.math.sigmoid" => Sigmoid,
        "apoc.math.sigmoidprime" => SigmoidPrime,
        "apoc.math.sinh" => Sinh,
        "apoc.math.tanh" => Tanh,
    }
}

pub(super) fn math(n: &str, f: MathFn, args: &[Value]) -> Result<Value> {
    let c = |v: f64| Ok(Value::Float(v));
    let i = |v: i64| Ok(Value::Int(v));
    match f {
        MathFn::MaxByte => return i(127),
        MathFn::MinByte => return i(-128),
        MathFn::MaxInt => return i(i64::from(i32::MAX)),
        MathFn::MinInt => return i(i64::from(i32::MIN)),
        MathFn::MaxLong => return i(i64::MAX),
        MathFn::MinLong => return i(i64::MIN),
        MathFn::MaxDouble => return c(f64::MAX),
        // Java's Double.MIN_VALUE: the smallest positive double.
        MathFn::MinDouble => return c(f64::from_bits(1)),
        _ => {}
    }
    let Some(x) = num(n, arg(args, 0))? else {
        return Ok(Value::Null);
    };
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    // APOC's formulas from `exp` (so `tanh(1e308)` is ∞/∞, NaN), and `Double.equals(0.0)`,
    // which only +0.0 meets, for a null cotangent or cosecant.
    let (sinh, cosh) = ((x.exp() - (-x).exp()) / 2.0, (x.exp() + (-x).exp()) / 2.0);
    let positive_zero = x.to_bits() == 0;
    c(match f {
        MathFn::Cosh => cosh,
        MathFn::Sinh => sinh,
        MathFn::Tanh => sinh / cosh,
        MathFn::Coth if positive_zero => return Ok(Value::Null),
        MathFn::Coth => cosh / sinh,
        MathFn::Sech => 1.0 / cosh,
        MathFn::Csch if positive_zero => return Ok(Value::Null),
        MathFn::Csch => 1.0 / sinh,
        MathFn::Sigmoid => sigmoid(x),
        MathFn::SigmoidPrime => sigmoid(x) * (1.0 - sigmoid(x)),
        _ => return Err(ExecError::unsupported(n)),
    })
}

/// JSON text of a value as APOC writes it (nodes as `{id, type: "node", labels, properties}`).
pub(super) fn to_json(run: &Runner, v: &Value) -> Result<serde_json::Value> {
    use serde_json::{json, Value as J};
    Ok(match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => json!(i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.to_string()),
        // Jackson writes a byte array as base-64 text.
        Value::Bytes(b) => J::String(super::text::base64_encode(b, super::text::B64, true)),
        Value::List(xs) => J::Array(
            xs.iter()
                .map(|x| crate::stack::deeper(|| to_json(run, x)))
                .collect::<Result<_>>()?,
        ),
        Value::Map(m) => J::Object(
            m.iter()
                .map(|(k, x)| Ok((k.to_string(), crate::stack::deeper(|| to_json(run, x))?)))
                .collect::<Result<_>>()?,
        ),
        Value::Node(nid) => {
            let mut o = serde_json::Map::new();
            o.insert("id".into(), J::String(nid.0.to_string()));
            o.insert("type".into(), J::String("node".into()));
            let labels = run.node_labels(*nid);
            if !labels.is_empty() {
                o.insert(
                    "labels".into(),
                    J::Array(labels.iter().map(|l| J::String(l.to_string())).collect()),
                );
            }
            let props = run.java_properties(v)?;
            if !props.is_empty() {
                o.insert("properties".into(), to_json(run, &Value::Map(props))?);
            }
            J::Object(o)
        }
        Value::Relationship(r) => {
            let mut o = serde_json::Map::new();
            o.insert("id".into(), J::String(r.0.to_string()));
            o.insert("type".into(), J::String("relationship".into()));
            o.insert(
                "label".into(),
                J::String(run.rel_type(*r).map(|t| t.to_string()).unwrap_or_default()),
            );
            let props = run.java_properties(v)?;
            if !props.is_empty() {
                o.insert("properties".into(), to_json(run, &Value::Map(props))?);
            }
            if let Some((s, e)) = run.rel_endpoints(*r) {
                o.insert("start".into(), to_json(run, &Value::Node(s))?);
                o.insert("end".into(), to_json(run, &Value::Node(e))?);
            }
            J::Object(o)
        }
        Value::Path(p) => {
            let mut items = Vec::new();
            for (i, nid) in p.nodes.iter().enumerate() {
                if i > 0 {
                    items.push(to_json(run, &Value::Relationship(p.rels[i - 1]))?);
                }
                items.push(to_json(run, &Value::Node(*nid))?);
            }
            J::Array(items)
        }
        Value::Temporal(t) => J::String(t.to_string()),
        Value::Point(p) => {
            let mut o = serde_json::Map::new();
            o.insert("crs".into(), J::String(p.crs.name().into()));
            for (k, c) in ["x", "y", "z"].into_iter().zip(p.coordinates()) {
                o.insert(k.into(), json!(c));
            }
            J::Object(o)
        }
    })
}

family! {
    /// The `apoc.convert.*` functions.
    ConvertFn {
        "apoc.convert.fromjsonlist" => FromJsonList,
        "apoc.convert.fromjsonmap" => FromJsonMap,
        "apoc.convert.tojson" => ToJson,
        "apoc.convert.tolist" => ToList,
        "apoc.convert.tomap" => ToMap,
        "apoc.convert.tonode" => ToNode,
        "apoc.convert.tonodelist" => ToNodeList,
        "apoc.convert.torelationship" => ToRelationship,
        "apoc.convert.torelationshiplist" => ToRelationshipList,
        "apoc.convert.toset" => ToSet,
        "apoc.convert.tosortedjsonmap" => ToSortedJsonMap,
    }
}

pub(super) fn convert(run: &Runner, n: &str, f: ConvertFn, args: &[Value]) -> Result<Value> {
    let a0 = arg(args, 0);
    Ok(match f {
        ConvertFn::ToJson => {
            let j = to_json(run, a0)?;
            Value::from(j.to_string())
        }
        ConvertFn::ToSortedJsonMap => {
            if !matches!(a0, Value::Map(_) | Value::Node(_)) {
                return Err(failed(
                    n,
                    "java.lang.IllegalArgumentException: input value must be a Node or a map",
                ));
            }
            // A node is its properties; serde_json's maps keep keys sorted.
            let props = match a0 {
                Value::Node(_) => Value::Map(run.java_properties(a0)?),
                other => other.clone(),
            };
            let j = to_json(run, &props)?;
            Value::from(j.to_string())
        }
        ConvertFn::FromJsonList | ConvertFn::FromJsonMap => {
            let Some(s) = text(n, a0)? else {
                return Ok(Value::Null);
            };
            if s.is_empty() {
                return Ok(Value::Null);
            }
            let path = text(n, arg(args, 1))?.unwrap_or("");
            let opts =
                super::json_path::Options::from_value(arg(args, 2)).map_err(|e| failed(n, e))?;
            let want = if f == ConvertFn::FromJsonList {
                super::json_path::Want::List
            } else {
                super::json_path::Want::Map
            };
            run.sh.can_allocate(s.len().saturating_mul(4))?;
            super::json_path::parse(s, path, want, opts).map_err(|e| failed(n, e))?
        }
        ConvertFn::ToList => match a0 {
            Value::Null => Value::Null,
            Value::List(_) => a0.clone(),
            Value::Path(p) => {
                let mut items = Vec::new();
                for (i, nid) in p.nodes.iter().enumerate() {
                    if i > 0 {
                        items.push(Value::Relationship(p.rels[i - 1]));
                    }
                    items.push(Value::Node(*nid));
                }
                Value::List(items)
            }
            other => Value::List(vec![other.clone()]),
        },
        ConvertFn::ToSet => match a0 {
            Value::Null => Value::Null,
            Value::List(xs) => Value::List(distinct(xs)),
            other => Value::List(vec![other.clone()]),
        },
        ConvertFn::ToMap => match a0 {
            Value::Null => Value::Null,
            Value::Map(_) => a0.clone(),
            Value::Node(_) | Value::Relationship(_) => Value::Map(run.java_properties(a0)?),
            // APOC converts nothing else: null.
            _ => Value::Null,
        },
        ConvertFn::ToNode => match a0 {
            Value::Node(_) | Value::Null => a0.clone(),
            _ => Value::Null,
        },
        ConvertFn::ToRelationship => match a0 {
            Value::Relationship(_) | Value::Null => a0.clone(),
            _ => Value::Null,
        },
        ConvertFn::ToNodeList | ConvertFn::ToRelationshipList => {
            // Each element through `toNode` / `toRelationship`: an entity of the kind stays,
            // anything else becomes null; a single value is a list of one.
            let keep = |x: &Value| match (f, x) {
                (ConvertFn::ToNodeList, Value::Node(_))
                | (ConvertFn::ToRelationshipList, Value::Relationship(_)) => x.clone(),
                _ => Value::Null,
            };
            match a0 {
                Value::Null => Value::Null,
                Value::List(xs) => Value::List(xs.iter().map(keep).collect()),
                other => Value::List(vec![keep(other)]),
            }
        }
    })
}
