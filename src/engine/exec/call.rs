//! `CALL proc(...) YIELD ...` inside a query: the procedure's rows joined to each input row.

use super::*;
use crate::engine::Detail;

impl<'a> Runner<'a> {
    /// A procedure call's arguments, evaluated on row `r` (none when written without them).
    fn procedure_args(&self, c: &CallProcedure, scope: &[Arc<str>], r: &Row) -> Result<Vec<Value>> {
        let env = Env::new(scope, r);
        match &c.args {
            Some(a) => a.iter().map(|x| self.eval(x, &env)).collect(),
            None => self.implicit_args(&c.name.dotted()),
        }
    }

    /// The arguments of a standalone call written without parentheses (`CALL test.my.proc`):
    /// the parameters named as the procedure's inputs; one without a default must be given.
    fn implicit_args(&self, name: &str) -> Result<Vec<Value>> {
        let inputs: Vec<(String, bool)> = match self
            .sh
            .procedures
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
        {
            Some(p) => p.inputs.iter().map(|n| (n.clone(), false)).collect(),
            None => crate::catalogue::procedure(name)
                .and_then(|p| p.signature())
                .map(|s| {
                    s.params
                        .iter()
                        .map(|p| (p.name.clone(), p.default.is_some()))
                        .collect()
                })
                .unwrap_or_default(),
        };
        let mut args = Vec::with_capacity(inputs.len());
        for (input, has_default) in inputs {
            match self.params.get(&input) {
                Some(v) => args.push(v.clone()),
                None if has_default => break,
                None => {
                    return Err(ExecError::compile(
                        ErrorKind::ParameterMissing,
                        format!("Expected parameter(s): {input}"),
                    )
                    .with_detail(Detail::MissingParameter))
                }
            }
        }
        Ok(args)
    }

    /// Joins a procedure's result rows to the input row `r`: the fields at `keep` under
    /// `names`, filtered by the YIELD's WHERE.
    #[allow(clippy::too_many_arguments)]
    fn join_rows(
        &self,
        c: &CallProcedure,
        scope: &[Arc<str>],
        r: &Row,
        keep: &[usize],
        names: &[Arc<str>],
        results: Vec<Vec<Value>>,
        out: &mut Vec<Row>,
    ) -> Result<()> {
        let mut new_scope = scope.to_vec();
        new_scope.extend(names.iter().cloned());
        for res in results {
            let mut nr = r.clone();
            nr.extend(
                keep.iter()
                    .map(|&i| res.get(i).cloned().unwrap_or(Value::Null)),
            );
            if let Some(w) = c.yield_.as_ref().and_then(|y| y.where_.as_ref()) {
                if !crate::engine::eval::passes(&self.eval(w, &Env::new(&new_scope, &nr))?)? {
                    continue;
                }
            }
            out.push(nr);
        }
        Ok(())
    }

    pub(super) fn call_procedure(
        &self,
        c: &CallProcedure,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
    ) -> Result<Vec<Row>> {
        let name = c.name.dotted();
        // Bound once, before the rows: each row only evaluates its arguments and runs it.
        let proc = crate::engine::procedures::resolve(self, &name);
        let mut out = Vec::new();
        let mut out_cols: Option<Vec<Arc<str>>> = None;
        for r in rows {
            let args = self.procedure_args(c, scope, &r)?;
            let (cols, results) =
                crate::engine::procedures::call_resolved(self, &proc, &name, &args)?;
            let (keep, names) = yielded(c, &cols)?;
            self.join_rows(c, scope, &r, &keep, &names, results, &mut out)?;
            out_cols = Some(names);
        }
        if let Some(cols) = out_cols {
            scope.extend(cols);
        }
        Ok(out)
    }
}

/// `CALL db.create.setNodeVectorProperty(…)` and the other writing procedures: the arguments
/// of each row are evaluated, then the procedure writes; its output columns (if any) are
/// joined to the row as a reading procedure's are.
pub(super) fn call_writing_procedure(
    g: &mut Graph,
    sh: &Shared,
    c: &CallProcedure,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let name = c.name.dotted();
    let mut out = Vec::new();
    // Bound once, before the rows run.
    let Some(p) = crate::engine::procedures::resolve_write(&name) else {
        return Err(ExecError::procedure_not_found(&name));
    };
    let (keep, names) = yielded(c, &p.columns(&name))?;
    for r in rows {
        sh.tick()?;
        let args = Runner::new(g, sh).procedure_args(c, scope, &r)?;
        let (_, results) = crate::engine::procedures::call_write(g, sh, p, &name, &args)?;
        Runner::new(g, sh).join_rows(c, scope, &r, &keep, &names, results, &mut out)?;
    }
    scope.extend(names);
    Ok(out)
}

/// Which fields of a procedure's output (`cols`) a call keeps, and under which names.
fn yielded(c: &CallProcedure, cols: &[Arc<str>]) -> Result<(Vec<usize>, Vec<Arc<str>>)> {
    match &c.yield_ {
        Some(y) if !y.star => {
            let mut keep = Vec::new();
            let mut names = Vec::new();
            for it in &y.items {
                let i = cols
                    .iter()
                    .position(|c| **c == *it.field.name)
                    .ok_or_else(|| {
                        ExecError::compile(
                            ErrorKind::SyntaxError,
                            format!("unknown procedure output `{}`", it.field.name),
                        )
                        .with_detail(Detail::UndefinedVariable)
                    })?;
                keep.push(i);
                names.push(Arc::from(
                    it.alias.as_ref().unwrap_or(&it.field).name.as_str(),
                ));
            }
            Ok((keep, names))
        }
        _ => Ok(((0..cols.len()).collect(), cols.to_vec())),
    }
}
