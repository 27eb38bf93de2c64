//! `WITH` and `RETURN`: projection, implicit grouping with the aggregate accumulators,
//! DISTINCT, ORDER BY, SKIP and LIMIT.

use super::*;
use crate::engine::Detail;

/// Single integer keys below this find their group by index ([`Projecting::int_group`]).
const SMALL_INTS: usize = 1 << 16;

/// A variable that `e` reads outside every projected expression and aggregate call, when the
/// projection aggregates (such a read has no single value per group).
pub(super) fn unprojected_variable(e: &Expr, p: &Projection, cols: &[Arc<str>]) -> Option<String> {
    if p.items.iter().any(|it| it.expr == *e) {
        return None;
    }
    match &e.kind {
        ExprKind::Variable(v) => (!cols.iter().any(|c| **c == *v.name)).then(|| v.name.clone()),
        ExprKind::CountStar => None,
        ExprKind::FunctionCall { name, .. } if functions::is_aggregate(name) => None,
        ExprKind::ListComprehension { .. }
        | ExprKind::Quantified { .. }
        | ExprKind::Reduce { .. }
        | ExprKind::Pattern(_)
        | ExprKind::Exists(_)
        | ExprKind::CountSubquery(_)
        | ExprKind::Collect(_)
        | ExprKind::PatternComprehension { .. } => {
            let mut vars = Vec::new();
            free_vars(e, &mut vars);
            vars.into_iter()
                .find(|v| !v.starts_with('\u{0}') && !cols.iter().any(|c| **c == **v))
        }
        _ => e
            .children()
            .into_iter()
            .find_map(|c| unprojected_variable(c, p, cols)),
    }
}

/// An aggregating function, bound once when its projection is compiled: each group's
/// accumulator is made and finished by its kind, never by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Aggregate {
    CountStar,
    Count,
    Sum,
    Avg,
    Min,
    Max,
    Collect,
    StDev,
    StDevP,
    PercentileCont,
    PercentileDisc,
    Apoc(crate::engine::apoc::ApocAggregate),
    /// GDS's Cypher projection (`gds.graph.project` as an aggregation).
    GdsProject,
}

impl Aggregate {
    /// The aggregating function `name` (dotted, lower-case), if grape runs it.
    pub(super) fn resolve(name: &str) -> Option<Aggregate> {
        use Aggregate as A;
        Some(match name {
            "count*" => A::CountStar,
            "count" => A::Count,
            "sum" => A::Sum,
            "avg" => A::Avg,
            "min" => A::Min,
            "max" => A::Max,
            "collect" => A::Collect,
            "stdev" => A::StDev,
            "stdevp" => A::StDevP,
            "percentilecont" => A::PercentileCont,
            "percentiledisc" => A::PercentileDisc,
            "gds.graph.project" => A::GdsProject,
            other => A::Apoc(crate::engine::apoc::ApocAggregate::resolve(other)?),
        })
    }

    /// Whether its accumulator keeps the values it is given (beyond a distinct set).
    fn keeps_values(self) -> bool {
        !matches!(
            self,
            Aggregate::Count
                | Aggregate::CountStar
                | Aggregate::Sum
                | Aggregate::Avg
                | Aggregate::Min
                | Aggregate::Max
        )
    }
}

pub(super) struct AggSpec<'q> {
    expr: &'q Expr,
    kind: Aggregate,
    distinct: bool,
    args: &'q [Expr],
    /// Whether its accumulator keeps the values it is given (collected values, a distinct
    /// set), so that each row's arguments are charged to the memory budget; decided once.
    keeps: bool,
}

impl AggSpec<'_> {
    fn new<'q>(expr: &'q Expr, kind: Aggregate, distinct: bool, args: &'q [Expr]) -> AggSpec<'q> {
        AggSpec {
            expr,
            kind,
            distinct,
            args,
            keeps: distinct || kind.keeps_values(),
        }
    }
}

pub(super) fn collect_aggregates<'q>(e: &'q Expr, out: &mut Vec<AggSpec<'q>>) {
    match &e.kind {
        ExprKind::CountStar => out.push(AggSpec::new(e, Aggregate::CountStar, false, &[])),
        ExprKind::FunctionCall {
            name,
            distinct,
            args,
        } if functions::is_aggregate(name) => {
            // Every name `is_aggregate` accepts resolves (a unit test holds the two lists
            // together).
            if let Some(kind) = Aggregate::resolve(&name.dotted().to_ascii_lowercase()) {
                out.push(AggSpec::new(e, kind, *distinct, args));
            }
        }
        // The list a comprehension or quantifier runs over, and a reduction's start and list,
        // are evaluated once per group, so an aggregate there is the group's
        // (`size([x IN collect(r) WHERE x IS NOT NULL])`); the per-element parts may hold none.
        ExprKind::ListComprehension { list, .. } | ExprKind::Quantified { list, .. } => {
            collect_aggregates(list, out)
        }
        ExprKind::Reduce { init, list, .. } => {
            collect_aggregates(init, out);
            collect_aggregates(list, out);
        }
        ExprKind::Exists(_)
        | ExprKind::CountSubquery(_)
        | ExprKind::Collect(_)
        | ExprKind::PatternComprehension { .. } => {
            // Aggregates inside these are evaluated per element, not per group.
            for c in direct_children(e) {
                collect_aggregates(c, out)
            }
        }
        _ => {
            for c in direct_children(e) {
                collect_aggregates(c, out)
            }
        }
    }
}

/// A projection ready to take rows: its columns, and for an aggregating one the groups so far
/// ([`Runner::prepare_projection`], [`Projecting::add`], [`Runner::finish_projection`]).
pub(crate) struct Projecting<'q> {
    cols: Vec<Arc<str>>,
    star_slots: Vec<usize>,
    aggs: Vec<AggSpec<'q>>,
    item_has_agg: Vec<bool>,
    /// Whether the rows are grouped: an aggregate in an item, a GROUP BY, or (Cypher 25)
    /// DISTINCT with an aggregate in ORDER BY or WHERE.
    grouping: bool,
    /// An explicit GROUP BY's keys (Cypher 25), over the incoming scope; the items are then
    /// computed from each group's first row (the analysis checked that the keys determine
    /// them). `None`: the items without aggregates are the keys.
    keys: Option<Vec<&'q Expr>>,
    /// Without aggregates: the projected rows.
    projected: Vec<Projected>,
    /// Per item, whether it is computed only for the rows ORDER BY, SKIP and LIMIT keep (see
    /// [`deferred_items`]); such items hold null until then.
    deferred: Vec<bool>,
    /// With aggregates: each group's position in `order`, by key. Fx hashing: a group key is
    /// hashed once per row, and SipHash costs a good part of an aggregation over a large
    /// graph.
    groups: rustc_hash::FxHashMap<Vec<GroupKey>, usize>,
    /// The groups of a single integer key, by the integer (a shortcut to `groups`).
    int_groups: rustc_hash::FxHashMap<i64, usize>,
    /// The same for small non-negative integers, by index: each group's position plus one,
    /// 0 for none yet (a read, where a hash lookup would cost more than the rest of the row).
    small_int_groups: Vec<u32>,
    /// Each group: its key values, its first row, its accumulators.
    order: Vec<(Row, Row, Vec<Accumulator>)>,
    /// The key of the row being added (kept to spare an allocation per row).
    key: Vec<GroupKey>,
    /// The items (those without aggregates) and the aggregates' arguments compiled for the
    /// rows being added, with the address and length of the scope they were compiled for:
    /// compiled at the first row, again only if the rows' layout changes.
    compiled: Option<(usize, usize, CompiledItems<'q>)>,
}

/// A projection's per-row expressions, compiled against the layout of its input rows.
struct CompiledItems<'q> {
    /// Each item, `None` for one with an aggregate (evaluated per group, at the end) and,
    /// under explicit keys, for every item.
    items: Vec<Option<CExpr<'q>>>,
    /// An explicit GROUP BY's keys.
    keys: Vec<CExpr<'q>>,
    /// Each aggregate's arguments.
    agg_args: Vec<Vec<CExpr<'q>>>,
}

impl<'q> Projecting<'q> {
    /// Compiles the items for rows of `scope`, unless they were compiled for them.
    fn compile_for(&mut self, run: &Runner, p: &'q Projection, scope: &[Arc<str>]) {
        let key = (scope.as_ptr() as usize, scope.len());
        if !matches!(&self.compiled, Some((a, l, _)) if (*a, *l) == key) {
            let layout = Layout::new(scope);
            let aggregating = self.grouping;
            let explicit = self.keys.is_some();
            let items = p
                .items
                .iter()
                .zip(&self.item_has_agg)
                .map(|(it, has)| {
                    (!(explicit || aggregating && *has)).then(|| run.compile(&it.expr, &layout))
                })
                .collect();
            let keys = self
                .keys
                .iter()
                .flatten()
                .map(|k| run.compile(k, &layout))
                .collect();
            let agg_args = self
                .aggs
                .iter()
                .map(|a| a.args.iter().map(|x| run.compile(x, &layout)).collect())
                .collect();
            self.compiled = Some((
                key.0,
                key.1,
                CompiledItems {
                    items,
                    keys,
                    agg_args,
                },
            ));
        }
    }

    /// What an aggregation fed batches evaluates per row (`physical::aggregate`): the
    /// grouping keys (an explicit GROUP BY's, else the items without aggregates) and each
    /// aggregate's arguments. `None` when the projection does not group, or groups by the
    /// variables of `*`.
    #[allow(clippy::type_complexity)]
    pub(super) fn batch_exprs(
        &self,
        p: &'q Projection,
    ) -> Option<(Vec<&'q Expr>, Vec<&'q [Expr]>)> {
        if !self.grouping || !self.star_slots.is_empty() {
            return None;
        }
        let keys = match &self.keys {
            Some(k) => k.clone(),
            None => p
                .items
                .iter()
                .zip(&self.item_has_agg)
                .filter(|(_, has)| !**has)
                .map(|(it, _)| &it.expr)
                .collect(),
        };
        Some((keys, self.aggs.iter().map(|a| a.args).collect()))
    }

    /// The key of the row being added, to fill before [`Projecting::group_index`].
    pub(super) fn key_mut(&mut self) -> &mut Vec<GroupKey> {
        &mut self.key
    }

    /// The group of the key in [`Projecting::key_mut`]: found, or made with the row `first`
    /// gives as its first row (charged to the memory budget, as
    /// [`Runner::add_to_projection`] does).
    pub(super) fn group_index(
        &mut self,
        run: &Runner,
        first: impl FnOnce() -> Row,
    ) -> Result<usize> {
        // One integer key: its group by the integer, without hashing a key vector.
        let int = match self.key.as_slice() {
            [GroupKey(Value::Int(i))] => Some(*i),
            _ => None,
        };
        if let Some(gi) = int.and_then(|i| self.int_group(i)) {
            return Ok(gi);
        }
        if let Some(&gi) = self.groups.get(self.key.as_slice()) {
            if let Some(i) = int {
                self.remember_int(i, gi);
            }
            return Ok(gi);
        }
        if let Some(i) = int {
            self.remember_int(i, self.order.len());
        }
        let gi = self.order.len();
        let key_vals: Row = self.key.iter().map(|k| k.0.clone()).collect();
        let r = first();
        run.sh
            .charge(Shared::row_bytes(&key_vals) + Shared::row_bytes(&r))?;
        self.groups.insert(self.key.clone(), gi);
        let accs = self
            .aggs
            .iter()
            .map(|a| Accumulator::new(a.kind, a.distinct))
            .collect();
        self.order.push((key_vals, r, accs));
        Ok(gi)
    }

    /// The group of the single integer key `i`, if it has one yet.
    #[inline]
    pub(super) fn int_group(&self, i: i64) -> Option<usize> {
        match self.small_int_groups.get(usize::try_from(i).ok()?) {
            Some(&g) if g > 0 => Some(g as usize - 1),
            Some(_) => None,
            None => self.int_groups.get(&i).copied(),
        }
    }

    fn remember_int(&mut self, i: i64, gi: usize) {
        match usize::try_from(i) {
            Ok(k) if k < SMALL_INTS && gi < u32::MAX as usize => {
                if self.small_int_groups.len() <= k {
                    self.small_int_groups.resize(k + 1, 0);
                }
                self.small_int_groups[k] = gi as u32 + 1;
            }
            _ => {
                self.int_groups.insert(i, gi);
            }
        }
    }

    /// Whether aggregate `a` is `count(*)`, which reads no argument and cannot fail: its rows
    /// may be added in runs ([`Projecting::add_rows`]).
    pub(super) fn counts_rows(&self, a: usize) -> bool {
        self.aggs[a].kind == Aggregate::CountStar
    }

    /// Adds `n` rows to group `gi`'s `count(*)`, aggregate `a` ([`Projecting::counts_rows`]).
    pub(super) fn add_rows(&mut self, gi: usize, a: usize, n: u64) -> Result<()> {
        match &mut self.order[gi].2[a] {
            Accumulator::Count {
                n: count,
                star: true,
                ..
            } => {
                *count = count.saturating_add(i64::try_from(n).unwrap_or(i64::MAX));
                Ok(())
            }
            acc => {
                for _ in 0..n {
                    acc.add(Default::default())?;
                }
                Ok(())
            }
        }
    }

    /// Adds one row's arguments of aggregate `a` to group `gi`.
    pub(super) fn accumulate(
        &mut self,
        run: &Runner,
        gi: usize,
        a: usize,
        args: crate::engine::functions::Args,
    ) -> Result<()> {
        if self.aggs[a].keeps {
            run.sh.charge(Shared::row_bytes(&args))?;
        }
        self.order[gi].2[a].add(args)
    }

    /// Whether the projection aggregates (then its rows are groups, and the rows it is fed
    /// need not be kept).
    pub(crate) fn aggregates(&self) -> bool {
        self.grouping
    }
}

impl<'a> Runner<'a> {
    /// WITH / RETURN: projects, groups, dedupes, orders, skips and limits.
    pub(crate) fn project(
        &self,
        p: &Projection,
        scope: &[Arc<str>],
        rows: Vec<Row>,
        is_return: bool,
        where_: Option<&Expr>,
    ) -> Result<(Vec<Arc<str>>, Vec<Row>)> {
        let mut pr = self.prepare_projection(p, scope, is_return, where_)?;
        for r in rows {
            self.sh.tick()?;
            if pr.aggregates() {
                self.add_to_projection(&mut pr, p, scope, &r)?;
            } else {
                self.project_row(&mut pr, p, scope, r)?;
            }
        }
        self.finish_projection(p, scope, pr, where_)
    }

    /// Checks a projection over `scope` (what Neo4j checks when it compiles one) and makes it
    /// ready to take rows.
    pub(crate) fn prepare_projection<'q>(
        &self,
        p: &'q Projection,
        scope: &[Arc<str>],
        is_return: bool,
        where_: Option<&'q Expr>,
    ) -> Result<Projecting<'q>> {
        let (cols, star_slots) = projection_columns(p, scope, is_return, self.sh.src)?;
        let mut aggs: Vec<AggSpec> = Vec::new();
        for it in &p.items {
            collect_aggregates(&it.expr, &mut aggs);
        }
        let keys = p.grouping_keys(self.sh.src);
        // (The analysis has refused what Neo4j refuses about GROUP BY, and aggregates in
        // ORDER BY or WHERE where they may not be.)
        // (Under Cypher 5 an aggregate in a DISTINCT projection's WHERE fails when it runs,
        // as in Neo4j 5.26.)
        let regroups = p.group_by.is_some()
            || (p.distinct
                && self.sh.cypher25
                && (p.order_by.iter().any(|s| has_aggregate(&s.expr))
                    || where_.is_some_and(has_aggregate)));
        let items_aggregate = !aggs.is_empty() || regroups;
        for s in &p.order_by {
            let mut in_sort = Vec::new();
            collect_aggregates(&s.expr, &mut in_sort);
            if p.items.iter().any(|it| it.expr == s.expr) {
                continue;
            }
            if !in_sort.is_empty() && !items_aggregate {
                // Sorting by an aggregate needs the projection to aggregate too.
                return Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    "aggregation in ORDER BY requires an aggregating WITH or RETURN",
                )
                .with_detail(Detail::InvalidAggregation)
                .at(s.span));
            }
            if (items_aggregate || !in_sort.is_empty()) && !regroups {
                // After aggregation only the projected names (and projected expressions, and
                // the arguments of aggregates) are in scope.
                if let Some(v) = unprojected_variable(&s.expr, p, &cols) {
                    return Err(ExecError::compile(
                        ErrorKind::SyntaxError,
                        format!("variable `{v}` not defined: after aggregation ORDER BY sees only the projected columns"),
                    )
                    .with_detail(Detail::UndefinedVariable)
                    .at(s.span));
                }
            }
        }
        let item_has_agg: Vec<bool> = p
            .items
            .iter()
            .map(|it| {
                let mut v = Vec::new();
                collect_aggregates(&it.expr, &mut v);
                !v.is_empty()
            })
            .collect();
        for s in &p.order_by {
            collect_aggregates(&s.expr, &mut aggs);
        }
        if items_aggregate {
            if let Some(w) = where_ {
                collect_aggregates(w, &mut aggs);
            }
        }
        let deferred = deferred_items(p, &cols, items_aggregate);
        Ok(Projecting {
            cols,
            star_slots,
            aggs,
            item_has_agg,
            deferred,
            grouping: items_aggregate,
            keys,
            projected: Vec::new(),
            groups: Default::default(),
            int_groups: Default::default(),
            small_int_groups: Vec::new(),
            order: Vec::new(),
            key: Vec::new(),
            compiled: None,
        })
    }

    /// Projects one row of a projection without aggregates.
    fn project_row<'q>(
        &self,
        pr: &mut Projecting<'q>,
        p: &'q Projection,
        scope: &[Arc<str>],
        r: Row,
    ) -> Result<()> {
        let env = Env::new(scope, &r);
        let mut out: Row = pr.star_slots.iter().map(|&i| r[i].clone()).collect();
        pr.compile_for(self, p, scope);
        if let Some((_, _, compiled)) = &pr.compiled {
            for (c, deferred) in compiled.items.iter().zip(&pr.deferred) {
                match c {
                    Some(_) if *deferred => out.push(Value::Null),
                    Some(c) => out.push(self.eval_compiled(c, &env)?),
                    None => {}
                }
            }
        }
        // The projected rows are held until the clause ends.
        self.sh.charge(Shared::row_bytes(&out))?;
        pr.projected.push((out, r, None));
        Ok(())
    }

    /// Adds one row to the groups of an aggregating projection: the row is read, not kept
    /// (but for the first of each group, which the group's other expressions may read).
    pub(crate) fn add_to_projection<'q>(
        &self,
        pr: &mut Projecting<'q>,
        p: &'q Projection,
        scope: &[Arc<str>],
        r: &[Value],
    ) -> Result<()> {
        let env = Env::new(scope, r);
        pr.compile_for(self, p, scope);
        let Projecting {
            star_slots,
            key,
            keys: pr_keys,
            compiled: Some((_, _, compiled)),
            ..
        } = &mut *pr
        else {
            unreachable!("compiled by compile_for")
        };
        // Group by the explicit keys, or by the items without aggregates (and the `*`
        // variables).
        key.clear();
        if pr_keys.is_some() {
            for c in &compiled.keys {
                key.push(GroupKey(self.eval_compiled(c, &env)?));
            }
        } else {
            for &i in star_slots.iter() {
                key.push(GroupKey(r[i].clone()));
            }
            for c in compiled.items.iter().flatten() {
                key.push(GroupKey(self.eval_compiled(c, &env)?));
            }
        }
        let gi = pr.group_index(self, || r.to_vec())?;
        let Some((_, _, compiled)) = &pr.compiled else {
            unreachable!("compiled by compile_for")
        };
        for (a, xs) in compiled.agg_args.iter().enumerate() {
            // Inline: one row's arguments take no allocation.
            let mut args = crate::engine::functions::Args::new();
            for x in xs {
                args.push(self.eval_compiled(x, &env)?);
            }
            let acc = &mut pr.order[gi].2[a];
            // What an accumulator keeps: collected values, distinct sets, numbers.
            if pr.aggs[a].keeps {
                self.sh.charge(Shared::row_bytes(&args))?;
            }
            acc.add(args)?;
        }
        Ok(())
    }

    /// Ends a projection: finishes the groups, then DISTINCT, ORDER BY, SKIP, LIMIT and a
    /// WITH's WHERE. Returns the columns and the rows.
    pub(crate) fn finish_projection(
        &self,
        p: &Projection,
        scope: &[Arc<str>],
        pr: Projecting,
        where_: Option<&Expr>,
    ) -> Result<(Vec<Arc<str>>, Vec<Row>)> {
        let Projecting {
            cols,
            star_slots,
            aggs,
            item_has_agg,
            deferred,
            grouping,
            keys,
            mut projected,
            mut order,
            ..
        } = pr;
        let layout = Layout::new(scope);
        // ORDER BY and WHERE see the projected columns, then the source row's variables.
        let after = Layout::within(&cols, &layout);
        if grouping {
            let explicit = keys.as_ref();
            // Under explicit keys every item is computed from the group's first row.
            let items: Vec<Option<CExpr>> = p
                .items
                .iter()
                .zip(&item_has_agg)
                .map(|(it, has)| {
                    (*has || explicit.is_some()).then(|| self.compile(&it.expr, &layout))
                })
                .collect();
            // Without keys, an aggregation over no rows is one group (`GROUP BY ()`, or only
            // aggregates).
            let one_group = match explicit {
                Some(k) => k.is_empty() && item_has_agg.iter().any(|h| *h),
                None => star_slots.is_empty() && item_has_agg.iter().all(|h| *h),
            };
            if order.is_empty() && one_group && !item_has_agg.is_empty() {
                order.push((
                    Vec::new(),
                    vec![Value::Null; scope.len()],
                    aggs.iter()
                        .map(|a| Accumulator::new(a.kind, a.distinct))
                        .collect(),
                ));
            }
            for (key_vals, rep, accs) in order {
                let mut values = HashMap::new();
                for (a, acc) in aggs.iter().zip(accs) {
                    let v = match acc {
                        Accumulator::GdsProject { rows } => {
                            crate::engine::gds::project_aggregate(self.graph(), rows, self.sh.src)?
                        }
                        acc => acc.finish()?,
                    };
                    self.sh.admit(&v)?;
                    values.insert(a.expr as *const Expr as usize, v);
                }
                let run = Runner {
                    agg: Some(&values),
                    ..*self
                };
                let env = Env::new(scope, &rep);
                let mut keys = key_vals.into_iter();
                let mut out: Row = Vec::with_capacity(cols.len());
                for &i in &star_slots {
                    if explicit.is_some() {
                        out.push(rep.get(i).cloned().unwrap_or(Value::Null));
                    } else {
                        out.push(keys.next().unwrap_or(Value::Null));
                    }
                }
                for item in &items {
                    match item {
                        Some(c) => out.push(run.eval_compiled(c, &env)?),
                        None => out.push(keys.next().unwrap_or(Value::Null)),
                    }
                }
                projected.push((out, rep, Some(values)));
            }
        }

        // Under PROFILE, each operator of the projection counts the rows it passed on
        // (`planner::projection` puts the probes on the same operators).
        let key = p as *const Projection as usize;
        self.sh
            .profile_steps(key, stage::PROJECTED, projected.len() as u64);
        // (With explicit GROUP BY keys, DISTINCT changes nothing: Neo4j 2026.08.)
        if p.distinct && keys.is_none() {
            let mut seen = HashSet::new();
            projected.retain(|(out, _, _)| {
                seen.insert(out.iter().cloned().map(GroupKey).collect::<Vec<_>>())
            });
            self.sh
                .profile_steps(key, stage::DISTINCT, projected.len() as u64);
        }

        // Sorted by the MATCH before it (`compile::sort_early`): the rows come in order.
        let sorted = self.sh.sorted_early.borrow().contains(&key);
        if !p.order_by.is_empty() && !sorted {
            // Sort keys see the projected columns first, then the source row's variables. An
            // ORDER BY expression that is a projected item uses that column.
            let sort: Vec<std::result::Result<usize, CExpr>> = p
                .order_by
                .iter()
                .map(|s| match p.items.iter().position(|it| it.expr == s.expr) {
                    Some(i) => Ok(star_slots.len() + i),
                    None => Err(self.compile(&s.expr, &after)),
                })
                .collect();
            let mut keyed: Vec<(Vec<Value>, Projected)> = Vec::with_capacity(projected.len());
            for (out, src, agg_vals) in projected {
                self.sh.tick()?;
                let run = Runner {
                    agg: agg_vals.as_ref(),
                    ..*self
                };
                let outer = Env::new(scope, &src);
                let env = Env {
                    names: &cols,
                    values: &out,
                    outer: Some(&outer),
                };
                let mut keys = Vec::with_capacity(sort.len());
                for s in &sort {
                    keys.push(match s {
                        Ok(i) => out[*i].clone(),
                        Err(c) => run.eval_compiled(c, &env)?,
                    });
                }
                self.sh.charge(Shared::row_bytes(&keys))?;
                keyed.push((keys, (out, src, agg_vals)));
            }
            let cmp = |a: &(Vec<Value>, Projected), b: &(Vec<Value>, Projected)| {
                for (i, s) in p.order_by.iter().enumerate() {
                    let o = a.0[i].order(&b.0[i]);
                    let o = if s.descending { o.reverse() } else { o };
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            };
            // ORDER BY … LIMIT: only the rows the limit keeps are sorted (`Top`).
            let keyed = match self.kept_front(p) {
                Some(k) if k < keyed.len() => self.sh.top_checked(keyed, k, cmp)?,
                _ => self.sh.sort_checked(keyed, cmp)?,
            };
            projected = keyed.into_iter().map(|(_, r)| r).collect();
            self.sh
                .profile_steps(key, stage::SORTED, projected.len() as u64);
        }
        let mut projected = self.skip_limit(p, projected)?;
        if deferred.iter().any(|d| *d) {
            // The items nothing before the cut reads, for the rows it kept (as Neo4j projects
            // them after Sort/Top/Skip/Limit: a row cut off never computes them).
            let late: Vec<(usize, CExpr)> = p
                .items
                .iter()
                .zip(&deferred)
                .enumerate()
                .filter(|(_, (_, d))| **d)
                .map(|(i, (it, _))| (star_slots.len() + i, self.compile(&it.expr, &layout)))
                .collect();
            for (out, src, _) in &mut projected {
                self.sh.tick()?;
                let env = Env::new(scope, src);
                for (at, c) in &late {
                    out[*at] = self.eval_compiled(c, &env)?;
                }
                self.sh.charge(Shared::row_bytes(out))?;
            }
        }
        let rows = match where_ {
            None => projected.into_iter().map(|(r, _, _)| r).collect(),
            Some(pred) => {
                let pred = self.compile(pred, &after);
                // WITH … WHERE sees the projected names, then the variables of the preceding
                // scope: after DISTINCT or an aggregation the analysis lets it read those only
                // inside a projected expression, which has one value in every source row of
                // the output row (its representative here).
                let mut kept = Vec::with_capacity(projected.len());
                for (out, src, agg_vals) in projected {
                    self.sh.tick()?;
                    let run = Runner {
                        agg: agg_vals.as_ref(),
                        ..*self
                    };
                    let outer = Env::new(scope, &src);
                    let env = Env {
                        names: &cols,
                        values: &out,
                        outer: Some(&outer),
                    };
                    if crate::engine::eval::passes(&run.eval_compiled(&pred, &env)?)? {
                        kept.push(out);
                    }
                }
                kept
            }
        };
        Ok((cols, rows))
    }

    /// How many rows from the front `SKIP … LIMIT …` keeps at most (skip + limit), when there
    /// is a LIMIT and both evaluate; `None` otherwise (an error is reported where the rows are
    /// cut, after the sort keys', as before).
    fn kept_front(&self, p: &Projection) -> Option<usize> {
        let limit = self.count_arg(p.limit.as_ref()?, "LIMIT").ok()?;
        let skip = match &p.skip {
            Some(s) => self.count_arg(s, "SKIP").ok()?,
            None => 0,
        };
        Some(skip.saturating_add(limit))
    }

    /// The value of a `SKIP` or `LIMIT` expression: a non-negative integer.
    fn count_arg(&self, e: &Expr, what: &str) -> Result<usize> {
        {
            let v = self.eval(e, &Env::new(&[], &[]))?;
            match v {
                Value::Int(i) if i >= 0 => Ok(i as usize),
                Value::Int(_) => Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    format!("{what} must be a non-negative integer"),
                )
                .with_detail(Detail::NegativeIntegerArgument)),
                Value::Float(_) => Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    format!("{what} must be an integer"),
                )
                .with_detail(Detail::InvalidArgumentType)),
                other => Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    format!(
                        "{what} must be an integer, got {}",
                        crate::value::type_name(&other)
                    ),
                )
                .with_detail(Detail::InvalidArgumentType)),
            }
        }
    }

    pub(super) fn skip_limit<T>(&self, p: &Projection, mut rows: Vec<T>) -> Result<Vec<T>> {
        let key = p as *const Projection as usize;
        let before = rows.len();
        let mut skipped = 0;
        if let Some(s) = &p.skip {
            skipped = self.count_arg(s, "SKIP")?;
            rows.drain(..skipped.min(rows.len()));
        }
        if let Some(l) = &p.limit {
            let n = self.count_arg(l, "LIMIT")?;
            rows.truncate(n);
            // Counted as the plan has it: the first SKIP + LIMIT rows, then the skip.
            let limited = before.min(skipped.saturating_add(n));
            self.sh.profile_steps(key, stage::LIMITED, limited as u64);
        }
        if p.skip.is_some() {
            self.sh
                .profile_steps(key, stage::SKIPPED, rows.len() as u64);
        }
        Ok(rows)
    }
}

/// The counters PROFILE keeps for a projection's operators (`Shared::profile_steps`, keyed
/// by the projection), in the order they run: the rows the `Projection` or `EagerAggregation`
/// made, those `Distinct` kept, `Sort`/`Top` passed, `Skip` and `Limit` kept (the `Projection`
/// after them passes what `Limit` or `Skip` kept).
pub(crate) mod stage {
    pub(crate) const PROJECTED: usize = 0;
    pub(crate) const DISTINCT: usize = 1;
    pub(crate) const SORTED: usize = 2;
    pub(crate) const SKIPPED: usize = 3;
    pub(crate) const LIMITED: usize = 4;
}

/// Which items of a projection are computed only for the rows its ORDER BY, SKIP and LIMIT
/// keep: in a projection that neither aggregates nor dedupes, has one of them, every item but
/// those the sort reads (the same expression as a sort key, or a column a sort key names).
/// Neo4j plans them so (a Projection above Sort/Top/Skip/Limit), and a row cut off never
/// evaluates them: `UNWIND [1, 0] AS x RETURN 1/x AS y ORDER BY x DESC LIMIT 1` is 1, not a
/// division by zero.
pub(crate) fn deferred_items(p: &Projection, cols: &[Arc<str>], aggregates: bool) -> Vec<bool> {
    let cuts = !p.order_by.is_empty() || p.skip.is_some() || p.limit.is_some();
    if aggregates || p.distinct || !cuts {
        return vec![false; p.items.len()];
    }
    let mut named = Vec::new();
    for s in &p.order_by {
        super::walk::free_vars(&s.expr, &mut named);
    }
    let offset = cols.len() - p.items.len();
    p.items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let sorted = p.order_by.iter().any(|s| s.expr == it.expr);
            let read = named.iter().any(|n| **n == *cols[offset + i]);
            let plain =
                matches!(&it.expr.kind, ExprKind::Variable(v) if *v.name == *cols[offset + i]);
            !(sorted || read || plain)
        })
        .collect()
}

/// The running state of one aggregate function in one group.
pub(super) enum Accumulator {
    Count {
        distinct: Option<HashSet<GroupKey>>,
        n: i64,
        star: bool,
    },
    Sum {
        distinct: Option<HashSet<GroupKey>>,
        int: i64,
        float: f64,
        is_float: bool,
        any: bool,
    },
    /// Neo4j's running mean, `mean += (x - mean) / n` (its rounding, not a sum's).
    Avg {
        distinct: Option<HashSet<GroupKey>>,
        mean: f64,
        n: u64,
    },
    Min(Option<Value>),
    Max(Option<Value>),
    Collect {
        distinct: Option<HashSet<GroupKey>>,
        items: Vec<Value>,
    },
    /// APOC's aggregating functions (`apoc.agg.*`): the argument rows with a value, finished
    /// at the end.
    Apoc {
        f: crate::engine::apoc::ApocAggregate,
        rows: Vec<Vec<Value>>,
    },
    /// GDS's Cypher projection: its argument rows, the graph projected at the end.
    GdsProject {
        rows: Vec<Vec<Value>>,
    },
    /// stDev, stDevP, percentileCont, percentileDisc: collect the numbers, finish at the end.
    Numbers {
        kind: Aggregate,
        distinct: Option<HashSet<GroupKey>>,
        xs: Vec<f64>,
        ints: bool,
        pct: Option<Value>,
    },
}

impl Accumulator {
    pub(super) fn new(kind: Aggregate, distinct: bool) -> Self {
        let d = || distinct.then(HashSet::new);
        match kind {
            Aggregate::CountStar => Accumulator::Count {
                distinct: None,
                n: 0,
                star: true,
            },
            Aggregate::Count => Accumulator::Count {
                distinct: d(),
                n: 0,
                star: false,
            },
            Aggregate::Sum => Accumulator::Sum {
                distinct: d(),
                int: 0,
                float: 0.0,
                is_float: false,
                any: false,
            },
            Aggregate::Avg => Accumulator::Avg {
                distinct: d(),
                mean: 0.0,
                n: 0,
            },
            Aggregate::Min => Accumulator::Min(None),
            Aggregate::Max => Accumulator::Max(None),
            Aggregate::Collect => Accumulator::Collect {
                distinct: d(),
                items: Vec::new(),
            },
            Aggregate::Apoc(f) => Accumulator::Apoc {
                f,
                rows: Vec::new(),
            },
            Aggregate::GdsProject => Accumulator::GdsProject { rows: Vec::new() },
            kind @ (Aggregate::StDev
            | Aggregate::StDevP
            | Aggregate::PercentileCont
            | Aggregate::PercentileDisc) => Accumulator::Numbers {
                kind,
                distinct: d(),
                xs: Vec::new(),
                ints: true,
                pct: None,
            },
        }
    }

    pub(super) fn first_new(distinct: &mut Option<HashSet<GroupKey>>, v: &Value) -> bool {
        match distinct {
            Some(set) => set.insert(GroupKey(v.clone())),
            None => true,
        }
    }

    pub(super) fn add(&mut self, mut args: crate::engine::functions::Args) -> Result<()> {
        let v = if args.is_empty() {
            Value::Null
        } else {
            args.remove(0)
        };
        match self {
            Accumulator::Count { distinct, n, star } => {
                if *star || (!v.is_null() && Self::first_new(distinct, &v)) {
                    *n += 1;
                }
            }
            Accumulator::Sum {
                distinct,
                int,
                float,
                is_float,
                any,
            } => {
                if v.is_null() || !Self::first_new(distinct, &v) {
                    return Ok(());
                }
                *any = true;
                match v {
                    Value::Int(i) => {
                        if *is_float {
                            *float += i as f64;
                        } else {
                            match int.checked_add(i) {
                                Some(s) => *int = s,
                                None => {
                                    return Err(ExecError::runtime(
                                        ErrorKind::ArithmeticError,
                                        "integer overflow in sum()",
                                    )
                                    .with_detail(Detail::IntegerOverflow))
                                }
                            }
                        }
                    }
                    Value::Float(f) => {
                        if !*is_float {
                            *is_float = true;
                            *float = *int as f64;
                        }
                        *float += f;
                    }
                    other => {
                        return Err(ExecError::type_error(format!(
                            "sum() of {}",
                            crate::value::type_name(&other)
                        )))
                    }
                }
            }
            Accumulator::Avg { distinct, mean, n } => {
                if v.is_null() || !Self::first_new(distinct, &v) {
                    return Ok(());
                }
                match v.as_f64() {
                    Some(f) => {
                        *n += 1;
                        *mean += (f - *mean) / *n as f64;
                    }
                    None => {
                        return Err(ExecError::type_error(format!(
                            "avg() of {}",
                            crate::value::type_name(&v)
                        )))
                    }
                }
            }
            Accumulator::Min(cur) => {
                if !v.is_null()
                    && cur
                        .as_ref()
                        .is_none_or(|c| v.order(c) == std::cmp::Ordering::Less)
                {
                    *cur = Some(v);
                }
            }
            Accumulator::Max(cur) => {
                if !v.is_null()
                    && cur
                        .as_ref()
                        .is_none_or(|c| v.order(c) == std::cmp::Ordering::Greater)
                {
                    *cur = Some(v);
                }
            }
            Accumulator::Collect { distinct, items } => {
                if !v.is_null() && Self::first_new(distinct, &v) {
                    items.push(v);
                }
            }
            Accumulator::Apoc { rows, .. } | Accumulator::GdsProject { rows } => {
                if !v.is_null() {
                    args.insert(0, v);
                    rows.push(args.into_vec());
                }
            }
            Accumulator::Numbers {
                distinct,
                xs,
                ints,
                pct,
                ..
            } => {
                if let Some(p) = args.first() {
                    if pct.is_none() {
                        *pct = Some(p.clone());
                    }
                }
                if v.is_null() || !Self::first_new(distinct, &v) {
                    return Ok(());
                }
                if !matches!(v, Value::Int(_)) {
                    *ints = false;
                }
                match v.as_f64() {
                    Some(f) => xs.push(f),
                    None => {
                        return Err(ExecError::type_error(format!(
                            "aggregation over {}",
                            crate::value::type_name(&v)
                        )))
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn finish(self) -> Result<Value> {
        Ok(match self {
            Accumulator::Count { n, .. } => Value::Int(n),
            Accumulator::Sum {
                int,
                float,
                is_float,
                ..
            } => {
                if is_float {
                    Value::Float(float)
                } else {
                    Value::Int(int)
                }
            }
            Accumulator::Avg { mean, n, .. } => {
                if n == 0 {
                    Value::Null
                } else {
                    Value::Float(mean)
                }
            }
            Accumulator::Min(v) | Accumulator::Max(v) => v.unwrap_or(Value::Null),
            Accumulator::Collect { items, .. } => Value::List(items),
            Accumulator::Apoc { f, rows } => super::super::apoc::finish_aggregate(f, rows)?,
            // Projected where the graph is at hand (`finish_projection`), never here.
            Accumulator::GdsProject { .. } => {
                return Err(ExecError::unsupported(
                    "gds.graph.project finished without its graph",
                ))
            }
            Accumulator::Numbers {
                kind,
                mut xs,
                ints,
                pct,
                ..
            } => {
                let n = xs.len();
                match kind {
                    Aggregate::StDev | Aggregate::StDevP => {
                        let pop = kind == Aggregate::StDevP;
                        // No value at all: null (the Neo4j 5.26 oracle); one value: 0.0.
                        if n == 0 {
                            return Ok(Value::Null);
                        }
                        if !pop && n == 1 {
                            return Ok(Value::Float(0.0));
                        }
                        // Welford's running mean and sum of squares, as Neo4j computes them
                        // (its rounding, not a two-pass sum's).
                        let (mut mean, mut m2) = (0.0f64, 0.0f64);
                        for (i, x) in xs.iter().enumerate() {
                            let delta = x - mean;
                            mean += delta / (i + 1) as f64;
                            m2 += delta * (x - mean);
                        }
                        Value::Float((m2 / if pop { n as f64 } else { (n - 1) as f64 }).sqrt())
                    }
                    Aggregate::PercentileCont | Aggregate::PercentileDisc => {
                        let p = match pct {
                            Some(Value::Int(i)) => i as f64,
                            Some(Value::Float(f)) => f,
                            Some(Value::Null) | None => return Ok(Value::Null),
                            Some(other) => {
                                return Err(ExecError::type_error(format!(
                                    "percentile must be a number, got {}",
                                    crate::value::type_name(&other)
                                )))
                            }
                        };
                        if !(0.0..=1.0).contains(&p) {
                            return Err(ExecError::runtime(
                                ErrorKind::ArgumentError,
                                format!("percentile {p} is not between 0.0 and 1.0"),
                            )
                            .with_detail(Detail::NumberOutOfRange));
                        }
                        if n == 0 {
                            return Ok(Value::Null);
                        }
                        xs.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
                        if kind == Aggregate::PercentileCont {
                            let pos = p * (n - 1) as f64;
                            let lo = pos.floor() as usize;
                            let hi = pos.ceil() as usize;
                            Value::Float(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo as f64))
                        } else {
                            let idx = if p == 0.0 {
                                0
                            } else {
                                ((p * n as f64).ceil() as usize).saturating_sub(1)
                            };
                            let x = xs[idx.min(n - 1)];
                            if ints {
                                Value::Int(x as i64)
                            } else {
                                Value::Float(x)
                            }
                        }
                    }
                    _ => Value::Null,
                }
            }
        })
    }
}

/// The columns of a projection, with `*` expanded (sorted by name in RETURN), and the slots
/// the star's columns come from.
pub(crate) fn projection_columns(
    p: &Projection,
    scope: &[Arc<str>],
    is_return: bool,
    src: &str,
) -> Result<(Vec<Arc<str>>, Vec<usize>)> {
    // Items, with `*` expanded.
    let mut cols: Vec<Arc<str>> = Vec::new();
    let mut star_slots: Vec<usize> = Vec::new();
    if p.star {
        let mut names: Vec<(Arc<str>, usize)> = scope
            .iter()
            .enumerate()
            .filter(|(i, n)| {
                !n.starts_with('\u{0}') && scope.iter().rposition(|m| m == *n) == Some(*i)
            })
            .map(|(i, n)| (n.clone(), i))
            .collect();
        if is_return {
            names.sort_by(|a, b| a.0.cmp(&b.0));
        }
        // `WITH *` with nothing in scope passes the (empty) row on; `RETURN *` is refused.
        if names.is_empty() && is_return {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "RETURN * is not allowed when there are no variables in scope",
            )
            .with_detail(Detail::NoVariablesInScope));
        }
        for (n, i) in names {
            cols.push(n);
            star_slots.push(i);
        }
    }
    for it in &p.items {
        cols.push(column_name(&it.expr, it.alias.as_ref(), src));
    }
    {
        let mut seen = HashSet::new();
        for c in &cols {
            if !seen.insert(c.clone()) {
                let mut e = ExecError::compile(
                    ErrorKind::SyntaxError,
                    "Multiple result columns with the same name are not supported",
                )
                .with_detail(Detail::ColumnNameConflict);
                // Neo4j places it at the projection's first item.
                if let Some(first) = p.items.first() {
                    e = e.at(first.expr.span);
                }
                return Err(e);
            }
        }
    }
    Ok((cols, star_slots))
}

/// Whether `e` calls an aggregating function (outside comprehensions' own scopes).
pub(crate) fn has_aggregate(e: &Expr) -> bool {
    let mut found = Vec::new();
    collect_aggregates(e, &mut found);
    !found.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every aggregating function the checker accepts is bound to an accumulator, and the
    /// names that bind are only those.
    #[test]
    fn every_aggregate_name_binds() {
        for name in crate::syntax::ast::AGGREGATE_NAMES {
            assert!(Aggregate::resolve(name).is_some(), "{name}");
        }
        assert_eq!(Aggregate::resolve("count*"), Some(Aggregate::CountStar));
        for name in ["apoc.agg.nope", "size", "apoc.coll.sum", ""] {
            assert_eq!(Aggregate::resolve(name), None, "{name}");
        }
        // And each APOC one finds its own name back.
        for name in crate::syntax::ast::AGGREGATE_NAMES {
            if let Some(Aggregate::Apoc(f)) = Aggregate::resolve(name) {
                assert_eq!(f.name(), *name);
            }
        }
    }
}
