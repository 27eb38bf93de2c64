//! `UNWIND list AS x` (and Cypher 25's `FOR x IN list`): a row per item. `UNWIND range(a, b)`
//! walks the integers without building the list, as Neo4j's lazy range does; a huge range
//! then meets the row, memory and time limits row by row instead of failing up front.

use super::super::{extended_row, Access, Env, Layout, Row, Runner, Shared};
use super::{start, UNWIND_ROWS};
use crate::engine::compiled::CExpr;
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::{ExprKind, Unwind};
use crate::value::Value;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    u: &Unwind,
    after: &super::live::Live,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    // The input's columns nothing after reads (the list itself, often) are not copied into
    // each of the rows made from it.
    let keep = super::live::kept(after, scope);
    let row_of = |r: &Row, item: Value| match &keep {
        Some(keep) => super::live::pruned_row(r, keep, [item]),
        None => extended_row(r, [item]),
    };
    let mut out = Vec::new();
    let lazy_range = match &u.expr.kind {
        ExprKind::FunctionCall {
            name,
            distinct: false,
            args,
        } if name.parts.len() == 1
            && name.parts[0].name.eq_ignore_ascii_case("range")
            && (2..=3).contains(&args.len()) =>
        {
            Some(args)
        }
        _ => None,
    };
    let layout = Layout::new(scope);
    let range_args: Option<Vec<CExpr>> =
        lazy_range.map(|args| args.iter().map(|a| run.compile(a, &layout)).collect());
    let list = run.compile(&u.expr, &layout);
    for r in rows {
        if let Some(args) = &range_args {
            let env = Env::new(scope, &r);
            let vals = args
                .iter()
                .map(|a| run.eval_compiled(a, &env))
                .collect::<Result<Vec<_>>>()?;
            let range = crate::engine::functions::IntRange::from_args(&vals)?;
            for (i, x) in range.iter().enumerate() {
                let nr = row_of(&r, Value::Int(x));
                sh.charge(Shared::row_bytes(&nr))?;
                out.push(nr);
                sh.tick()?;
                if i % 4096 == 4095 {
                    sh.check_rows(out.len())?;
                }
            }
            sh.check_rows(out.len())?;
            continue;
        }
        let v = run.eval_compiled(&list, &Env::new(scope, &r))?;
        // The list is held while its items become rows.
        let held = sh.admit(&v)?;
        sh.charge(held)?;
        let items = match v {
            Value::Null => vec![],
            Value::List(l) => l,
            other => vec![other],
        };
        for it in items {
            let nr = row_of(&r, it);
            sh.charge(Shared::row_bytes(&nr))?;
            out.push(nr);
            sh.tick()?;
        }
        sh.release(held);
        sh.check_rows(out.len())?;
    }
    scope.push(Arc::from(u.variable.name.as_str()));
    Ok(out)
}

pub(super) fn explain(
    run: &Runner,
    u: &Unwind,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
) -> Plan {
    scope.push(Arc::from(u.variable.name.as_str()));
    let input = start(input);
    let rows = input.estimated_rows * UNWIND_ROWS;
    Plan::over(
        "Unwind",
        format!("{} AS {}", run.text(&u.expr), u.variable.name),
        input,
    )
    .bind([u.variable.name.clone()])
    .estimate(rows)
}
