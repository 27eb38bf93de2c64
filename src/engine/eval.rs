//! Expression evaluation with Cypher semantics: three-valued logic, null propagation, Neo4j's
//! arithmetic (64-bit integers that fail on overflow), comparison chains and the list, string
//! and map operators.

use super::error::{ErrorKind, ExecError, Result};
use super::exec::Runner;
use super::functions;
use crate::engine::Detail;
use crate::syntax::{
    BinaryOp, DynamicLabels, Expr, ExprKind, LabelExpr, Literal, MapProjectionItem, NormalForm,
    Parameter, QuantifierKind, UnaryOp,
};
use crate::value::{type_name, Path, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Variables visible to an expression: a frame of names and values, and the frames around it
/// (comprehension variables shadow the row's variables without copying the row).
#[derive(Clone, Copy)]
pub(crate) struct Env<'a> {
    pub names: &'a [Arc<str>],
    pub values: &'a [Value],
    pub outer: Option<&'a Env<'a>>,
}

impl<'a> Env<'a> {
    pub fn new(names: &'a [Arc<str>], values: &'a [Value]) -> Self {
        Env {
            names,
            values,
            outer: None,
        }
    }
    pub fn lookup(&self, name: &str) -> Option<&'a Value> {
        let mut env = Some(self);
        while let Some(e) = env {
            if let Some(i) = e.names.iter().rposition(|n| &**n == name) {
                return e.values.get(i);
            }
            env = e.outer;
        }
        None
    }
}

/// Whether an expression of this kind may build a new list, map or string (rather than read
/// one), so that its value is checked against the nesting and memory limits.
pub(crate) fn builds_value(k: &ExprKind) -> bool {
    match k {
        ExprKind::List(_)
        | ExprKind::Map(_)
        | ExprKind::ListComprehension { .. }
        | ExprKind::PatternComprehension { .. }
        | ExprKind::Collect(_)
        | ExprKind::MapProjection { .. } => true,
        ExprKind::Binary { op, .. } => matches!(op, BinaryOp::Add | BinaryOp::Concat),
        ExprKind::FunctionCall { .. } => true,
        _ => false,
    }
}

/// The hidden variable LOAD CSV binds for `file()` and `linenumber()` (without arguments).
pub(crate) fn load_csv_context(
    name: &crate::syntax::QualifiedName,
    args: &[Expr],
) -> Option<&'static str> {
    match name.parts.as_slice() {
        [only] if args.is_empty() && only.name.eq_ignore_ascii_case("file") => Some(LOAD_CSV_FILE),
        [only] if args.is_empty() && only.name.eq_ignore_ascii_case("linenumber") => {
            Some(LOAD_CSV_LINE)
        }
        _ => None,
    }
}

/// The hidden variables LOAD CSV binds next to its row: the file and the line being read.
pub(crate) const LOAD_CSV_FILE: &str = "\u{0}file";
pub(crate) const LOAD_CSV_LINE: &str = "\u{0}linenumber";

/// The normal form of a `normalize(s, NFD)` call written with a form keyword (NFC for
/// `normalize(s)`); `None` for any other call.
pub(crate) fn normal_form_argument(
    name: &crate::syntax::QualifiedName,
    args: &[Expr],
) -> Option<NormalForm> {
    if name.parts.len() != 1 || !name.parts[0].name.eq_ignore_ascii_case("normalize") {
        return None;
    }
    match args {
        [_] => Some(NormalForm::Nfc),
        [_, f] => match &f.kind {
            ExprKind::Variable(v) => NormalForm::parse(&v.name),
            _ => None,
        },
        _ => None,
    }
}

/// A value used as a predicate (`WHERE`, `NOT`, `AND`, `OR`, `XOR`, `CASE WHEN`), coerced as
/// Neo4j 5 coerces it when the query runs: a boolean is itself and null unknown; a list is
/// true when it has elements and a path always (Neo4j's deprecated list-to-boolean
/// conversion); anything else is Neo4j's type error.
pub(crate) fn truthy(v: &Value) -> Result<Option<bool>> {
    match v {
        Value::Bool(b) => Ok(Some(*b)),
        Value::Null => Ok(None),
        Value::List(items) => {
            CONVERTED.set(true);
            Ok(Some(!items.is_empty()))
        }
        Value::Path(_) => {
            CONVERTED.set(true);
            Ok(Some(true))
        }
        other => Err(not_a_predicate(other)),
    }
}

thread_local! {
    /// Whether the statement running on this thread converted a list or a path to a boolean.
    static CONVERTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Watches a statement for Neo4j's deprecated list-or-path-to-boolean conversion, which Neo4j
/// reports as it runs (`01N02`). A statement nested in another (`apoc.cypher.run`) reports to
/// its own watch, and what it did does not count for the outer one (nor does it on Neo4j).
pub(crate) struct ConversionWatch {
    before: bool,
}

impl ConversionWatch {
    pub(crate) fn start() -> ConversionWatch {
        ConversionWatch {
            before: CONVERTED.replace(false),
        }
    }

    /// Whether the statement converted a list or a path to a boolean.
    pub(crate) fn converted(&self) -> bool {
        CONVERTED.get()
    }
}

impl Drop for ConversionWatch {
    fn drop(&mut self) {
        CONVERTED.set(self.before);
    }
}

/// Neo4j's error for a value that cannot be a predicate.
pub(crate) fn not_a_predicate(v: &Value) -> ExecError {
    ExecError::type_error(format!(
        "Don't know how to treat that as a predicate: {}",
        super::exec::neo4j_value_text(v)
    ))
    .expected_type(v, "BOOLEAN")
}

/// Neo4j's error for a number or a boolean where its runtime casts to a string (`=~`'s
/// pattern, `split`'s delimiter): "Expected Double(1.500000e+00) to be a
/// org.neo4j.values.storable.TextValue, but it was a …DoubleValue", GQL `22G03` caused by
/// `22N01` naming the type it wanted as `wanted` (Neo4j's words differ by site).
pub(crate) fn not_text_value(v: &Value, wanted: &str) -> ExecError {
    let class = match v {
        Value::Int(_) => "LongValue",
        Value::Float(_) => "DoubleValue",
        _ => "BooleanValue",
    };
    ExecError::type_error(format!(
        "Expected {} to be a org.neo4j.values.storable.TextValue, but it was a org.neo4j.values.storable.{class}",
        super::exec::neo4j_value_text(v)
    ))
    .expected_type(v, wanted)
}

/// Whether a row passes a filter (`WHERE`): the predicate coerced as [`truthy`] coerces it.
pub(crate) fn passes(v: &Value) -> Result<bool> {
    Ok(truthy(v)? == Some(true))
}

/// A unary operator on a value.
pub(crate) fn unary_value(op: UnaryOp, v: Value) -> Result<Value> {
    match op {
        UnaryOp::Not => Ok(match truthy(&v)? {
            Some(b) => Value::Bool(!b),
            None => Value::Null,
        }),
        UnaryOp::Neg => match v {
            Value::Null => Ok(Value::Null),
            Value::Int(i) => i.checked_neg().map(Value::Int).ok_or_else(overflow),
            Value::Float(f) => Ok(Value::Float(-f)),
            // Neo4j negates as `0 - x`, and says so when it cannot.
            other => Err(arith_type_error(BinaryOp::Sub, &Value::Int(0), &other)),
        },
        UnaryOp::Plus => match v {
            Value::Null | Value::Int(_) | Value::Float(_) => Ok(v),
            other => Err(ExecError::type_error(format!(
                "unary + on {}",
                type_name(&other)
            ))),
        },
    }
}

/// One link `left op right` of a comparison chain (`a < b <= c`): false if any link is
/// false, else null if any is null.
pub(crate) fn chain_step(result: &mut Option<bool>, op: BinaryOp, left: &Value, right: &Value) {
    match compare_op(op, left, right) {
        Some(false) => *result = Some(false),
        None if *result == Some(true) => *result = None,
        _ => {}
    }
}

/// The list a comprehension, quantifier or reduction runs over: `None` for null (the
/// expression is null), a byte array's integers, and any other value as a list of one.
pub(crate) fn list_operand(v: Value) -> Result<Option<Vec<Value>>> {
    match v {
        Value::Null => Ok(None),
        Value::List(items) => Ok(Some(items)),
        Value::Bytes(b) => Ok(Some(
            b.iter().map(|x| Value::Int(i64::from(*x as i8))).collect(),
        )),
        // Neo4j makes any other value a list of one (its `makeTraversable`): the static
        // checks refuse what they can see, the rest runs.
        other => Ok(Some(vec![other])),
    }
}

/// A quantifier's verdict from how many of the `n` elements passed (`trues`) and how many
/// gave null.
fn quantify(kind: QuantifierKind, trues: usize, nulls: usize, n: usize) -> Option<bool> {
    let falses = n - trues - nulls;
    match kind {
        QuantifierKind::All => {
            if falses > 0 {
                Some(false)
            } else if nulls > 0 {
                None
            } else {
                Some(true)
            }
        }
        QuantifierKind::Any => {
            if trues > 0 {
                Some(true)
            } else if nulls > 0 {
                None
            } else {
                Some(false)
            }
        }
        QuantifierKind::None => {
            if trues > 0 {
                Some(false)
            } else if nulls > 0 {
                None
            } else {
                Some(true)
            }
        }
        QuantifierKind::Single => {
            if trues > 1 {
                Some(false)
            } else if nulls > 0 {
                None
            } else {
                Some(trues == 1)
            }
        }
    }
}

/// One step of `allReduce`'s predicate: a boolean or null, anything else a type error.
fn all_reduce_step(v: Value) -> Result<Option<bool>> {
    match v {
        Value::Bool(b) => Ok(Some(b)),
        Value::Null => Ok(None),
        other => Err(ExecError::type_error(format!(
            "allReduce predicate is {}, expected a boolean",
            type_name(&other)
        ))),
    }
}

/// Reading a variable that is not in scope.
pub(crate) fn undefined_variable(name: &str) -> ExecError {
    ExecError::compile(
        ErrorKind::SemanticError,
        format!("Variable `{name}` not defined"),
    )
    .with_detail(Detail::UndefinedVariable)
}

fn overflow() -> ExecError {
    ExecError::runtime(ErrorKind::ArithmeticError, "long overflow")
        .with_detail(Detail::IntegerOverflow)
}

/// Whether a node has labels matching a label expression (dynamic parts, `$(expr)`, are
/// evaluated in `env`).
pub(crate) fn labels_match(
    r: &Runner,
    node_labels: &[u32],
    e: &LabelExpr,
    env: &Env,
) -> Result<bool> {
    Ok(match e {
        LabelExpr::Name(i) => r
            .graph()
            .sym(&i.name)
            .is_some_and(|s| node_labels.contains(&s)),
        LabelExpr::Wildcard(_) => !node_labels.is_empty(),
        LabelExpr::Not(x, _) => !labels_match(r, node_labels, x, env)?,
        LabelExpr::And(xs, _) => {
            for x in xs {
                if !labels_match(r, node_labels, x, env)? {
                    return Ok(false);
                }
            }
            true
        }
        LabelExpr::Or(xs, _) => {
            for x in xs {
                if labels_match(r, node_labels, x, env)? {
                    return Ok(true);
                }
            }
            false
        }
        LabelExpr::Dynamic { expr, mode, .. } => {
            let names = r.dynamic_names(expr, env)?;
            let has = |n: &String| r.graph().sym(n).is_some_and(|s| node_labels.contains(&s));
            match mode {
                DynamicLabels::Any => names.iter().any(has),
                DynamicLabels::Plain | DynamicLabels::All => names.iter().all(has),
            }
        }
    })
}

/// Whether a relationship type matches a type expression (dynamic parts evaluated in `env`;
/// `$all` of two different types matches nothing, as a relationship has one type).
pub(crate) fn type_matches(r: &Runner, ty: u32, e: &LabelExpr, env: &Env) -> Result<bool> {
    Ok(match e {
        LabelExpr::Name(i) => r.graph().sym(&i.name) == Some(ty),
        LabelExpr::Wildcard(_) => true,
        LabelExpr::Not(x, _) => !type_matches(r, ty, x, env)?,
        LabelExpr::And(xs, _) => {
            for x in xs {
                if !type_matches(r, ty, x, env)? {
                    return Ok(false);
                }
            }
            true
        }
        LabelExpr::Or(xs, _) => {
            for x in xs {
                if type_matches(r, ty, x, env)? {
                    return Ok(true);
                }
            }
            false
        }
        LabelExpr::Dynamic { expr, mode, .. } => {
            let names = r.dynamic_names(expr, env)?;
            let is = |n: &String| r.graph().sym(n) == Some(ty);
            match mode {
                DynamicLabels::Any => names.iter().any(is),
                DynamicLabels::Plain | DynamicLabels::All => names.iter().all(is),
            }
        }
    })
}

/// The error for a label or type name that cannot be one (null, empty, a null byte).
pub(crate) fn invalid_token(name: Option<&str>) -> ExecError {
    let name = name.map_or("Null".to_string(), |n| format!("'{n}'"));
    ExecError::runtime(
        ErrorKind::ArgumentError,
        format!("{name} is not a valid token name. Token names cannot be empty or contain any null-bytes."),
    )
}

impl Runner<'_> {
    /// The names a dynamic label or type expression (`$(expr)`) computes: a `STRING` or a
    /// `LIST<STRING>`; null, an empty name or another type is an error, as in Neo4j.
    pub(crate) fn dynamic_names(&self, expr: &Expr, env: &Env) -> Result<Vec<String>> {
        fn name(v: Value) -> Result<String> {
            match v {
                Value::String(s) if !s.is_empty() && !s.contains('\0') => Ok(s.to_string()),
                Value::String(s) => Err(invalid_token(Some(&s))),
                Value::Null => Err(invalid_token(None)),
                other => Err(ExecError::type_error(format!(
                    "expected a STRING or a LIST<STRING> for a dynamic label or type, got {}",
                    type_name(&other)
                ))),
            }
        }
        match self.eval(expr, env)? {
            Value::List(xs) => xs.iter().cloned().map(name).collect(),
            v => Ok(vec![name(v)?]),
        }
    }

    /// Evaluates `e` in `env`.
    pub(crate) fn eval(&self, e: &Expr, env: &Env) -> Result<Value> {
        let v = match &e.kind {
            ExprKind::Literal(_) | ExprKind::Parameter(_) | ExprKind::Variable(_) => {
                self.eval_inner(e, env)
            }
            // Composite expressions recurse as deep as the parser allows (bounded, but deeper
            // than a small thread stack holds in a debug build): grown on the heap when low.
            _ => crate::stack::deeper(|| self.eval_inner(e, env)),
        }
        .map_err(|err| err.at(e.span))?;
        if builds_value(&e.kind) {
            // A value this expression built: bounded in nesting and by the memory budget.
            self.sh.admit(&v).map_err(|err| err.at(e.span))?;
        }
        Ok(v)
    }

    fn eval_inner(&self, e: &Expr, env: &Env) -> Result<Value> {
        match &e.kind {
            ExprKind::Literal(l) => literal(l),
            ExprKind::Parameter(p) => {
                let key = match p {
                    Parameter::Named(n) => n.clone(),
                    Parameter::Positional(i) => i.to_string(),
                };
                self.params.get(&key).cloned().ok_or_else(|| {
                    ExecError::compile(
                        ErrorKind::ParameterMissing,
                        format!("Expected parameter(s): {key}"),
                    )
                    .with_detail(Detail::MissingParameter)
                })
            }
            ExprKind::Variable(v) => env
                .lookup(&v.name)
                .cloned()
                .ok_or_else(|| undefined_variable(&v.name)),
            ExprKind::List(items) => Ok(Value::List(
                items
                    .iter()
                    .map(|x| self.eval(x, env))
                    .collect::<Result<_>>()?,
            )),
            ExprKind::Map(entries) => {
                let mut m = BTreeMap::new();
                for (k, x) in entries {
                    m.insert(Arc::from(k.name.as_str()), self.eval(x, env)?);
                }
                Ok(Value::Map(m))
            }
            ExprKind::Property { expr, key } => {
                // `v.key`, the commonest read: the variable's value is read in place.
                if let ExprKind::Variable(v) = &expr.kind {
                    if let Some(base) = env.lookup(&v.name) {
                        return self.property(base, &key.name);
                    }
                }
                let base = self.eval(expr, env)?;
                self.property(&base, &key.name)
            }
            ExprKind::Index { expr, index } => {
                let base = self.eval(expr, env)?;
                let idx = self.eval(index, env)?;
                self.index(&base, &idx)
            }
            ExprKind::Slice { expr, from, to } => {
                let base = self.eval(expr, env)?;
                let from = match from {
                    Some(f) => Some(self.eval(f, env)?),
                    None => None,
                };
                let to = match to {
                    Some(t) => Some(self.eval(t, env)?),
                    None => None,
                };
                slice(&base, from, to)
            }
            ExprKind::HasLabels { expr, labels, .. } => match self.eval(expr, env)? {
                Value::Null => Ok(Value::Null),
                Value::Node(n) => {
                    let ls = self
                        .graph()
                        .node(n)
                        .map(|d| d.labels.as_slice())
                        .unwrap_or(&[]);
                    Ok(Value::Bool(labels_match(self, ls, labels, env)?))
                }
                Value::Relationship(rel) => match self.graph().relationship(rel).map(|d| d.ty) {
                    Some(t) => Ok(Value::Bool(type_matches(self, t, labels, env)?)),
                    None => Ok(Value::Bool(false)),
                },
                other => Err(ExecError::type_error(format!(
                    "label predicate on {}, expected a node",
                    type_name(&other)
                ))),
            },
            ExprKind::Unary { op, expr } => unary_value(*op, self.eval(expr, env)?),
            ExprKind::Binary { op, lhs, rhs } => match fold_boolean(*op, lhs, rhs) {
                Some(Folded::Left) => Ok(folded_side(lhs, self.eval(lhs, env)?)),
                Some(Folded::Right) => Ok(folded_side(rhs, self.eval(rhs, env)?)),
                Some(Folded::Const(b)) => Ok(Value::Bool(b)),
                None => self.binary_with(*op, || self.eval(lhs, env), || self.eval(rhs, env)),
            },
            ExprKind::Comparison { first, rest } => {
                let mut left = self.eval(first, env)?;
                let mut result = Some(true);
                for (op, r) in rest {
                    let right = self.eval(r, env)?;
                    chain_step(&mut result, *op, &left, &right);
                    left = right;
                }
                Ok(result.map(Value::Bool).unwrap_or(Value::Null))
            }
            ExprKind::IsNull { expr, negated } => {
                let v = self.eval(expr, env)?;
                Ok(Value::Bool(v.is_null() != *negated))
            }
            ExprKind::IsNormalized {
                expr,
                negated,
                form,
            } => match self.eval(expr, env)? {
                // Not a string (null included): null.
                Value::String(s) => {
                    let is = functions::is_normalized(&s, form.unwrap_or(NormalForm::Nfc));
                    Ok(Value::Bool(is != *negated))
                }
                _ => Ok(Value::Null),
            },
            ExprKind::IsType { expr, negated, ty } => {
                let v = self.eval(expr, env)?;
                let is = functions::value_is_type(&v, ty);
                Ok(Value::Bool(is != *negated))
            }
            ExprKind::CountStar => self.aggregate_value(e),
            ExprKind::FunctionCall {
                name,
                distinct: _,
                args,
            } => {
                if functions::is_aggregate(name) {
                    return self.aggregate_value(e);
                }
                if let Some(hidden) = load_csv_context(name, args) {
                    // `file()` / `linenumber()`: the LOAD CSV row being read (null elsewhere).
                    return Ok(env.lookup(hidden).cloned().unwrap_or(Value::Null));
                }
                if let Some(form) = normal_form_argument(name, args) {
                    // `normalize(s, NFD)`: the form is a keyword, not a variable.
                    return match self.eval(&args[0], env)? {
                        Value::Null => Ok(Value::Null),
                        Value::String(s) => Ok(Value::from(functions::normalized(&s, form))),
                        other => Err(ExecError::type_error(format!(
                            "normalize() expects a string, got {} ({other})",
                            type_name(&other)
                        ))),
                    };
                }
                let vals = args
                    .iter()
                    .map(|a| self.eval(a, env))
                    .collect::<Result<functions::Args>>()?;
                functions::call(self, name, vals)
            }
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                match operand {
                    Some(o) => {
                        let ov = self.eval(o, env)?;
                        let names = [Arc::from(crate::syntax::CASE_OPERAND)];
                        let vals = [ov.clone()];
                        let with_operand = Env {
                            names: &names,
                            values: &vals,
                            outer: Some(env),
                        };
                        for (w, t) in whens {
                            let hit = if w.tests_case_operand() {
                                // `WHEN > 3`: a test on the operand (evaluated once).
                                self.eval(w, &with_operand)?.as_bool() == Some(true)
                            } else {
                                ov.equals(&self.eval(w, env)?) == Some(true)
                            };
                            if hit {
                                return self.eval(t, env);
                            }
                        }
                    }
                    None => {
                        for (w, t) in whens {
                            if truthy(&self.eval(w, env)?)? == Some(true) {
                                return self.eval(t, env);
                            }
                        }
                    }
                }
                match else_ {
                    Some(x) => self.eval(x, env),
                    None => Ok(Value::Null),
                }
            }
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            } => {
                let Some(items) = list_operand(self.eval(list, env)?)? else {
                    return Ok(Value::Null);
                };
                let names = [Arc::from(variable.name.as_str())];
                self.comprehend(
                    items,
                    &names,
                    env,
                    filter.as_deref().map(|f| move |e: &Env| self.eval(f, e)),
                    map.as_deref().map(|m| move |e: &Env| self.eval(m, e)),
                )
            }
            ExprKind::Quantified {
                kind,
                variable,
                list,
                filter,
            } => {
                let Some(items) = list_operand(self.eval(list, env)?)? else {
                    return Ok(Value::Null);
                };
                let names = [Arc::from(variable.name.as_str())];
                self.quantified(
                    *kind,
                    &items,
                    &names,
                    env,
                    filter.as_deref().map(|f| move |e: &Env| self.eval(f, e)),
                )
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
                predicate,
            } => {
                let acc = self.eval(init, env)?;
                let Some(items) = list_operand(self.eval(list, env)?)? else {
                    return Ok(Value::Null);
                };
                let names = [
                    Arc::from(accumulator.name.as_str()),
                    Arc::from(variable.name.as_str()),
                ];
                self.reduce(
                    acc,
                    items,
                    &names,
                    env,
                    |e: &Env| self.eval(expr, e),
                    predicate.as_deref().map(|p| move |e: &Env| self.eval(p, e)),
                )
            }
            ExprKind::Pattern(chain) => Ok(Value::Bool(self.pattern_exists(chain, env)?)),
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            } => {
                self.pattern_comprehension(variable.as_ref(), pattern, filter.as_deref(), map, env)
            }
            ExprKind::ShortestPath { all, chain } => self.shortest_path_value(*all, chain, env),
            ExprKind::Exists(body) => Ok(Value::Bool(self.subquery_count(body, env, true)? > 0)),
            ExprKind::CountSubquery(body) => {
                Ok(Value::Int(self.subquery_count(body, env, false)? as i64))
            }
            ExprKind::Collect(q) => self.collect_subquery(q, env),
            ExprKind::MapProjection { variable, items } => {
                let base = env
                    .lookup(&variable.name)
                    .cloned()
                    .ok_or_else(|| undefined_variable(&variable.name))?;
                self.map_projection_with(base, items, |it| match it {
                    MapProjectionItem::Entry(_, x) => self.eval(x, env),
                    MapProjectionItem::Variable(v) => env
                        .lookup(&v.name)
                        .cloned()
                        .ok_or_else(|| undefined_variable(&v.name)),
                    _ => Ok(Value::Null),
                })
            }
        }
    }

    /// `[v IN items WHERE filter | map]` over a list's items: `names` is the frame of the
    /// variable, inside `env`; `filter` and `map` evaluate in it.
    pub(crate) fn comprehend(
        &self,
        items: Vec<Value>,
        names: &[Arc<str>],
        env: &Env,
        filter: Option<impl Fn(&Env) -> Result<Value>>,
        map: Option<impl Fn(&Env) -> Result<Value>>,
    ) -> Result<Value> {
        let mut out = Vec::with_capacity(items.len());
        let mut bytes = 0usize;
        for item in items {
            self.sh.tick()?;
            let vals = [item];
            let inner = Env {
                names,
                values: &vals,
                outer: Some(env),
            };
            if let Some(f) = &filter {
                if truthy(&f(&inner)?)? != Some(true) {
                    continue;
                }
            }
            let v = match &map {
                Some(m) => m(&inner)?,
                None => vals.into_iter().next().unwrap_or(Value::Null),
            };
            self.sh.grow(&mut bytes, &v)?;
            out.push(v);
        }
        Ok(Value::List(out))
    }

    /// `all|any|none|single(v IN items WHERE filter)`.
    pub(crate) fn quantified(
        &self,
        kind: QuantifierKind,
        items: &[Value],
        names: &[Arc<str>],
        env: &Env,
        filter: Option<impl Fn(&Env) -> Result<Value>>,
    ) -> Result<Value> {
        let (mut trues, mut nulls) = (0usize, 0usize);
        for item in items {
            self.sh.tick()?;
            let vals = [item.clone()];
            let inner = Env {
                names,
                values: &vals,
                outer: Some(env),
            };
            let t = match &filter {
                Some(f) => truthy(&f(&inner)?)?,
                None => truthy(item)?,
            };
            match t {
                Some(true) => trues += 1,
                None => nulls += 1,
                Some(false) => {}
            }
        }
        let r = quantify(kind, trues, nulls, items.len());
        Ok(r.map(Value::Bool).unwrap_or(Value::Null))
    }

    /// `reduce(acc = init, v IN items | step)` and Cypher 25's `allReduce(…, predicate)`:
    /// `names` is the frame of the accumulator and the variable. With a predicate, it is
    /// tested on the accumulator after every step (false as soon as one step fails it; null
    /// if one is null and none false).
    pub(crate) fn reduce(
        &self,
        mut acc: Value,
        items: Vec<Value>,
        names: &[Arc<str>],
        env: &Env,
        step: impl Fn(&Env) -> Result<Value>,
        predicate: Option<impl Fn(&Env) -> Result<Value>>,
    ) -> Result<Value> {
        let mut unknown = false;
        for item in items {
            self.sh.tick()?;
            let mut vals = [acc, item];
            let inner = Env {
                names,
                values: &vals,
                outer: Some(env),
            };
            let next = step(&inner)?;
            vals[0] = next;
            if let Some(p) = &predicate {
                let inner = Env {
                    names,
                    values: &vals,
                    outer: Some(env),
                };
                match all_reduce_step(p(&inner)?)? {
                    Some(true) => {}
                    Some(false) => return Ok(Value::Bool(false)),
                    None => unknown = true,
                }
            }
            let [next, _] = vals;
            acc = next;
        }
        if predicate.is_some() {
            return Ok(if unknown {
                Value::Null
            } else {
                Value::Bool(true)
            });
        }
        Ok(acc)
    }

    /// A map projection `base {…}` whose `k: expr` entries and variables `value` gives.
    pub(crate) fn map_projection_with(
        &self,
        base: Value,
        items: &[MapProjectionItem],
        mut value: impl FnMut(&MapProjectionItem) -> Result<Value>,
    ) -> Result<Value> {
        if base.is_null() {
            return Ok(Value::Null);
        }
        let mut m = BTreeMap::new();
        for it in items {
            match it {
                MapProjectionItem::Property(k) => {
                    m.insert(Arc::from(k.name.as_str()), self.property(&base, &k.name)?);
                }
                MapProjectionItem::AllProperties(_) => {
                    for (k, v) in self.all_properties(&base)? {
                        m.insert(k, v);
                    }
                }
                MapProjectionItem::Entry(k, _) | MapProjectionItem::Variable(k) => {
                    m.insert(Arc::from(k.name.as_str()), value(it)?);
                }
            }
        }
        Ok(Value::Map(m))
    }

    /// `base.key`.
    /// The symbol of property key `key` in the graph, if any graph element ever had it.
    #[inline]
    pub(super) fn key_sym(&self, key: &str) -> Option<crate::graph::Sym> {
        let g = self.graph();
        let here = (
            g as *const crate::graph::Graph as usize,
            key.as_ptr() as usize,
            key.len(),
        );
        let (cg, ck, cl, sym) = self.sh.last_key.get();
        // (The text is compared too: a key freed and another allocated at the same address
        // must not read the first one's symbol.)
        if (cg, ck, cl) == here && g.sym_name_get(sym).is_some_and(|n| **n == *key) {
            return Some(sym);
        }
        let sym = g.sym(key)?;
        self.sh.last_key.set((here.0, here.1, here.2, sym));
        Some(sym)
    }

    /// A property as Cypher reads it. Neo4j 5.26 reads no property of a virtual node or
    /// relationship (APOC's, a procedure's): `n.name`, `properties(n)`, `keys(n)` and `n {.*}`
    /// see none, though the value a client receives carries them. Neo4j 2025+ (Cypher 25
    /// here) reads them.
    pub(crate) fn property(&self, base: &Value, key: &str) -> Result<Value> {
        if self.unreadable_virtual(base) {
            return Ok(Value::Null);
        }
        self.java_property(base, key)
    }

    /// Whether `base` is a virtual entity whose properties Cypher does not read (see
    /// [`Runner::property`]); an element a composite database's constituent returned is read.
    fn unreadable_virtual(&self, base: &Value) -> bool {
        use super::exec::Virtuals;
        if self.sh.cypher25 {
            return false;
        }
        let key = match base {
            Value::Node(n) if Virtuals::is_virtual(n.0) => (true, n.0),
            Value::Relationship(r) if Virtuals::is_virtual(r.0) => (false, r.0),
            _ => return false,
        };
        !self.sh.virtuals.borrow().origins.contains_key(&key)
    }

    /// A property as a procedure or APOC reads it from the entity object: a virtual entity's
    /// own properties included.
    pub(crate) fn java_property(&self, base: &Value, key: &str) -> Result<Value> {
        match base {
            Value::Null => Ok(Value::Null),
            Value::Node(n) if super::exec::Virtuals::is_virtual(n.0) => Ok(self
                .sh
                .virtuals
                .borrow()
                .node(*n)
                .and_then(|(_, p)| p.get(key).cloned())
                .unwrap_or(Value::Null)),
            Value::Relationship(r) if super::exec::Virtuals::is_virtual(r.0) => Ok(self
                .sh
                .virtuals
                .borrow()
                .rel(*r)
                .and_then(|(_, _, _, p)| p.get(key).cloned())
                .unwrap_or(Value::Null)),
            Value::Node(n) => match self
                .key_sym(key)
                .and_then(|k| self.graph().node_property(*n, k))
            {
                Some(v) => Ok(v),
                None => match self.sh.deleted_access(self.graph(), base) {
                    Some(e) => Err(e),
                    None => Ok(Value::Null),
                },
            },
            Value::Relationship(r) => match self
                .key_sym(key)
                .and_then(|k| self.graph().relationship_property(*r, k))
            {
                Some(v) => Ok(v),
                None => match self.sh.deleted_access(self.graph(), base) {
                    Some(e) => Err(e),
                    None => Ok(Value::Null),
                },
            },
            Value::Map(m) => Ok(m.get(key).cloned().unwrap_or(Value::Null)),
            Value::Temporal(t) => super::temporal_values::component(t, key)
                .ok_or_else(|| ExecError::type_error(format!("No such field: {key}"))),
            Value::Point(p) => match p.component(key) {
                Ok(crate::spatial::Component::Number(x)) => Ok(Value::Float(x)),
                Ok(crate::spatial::Component::Crs(name)) => Ok(Value::from(name)),
                Ok(crate::spatial::Component::Srid(code)) => Ok(Value::Int(code)),
                Err(e) => Err(ExecError::runtime(ErrorKind::ArgumentError, e.to_string())
                    .with_detail(Detail::InvalidArgumentValue)),
            },
            other => Err(ExecError::type_error(format!(
                "Type mismatch: expected a map but was {}",
                super::exec::neo4j_value_text(other)
            ))
            .expected_type(other, "MAP")),
        }
    }

    /// All properties of a node, relationship or map.
    pub(crate) fn all_properties(&self, base: &Value) -> Result<BTreeMap<Arc<str>, Value>> {
        if self.unreadable_virtual(base) {
            return Ok(BTreeMap::new());
        }
        self.java_properties(base)
    }

    /// All properties of an entity object as APOC reads them (a virtual entity's included,
    /// null-valued ones too).
    pub(crate) fn java_properties(&self, base: &Value) -> Result<BTreeMap<Arc<str>, Value>> {
        match base {
            Value::Node(n) if super::exec::Virtuals::is_virtual(n.0) => Ok(self
                .sh
                .virtuals
                .borrow()
                .node(*n)
                .map(|(_, p)| p.clone())
                .unwrap_or_default()),
            Value::Relationship(r) if super::exec::Virtuals::is_virtual(r.0) => Ok(self
                .sh
                .virtuals
                .borrow()
                .rel(*r)
                .map(|(_, _, _, p)| p.clone())
                .unwrap_or_default()),
            Value::Node(n) => Ok(self.graph().node_properties(*n)),
            Value::Relationship(r) => Ok(self.graph().relationship_properties(*r)),
            Value::Map(m) => Ok(m.clone()),
            Value::Null => Ok(BTreeMap::new()),
            other => Err(ExecError::type_error(format!(
                "expected a node, relationship or map, got {}",
                type_name(other)
            ))),
        }
    }

    pub(crate) fn index(&self, base: &Value, idx: &Value) -> Result<Value> {
        match (base, idx) {
            (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
            (Value::List(l), Value::Int(i)) => {
                let n = l.len() as i64;
                let i = if *i < 0 { n + i } else { *i };
                Ok(if (0..n).contains(&i) {
                    l[i as usize].clone()
                } else {
                    Value::Null
                })
            }
            (Value::List(_), other @ Value::Float(_)) => Err(ExecError::type_error(format!(
                "Cannot access a list using an non-integer number index, got {}",
                super::exec::neo4j_value_text(other)
            ))
            .expected_type(other, "INTEGER")),
            (Value::List(_), other) => Err(ExecError::type_error(format!(
                "list index must be an integer, got {}",
                type_name(other)
            ))),
            (Value::Map(_) | Value::Node(_) | Value::Relationship(_), Value::String(k)) => {
                self.property(base, k)
            }
            (Value::Map(_) | Value::Node(_) | Value::Relationship(_), other) => {
                Err(ExecError::type_error(format!(
                    "map key must be a string, got {}",
                    type_name(other)
                ))
                .with_detail(Detail::MapElementAccessByNonString))
            }
            (other, idx) => Err(super::functions::not_a_collection(
                other,
                idx,
                &super::exec::neo4j_value_text(idx),
            )),
        }
    }

    /// A binary operator whose operands `lhs` and `rhs` evaluate (the boolean operators
    /// evaluate the right one only where three-valued logic needs it).
    pub(crate) fn binary_with(
        &self,
        op: BinaryOp,
        lhs: impl FnOnce() -> Result<Value>,
        rhs: impl FnOnce() -> Result<Value>,
    ) -> Result<Value> {
        // Boolean operators short-circuit only where three-valued logic allows it.
        match op {
            BinaryOp::And => {
                let l = truthy(&lhs()?)?;
                if l == Some(false) {
                    // The right side must still be a boolean or null for a well-typed query,
                    // but Neo4j does not evaluate it: neither do we.
                    return Ok(Value::Bool(false));
                }
                let r = truthy(&rhs()?)?;
                return Ok(match (l, r) {
                    (_, Some(false)) => Value::Bool(false),
                    (Some(true), Some(true)) => Value::Bool(true),
                    _ => Value::Null,
                });
            }
            BinaryOp::Or => {
                let l = truthy(&lhs()?)?;
                if l == Some(true) {
                    return Ok(Value::Bool(true));
                }
                let r = truthy(&rhs()?)?;
                return Ok(match (l, r) {
                    (_, Some(true)) => Value::Bool(true),
                    (Some(false), Some(false)) => Value::Bool(false),
                    _ => Value::Null,
                });
            }
            BinaryOp::Xor => {
                let l = truthy(&lhs()?)?;
                let r = truthy(&rhs()?)?;
                return Ok(match (l, r) {
                    (Some(a), Some(b)) => Value::Bool(a != b),
                    _ => Value::Null,
                });
            }
            _ => {}
        }
        let l = lhs()?;
        let r = rhs()?;
        binary_values(self, op, l, r)
    }
}

/// What Neo4j's planner makes of `AND`/`OR`/`XOR` with a boolean literal before anything runs:
/// `x AND true`, `x OR false` and `x XOR false` are `x` (whatever `x` holds: `1.5 AND true` is
/// 1.5), `x AND false` is false and `x OR true` true, without evaluating `x`.
pub(crate) enum Folded {
    Left,
    Right,
    Const(bool),
}

/// The value an `AND`/`OR` folded to one side gives: the side's value as it is, but for a
/// list parameter, which Neo4j converts to a boolean before folding (its type is known to be
/// a list).
pub(crate) fn folded_side(side: &Expr, v: Value) -> Value {
    match (&side.kind, v) {
        (ExprKind::Parameter(_), Value::List(items)) => Value::Bool(!items.is_empty()),
        (_, v) => v,
    }
}

/// See [`Folded`]; `None` for any other operator or operands.
pub(crate) fn fold_boolean(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Option<Folded> {
    let lit = |e: &Expr| match e.kind {
        ExprKind::Literal(Literal::Boolean(b)) => Some(b),
        _ => None,
    };
    match (op, lit(lhs), lit(rhs)) {
        (BinaryOp::And, _, Some(true)) => Some(Folded::Left),
        (BinaryOp::And, Some(true), _) => Some(Folded::Right),
        (BinaryOp::And, Some(false), _) | (BinaryOp::And, _, Some(false)) => {
            Some(Folded::Const(false))
        }
        (BinaryOp::Or, _, Some(false)) => Some(Folded::Left),
        (BinaryOp::Or, Some(false), _) => Some(Folded::Right),
        (BinaryOp::Or, Some(true), _) | (BinaryOp::Or, _, Some(true)) => Some(Folded::Const(true)),
        (BinaryOp::Xor, _, Some(false)) => Some(Folded::Left),
        (BinaryOp::Xor, Some(false), _) => Some(Folded::Right),
        _ => None,
    }
}

/// A binary operator (not AND/OR/XOR) on two values.
pub(crate) fn binary_values(run: &Runner, op: BinaryOp, l: Value, r: Value) -> Result<Value> {
    use BinaryOp::*;
    if matches!(op, Add | Concat) {
        // Check the size of a concatenation before allocating it.
        const SLOT: usize = std::mem::size_of::<Value>();
        let len = |v: &Value| match v {
            Value::String(s) => s.len(),
            Value::List(l) => l.len().saturating_mul(SLOT),
            _ => 0,
        };
        // The operands stay alive while the result is built: count both.
        run.sh
            .can_allocate(len(&l).saturating_add(len(&r)).saturating_mul(2))?;
    }
    if op.is_comparison() {
        return Ok(compare_op(op, &l, &r)
            .map(Value::Bool)
            .unwrap_or(Value::Null));
    }
    match op {
        In => in_list(&l, &r),
        StartsWith | EndsWith | Contains => match (&l, &r) {
            (Value::String(a), Value::String(b)) => Ok(Value::Bool(match op {
                StartsWith => a.starts_with(&**b),
                EndsWith => a.ends_with(&**b),
                _ => a.contains(&**b),
            })),
            _ => Ok(Value::Null),
        },
        RegexMatch => match (&l, &r) {
            (Value::String(a), Value::String(p)) => Ok(Value::Bool(run.regex_full_match(p, a)?)),
            (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
            // A pattern that is not a string is Neo4j's type error, whatever the text.
            (_, p @ (Value::Int(_) | Value::Float(_) | Value::Bool(_))) => {
                Err(not_text_value(p, "org.neo4j.values.storable.TextValue"))
            }
            _ => Ok(Value::Null),
        },
        Concat => match (l, r) {
            (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
            (Value::String(a), Value::String(b)) => Ok(Value::from(format!("{a}{b}"))),
            (Value::List(mut a), Value::List(b)) => {
                a.extend(b);
                Ok(Value::List(a))
            }
            (a, b) => Err(ExecError::type_error(format!(
                "cannot concatenate {} and {}",
                type_name(&a),
                type_name(&b)
            ))),
        },
        Add => add(l, r),
        Sub | Mul | Div | Mod | Pow => arith(op, l, r),
        _ => Err(ExecError::runtime(
            ErrorKind::SemanticError,
            format!("unexpected operator {}", op.symbol()),
        )),
    }
}

pub(crate) fn literal(l: &Literal) -> Result<Value> {
    Ok(match l {
        Literal::Null => Value::Null,
        Literal::Boolean(b) => Value::Bool(*b),
        Literal::Integer(i) => Value::Int(*i),
        Literal::Float(f) => Value::Float(*f),
        Literal::String(s) => Value::from(s.as_str()),
        Literal::OutOfRange { text, float } => {
            let mut e = ExecError::compile(
                ErrorKind::SyntaxError,
                if *float {
                    "floating point number is too large"
                } else {
                    "integer is too large"
                },
            )
            .with_detail(if *float {
                Detail::FloatingPointOverflow
            } else {
                Detail::IntegerOverflow
            });
            e.gql_status = Some(Box::new(super::GqlStatus {
                code: "22003",
                description: format!("error: data exception - numeric value out of range. The numeric value {text} is outside the required range."),
                classification: None,
                message: None,
                cause: None,
            }));
            return Err(e);
        }
    })
}

/// A comparison operator on two values: `Some(bool)` or `None` for null.
pub(crate) fn compare_op(op: BinaryOp, l: &Value, r: &Value) -> Option<bool> {
    use std::cmp::Ordering::*;
    match op {
        BinaryOp::Eq => l.equals(r),
        BinaryOp::Ne => l.equals(r).map(|b| !b),
        _ => {
            if l.is_null() || r.is_null() {
                return None;
            }
            // Incomparable values (different types) give null; NaN gives false.
            let nan = matches!(l, Value::Float(f) if f.is_nan())
                || matches!(r, Value::Float(f) if f.is_nan());
            if nan && l.is_number() && r.is_number() {
                return Some(false);
            }
            let o = l.compare(r)?;
            // Equal durations (or points) are neither less nor greater: null, not false.
            if o == Equal && matches!(op, BinaryOp::Lt | BinaryOp::Gt) && l.is_incomparable_type() {
                return None;
            }
            Some(match op {
                BinaryOp::Lt => o == Less,
                BinaryOp::Le => o != Greater,
                BinaryOp::Gt => o == Greater,
                BinaryOp::Ge => o != Less,
                _ => false,
            })
        }
    }
}

fn in_list(l: &Value, r: &Value) -> Result<Value> {
    match r {
        Value::Null => Ok(Value::Null),
        Value::List(items) => {
            let mut unknown = false;
            for x in items {
                match l.equals(x) {
                    Some(true) => return Ok(Value::Bool(true)),
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            Ok(if unknown {
                Value::Null
            } else {
                Value::Bool(false)
            })
        }
        // Neo4j makes any other value a list of one.
        other => in_list(
            l,
            &Value::List(list_operand(other.clone())?.unwrap_or_default()),
        ),
    }
}

fn temporal_err(e: crate::temporal::TemporalError) -> ExecError {
    ExecError::runtime(ErrorKind::ArgumentError, e).with_detail(Detail::InvalidArgumentValue)
}

/// A value's text where `+` joins it to a string (at run time Neo4j joins any number,
/// boolean, temporal value, duration or point, as `toString()` writes it).
fn concat_text(v: &Value) -> Option<String> {
    match v {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::String(_) => {
            Some(functions::to_string_plain(v))
        }
        Value::Temporal(t) => Some(t.to_neo4j_string()),
        Value::Point(p) => Some(p.to_string()),
        _ => None,
    }
}

fn add(l: Value, r: Value) -> Result<Value> {
    use crate::temporal::{plus, Temporal};
    match (&l, &r) {
        (Value::String(a), b) => {
            if let Some(text) = concat_text(b) {
                return Ok(Value::from(format!("{a}{text}")));
            }
        }
        (a, Value::String(b)) => {
            if let Some(text) = concat_text(a) {
                return Ok(Value::from(format!("{text}{b}")));
            }
        }
        _ => {}
    }
    if let (Value::Temporal(a), Value::Temporal(b)) = (&l, &r) {
        return match (&**a, &**b) {
            (_, Temporal::Duration(d)) => plus(a, d).map(Value::from).map_err(temporal_err),
            (Temporal::Duration(d), _) => plus(b, d).map(Value::from).map_err(temporal_err),
            _ => Err(arith_type_error(BinaryOp::Add, &l, &r)),
        };
    }
    match (l, r) {
        (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
        (Value::Int(a), Value::Int(b)) => a.checked_add(b).map(Value::Int).ok_or_else(overflow),
        (Value::Int(a), Value::Float(b)) => Ok(Value::Float(a as f64 + b)),
        (Value::Float(a), Value::Int(b)) => Ok(Value::Float(a + b as f64)),
        (Value::Float(a), Value::Float(b)) => Ok(Value::Float(a + b)),
        (Value::List(mut a), Value::List(b)) => {
            a.extend(b);
            Ok(Value::List(a))
        }
        (Value::List(mut a), b) => {
            a.push(b);
            Ok(Value::List(a))
        }
        (a, Value::List(b)) => {
            let mut out = Vec::with_capacity(b.len() + 1);
            out.push(a);
            out.extend(b);
            Ok(Value::List(out))
        }
        (a, b) => Err(arith_type_error(BinaryOp::Add, &a, &b)),
    }
}

/// Neo4j's error for an arithmetic operator on operands it cannot combine (`Cannot add `Long`
/// and `Map``), with its GQL cause: the left operand was expected to be of the right one's type.
pub(crate) fn arith_type_error(op: BinaryOp, l: &Value, r: &Value) -> ExecError {
    let (a, b) = (
        crate::value::java_type_name(l),
        crate::value::java_type_name(r),
    );
    let message = match op {
        BinaryOp::Add | BinaryOp::Concat => format!("Cannot add `{a}` and `{b}`"),
        BinaryOp::Sub => format!("Cannot subtract `{b}` from `{a}`"),
        BinaryOp::Mul => format!("Cannot multiply `{a}` and `{b}`"),
        BinaryOp::Div => format!("Cannot divide `{a}` by `{b}`"),
        BinaryOp::Mod => format!("Cannot calculate modulus of `{a}` and `{b}`"),
        _ => format!("Cannot raise `{a}` to the power of `{b}`"),
    };
    ExecError::type_error(message).expected_type(l, &super::functions::value_type_text(r))
}

fn arith(op: BinaryOp, l: Value, r: Value) -> Result<Value> {
    use crate::temporal::{plus, Temporal};
    use BinaryOp::*;
    if let Value::Temporal(a) = &l {
        match (&**a, &r, op) {
            (_, Value::Temporal(b), Sub) => {
                if let Temporal::Duration(d) = &**b {
                    return plus(a, &d.neg()).map(Value::from).map_err(temporal_err);
                }
            }
            (Temporal::Duration(d), Value::Int(_) | Value::Float(_), Mul | Div) => {
                let f = r.as_f64().unwrap_or(1.0);
                let out = match (op, &r) {
                    (Div, _) if f == 0.0 => {
                        return Err(ExecError::runtime(ErrorKind::ArithmeticError, "/ by zero")
                            .with_detail(Detail::DivisionByZero));
                    }
                    (Div, _) => d.div(f),
                    // An integer factor multiplies exactly.
                    (_, Value::Int(k)) => d.mul_int(*k).ok_or_else(overflow)?,
                    _ => d.mul(f),
                };
                return Ok(Value::from(Temporal::Duration(out)));
            }
            _ => {}
        }
    }
    if let (Value::Int(_) | Value::Float(_), Value::Temporal(b), Mul) = (&l, &r, op) {
        if let Temporal::Duration(d) = &**b {
            let out = match &l {
                Value::Int(k) => d.mul_int(*k).ok_or_else(overflow)?,
                _ => d.mul(l.as_f64().unwrap_or(1.0)),
            };
            return Ok(Value::from(Temporal::Duration(out)));
        }
    }
    match (&l, &r) {
        (Value::Null, _) | (_, Value::Null) => return Ok(Value::Null),
        (Value::Int(a), Value::Int(b)) => {
            let (a, b) = (*a, *b);
            return match op {
                Sub => a.checked_sub(b).map(Value::Int).ok_or_else(overflow),
                Mul => a.checked_mul(b).map(Value::Int).ok_or_else(overflow),
                Div => {
                    if b == 0 {
                        Err(ExecError::runtime(ErrorKind::ArithmeticError, "/ by zero")
                            .with_detail(Detail::DivisionByZero))
                    } else {
                        a.checked_div(b).map(Value::Int).ok_or_else(overflow)
                    }
                }
                Mod => {
                    if b == 0 {
                        Err(ExecError::runtime(ErrorKind::ArithmeticError, "/ by zero")
                            .with_detail(Detail::DivisionByZero))
                    } else {
                        Ok(Value::Int(a.wrapping_rem(b)))
                    }
                }
                _ => Ok(Value::Float((a as f64).powf(b as f64))),
            };
        }
        _ => {}
    }
    let (Some(a), Some(b)) = (l.as_f64(), r.as_f64()) else {
        return Err(arith_type_error(op, &l, &r));
    };
    Ok(Value::Float(match op {
        Sub => a - b,
        Mul => a * b,
        Div => a / b,
        Mod => a % b,
        _ => a.powf(b),
    }))
}

fn slice(base: &Value, from: Option<Value>, to: Option<Value>) -> Result<Value> {
    let list = match base {
        Value::Null => return Ok(Value::Null),
        Value::List(l) => l,
        other => {
            return Err(ExecError::type_error(format!(
                "cannot slice {}",
                type_name(other)
            )))
        }
    };
    let n = list.len() as i64;
    let bound = |v: Option<Value>, default: i64| -> Result<Option<i64>> {
        match v {
            None => Ok(Some(default)),
            Some(Value::Null) => Ok(None),
            Some(Value::Int(i)) => Ok(Some(if i < 0 { (n + i).max(0) } else { i.min(n) })),
            Some(other) => Err(ExecError::type_error(format!(
                "slice bound must be an integer, got {}",
                type_name(&other)
            ))),
        }
    };
    let (Some(a), Some(b)) = (bound(from, 0)?, bound(to, n)?) else {
        return Ok(Value::Null);
    };
    if a >= b {
        return Ok(Value::List(vec![]));
    }
    Ok(Value::List(list[a as usize..b as usize].to_vec()))
}

/// Builds a path value from nodes and relationships.
pub(crate) fn path_value(
    nodes: Vec<crate::value::NodeId>,
    rels: Vec<crate::value::RelId>,
) -> Value {
    Value::Path(Arc::new(Path { nodes, rels }))
}
