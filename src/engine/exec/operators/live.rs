//! Which of a row's columns the clauses after a step can still read, so that a step which
//! makes many rows from each one (`UNWIND`, `MATCH`) does not copy into every new row a value
//! nothing will read again — `WITH count(*) AS total, collect(p) AS people UNWIND people AS p`
//! would otherwise copy the whole list into each of its rows, quadratic in time and memory.
//!
//! A column is read later only by its name (as an identifier anywhere in the later clauses'
//! text, subqueries included) or through a star: `RETURN *`, `WITH *`, `CALL (*)`, or those
//! inside a `CALL` subquery's body; the columns the executor hides are always kept. The test
//! is conservative: a name that merely appears (in a string, as a property key, bound again)
//! counts as read.

use crate::syntax::{Clause, Query, SingleQuery};
use std::collections::HashSet;
use std::sync::Arc;

/// The names the clauses after a step may read; `None`: all of them (a star).
pub(crate) type Live = Option<Arc<HashSet<String>>>;

/// What `later` (the clauses after a step, in `src`) may read.
pub(super) fn after(later: &[&Clause], src: &str) -> Live {
    if later.iter().any(|c| star(c)) {
        return None;
    }
    let mut names = HashSet::new();
    for c in later {
        let s = c.span();
        identifiers(src.get(s.start..s.end)?, &mut names);
    }
    Some(Arc::new(names))
}

/// Which columns of rows named `scope` to keep: those `live` may read (all when `None`), and
/// the hidden ones the executor binds (named from `\0`: LOAD CSV's file and line, which
/// `file()` and `linenumber()` read without naming them).
pub(crate) fn kept(live: &Live, scope: &[Arc<str>]) -> Option<Vec<bool>> {
    let names = live.as_ref()?;
    let keep: Vec<bool> = scope
        .iter()
        .map(|s| s.starts_with('\u{0}') || names.contains(&**s))
        .collect();
    keep.iter().any(|k| !k).then_some(keep)
}

/// `row` with the columns `keep` does not keep as nulls, then `extra`.
pub(crate) fn pruned_row(
    row: &[crate::value::Value],
    keep: &[bool],
    extra: impl IntoIterator<Item = crate::value::Value>,
) -> Vec<crate::value::Value> {
    let mut nr = Vec::with_capacity(row.len() + 1);
    nr.extend(row.iter().zip(keep).map(|(v, &k)| match k {
        true => v.clone(),
        false => crate::value::Value::Null,
    }));
    nr.extend(row.iter().skip(keep.len()).cloned());
    nr.extend(extra);
    nr
}

/// Whether a clause reads every column through a star.
fn star(c: &Clause) -> bool {
    match c {
        Clause::With(w) => w.projection.star,
        Clause::Return(r) => r.projection.star,
        Clause::CallSubquery(c) => {
            matches!(c.scope, Some(crate::syntax::SubqueryScope::All)) || query_star(&c.query)
        }
        Clause::Foreach(f) => f.clauses.iter().any(star),
        // A composed query's parts read the rows as a whole.
        Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => true,
        _ => false,
    }
}

fn query_star(q: &Query) -> bool {
    let single = |s: &SingleQuery| s.clauses.iter().any(star);
    single(&q.first) || q.unions.iter().any(|u| single(&u.query))
}

/// The identifiers in `text`: runs of letters, digits and `_`, and backquoted names.
fn identifiers(text: &str, out: &mut HashSet<String>) {
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '`' {
            // A quoted name: up to the closing backquote (a doubled one is a backquote).
            let mut name = String::new();
            while let Some((_, d)) = chars.next() {
                if d == '`' {
                    if chars.peek().is_some_and(|&(_, e)| e == '`') {
                        chars.next();
                        name.push('`');
                        continue;
                    }
                    break;
                }
                name.push(d);
            }
            out.insert(name);
        } else if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.insert(text[i..end].to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(q: &str, from: usize) -> Option<Vec<String>> {
        let stmt = crate::syntax::parse(q).unwrap();
        let clauses: Vec<&Clause> = stmt.query.first.clauses.iter().collect();
        after(&clauses[from..], q).map(|s| {
            let mut v: Vec<String> = s.iter().cloned().collect();
            v.sort();
            v
        })
    }

    #[test]
    fn names_after_a_step_are_read_and_stars_read_all() {
        let names = live(
            "MATCH (p) WITH count(*) AS total, collect(p) AS people \
             UNWIND people AS p RETURN p.name, 100 * 1.0 / total AS `share %`",
            3,
        )
        .unwrap();
        assert!(names.contains(&"total".to_string()));
        assert!(names.contains(&"share %".to_string()));
        assert!(!names.contains(&"people".to_string()));
        assert_eq!(live("UNWIND [1] AS x WITH * RETURN x", 1), None);
        assert_eq!(live("UNWIND [1] AS x RETURN *", 1), None);
        assert_eq!(
            live("UNWIND [1] AS x CALL (*) { RETURN 1 AS y } RETURN y", 1),
            None
        );
        assert_eq!(
            live("UNWIND [1] AS x CALL { WITH * RETURN 1 AS y } RETURN y", 1),
            None
        );
        // A doubled backquote inside a quoted name.
        let names = live("UNWIND [1] AS x RETURN 1 AS `a``b`", 1).unwrap();
        assert!(names.contains(&"a`b".to_string()), "{names:?}");
    }
}
