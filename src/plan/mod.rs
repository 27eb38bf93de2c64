//! Query plans as data: the tree of operators a statement runs, in Neo4j's shape — the root
//! produces the results, the leaves read the graph (`NodeByLabelScan`, `NodeIndexSeek`,
//! `AllNodesScan`, `Argument`), and each operator names what it does (`details`), the
//! variables it has bound (`identifiers`), the planner's row estimate and, after `PROFILE`,
//! the rows it produced and the graph accesses it made (`db_hits`).
//!
//! The engine's planner (`engine::planner`) builds these trees; `EXPLAIN` returns one without
//! running the statement, `PROFILE` runs it and fills in the counts. This module only holds and
//! renders them: as an indented tree for people ([`Plan::render`]), as JSON, and in the shape
//! Neo4j's Bolt protocol sends (`operatorType`, `args`, `identifiers`, `children`).
//!
//! ```
//! use grape::plan::Plan;
//!
//! let scan = Plan::leaf("NodeByLabelScan", "p:Person").bind(["p"]).estimate(3.0);
//! let mut root = Plan::over("ProduceResults", "p", scan);
//! root.rows = Some(3); // as PROFILE fills it in
//! assert_eq!(
//!     root.render(),
//!     "ProduceResults  p  (est. 3, rows 3)\n└─ NodeByLabelScan  p:Person  (est. 3)\n"
//! );
//! assert_eq!(root.identifiers, ["p"]);
//! assert!(root.contains("NodeByLabelScan"));
//!
//! // The engine's planner makes them: EXPLAIN returns one and no rows.
//! let mut g = grape::graph::Graph::new();
//! let t = grape::engine::run(&mut g, "EXPLAIN MATCH (n) RETURN n", &Default::default()).unwrap();
//! assert!(t.rows.is_empty());
//! assert_eq!(t.plan.unwrap().operator, "ProduceResults");
//! ```
//!
//! # Layout
//!
//! Plans as data: `Plan` (operator, details, identifiers, estimated rows, and after PROFILE rows
//! and db hits), rendered as a tree for the CLI (`grape query --explain/--profile`), as JSON, and
//! by the Bolt server in Neo4j's shape (`plan` / `profile` in the summary, what the Python
//! driver's `summary.plan` reads). Imports nothing of grape's.

use serde::Serialize;
use std::fmt::Write as _;

/// One operator and its inputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// Neo4j's operator name: `ProduceResults`, `Expand(All)`, `NodeIndexSeek`, …
    pub operator: String,
    /// What the operator does, as Neo4j's plan descriptions print it:
    /// `(p)-[anon_0:KNOWS]->(f)`, `p:Person(name) WHERE name = 'x'`.
    pub details: String,
    /// The variables bound once the operator has run.
    pub identifiers: Vec<String>,
    /// The planner's estimate of the rows the operator produces.
    pub estimated_rows: f64,
    /// After `PROFILE`: the rows the operator produced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u64>,
    /// After `PROFILE`: nodes, relationships and properties read or written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db_hits: Option<u64>,
    pub children: Vec<Plan>,
    /// Under `PROFILE`, between planning and the end of the run: which of the executor's
    /// counters measures this operator. The plan is made before the statement runs (as
    /// Neo4j's is), and the counts are read into it afterwards ([`Plan::measure`]).
    #[serde(skip)]
    pub(crate) probe: Option<Probe>,
}

/// A counter the executor keeps under `PROFILE`, named by what it counts: a clause (by its
/// place in the statement) or one step of a pattern chain or of a projection (the pattern
/// part's or the projection's place, the step's number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Probe {
    Clause(usize),
    Step(usize, usize),
}

impl Plan {
    /// An operator without inputs.
    pub fn leaf(operator: impl Into<String>, details: impl Into<String>) -> Plan {
        Plan {
            operator: operator.into(),
            details: details.into(),
            identifiers: Vec::new(),
            estimated_rows: 1.0,
            rows: None,
            db_hits: None,
            children: Vec::new(),
            probe: None,
        }
    }

    /// The operator, reading `probe`'s counter under PROFILE.
    pub(crate) fn probed(mut self, probe: Probe) -> Plan {
        self.probe = Some(probe);
        self
    }

    /// Files the counters of the chain steps of pattern part `part` under `to(part)` instead,
    /// where `to` gives one (a plan made from a copy of a pattern, counted under the
    /// original's key).
    pub(crate) fn rekey(&mut self, to: &dyn Fn(usize) -> Option<usize>) {
        if let Some(Probe::Step(part, step)) = self.probe {
            if let Some(k) = to(part) {
                self.probe = Some(Probe::Step(k, step));
            }
        }
        for c in &mut self.children {
            c.rekey(to);
        }
    }

    /// After a `PROFILE` run: each probed operator's rows and db hits as `read` gives them
    /// for its probe; the probes are then cleared.
    pub(crate) fn measure(&mut self, read: &dyn Fn(Probe) -> (Option<u64>, Option<u64>)) {
        if let Some(p) = self.probe.take() {
            let (rows, db_hits) = read(p);
            self.rows = rows.or(self.rows);
            self.db_hits = db_hits.or(self.db_hits);
        }
        for c in &mut self.children {
            c.measure(read);
        }
    }

    /// An operator over one input; its identifiers start as the input's.
    pub fn over(operator: impl Into<String>, details: impl Into<String>, input: Plan) -> Plan {
        let mut p = Plan::leaf(operator, details);
        p.identifiers = input.identifiers.clone();
        p.estimated_rows = input.estimated_rows;
        p.children.push(input);
        p
    }

    /// Adds identifiers (kept unique, in order).
    pub fn bind<I: IntoIterator<Item = S>, S: Into<String>>(mut self, names: I) -> Plan {
        for n in names {
            let n = n.into();
            if !self.identifiers.contains(&n) {
                self.identifiers.push(n);
            }
        }
        self
    }

    pub fn estimate(mut self, rows: f64) -> Plan {
        self.estimated_rows = rows;
        self
    }

    /// Every operator, depth first, root first.
    pub fn walk(&self) -> Vec<&Plan> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(p) = stack.pop() {
            out.push(p);
            stack.extend(p.children.iter().rev());
        }
        out
    }

    /// Whether an operator named `operator` appears anywhere in the tree.
    pub fn contains(&self, operator: &str) -> bool {
        self.walk().iter().any(|p| p.operator == operator)
    }

    /// The tree's shape: operator names alone, each over its input (`A <- B`), an operator with
    /// several inputs over them in braces (`CartesianProduct { A | B }`). Two plans of one
    /// statement have one shape when they run the same operators in the same tree, whatever
    /// their details and estimates:
    ///
    /// ```
    /// use grape::plan::Plan;
    ///
    /// let scan = |v: &str| Plan::leaf("NodeByLabelScan", format!("{v}:Person"));
    /// let mut product = Plan::over("CartesianProduct", "", scan("a"));
    /// product.children.push(scan("b"));
    /// assert_eq!(
    ///     Plan::over("ProduceResults", "a, b", product).shape(),
    ///     "ProduceResults <- CartesianProduct { NodeByLabelScan | NodeByLabelScan }"
    /// );
    /// ```
    pub fn shape(&self) -> String {
        let mut out = String::new();
        // Depth is bounded by the plans' own bounds (statements' nesting, the Bolt decoder's).
        fn put(p: &Plan, out: &mut String) {
            out.push_str(&p.operator);
            match p.children.as_slice() {
                [] => {}
                [one] => {
                    out.push_str(" <- ");
                    put(one, out);
                }
                many => {
                    out.push_str(" { ");
                    for (i, c) in many.iter().enumerate() {
                        if i > 0 {
                            out.push_str(" | ");
                        }
                        put(c, out);
                    }
                    out.push_str(" }");
                }
            }
        }
        put(self, &mut out);
        out
    }

    /// The sum of the db hits of every operator (after `PROFILE`).
    pub fn total_db_hits(&self) -> u64 {
        self.walk().iter().filter_map(|p| p.db_hits).sum()
    }

    /// The tree as text, one operator per line, inputs indented below their consumer:
    ///
    /// ```text
    /// ProduceResults  f  (est. 3)
    /// └─ Expand(All)  (p)-[anon_0:KNOWS]->(f)  (est. 3)
    ///    └─ NodeIndexSeek  p:Person(name) WHERE name = 'x'  (est. 1)
    /// ```
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, "", "");
        out
    }

    fn render_into(&self, out: &mut String, first: &str, rest: &str) {
        let _ = write!(out, "{first}{}", self.operator);
        if !self.details.is_empty() {
            let _ = write!(out, "  {}", self.details);
        }
        let _ = write!(out, "  (est. {}", format_estimate(self.estimated_rows));
        if let Some(r) = self.rows {
            let _ = write!(out, ", rows {r}");
        }
        if let Some(h) = self.db_hits {
            let _ = write!(out, ", db hits {h}");
        }
        out.push_str(")\n");
        let n = self.children.len();
        for (i, c) in self.children.iter().enumerate() {
            let last = i + 1 == n;
            let (f, r) = if last {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            c.render_into(out, &format!("{rest}{f}"), &format!("{rest}{r}"));
        }
    }
}

fn format_estimate(x: f64) -> String {
    if x >= 10.0 || x.fract() == 0.0 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_tree_root_first() {
        let seek = Plan::leaf("NodeIndexSeek", "p:Person(name) WHERE name = 'x'").bind(["p"]);
        let expand = Plan::over("Expand(All)", "(p)-[anon_0:KNOWS]->(f)", seek)
            .bind(["anon_0", "f"])
            .estimate(3.0);
        let mut root = Plan::over("ProduceResults", "f", expand);
        root.rows = Some(2);
        assert_eq!(
            root.render(),
            "ProduceResults  f  (est. 3, rows 2)\n\
             └─ Expand(All)  (p)-[anon_0:KNOWS]->(f)  (est. 3)\n   \
             └─ NodeIndexSeek  p:Person(name) WHERE name = 'x'  (est. 1)\n"
        );
        assert_eq!(root.identifiers, ["p", "anon_0", "f"]);
        assert!(root.contains("NodeIndexSeek"));
        assert_eq!(root.walk().len(), 3);
        let two = Plan {
            children: vec![Plan::leaf("A", ""), Plan::leaf("B", "")],
            ..Plan::leaf("CartesianProduct", "")
        };
        assert_eq!(
            two.render(),
            "CartesianProduct  (est. 1)\n├─ A  (est. 1)\n└─ B  (est. 1)\n"
        );
    }
}
