//! Properties of deeply nested values, up to [`MAX_NESTING`]: measuring, comparing, hashing,
//! printing, JSON and PackStream encoding and dropping them never overflow the stack of a
//! server thread (2 MiB), and give the same answers as for shallow values.

use grape::engine::Table;
use grape::graph::import::value_to_json;
use grape::value::{equivalent, footprint, GroupKey, Value, MAX_NESTING};
use proptest::prelude::*;
use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One level of nesting: a list or a map, with a few scalar siblings of the level below.
#[derive(Clone, Debug)]
struct Level {
    map: bool,
    key: String,
    siblings: Vec<i64>,
}

fn level() -> impl Strategy<Value = Level> {
    (
        any::<bool>(),
        "[a-z]{1,3}",
        prop::collection::vec(-5i64..5, 0..3),
    )
        .prop_map(|(map, key, siblings)| Level { map, key, siblings })
}

/// Builds the value bottom-up (no recursion), with `leaf` at the bottom.
fn build(levels: &[Level], leaf: Value) -> Value {
    let mut v = leaf;
    for l in levels.iter().rev() {
        v = if l.map {
            let mut m = BTreeMap::new();
            for (i, s) in l.siblings.iter().enumerate() {
                m.insert(
                    Arc::from(format!("{}{i}", l.key.to_uppercase())),
                    Value::Int(*s),
                );
            }
            m.insert(Arc::from(l.key.as_str()), v);
            Value::Map(m)
        } else {
            let mut items: Vec<Value> = l.siblings.iter().map(|s| Value::Int(*s)).collect();
            items.push(v);
            Value::List(items)
        };
    }
    v
}

fn hash(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    GroupKey(v.clone()).hash(&mut h);
    h.finish()
}

/// Runs `f` on a thread with a server thread's stack.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn deep_values_measure_compare_hash_print_and_encode(
        levels in prop::collection::vec(level(), 1..=MAX_NESTING),
        leaf in -1000i64..1000,
    ) {
        on_small_stack(move || {
            let depth = levels.len();
            let v = build(&levels, Value::Int(leaf));
            let same = build(&levels, Value::Int(leaf));
            let other = build(&levels, Value::Int(leaf + 1));
            // The measure stops at the bound, and finds the depth within it.
            let fp = footprint(&v, MAX_NESTING).expect("within the bound");
            assert_eq!(fp.depth, depth);
            assert!(footprint(&v, depth - 1).is_none());
            assert!(fp.bytes >= depth * std::mem::size_of::<Value>());
            // Equality, ordering, equivalence and hashing agree with each other.
            assert_eq!(v.equals(&same), Some(true));
            assert_eq!(v.equals(&other), Some(false));
            assert_eq!(v.order(&same), std::cmp::Ordering::Equal);
            assert_eq!(v.order(&other), std::cmp::Ordering::Less);
            assert_eq!(other.order(&v), std::cmp::Ordering::Greater);
            assert!(equivalent(&v, &same));
            assert!(!equivalent(&v, &other));
            assert_eq!(hash(&v), hash(&same));
            // Printing shows every level.
            let text = v.to_string();
            let opened = text.chars().filter(|c| matches!(c, '[' | '{')).count();
            assert_eq!(opened, depth);
            // JSON keeps the structure.
            let json = value_to_json(&v, &Table::default());
            let mut d = 0;
            let mut j = &json;
            loop {
                match j {
                    serde_json::Value::Array(a) => j = a.last().unwrap(),
                    serde_json::Value::Object(o) => {
                        j = &o[levels[d].key.as_str()];
                    }
                    _ => break,
                }
                d += 1;
            }
            assert_eq!(d, depth);
            assert_eq!(j.as_i64(), Some(leaf));
            drop(json);
            packstream(&v, depth);
            // Dropping (here, at the end) must not overflow either.
        });
    }
}

#[cfg(feature = "bolt")]
fn packstream(v: &Value, depth: usize) {
    use grape::bolt::convert::{from_ps, to_ps, Dialect};
    use grape::bolt::packstream::{decode_all, encode};
    let dialect = Dialect {
        element_ids: true,
        utc_datetimes: true,
    };
    let ps = to_ps(v, &Table::default(), dialect);
    let mut bytes = Vec::new();
    encode(&ps, &mut bytes);
    // The decoder is bounded more tightly than values are: deeper input is an error.
    match decode_all(&bytes) {
        Ok(back) => {
            let back = from_ps(&back).unwrap();
            assert_eq!(back.equals(v), Some(true), "depth {depth}");
        }
        Err(e) => assert!(depth > 100, "depth {depth}: {e:?}"),
    }
}

#[cfg(not(feature = "bolt"))]
fn packstream(_v: &Value, _depth: usize) {}
