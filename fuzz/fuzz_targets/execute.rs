//! Executes random queries on a small graph under tight limits. The input drives a
//! grammar-aware generator (clauses, patterns and expressions of the kinds models write,
//! hostile ones included: deep nesting, huge ranges, doubling strings, variable-length paths),
//! then byte-level mutations of the generated text. Whatever happens, grape must not panic,
//! overflow its stack or outgrow its memory budget: a counting allocator measures the most
//! bytes live while each query runs, and more than `PEAK_FACTOR` times the budget fails the
//! run; a failed statement must leave the graph as it was.
#![no_main]

use grape::engine::{run_with, Limits, Options, Params};
use grape::graph::Graph;
use grape::value::Value;
use libfuzzer_sys::fuzz_target;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The memory budget the queries run with.
const BUDGET: usize = 64 << 20;
/// The budget is an estimate: live bytes may exceed it by this factor, no more.
const PEAK_FACTOR: usize = 4;

/// The system allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            LIVE.fetch_sub(l.size(), Ordering::Relaxed);
            grew(new);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Choices read from the fuzzer's bytes; zeros once they run out (so every input is a query).
struct Gen<'a> {
    bytes: &'a [u8],
    pos: usize,
    out: String,
}

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn pick(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }
    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }
    fn int(&mut self) {
        let s = match self.pick(8) {
            0 => "0".to_string(),
            1 => "-1".to_string(),
            2 => "1000000".to_string(),
            3 => "9223372036854775807".to_string(),
            4 => "12000".to_string(),
            _ => (self.byte() as i64 - 20).to_string(),
        };
        self.w(&s);
    }
    fn var(&mut self) {
        let v = ["n", "m", "r", "x", "y", "l", "p", "acc"][self.pick(8)];
        self.w(v);
    }
    fn label(&mut self) {
        let l = ["Person", "City", "Missing", "`odd label`"][self.pick(4)];
        self.w(l);
    }
    fn key(&mut self) {
        let k = ["name", "age", "tags", "since", "nope"][self.pick(5)];
        self.w(k);
    }

    fn expr(&mut self, depth: u32) {
        if depth == 0 {
            return self.atom();
        }
        let d = depth - 1;
        match self.pick(24) {
            0..=5 => self.atom(),
            6 => {
                self.expr(d);
                let op = [" + ", " - ", " * ", " / ", " % ", " ^ "][self.pick(6)];
                self.w(op);
                self.expr(d);
            }
            7 => {
                self.expr(d);
                let op = [" = ", " <> ", " < ", " >= ", " =~ ", " STARTS WITH ", " IN "][self.pick(7)];
                self.w(op);
                self.expr(d);
            }
            8 => {
                self.expr(d);
                let op = [" AND ", " OR ", " XOR "][self.pick(3)];
                self.w(op);
                self.w("NOT ");
                self.expr(d);
            }
            9 => {
                self.w("[");
                let n = self.pick(4);
                for i in 0..n {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.expr(d);
                }
                self.w("]");
            }
            10 => {
                self.w("{a: ");
                self.expr(d);
                self.w(", b: ");
                self.expr(d);
                self.w("}");
            }
            11 => {
                self.w("[x IN ");
                self.expr(d);
                self.w(" WHERE ");
                self.expr(d);
                self.w(" | ");
                self.expr(d);
                self.w("]");
            }
            12 => {
                self.w("reduce(acc = ");
                self.expr(d);
                self.w(", x IN ");
                self.expr(d);
                self.w(" | ");
                match self.pick(3) {
                    0 => self.w("acc + acc"),
                    1 => self.w("[acc]"),
                    _ => self.expr(d),
                }
                self.w(")");
            }
            13 => {
                let q = ["any", "all", "none", "single"][self.pick(4)];
                self.w(q);
                self.w("(y IN ");
                self.expr(d);
                self.w(" WHERE ");
                self.expr(d);
                self.w(")");
            }
            14 => {
                self.w("CASE WHEN ");
                self.expr(d);
                self.w(" THEN ");
                self.expr(d);
                self.w(" ELSE ");
                self.expr(d);
                self.w(" END");
            }
            15 => {
                self.w("range(");
                self.expr(d);
                self.w(", ");
                self.expr(d);
                self.w(")");
            }
            16..=19 => {
                let f = [
                    "size", "toString", "toInteger", "head", "last", "reverse", "keys",
                    "labels", "id", "elementId", "properties", "coalesce", "toUpper",
                    "split", "replace", "substring", "abs", "sqrt", "nodes", "length",
                    "collect", "count", "sum", "avg", "min", "max", "exists", "type",
                    "apoc.coll.flatten", "foo.bar", "date", "datetime", "duration",
                ][self.pick(33)];
                self.w(f);
                self.w("(");
                let n = self.pick(4);
                for i in 0..n {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.expr(d);
                }
                self.w(")");
            }
            20 => {
                self.w("EXISTS { ");
                self.pattern();
                self.w(" }");
            }
            21 => {
                self.w("COUNT { ");
                self.pattern();
                self.w(" }");
            }
            22 => {
                self.w("[");
                self.pattern();
                self.w(" | ");
                self.expr(d);
                self.w("]");
            }
            _ => {
                self.expr(d);
                self.w("[");
                self.expr(d);
                self.w("..");
                self.expr(d);
                self.w("]");
            }
        }
    }

    fn atom(&mut self) {
        match self.pick(10) {
            0 | 1 => self.int(),
            2 => self.w("null"),
            3 => self.w("'ab'"),
            4 => self.w("1.5"),
            5 => self.w("true"),
            6 => self.w("$p"),
            7 => {
                self.var();
                self.w(".");
                self.key();
            }
            _ => self.var(),
        }
    }

    fn node(&mut self) {
        self.w("(");
        if self.pick(3) != 0 {
            self.var();
        }
        if self.pick(2) == 0 {
            self.w(":");
            self.label();
        }
        if self.pick(4) == 0 {
            self.w(" {");
            self.key();
            self.w(": ");
            self.expr(1);
            self.w("}");
        }
        self.w(")");
    }

    fn pattern(&mut self) {
        if self.pick(4) == 0 {
            self.w("p = ");
        }
        self.node();
        let hops = self.pick(3);
        for _ in 0..hops {
            let (l, r) = [("-", "->"), ("<-", "-"), ("-", "-")][self.pick(3)];
            self.w(l);
            self.w("[");
            if self.pick(2) == 0 {
                self.w("r");
            }
            if self.pick(2) == 0 {
                self.w(":KNOWS|LIVES_IN");
            }
            match self.pick(5) {
                0 => self.w("*"),
                1 => self.w("*1..100"),
                2 => self.w("*0..3"),
                _ => {}
            }
            self.w("]");
            self.w(r);
            self.node();
        }
    }

    fn projection(&mut self) {
        let n = 1 + self.pick(3);
        for i in 0..n {
            if i > 0 {
                self.w(", ");
            }
            if self.pick(8) == 0 {
                self.w("*");
            } else {
                self.expr(4);
                self.w(" AS ");
                self.var();
            }
        }
        if self.pick(3) == 0 {
            self.w(" ORDER BY ");
            self.expr(2);
        }
        if self.pick(4) == 0 {
            self.w(" SKIP ");
            self.int();
        }
        if self.pick(4) == 0 {
            self.w(" LIMIT ");
            self.int();
        }
    }

    fn clause(&mut self) {
        match self.pick(16) {
            0..=3 => {
                if self.pick(3) == 0 {
                    self.w("OPTIONAL ");
                }
                self.w("MATCH ");
                self.pattern();
                if self.pick(2) == 0 {
                    self.w(" WHERE ");
                    self.expr(3);
                }
            }
            4 | 5 => {
                self.w("WITH ");
                self.projection();
                if self.pick(3) == 0 {
                    self.w(" WHERE ");
                    self.expr(3);
                }
            }
            6 | 7 => {
                self.w("UNWIND ");
                self.expr(4);
                self.w(" AS ");
                self.var();
            }
            8 => {
                self.w("CREATE ");
                self.pattern();
            }
            9 => {
                self.w("MERGE ");
                self.node();
            }
            10 => {
                self.w("SET ");
                self.var();
                self.w(".");
                self.key();
                self.w(" = ");
                self.expr(3);
            }
            11 => {
                if self.pick(2) == 0 {
                    self.w("DETACH ");
                }
                self.w("DELETE ");
                self.var();
            }
            12 => {
                self.w("CALL { ");
                self.clause();
                self.w(" RETURN ");
                self.projection();
                self.w(" }");
            }
            13 => {
                self.w("FOREACH (x IN ");
                self.expr(3);
                self.w(" | CREATE (:Person {age: x}))");
            }
            14 => {
                self.w("LOAD CSV FROM 'file:///etc/passwd' AS l");
            }
            _ => {
                self.w("REMOVE ");
                self.var();
                self.w(":");
                self.label();
            }
        }
    }

    fn query(&mut self) {
        let n = self.pick(5);
        for _ in 0..n {
            self.clause();
            self.w(" ");
        }
        if self.pick(6) != 0 {
            self.w("RETURN ");
            if self.pick(5) == 0 {
                self.w("DISTINCT ");
            }
            self.projection();
        }
        if self.pick(10) == 0 {
            self.w(" UNION RETURN 1 AS x");
        }
    }

    /// Byte-level mutations of the generated text, driven by the remaining input.
    fn mutate(&mut self) {
        let n = self.pick(4);
        for _ in 0..n {
            if self.out.is_empty() {
                return;
            }
            let len = self.out.len();
            let at = (self.byte() as usize * 7 + self.byte() as usize) % len;
            if !self.out.is_char_boundary(at) {
                continue;
            }
            match self.pick(4) {
                0 => {
                    let end = (at + 1 + self.pick(8)).min(len);
                    if self.out.is_char_boundary(end) {
                        self.out.replace_range(at..end, "");
                    }
                }
                1 => {
                    let tok = ["(", ")", "[", "]", "{", "}", ",", "'", "\"", "`", "*", "..", " "]
                        [self.pick(13)];
                    self.out.insert_str(at, tok);
                }
                2 => {
                    let end = (at + 1 + self.pick(16)).min(len);
                    if self.out.is_char_boundary(end) {
                        let dup = self.out[at..end].to_string();
                        self.out.insert_str(at, &dup);
                    }
                }
                _ => {
                    let b = self.byte();
                    if b.is_ascii() {
                        self.out.insert(at, b as char);
                    }
                }
            }
        }
    }
}

fn small_graph() -> Graph {
    let mut g = Graph::new();
    let mut people = Vec::new();
    for i in 0..6i64 {
        people.push(g.add_node(
            &["Person"],
            vec![
                ("name", Value::from(format!("p{i}"))),
                ("age", Value::Int(20 + i)),
                ("tags", Value::List(vec![Value::from("a"), Value::Int(i)])),
            ],
        ));
    }
    let city = g.add_node(&["City"], vec![("name", Value::from("Oslo"))]);
    for i in 0..people.len() {
        for j in 0..people.len() {
            if i != j && (i + j) % 3 == 0 {
                g.add_relationship(people[i], people[j], "KNOWS", vec![("since", Value::Int(2000))]);
            }
        }
        g.add_relationship(people[i], city, "LIVES_IN", vec![]);
    }
    g
}

fuzz_target!(|data: &[u8]| {
    // The first byte chooses: raw text (pure mutation) or generation plus mutation.
    let (mode, rest) = match data.split_first() {
        Some((m, r)) => (*m, r),
        None => return,
    };
    let query = if mode % 4 == 0 {
        match std::str::from_utf8(rest) {
            Ok(t) => t.to_string(),
            Err(_) => return,
        }
    } else {
        let mut g = Gen {
            bytes: rest,
            pos: 0,
            out: String::new(),
        };
        g.query();
        g.mutate();
        g.out
    };
    let mut graph = small_graph();
    let before = (graph.node_count(), graph.relationship_count());
    let opts = Options {
        limits: Limits {
            timeout: Some(Duration::from_millis(200)),
            max_rows: 10_000,
            max_intermediate_rows: 100_000,
            max_var_length: 12,
            max_memory: Some(BUDGET),
        },
        ..Options::default()
    };
    let mut params = Params::new();
    params.insert("p".into(), Value::List(vec![Value::Int(1), Value::Null]));
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let result = run_with(&mut graph, &query, &params, &opts);
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    assert!(
        peak <= PEAK_FACTOR * BUDGET,
        "{peak} bytes live at once under a {BUDGET}-byte budget: {query}"
    );
    match result {
        Ok(table) => {
            // Encoding the result must not fail or recurse without bound either.
            let _ = serde_json::to_string(&table.to_json());
        }
        Err(e) => {
            assert!(!e.code().is_empty(), "an error without a code: {e}");
            // A failed statement leaves the graph as it was.
            assert_eq!(
                (graph.node_count(), graph.relationship_count()),
                before,
                "a failed statement changed the graph: {query}"
            );
        }
    }
});
