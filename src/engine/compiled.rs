//! Expressions compiled against the layout of the rows they will read.
//!
//! A clause's rows are vectors whose columns are the variables in scope, in a layout fixed
//! when the clause starts (the `scope` names the executor passes along). [`Runner::compile`]
//! resolves each variable of an expression against that layout once — to a [`Slot`]: how
//! many frames out (a comprehension's or reduction's variables form a frame of their own,
//! inside the row's) and which column — so that evaluating the expression for each row reads
//! the value by index instead of searching the names. Literals and parameters become
//! constants and function names are lower-cased once.
//!
//! The compiled form covers what rows evaluate most: variables, properties, indexing,
//! arithmetic, boolean logic, comparison chains, `IS NULL`, list and map literals, calls of
//! non-aggregating functions, `CASE`, list comprehensions, quantifiers, reductions and map
//! projections. Any other expression (pattern predicates and subqueries, which `predicates.rs`
//! compiles once per statement; aggregates, read from the group; a variable the layout does
//! not have, whose error the general evaluator reports) stays an AST node that
//! [`Runner::eval`] runs in the same environment. Both forms share one semantics: the
//! operators and the loops of comprehensions, quantifiers, reductions and map projections are
//! the evaluator's own functions (`eval.rs`), which take the per-element evaluation as a
//! closure.

use super::error::Result;
use super::eval::{
    builds_value, chain_step, fold_boolean, folded_side, list_operand, literal, load_csv_context,
    normal_form_argument, truthy, unary_value, undefined_variable, Env, Folded,
};
use super::exec::Runner;
use super::functions;
use crate::syntax::{
    BinaryOp, Expr, ExprKind, MapProjectionItem, Parameter, QualifiedName, QuantifierKind, Span,
    UnaryOp, CASE_OPERAND,
};
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a variable's value is: `depth` frames out from the innermost, column `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub depth: u16,
    pub index: u32,
}

/// The names of the frames an expression will be evaluated in, innermost first: the compile
/// time image of [`Env`].
#[derive(Clone, Copy)]
pub(crate) struct Layout<'a> {
    pub names: &'a [Arc<str>],
    pub outer: Option<&'a Layout<'a>>,
}

impl<'a> Layout<'a> {
    /// The layout of rows with these columns.
    pub(crate) fn new(names: &'a [Arc<str>]) -> Self {
        Layout { names, outer: None }
    }

    /// A frame of `names` inside `outer`.
    pub(crate) fn within(names: &'a [Arc<str>], outer: &'a Layout<'a>) -> Self {
        Layout {
            names,
            outer: Some(outer),
        }
    }

    /// The slot of `name` as [`Env::lookup`] finds it: the innermost frame that has it, its
    /// last column of that name.
    pub(crate) fn resolve(&self, name: &str) -> Option<Slot> {
        let mut frame = Some(self);
        let mut depth = 0u16;
        while let Some(f) = frame {
            if let Some(i) = f.names.iter().rposition(|n| &**n == name) {
                return Some(Slot {
                    depth,
                    index: u32::try_from(i).ok()?,
                });
            }
            frame = f.outer;
            depth = depth.checked_add(1)?;
        }
        None
    }
}

impl<'a> Env<'a> {
    /// The value in `slot`, if the environment has that frame and column.
    #[inline]
    pub(crate) fn slot(&self, slot: Slot) -> Option<&'a Value> {
        let mut env = self;
        for _ in 0..slot.depth {
            env = env.outer?;
        }
        env.values.get(slot.index as usize)
    }
}

/// An expression compiled against a [`Layout`]; it borrows the AST it came from.
#[derive(Clone, Debug)]
pub(crate) struct CExpr<'q> {
    kind: CKind<'q>,
    /// Where errors point, as the AST node's.
    span: Span,
}

/// A frame of one name (a comprehension's variable, a `CASE` operand).
type Frame1 = Box<[Arc<str>; 1]>;

#[derive(Clone, Debug)]
enum CKind<'q> {
    Const(Value),
    Var {
        slot: Slot,
        name: &'q str,
    },
    Property {
        base: Box<CExpr<'q>>,
        key: &'q str,
    },
    Index(Box<CExpr<'q>>, Box<CExpr<'q>>),
    Unary(UnaryOp, Box<CExpr<'q>>),
    Binary {
        op: BinaryOp,
        lhs: Box<CExpr<'q>>,
        rhs: Box<CExpr<'q>>,
        /// `+` or `||`: the result may be a new string or list (checked against the limits).
        builds: bool,
    },
    Comparison(Box<CExpr<'q>>, Vec<(BinaryOp, CExpr<'q>)>),
    IsNull(Box<CExpr<'q>>, bool),
    List(Vec<CExpr<'q>>),
    Map(Vec<(Arc<str>, CExpr<'q>)>),
    /// A function call, bound to its implementation when compiled (`None`: a function the
    /// engine does not run, an error if the call is reached).
    Call {
        bound: Option<functions::Bound>,
        name: &'q QualifiedName,
        args: Vec<CExpr<'q>>,
    },
    Case {
        /// The operand, and the frame its `WHEN > 3`-style tests read it from.
        operand: Option<(Box<CExpr<'q>>, Frame1)>,
        /// Each `WHEN` (and whether it tests the operand, in a frame of its own), `THEN`.
        whens: Vec<(CExpr<'q>, bool, CExpr<'q>)>,
        else_: Option<Box<CExpr<'q>>>,
    },
    Comprehension {
        names: Frame1,
        list: Box<CExpr<'q>>,
        filter: Option<Box<CExpr<'q>>>,
        map: Option<Box<CExpr<'q>>>,
    },
    Quantified {
        kind: QuantifierKind,
        names: Frame1,
        list: Box<CExpr<'q>>,
        filter: Option<Box<CExpr<'q>>>,
    },
    Reduce {
        names: Box<[Arc<str>; 2]>,
        init: Box<CExpr<'q>>,
        list: Box<CExpr<'q>>,
        step: Box<CExpr<'q>>,
        predicate: Option<Box<CExpr<'q>>>,
    },
    /// `variable {…}`: the variable's slot (`None`: not in scope, an error when evaluated),
    /// the items, and each `k: expr` entry or variable item compiled (in the items' order).
    MapProjection {
        base: Option<Slot>,
        name: &'q str,
        items: &'q [MapProjectionItem],
        values: Vec<CExpr<'q>>,
    },
    /// A variable item of a map projection that is not in scope (an error when evaluated).
    Unbound(&'q str),
    /// Left to the general evaluator.
    Ast(&'q Expr),
}

impl<'q> CExpr<'q> {
    /// Whether the expression is a variable resolved to a slot (a test's view).
    #[cfg(test)]
    pub(crate) fn slot(&self) -> Option<Slot> {
        match self.kind {
            CKind::Var { slot, .. } => Some(slot),
            _ => None,
        }
    }

    /// Whether any part of the expression is left to the general evaluator.
    #[cfg(test)]
    pub(crate) fn has_ast(&self) -> bool {
        fn any(c: &CExpr) -> bool {
            match &c.kind {
                CKind::Ast(_) => true,
                CKind::Const(_) | CKind::Var { .. } | CKind::Unbound(_) => false,
                CKind::Property { base, .. } => any(base),
                CKind::Index(a, b) => any(a) || any(b),
                CKind::Unary(_, x) | CKind::IsNull(x, _) => any(x),
                CKind::Binary { lhs, rhs, .. } => any(lhs) || any(rhs),
                CKind::Comparison(f, rest) => any(f) || rest.iter().any(|(_, x)| any(x)),
                CKind::List(xs) | CKind::Call { args: xs, .. } => xs.iter().any(any),
                CKind::Map(es) => es.iter().any(|(_, x)| any(x)),
                CKind::Case {
                    operand,
                    whens,
                    else_,
                } => {
                    operand.as_ref().is_some_and(|(o, _)| any(o))
                        || whens.iter().any(|(w, _, t)| any(w) || any(t))
                        || else_.as_deref().is_some_and(any)
                }
                CKind::Comprehension {
                    list, filter, map, ..
                } => {
                    any(list)
                        || filter.as_deref().is_some_and(any)
                        || map.as_deref().is_some_and(any)
                }
                CKind::Quantified { list, filter, .. } => {
                    any(list) || filter.as_deref().is_some_and(any)
                }
                CKind::Reduce {
                    init,
                    list,
                    step,
                    predicate,
                    ..
                } => any(init) || any(list) || any(step) || predicate.as_deref().is_some_and(any),
                CKind::MapProjection { values, .. } => values.iter().any(any),
            }
        }
        any(self)
    }
}

/// A frame of one name.
fn frame1(name: &str) -> Frame1 {
    Box::new([Arc::from(name)])
}

impl<'a> Runner<'a> {
    /// Compiles `e` for rows of `layout` (see the module's description).
    pub(crate) fn compile<'q>(&self, e: &'q Expr, layout: &Layout) -> CExpr<'q> {
        // An AND/OR/XOR folded to one side is that side, in its own place: an error it raises
        // points where the tree's evaluator points (at the side, not at the whole).
        if let ExprKind::Binary { op, lhs, rhs } = &e.kind {
            let side = match fold_boolean(*op, lhs, rhs) {
                Some(Folded::Left) => Some(&**lhs),
                Some(Folded::Right) => Some(&**rhs),
                _ => None,
            };
            if let Some(side) = side {
                let mut c = self.compile(side, layout);
                if let CKind::Const(v) = &mut c.kind {
                    *v = folded_side(side, std::mem::take(v));
                }
                return c;
            }
        }
        let kind = self.compile_kind(e, layout);
        CExpr { kind, span: e.span }
    }

    fn compile_box<'q>(&self, e: &'q Expr, layout: &Layout) -> Box<CExpr<'q>> {
        Box::new(self.compile(e, layout))
    }

    /// The side an `AND`/`OR` with a boolean literal folds to (see [`folded_side`]).
    fn compile_folded<'q>(&self, side: &'q Expr, layout: &Layout) -> CKind<'q> {
        match self.compile_kind(side, layout) {
            CKind::Const(v) => CKind::Const(folded_side(side, v)),
            other => other,
        }
    }

    fn compile_kind<'q>(&self, e: &'q Expr, layout: &Layout) -> CKind<'q> {
        let ast = CKind::Ast(e);
        match &e.kind {
            ExprKind::Literal(l) => match literal(l) {
                Ok(v) => CKind::Const(v),
                // Out of range: the error is the evaluator's, when a row reaches it.
                Err(_) => ast,
            },
            ExprKind::Parameter(p) => {
                let key = match p {
                    Parameter::Named(n) => n.clone(),
                    Parameter::Positional(i) => i.to_string(),
                };
                match self.params.get(&key) {
                    Some(v) => CKind::Const(v.clone()),
                    None => ast,
                }
            }
            ExprKind::Variable(v) => match layout.resolve(&v.name) {
                Some(slot) => CKind::Var {
                    slot,
                    name: &v.name,
                },
                None => ast,
            },
            ExprKind::Property { expr, key } => CKind::Property {
                base: self.compile_box(expr, layout),
                key: &key.name,
            },
            ExprKind::Index { expr, index } => CKind::Index(
                self.compile_box(expr, layout),
                self.compile_box(index, layout),
            ),
            ExprKind::Unary { op, expr } => CKind::Unary(*op, self.compile_box(expr, layout)),
            ExprKind::Binary { op, lhs, rhs } => match fold_boolean(*op, lhs, rhs) {
                Some(Folded::Left) => self.compile_folded(lhs, layout),
                Some(Folded::Right) => self.compile_folded(rhs, layout),
                Some(Folded::Const(b)) => CKind::Const(Value::Bool(b)),
                None => CKind::Binary {
                    op: *op,
                    lhs: self.compile_box(lhs, layout),
                    rhs: self.compile_box(rhs, layout),
                    builds: builds_value(&e.kind),
                },
            },
            ExprKind::Comparison { first, rest } => CKind::Comparison(
                self.compile_box(first, layout),
                rest.iter()
                    .map(|(op, r)| (*op, self.compile(r, layout)))
                    .collect(),
            ),
            ExprKind::IsNull { expr, negated } => {
                CKind::IsNull(self.compile_box(expr, layout), *negated)
            }
            ExprKind::List(items) => {
                CKind::List(items.iter().map(|x| self.compile(x, layout)).collect())
            }
            ExprKind::Map(entries) => CKind::Map(
                entries
                    .iter()
                    .map(|(k, x)| (Arc::from(k.name.as_str()), self.compile(x, layout)))
                    .collect(),
            ),
            ExprKind::FunctionCall {
                name,
                distinct: _,
                args,
            } if !functions::is_aggregate(name)
                && load_csv_context(name, args).is_none()
                && normal_form_argument(name, args).is_none() =>
            {
                CKind::Call {
                    bound: functions::resolve(&name.dotted().to_ascii_lowercase()),
                    name,
                    args: args.iter().map(|a| self.compile(a, layout)).collect(),
                }
            }
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                let frame = frame1(CASE_OPERAND);
                let with_operand = Layout::within(&frame[..], layout);
                let whens = whens
                    .iter()
                    .map(|(w, t)| {
                        let tests = operand.is_some() && w.tests_case_operand();
                        let wl = if tests { &with_operand } else { layout };
                        (self.compile(w, wl), tests, self.compile(t, layout))
                    })
                    .collect();
                CKind::Case {
                    operand: operand
                        .as_deref()
                        .map(|o| (self.compile_box(o, layout), frame)),
                    whens,
                    else_: else_.as_deref().map(|x| self.compile_box(x, layout)),
                }
            }
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            } => {
                let names = frame1(&variable.name);
                let inner = Layout::within(&names[..], layout);
                CKind::Comprehension {
                    list: self.compile_box(list, layout),
                    filter: filter.as_deref().map(|f| self.compile_box(f, &inner)),
                    map: map.as_deref().map(|m| self.compile_box(m, &inner)),
                    names,
                }
            }
            ExprKind::Quantified {
                kind,
                variable,
                list,
                filter,
            } => {
                let names = frame1(&variable.name);
                let inner = Layout::within(&names[..], layout);
                CKind::Quantified {
                    kind: *kind,
                    list: self.compile_box(list, layout),
                    filter: filter.as_deref().map(|f| self.compile_box(f, &inner)),
                    names,
                }
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
                predicate,
            } => {
                let names = Box::new([
                    Arc::from(accumulator.name.as_str()),
                    Arc::from(variable.name.as_str()),
                ]);
                let inner = Layout::within(&names[..], layout);
                CKind::Reduce {
                    init: self.compile_box(init, layout),
                    list: self.compile_box(list, layout),
                    step: self.compile_box(expr, &inner),
                    predicate: predicate.as_deref().map(|p| self.compile_box(p, &inner)),
                    names,
                }
            }
            ExprKind::MapProjection { variable, items } => CKind::MapProjection {
                base: layout.resolve(&variable.name),
                name: &variable.name,
                items,
                values: items
                    .iter()
                    .filter_map(|it| match it {
                        MapProjectionItem::Entry(_, x) => Some(self.compile(x, layout)),
                        MapProjectionItem::Variable(v) => Some(CExpr {
                            kind: match layout.resolve(&v.name) {
                                Some(slot) => CKind::Var {
                                    slot,
                                    name: &v.name,
                                },
                                None => CKind::Unbound(&v.name),
                            },
                            // Its error points at the whole projection, as the evaluator's.
                            span: e.span,
                        }),
                        _ => None,
                    })
                    .collect(),
            },
            _ => ast,
        }
    }

    /// Evaluates a compiled expression in `env`, whose frames have the layout it was compiled
    /// for.
    pub(crate) fn eval_compiled(&self, c: &CExpr, env: &Env) -> Result<Value> {
        match &c.kind {
            CKind::Const(_) | CKind::Var { .. } => self.eval_compiled_inner(c, env),
            // Composite expressions: the stack grows on the heap when low (see `eval`).
            _ => crate::stack::deeper(|| self.eval_compiled_inner(c, env)),
        }
        .map_err(|err| err.at(c.span))
    }

    /// The value of a variable (read in place).
    #[inline]
    fn read<'e>(&self, slot: Slot, name: &str, env: &Env<'e>) -> Result<Value> {
        match env.slot(slot) {
            Some(v) => {
                debug_assert!(
                    slot_name(env, slot).is_some_and(|n| n == name),
                    "`{name}` compiled to {slot:?}, which holds {:?}",
                    slot_name(env, slot)
                );
                Ok(v.clone())
            }
            // A row shorter than its layout: what the search by name finds.
            None => self.eval_variable(name, env),
        }
    }

    fn eval_variable(&self, name: &str, env: &Env) -> Result<Value> {
        env.lookup(name)
            .cloned()
            .ok_or_else(|| undefined_variable(name))
    }

    fn eval_compiled_inner(&self, c: &CExpr, env: &Env) -> Result<Value> {
        match &c.kind {
            CKind::Const(v) => Ok(v.clone()),
            CKind::Var { slot, name } => self.read(*slot, name, env),
            CKind::Property { base, key } => {
                if let CKind::Var { slot, .. } = &base.kind {
                    if let Some(v) = env.slot(*slot) {
                        return self.property(v, key);
                    }
                }
                let b = self.eval_compiled(base, env)?;
                self.property(&b, key)
            }
            CKind::Index(base, index) => {
                let b = self.eval_compiled(base, env)?;
                let i = self.eval_compiled(index, env)?;
                self.index(&b, &i)
            }
            CKind::Unary(op, x) => unary_value(*op, self.eval_compiled(x, env)?),
            CKind::Binary {
                op,
                lhs,
                rhs,
                builds,
            } => {
                let v = self.binary_with(
                    *op,
                    || self.eval_compiled(lhs, env),
                    || self.eval_compiled(rhs, env),
                )?;
                if *builds {
                    self.sh.admit(&v)?;
                }
                Ok(v)
            }
            CKind::Comparison(first, rest) => {
                let mut left = self.eval_compiled(first, env)?;
                let mut result = Some(true);
                for (op, r) in rest {
                    let right = self.eval_compiled(r, env)?;
                    chain_step(&mut result, *op, &left, &right);
                    left = right;
                }
                Ok(result.map(Value::Bool).unwrap_or(Value::Null))
            }
            CKind::IsNull(x, negated) => Ok(Value::Bool(
                self.eval_compiled(x, env)?.is_null() != *negated,
            )),
            CKind::List(items) => {
                let v = Value::List(
                    items
                        .iter()
                        .map(|x| self.eval_compiled(x, env))
                        .collect::<Result<_>>()?,
                );
                self.sh.admit(&v)?;
                Ok(v)
            }
            CKind::Map(entries) => {
                let mut m = BTreeMap::new();
                for (k, x) in entries {
                    m.insert(k.clone(), self.eval_compiled(x, env)?);
                }
                let v = Value::Map(m);
                self.sh.admit(&v)?;
                Ok(v)
            }
            CKind::Call { bound, name, args } => {
                let vals = args
                    .iter()
                    .map(|a| self.eval_compiled(a, env))
                    .collect::<Result<functions::Args>>()?;
                let Some(bound) = bound else {
                    return Err(functions::unresolved(name));
                };
                let v = bound.call(self, name, vals)?;
                self.sh.admit(&v)?;
                Ok(v)
            }
            CKind::Case {
                operand,
                whens,
                else_,
            } => {
                match operand {
                    Some((o, frame)) => {
                        let ov = self.eval_compiled(o, env)?;
                        let vals = [ov.clone()];
                        let with_operand = Env {
                            names: &frame[..],
                            values: &vals,
                            outer: Some(env),
                        };
                        for (w, tests, t) in whens {
                            let hit = if *tests {
                                self.eval_compiled(w, &with_operand)?.as_bool() == Some(true)
                            } else {
                                ov.equals(&self.eval_compiled(w, env)?) == Some(true)
                            };
                            if hit {
                                return self.eval_compiled(t, env);
                            }
                        }
                    }
                    None => {
                        for (w, _, t) in whens {
                            if truthy(&self.eval_compiled(w, env)?)? == Some(true) {
                                return self.eval_compiled(t, env);
                            }
                        }
                    }
                }
                match else_ {
                    Some(x) => self.eval_compiled(x, env),
                    None => Ok(Value::Null),
                }
            }
            CKind::Comprehension {
                names,
                list,
                filter,
                map,
            } => {
                let Some(items) = list_operand(self.eval_compiled(list, env)?)? else {
                    return Ok(Value::Null);
                };
                let v = self.comprehend(
                    items,
                    &names[..],
                    env,
                    filter
                        .as_deref()
                        .map(|f| move |e: &Env| self.eval_compiled(f, e)),
                    map.as_deref()
                        .map(|m| move |e: &Env| self.eval_compiled(m, e)),
                )?;
                self.sh.admit(&v)?;
                Ok(v)
            }
            CKind::Quantified {
                kind,
                names,
                list,
                filter,
            } => {
                let Some(items) = list_operand(self.eval_compiled(list, env)?)? else {
                    return Ok(Value::Null);
                };
                self.quantified(
                    *kind,
                    &items,
                    &names[..],
                    env,
                    filter
                        .as_deref()
                        .map(|f| move |e: &Env| self.eval_compiled(f, e)),
                )
            }
            CKind::Reduce {
                names,
                init,
                list,
                step,
                predicate,
            } => {
                let acc = self.eval_compiled(init, env)?;
                let Some(items) = list_operand(self.eval_compiled(list, env)?)? else {
                    return Ok(Value::Null);
                };
                self.reduce(
                    acc,
                    items,
                    &names[..],
                    env,
                    |e: &Env| self.eval_compiled(step, e),
                    predicate
                        .as_deref()
                        .map(|p| move |e: &Env| self.eval_compiled(p, e)),
                )
            }
            CKind::MapProjection {
                base,
                name,
                items,
                values,
            } => {
                let base = match base.and_then(|s| env.slot(s)) {
                    Some(v) => v.clone(),
                    None => self.eval_variable(name, env)?,
                };
                let mut values = values.iter();
                let v = self.map_projection_with(base, items, |_| match values.next() {
                    Some(c) => self.eval_compiled(c, env),
                    None => Ok(Value::Null),
                })?;
                self.sh.admit(&v)?;
                Ok(v)
            }
            CKind::Unbound(name) => self.eval_variable(name, env),
            CKind::Ast(e) => self.eval(e, env),
        }
    }
}

/// The name a slot holds in `env` (the debug check that a layout and its rows agree).
fn slot_name<'e>(env: &Env<'e>, slot: Slot) -> Option<&'e str> {
    let mut env = env;
    for _ in 0..slot.depth {
        env = env.outer?;
    }
    env.names.get(slot.index as usize).map(|n| &**n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{shared_for, Options, Params};
    use crate::graph::Graph;
    use crate::syntax::{Clause, Statement};
    use proptest::prelude::*;

    /// The expression of `RETURN <text>`.
    fn returned(stmt: &Statement) -> &Expr {
        match &stmt.query.first.clauses[0] {
            Clause::Return(r) => &r.projection.items[0].expr,
            other => panic!("not a RETURN: {other:?}"),
        }
    }

    /// A graph with one node, for property reads.
    fn graph() -> Graph {
        Graph::from_cypher_script("CREATE (:P {name: 'ann', age: 41, tags: ['a', 'b']})").unwrap()
    }

    /// Evaluates `text` in rows of `x`, `y`, `s`, `l`, `m`, `n` (a node), `x` again (the last
    /// one is the one in scope), inside an outer frame of `o` and `x`: by the general
    /// evaluator and compiled. Returns both outcomes as text (value, or error with its place)
    /// and the compiled form's variable slots.
    fn both(g: &Graph, text: &str) -> (String, String, CExprSummary) {
        let src = format!("RETURN {text}");
        let stmt = crate::syntax::parse(&src).unwrap();
        let mut params = Params::new();
        params.insert("p".into(), Value::Int(7));
        let opts = Options::default();
        let sh = shared_for(&stmt, &params, &src, &opts);
        let run = Runner::new(g, &sh);
        let node = Value::Node(g.node_ids().next().unwrap());
        let outer_names: Vec<Arc<str>> = vec!["o".into(), "x".into()];
        let outer_vals = vec![Value::from("outer"), Value::Int(-1)];
        let names: Vec<Arc<str>> = ["x", "y", "s", "l", "m", "n", "x"]
            .into_iter()
            .map(Arc::from)
            .collect();
        let vals = vec![
            Value::Int(99),
            Value::Float(2.5),
            Value::from("Hello"),
            Value::List(vec![Value::Int(1), Value::Null, Value::Int(3)]),
            Value::Map([(Arc::from("k"), Value::Int(5))].into_iter().collect()),
            node,
            Value::Int(4),
        ];
        let outer = Env::new(&outer_names, &outer_vals);
        let env = Env {
            names: &names,
            values: &vals,
            outer: Some(&outer),
        };
        let outer_layout = Layout::new(&outer_names);
        let layout = Layout::within(&names, &outer_layout);
        let e = returned(&stmt);
        let show = |r: Result<Value>| match r {
            Ok(v) => format!("{v:?}"),
            Err(err) => format!("error {:?} {} at {:?}", err.kind, err.message, err.span),
        };
        let general = show(run.eval(e, &env));
        let c = run.compile(e, &layout);
        let compiled = show(run.eval_compiled(&c, &env));
        (
            general,
            compiled,
            CExprSummary {
                slot: c.slot(),
                ast: c.has_ast(),
            },
        )
    }

    #[derive(Debug, PartialEq)]
    struct CExprSummary {
        slot: Option<Slot>,
        ast: bool,
    }

    #[test]
    fn variables_resolve_to_the_innermost_last_column() {
        let g = graph();
        // `x` is the row's last `x` (column 6), `o` the outer frame's first column.
        let (_, v, s) = both(&g, "x");
        assert_eq!(v, "Int(4)");
        assert_eq!(s.slot, Some(Slot { depth: 0, index: 6 }));
        let (_, v, s) = both(&g, "o");
        assert_eq!(v, "String(\"outer\")");
        assert_eq!(s.slot, Some(Slot { depth: 1, index: 0 }));
        // An unknown variable is left to the general evaluator, which reports it.
        let (general, compiled, s) = both(&g, "nope");
        assert_eq!(general, compiled);
        assert!(compiled.contains("not defined"), "{compiled}");
        assert!(s.ast);
    }

    #[test]
    fn compiled_and_general_evaluation_agree() {
        let g = graph();
        let cases = [
            "x + y * 2",
            "x - 100 < y <= 3.0",
            "s + ' world'",
            "s STARTS WITH 'He' AND x > 3 OR y IS NULL",
            "NOT (x = 4) XOR m.k = 5",
            "l[1] IS NULL",
            "l[-1] + l[0]",
            "m['k'] * x",
            "n.name + ':' + toString(n.age)",
            "n.tags[0]",
            "n.missing IS NOT NULL",
            "size(l) + size(s)",
            "toUpper(s) CONTAINS 'ELL'",
            "[x IN l WHERE x IS NOT NULL | x * 10]",
            "[x IN l | x + o]",
            "[z IN range(1, 5) WHERE z % 2 = 0]",
            "[a IN [1, 2] | [b IN [3, 4] | a * b + x]]",
            "all(z IN l WHERE z > 0)",
            "any(z IN l WHERE z > 2)",
            "none(z IN l WHERE z > 5)",
            "single(z IN l WHERE z = 1)",
            "reduce(acc = 0, z IN [1, 2, 3] | acc + z * x)",
            "reduce(acc = '', c IN ['a', 'b'] | acc + c + s)",
            "CASE x WHEN 4 THEN 'four' WHEN 5 THEN 'five' ELSE 'other' END",
            "CASE x WHEN > 3 THEN 'big' ELSE 'small' END",
            "CASE WHEN y > 2 THEN s WHEN x > 1 THEN o END",
            "{a: x, b: [s, y], c: m}",
            "$p + x",
            "$missing",
            "coalesce(null, $p, x)",
            "x / 0",
            "9223372036854775807 + x",
            "-x",
            "+s",
            "s + l",
            "l + [o]",
            "x IN l",
            "s =~ 'H.*'",
            "m.k.z",
            "x.k",
            "l['a']",
            "m[1]",
            "[z IN x | z]",
            "reduce(acc = 0, z IN s | acc)",
            "all(z IN [1, 'a'] WHERE z)",
            "CASE WHEN x THEN 1 END",
            "count(*)",
            "n {.name, .age, extra: x}",
            "n {.*, s, o, extra: [z IN l | z]}",
            "m {.k, .nope, x}",
            "nope {.a}",
            "n {.name, nope}",
            "n {k: 1 / 0}",
            "EXISTS { MATCH (q:P) WHERE q.age > x }",
            "COUNT { (n)--() }",
            "99999999999999999999",
            "l[0..2] + l[1..]",
            "date('2024-01-02').year + x",
            "x IS :: INTEGER",
        ];
        for text in cases {
            let (general, compiled, _) = both(&g, text);
            assert_eq!(general, compiled, "{text}");
        }
    }

    /// Expression text over the test rows' variables.
    fn expr_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![prop::sample::select(vec![
            "x", "y", "s", "l", "m", "n", "o", "$p", "null", "true", "0", "-3", "2.5", "'ab'",
            "[]", "n.age", "m.k", "l[0]",
        ])
        .prop_map(String::from),];
        leaf.prop_recursive(4, 24, 3, |inner| {
            let bin = prop::sample::select(vec![
                "+",
                "-",
                "*",
                "/",
                "%",
                "^",
                "=",
                "<>",
                "<",
                "<=",
                "AND",
                "OR",
                "XOR",
                "IN",
                "STARTS WITH",
                "CONTAINS",
            ]);
            prop_oneof![
                (inner.clone(), bin, inner.clone())
                    .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                inner.clone().prop_map(|a| format!("NOT ({a})")),
                inner.clone().prop_map(|a| format!("(({a}) IS NULL)")),
                inner.clone().prop_map(|a| format!("[{a}, x]")),
                inner.clone().prop_map(|a| format!("toString({a})")),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| format!("[x IN [1, {a}] WHERE x IS NOT NULL | {b}]")),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| format!("reduce(acc = {a}, x IN l | {b})")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(a, b, c)| format!("CASE WHEN {a} THEN {b} ELSE {c} END")),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| format!("CASE {a} WHEN 1 THEN {b} END")),
                inner
                    .clone()
                    .prop_map(|a| format!("any(o IN [{a}] WHERE o)")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{k: {a}, j: {b}}}.k")),
                inner.prop_map(|a| format!("m {{.k, x, o, v: {a}}}")),
            ]
        })
    }

    /// Cases the generator found: a folded `AND … true` whose side fails points at the side in
    /// both evaluators.
    #[test]
    fn found_expressions_agree() {
        let g = graph();
        for text in [
            "(NOT (m) AND true)",
            "(true AND NOT (m))",
            "((NOT (m) AND true) OR false)",
            "(NOT (m) XOR false)",
        ] {
            let (general, compiled, _) = both(&g, text);
            assert_eq!(general, compiled, "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn generated_expressions_agree(text in expr_text()) {
            let g = graph();
            let (general, compiled, _) = both(&g, &text);
            prop_assert_eq!(general, compiled, "{}", text);
        }
    }
}
