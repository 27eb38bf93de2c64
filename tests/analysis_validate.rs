//! Validation against real schemas: ZOGRASCOPE's gold queries under POLE's schema, mutations.

mod common;

use grape::analysis::{DiagnosticKind, Validator};
use grape::schema::{Schema, SchemaFormat};
use std::path::Path;

fn pole_schema(shared: &Path) -> Schema {
    Schema::read_path(
        &shared.join("data/pole/neo4j_importer_model.json"),
        Some(SchemaFormat::Importer),
    )
    .expect("POLE schema")
}

#[test]
fn zograscope_gold_queries_are_kg_valid_under_pole() {
    let Some(shared) = common::shared_dir("zograscope_gold_queries_are_kg_valid_under_pole") else {
        return;
    };
    let schema = pole_schema(&shared);
    let v = Validator::new(&schema);
    let corpus = common::zograscope(&shared);
    let mut bad = 0;
    for (id, q) in &corpus {
        let r = v.validate(q);
        if !r.kg_valid || !r.diagnostics.is_empty() {
            bad += 1;
            if bad < 20 {
                eprintln!("--- {id}\n{q}\n{:#?}", r);
            }
        }
    }
    println!(
        "ZOGRASCOPE under POLE: {} of {} KG-valid with zero diagnostics",
        corpus.len() - bad,
        corpus.len()
    );
    assert_eq!(bad, 0);
}

// ---------------------------------------------------------------------------------------------
// Mutations of the gold queries, located on the AST.

use grape::syntax::ast::*;
use std::collections::BTreeMap;

#[derive(Default)]
struct Found {
    labels: Vec<Ident>,
    types: Vec<Ident>,
    /// (variable, key)
    accesses: Vec<(String, Ident)>,
    var_labels: BTreeMap<String, String>,
}

fn collect_expr(e: &Expr, f: &mut Found) {
    match &e.kind {
        ExprKind::Property { expr, key } => {
            if let ExprKind::Variable(v) = &expr.kind {
                f.accesses.push((v.name.clone(), key.clone()));
            }
            collect_expr(expr, f);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            collect_expr(lhs, f);
            collect_expr(rhs, f);
        }
        ExprKind::Comparison { first, rest } => {
            collect_expr(first, f);
            for (_, x) in rest {
                collect_expr(x, f);
            }
        }
        ExprKind::Unary { expr, .. } | ExprKind::IsNull { expr, .. } => collect_expr(expr, f),
        ExprKind::FunctionCall { args, .. } => args.iter().for_each(|a| collect_expr(a, f)),
        ExprKind::List(xs) => xs.iter().for_each(|a| collect_expr(a, f)),
        _ => {}
    }
}

fn collect(stmt: &Statement) -> Found {
    let mut f = Found::default();
    for c in &stmt.query.first.clauses {
        match c {
            Clause::Match(m) => {
                for part in &m.pattern {
                    for el in &part.path.chain().elements {
                        match el {
                            PathElement::Node(n) => {
                                if let Some(LabelExpr::Name(l)) = &n.labels {
                                    f.labels.push(l.clone());
                                    if let Some(v) = &n.variable {
                                        f.var_labels.insert(v.name.clone(), l.name.clone());
                                    }
                                }
                                if let Some(w) = &n.where_ {
                                    collect_expr(w, &mut f);
                                }
                            }
                            PathElement::Relationship(r) => {
                                if let Some(LabelExpr::Name(t)) = &r.types {
                                    f.types.push(t.clone());
                                }
                            }
                            PathElement::Group(_) => {}
                        }
                    }
                }
                if let Some(w) = &m.where_ {
                    collect_expr(w, &mut f);
                }
            }
            Clause::With(w) => {
                for i in &w.projection.items {
                    collect_expr(&i.expr, &mut f);
                }
            }
            Clause::Return(r) => {
                for i in &r.projection.items {
                    collect_expr(&i.expr, &mut f);
                }
                for s in &r.projection.order_by {
                    collect_expr(&s.expr, &mut f);
                }
            }
            _ => {}
        }
    }
    f
}

fn replace(q: &str, span: Span, with: &str) -> String {
    format!("{}{}{}", &q[..span.start], with, &q[span.end..])
}

/// Validates `mutated` and checks it has exactly one diagnostic, of `kind`, at `at`.
fn expect_one(
    v: &Validator,
    mutated: &str,
    kind: DiagnosticKind,
    at: usize,
    what: &str,
) -> Result<(), String> {
    let r = v.validate(mutated);
    let ok = r.diagnostics.len() == 1
        && r.diagnostics[0].kind == kind
        && r.diagnostics[0].span.start == at
        && !r.kg_valid;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what}: expected one {kind:?} at byte {at}\n{mutated}\n{:#?}",
            r.diagnostics
        ))
    }
}

#[test]
fn every_single_mutation_of_the_gold_queries_is_flagged_at_its_span() {
    let Some(shared) =
        common::shared_dir("every_single_mutation_of_the_gold_queries_is_flagged_at_its_span")
    else {
        return;
    };
    let schema = pole_schema(&shared);
    let v = Validator::new(&schema);
    let corpus = common::zograscope(&shared);
    let mut failures = Vec::new();
    let mut counts = [0usize; 4];
    for (id, q) in &corpus {
        let stmt = grape::parse(q).unwrap();
        let f = collect(&stmt);
        // 1. A label that does not exist.
        if let Some(l) = f.labels.first() {
            let m = replace(q, l.span, &format!("{}x", l.name));
            counts[0] += 1;
            if let Err(e) = expect_one(&v, &m, DiagnosticKind::UnknownLabel, l.span.start, id) {
                failures.push(e);
            }
        }
        // 2. A relationship type that does not exist.
        if let Some(t) = f.types.first() {
            let m = replace(q, t.span, &format!("{}_X", t.name));
            counts[1] += 1;
            if let Err(e) = expect_one(
                &v,
                &m,
                DiagnosticKind::UnknownRelationshipType,
                t.span.start,
                id,
            ) {
                failures.push(e);
            }
        }
        if let Some((var, key)) = f.accesses.first() {
            // 3. A property key that exists nowhere.
            let m = replace(q, key.span, &format!("{}_x", key.name));
            counts[2] += 1;
            if let Err(e) = expect_one(
                &v,
                &m,
                DiagnosticKind::UnknownPropertyKey,
                key.span.start,
                id,
            ) {
                failures.push(e);
            }
            // 4. A key that exists, but only on other labels.
            if let Some(label) = f.var_labels.get(var) {
                let other = schema
                    .property_keys()
                    .into_iter()
                    .find(|k| {
                        schema.node_property(label, k).is_none()
                            && schema
                                .labels
                                .values()
                                .any(|e| e.properties.contains_key(*k))
                    })
                    .unwrap();
                let m = replace(q, key.span, other);
                counts[3] += 1;
                if let Err(e) = expect_one(
                    &v,
                    &m,
                    DiagnosticKind::InvalidPropertyAccessByLabel,
                    key.span.start,
                    id,
                ) {
                    failures.push(e);
                }
            }
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("{f}");
    }
    println!(
        "mutations flagged: labels {}, types {}, unknown keys {}, keys of other labels {}; failures {}",
        counts[0], counts[1], counts[2], counts[3], failures.len()
    );
    assert!(counts.iter().all(|&c| c > 1000));
    assert!(
        failures.is_empty(),
        "{} mutations not flagged right",
        failures.len()
    );
}

#[test]
fn each_pole_triple_directed_right_is_clean_and_reversed_is_wrong_direction() {
    let Some(shared) = common::shared_dir(
        "each_pole_triple_directed_right_is_clean_and_reversed_is_wrong_direction",
    ) else {
        return;
    };
    let schema = pole_schema(&shared);
    let v = Validator::new(&schema);
    assert_eq!(
        schema.triples.len(),
        18,
        "POLE's 17 types, INVOLVED_IN twice"
    );
    for t in &schema.triples {
        let right = format!(
            "MATCH (a:{})-[r:{}]->(b:{}) RETURN a, r, b",
            t.start, t.rel_type, t.end
        );
        let r = v.validate(&right);
        assert!(
            r.kg_valid && r.diagnostics.is_empty(),
            "{right}: {:#?}",
            r.diagnostics
        );
        let left = format!(
            "MATCH (b:{})<-[r:{}]-(a:{}) RETURN a, r, b",
            t.end, t.rel_type, t.start
        );
        let r = v.validate(&left);
        assert!(
            r.kg_valid && r.diagnostics.is_empty(),
            "{left}: {:#?}",
            r.diagnostics
        );
        let reversed = format!(
            "MATCH (a:{})<-[r:{}]-(b:{}) RETURN a, r, b",
            t.start, t.rel_type, t.end
        );
        let r = v.validate(&reversed);
        if schema.has_triple(&t.end, &t.rel_type, &t.start) {
            // Person-[:KNOWS]->Person and the like: both ways exist.
            assert!(r.diagnostics.is_empty(), "{reversed}: {:#?}", r.diagnostics);
        } else {
            assert_eq!(r.diagnostics.len(), 1, "{reversed}: {:#?}", r.diagnostics);
            let d = &r.diagnostics[0];
            assert_eq!(d.kind, DiagnosticKind::WrongDirection, "{reversed}");
            assert_eq!(d.code, "WrongDirectionPathWarning");
            let rel_at = reversed.find("<-[").unwrap();
            assert_eq!((d.span.start, d.line, d.column), (rel_at, 1, rel_at + 1));
            assert!(
                d.message.contains(&format!("-[r:{}]->", t.rel_type)),
                "{}",
                d.message
            );
            assert!(!r.kg_valid);
            assert!((r.schema_score - 2.0 / 3.0).abs() < 1e-9);
        }
    }
}

#[test]
fn involved_in_is_not_falsely_flagged_for_vehicles_or_objects() {
    let Some(shared) =
        common::shared_dir("involved_in_is_not_falsely_flagged_for_vehicles_or_objects")
    else {
        return;
    };
    let schema = pole_schema(&shared);
    let v = Validator::new(&schema);
    for q in [
        "MATCH (v:Vehicle)-[:INVOLVED_IN]->(c:Crime) RETURN v.make AS make, c.type AS type",
        "MATCH (o:Object)-[:INVOLVED_IN]->(c:Crime) RETURN o.description AS d, c.type AS type",
        "MATCH (c:Crime)<-[:INVOLVED_IN]-(o:Object) RETURN o.type AS t",
        "MATCH (c:Crime)-[:INVOLVED_IN]-(v:Vehicle) RETURN v.year AS y",
        "MATCH (x)-[:INVOLVED_IN]->(c:Crime) RETURN x.description AS d, x.make AS m",
        "MATCH (c:Crime)<-[:INVOLVED_IN]-(o:Object), (c)<-[:INVOLVED_IN]-(v:Vehicle) RETURN o.id AS o, v.reg AS v",
    ] {
        let r = v.validate(q);
        assert!(r.kg_valid && r.diagnostics.is_empty(), "{q}: {:#?}", r.diagnostics);
    }
    for (q, kind) in [
        (
            "MATCH (c:Crime)-[:INVOLVED_IN]->(o:Object) RETURN o",
            DiagnosticKind::WrongDirection,
        ),
        (
            "MATCH (v:Vehicle)<-[:INVOLVED_IN]-(c:Crime) RETURN v",
            DiagnosticKind::WrongDirection,
        ),
        (
            "MATCH (p:Person)-[:INVOLVED_IN]->(c:Crime) RETURN p",
            DiagnosticKind::UnknownPath,
        ),
    ] {
        let r = v.validate(q);
        assert_eq!(r.diagnostics.len(), 1, "{q}: {:#?}", r.diagnostics);
        assert_eq!(r.diagnostics[0].kind, kind, "{q}");
    }
}
