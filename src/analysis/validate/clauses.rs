//! The checker over queries and clauses: scopes, projections and bindings.

use super::*;

impl<'a, 's> Checker<'a, 's> {
    /// Checks a query starting from `scope`; returns the scope its (first) part ends with.
    pub(super) fn query(&mut self, q: &Query, scope: Scope) -> Scope {
        self.union_columns(q);
        let out = self.single_query(&q.first, scope.clone());
        for u in &q.unions {
            self.single_query(&u.query, scope.clone());
        }
        out
    }

    pub(super) fn single_query(&mut self, q: &SingleQuery, mut scope: Scope) -> Scope {
        let standalone = q.clauses.len() == 1;
        if self.version == CypherVersion::Cypher5 {
            self.with_between_write_and_read(q);
        }
        self.show_composition(q);
        for clause in &q.clauses {
            scope = self.clause(clause, scope, standalone);
        }
        scope
    }

    /// A `SHOW` command comes first, and only a `RETURN` may follow it, after its `YIELD`.
    fn show_composition(&mut self, q: &SingleQuery) {
        let Some(pos) = q.clauses.iter().position(|c| matches!(c, Clause::Show(_))) else {
            return;
        };
        let Clause::Show(show) = &q.clauses[pos] else {
            return;
        };
        let word = |c: &Clause| -> String {
            let start = c.span().start.min(self.src.len());
            self.src[start..]
                .split(|ch: char| !ch.is_alphanumeric() && ch != '_')
                .next()
                .unwrap_or_default()
                .to_string()
        };
        if pos > 0 {
            self.diag(
                DiagnosticKind::InvalidClauseComposition,
                format!(
                    "Invalid input '{}': a SHOW command cannot follow other clauses",
                    word(&q.clauses[pos])
                ),
                show.span,
            );
            return;
        }
        let commands: Vec<&crate::syntax::Show> = q
            .clauses
            .iter()
            .map_while(|c| match c {
                Clause::Show(s) => Some(&**s),
                _ => None,
            })
            .collect();
        if commands.len() > 1 {
            self.composed_commands(q, &commands);
            return;
        }
        for (i, c) in q.clauses[pos + 1..].iter().enumerate() {
            if i == 0 && show.yield_.is_some() && matches!(c, Clause::Return(_)) {
                continue;
            }
            let expected = if show.yield_.is_some() {
                "expected 'RETURN' or <EOF>"
            } else {
                "expected 'WHERE', 'YIELD' or <EOF>"
            };
            self.diag(
                DiagnosticKind::InvalidClauseComposition,
                format!("Invalid input '{}': {expected}", word(c)),
                c.span(),
            );
            break;
        }
    }

    /// `SHOW TRANSACTIONS` and `TERMINATE TRANSACTIONS` commands one after the other, as
    /// Neo4j 5 composes them: no other command, each with its `YIELD`, a `RETURN` at the end.
    fn composed_commands(&mut self, q: &SingleQuery, commands: &[&crate::syntax::Show]) {
        use crate::syntax::ShowKind;
        let composable = |s: &crate::syntax::Show| {
            matches!(s.kind, ShowKind::Transactions | ShowKind::Terminate)
        };
        if !commands.iter().all(|s| composable(s)) {
            self.diag(
                DiagnosticKind::InvalidClauseComposition,
                "Composing commands other than `SHOW TRANSACTIONS` and `TERMINATE TRANSACTIONS` \
                 is not available in this implementation of Cypher due to lack of support for \
                 composable commands."
                    .into(),
                commands[0].span,
            );
            return;
        }
        if let Some(s) = commands.iter().find(|s| s.yield_.is_none()) {
            let name = if s.kind == ShowKind::Terminate {
                "TERMINATE TRANSACTIONS"
            } else {
                "SHOW TRANSACTIONS"
            };
            self.diag(
                DiagnosticKind::MissingYield,
                format!(
                    "When combining `{name}` with other show and/or terminate commands, `YIELD` \
                     is mandatory."
                ),
                s.span,
            );
            return;
        }
        match q.clauses.get(commands.len()) {
            Some(Clause::Return(_)) => {}
            Some(c) => self.diag(
                DiagnosticKind::InvalidClauseComposition,
                "Invalid input: only a RETURN may follow show and/or terminate commands".into(),
                c.span(),
            ),
            None => {
                // Neo4j places it at the last command's last yielded column.
                let last = commands[commands.len() - 1];
                let at = last
                    .yield_
                    .as_ref()
                    .and_then(|y| y.items.last().map(|i| i.span).or(Some(y.span)))
                    .unwrap_or(last.span);
                self.diag(
                    DiagnosticKind::MissingReturn,
                    "When combining show and/or terminate commands, `RETURN` isn't optional."
                        .into(),
                    at,
                );
            }
        }
    }

    /// Cypher 5 wants a `WITH` between an updating clause and a reading one
    /// (`CREATE (a) MATCH (b)`); Cypher 25 does not.
    fn with_between_write_and_read(&mut self, q: &SingleQuery) {
        for pair in q.clauses.windows(2) {
            let write = match &pair[0] {
                Clause::Create(c) if c.insert => "INSERT",
                Clause::Create(_) => "CREATE",
                Clause::Merge(_) => "MERGE",
                Clause::Set(_) => "SET",
                Clause::Delete(_) => "DELETE",
                Clause::Remove(_) => "REMOVE",
                Clause::Foreach(_) => "FOREACH",
                _ => continue,
            };
            let read = match &pair[1] {
                Clause::Match(_) => "MATCH",
                Clause::Unwind(_) => "UNWIND",
                Clause::CallProcedure(_) | Clause::CallSubquery(_) => "CALL",
                Clause::LoadCsv(_) => "LOAD CSV",
                _ => continue,
            };
            self.diag(
                DiagnosticKind::CypherVersion,
                format!("WITH is required between {write} and {read}"),
                pair[1].span(),
            );
        }
    }

    pub(super) fn clause(&mut self, clause: &Clause, mut scope: Scope, standalone: bool) -> Scope {
        match clause {
            // Rows without a match survive an OPTIONAL MATCH: checked like a predicate, on copies.
            Clause::Match(m) if m.optional => self.isolated(|c| c.match_clause(m, scope)),
            Clause::Match(m) => self.match_clause(m, scope),
            Clause::With(w) => {
                for it in &w.projection.items {
                    if it.alias.is_none() && !matches!(it.expr.kind, ExprKind::Variable(_)) {
                        self.diag(
                            DiagnosticKind::MissingAlias,
                            "Expression in WITH must be aliased (use AS)".into(),
                            it.expr.span,
                        );
                    }
                }
                let mut out = self.projection(&w.projection, &scope, "WITH");
                if let Some(wh) = &w.where_ {
                    // WITH … WHERE sees the projected names and the variables of the preceding
                    // scope; after DISTINCT or an aggregation, as ORDER BY does, only where they
                    // repeat a projected expression (Neo4j 5; openCypher TCK WithWhere1 [2]:
                    // `WITH DISTINCT a.name2 AS name WHERE a.name2 = 'B'`).
                    let aggregating = w.projection.group_by.is_some()
                        || w.projection
                            .items
                            .iter()
                            .any(|it| contains_aggregate(&it.expr));
                    // Cypher 25 lets WHERE aggregate anew after DISTINCT, an aggregation or a
                    // GROUP BY (per group, as ORDER BY does), and refuses it elsewhere with
                    // ORDER BY's words (Neo4j 2026.08).
                    let cypher25 = self.version != CypherVersion::Cypher5;
                    let regroups = cypher25 && (w.projection.distinct || aggregating);
                    if cypher25 && !regroups && contains_aggregate(wh) {
                        self.diag(
                            DiagnosticKind::InvalidAggregation,
                            format!("Illegal aggregation expression(s) in order by: {}. If an aggregation expression is used in order by, it also needs to be a projection item on it's own. For example, in 'RETURN n.a, 1 + count(*) ORDER BY count(*) + 1' the aggregation expression 'count(*) + 1' is not a projection item on its own, but it could be rewritten to 'RETURN n.a, 1 + count(*) AS cnt ORDER BY 1 + count(*)'.", self.text(wh.span)),
                            wh.span,
                        );
                    }
                    let mut visible = scope.clone();
                    for (k, v) in &out.vars {
                        visible.vars.insert(k.clone(), *v);
                        match out.types.get(k) {
                            Some(t) => visible.types.insert(k.clone(), *t),
                            None => visible.types.remove(k),
                        };
                    }
                    visible.open |= out.open;
                    if (w.projection.distinct || aggregating) && !w.projection.star {
                        self.sort_key_reads_projection(
                            wh,
                            &w.projection,
                            &out,
                            &mut Vec::new(),
                            false,
                        );
                    }
                    self.expr(
                        wh,
                        &visible,
                        Ctx {
                            in_where: !cypher25,
                            ..Ctx::default()
                        },
                    );
                    self.expect_boolean(wh, &visible);
                }
                out.open |= scope.open;
                out
            }
            Clause::Return(r) => {
                let mut out = self.projection(&r.projection, &scope, "RETURN");
                out.open |= scope.open;
                out
            }
            Clause::Unwind(u) => {
                if u.for_in {
                    self.cypher_25_clause("FOR", u.span);
                }
                self.expr(&u.expr, &scope, Ctx::default());
                // Neo4j types the variable as the list's elements where it knows them
                // (`UNWIND [1.5] AS x`: a Float; `UNWIND [[1], []] AS x`: a list), and where
                // they are of one type only.
                let element = self
                    .element_types(&u.expr, &scope)
                    .filter(|t| t.single_or_list().is_some());
                self.bind_value(&u.variable, &mut scope, Kind::Unknown, "UNWIND");
                if let Some(mut t) = element {
                    // A map element is typed as a map parameter is (`Map, Node or
                    // Relationship`).
                    if t == super::types::Types::of(super::types::Ty::Map) {
                        t = super::types::Types::of_parameter(crate::analysis::ParameterType::Map);
                    }
                    scope.types.insert(u.variable.name.clone(), t);
                }
                scope
            }
            Clause::CallSubquery(c) => {
                let mut unscoped = None;
                if c.scope.is_none() && self.version == CypherVersion::Cypher5 {
                    // What the importing `WITH`s import: `CALL (a, b) { … }` replaces it.
                    let mut variables: Vec<String> = Vec::new();
                    for part in c.query.parts() {
                        if let Some(Clause::With(w)) = part.clauses.first() {
                            for item in &w.projection.items {
                                if let ExprKind::Variable(v) = &item.expr.kind {
                                    if !variables.contains(&v.name) {
                                        variables.push(v.name.clone());
                                    }
                                }
                            }
                        }
                    }
                    unscoped = Some(super::Deprecated::CallWithoutScope {
                        at: Span::new(c.span.start, c.span.start),
                        variables,
                    });
                }
                if c.scope.is_none()
                    && self.version != CypherVersion::Cypher5
                    && matches!(c.query.first.clauses.first(), Some(Clause::When(_)))
                {
                    self.diag(
                        DiagnosticKind::InvalidClauseComposition,
                        "42N3C: Not possible to enclose WHEN ... THEN ... in 'CALL { ... }'. Use 'CALL () { ... }' instead.".into(),
                        c.span,
                    );
                }
                let returned = match &c.scope {
                    Some(SubqueryScope::All) => self.query(&c.query, scope.clone()),
                    // No scope clause: only a leading (importing) `WITH` sees the outer variables.
                    None => {
                        let out = self.call_body(&c.query.first, &scope);
                        for u in &c.query.unions {
                            self.call_body(&u.query, &scope);
                        }
                        out
                    }
                    Some(SubqueryScope::Variables(vs)) => {
                        let mut s = Scope {
                            open: scope.open,
                            ..Scope::default()
                        };
                        for v in vs {
                            self.lookup(v, &scope);
                            if let Some((k, b)) = scope.get(&v.name) {
                                s.bind(&v.name, k, b);
                            }
                        }
                        self.query(&c.query, s)
                    }
                };
                // (Listed after what its body deprecates, as Neo4j lists it.)
                self.deprecations.extend(unscoped);
                if let Some(t) = &c.in_transactions {
                    for e in [&t.batch_size].into_iter().flatten() {
                        self.expr(e, &scope, Ctx::default());
                    }
                    if let Some(Some(e)) = &t.concurrency {
                        self.expr(e, &scope, Ctx::default());
                    }
                }
                let ends_with_return = c.query.final_return().is_some();
                if ends_with_return {
                    for (name, (k, b)) in returned.vars {
                        if !scope.vars.contains_key(&name) {
                            scope.bind(&name, k, b);
                        }
                    }
                    scope.open |= returned.open;
                }
                if let Some(t) = &c.in_transactions {
                    if let Some(e) = &t.retry_for {
                        self.expr(e, &scope, Ctx::default());
                        let negative = match &e.kind {
                            ExprKind::Literal(Literal::Integer(i)) => *i < 0,
                            ExprKind::Literal(Literal::Float(f)) => *f < 0.0,
                            ExprKind::Unary { op, expr } if *op == UnaryOp::Neg => matches!(
                                expr.kind,
                                ExprKind::Literal(Literal::Integer(_) | Literal::Float(_))
                            ),
                            ExprKind::Literal(Literal::String(_) | Literal::Boolean(_)) => true,
                            _ => false,
                        };
                        if negative {
                            self.diag(
                                DiagnosticKind::InvalidArgumentType,
                                format!(
                                    "Invalid input. '{}' is not a valid value. Must be a non-negative number.",
                                    e.span.text(self.src).trim_matches('\'')
                                ),
                                e.span,
                            );
                        }
                    }
                    if let Some(v) = &t.report_status {
                        if t.effective_on_error() == OnError::Fail {
                            self.diag(
                                DiagnosticKind::InvalidClauseComposition,
                                "REPORT STATUS can only be used when specifying ON ERROR CONTINUE or ON ERROR BREAK".into(),
                                v.span,
                            );
                        }
                        self.bind_value(v, &mut scope, Kind::Value, "REPORT STATUS AS");
                    }
                }
                scope
            }
            Clause::CallProcedure(p) => {
                for a in p.args.iter().flatten() {
                    self.expr(a, &scope, Ctx::default());
                }
                let name = p.name.dotted();
                if self.version == CypherVersion::Cypher25
                    && crate::catalogue::missing_in_cypher_25(&name)
                {
                    self.diag(
                        DiagnosticKind::UnknownProcedure,
                        crate::catalogue::unknown_procedure_message(&name),
                        p.name.span,
                    );
                    self.last_facts(GqlFacts::NoSuchProcedure(name.clone()));
                }
                let opts = self.opts;
                let sig = match crate::catalogue::procedure(&name) {
                    Some(known) => known.signature(),
                    None => opts
                        .procedures
                        .iter()
                        .find(|s| s.name.eq_ignore_ascii_case(&name)),
                };
                self.procedure_call_arguments(p, sig, &scope, standalone);
                if let (Some(sig), Some(y)) = (sig, &p.yield_) {
                    for item in &y.items {
                        if !sig.outputs.iter().any(|o| o.name == item.field.name) {
                            self.diag(
                                DiagnosticKind::UnknownProcedureOutput,
                                crate::catalogue::unknown_output_message(&item.field.name),
                                item.field.span,
                            );
                        }
                    }
                }
                // Inside a query, a call without YIELD names no results (Neo4j refuses it for
                // a procedure that has some, checked above); standalone, the results are the
                // query's.
                if let Some(y) = &p.yield_ {
                    if y.star {
                        scope.open = true;
                    }
                    for item in &y.items {
                        let v = item.alias.as_ref().unwrap_or(&item.field);
                        self.bind_value(v, &mut scope, Kind::Unknown, "YIELD");
                    }
                    if let Some(w) = &y.where_ {
                        self.expr(
                            w,
                            &scope,
                            Ctx {
                                in_where: true,
                                ..Ctx::default()
                            },
                        );
                    }
                }
                scope
            }
            Clause::Create(c) => {
                self.inserting = c.insert;
                self.pattern(&c.pattern, &mut scope, Mode::Create);
                self.inserting = false;
                scope
            }
            Clause::Merge(m) => {
                self.pattern(std::slice::from_ref(&m.pattern), &mut scope, Mode::Merge);
                for a in &m.actions {
                    for item in &a.items {
                        self.set_item(item, &scope);
                    }
                }
                scope
            }
            Clause::Set(s) => {
                for item in &s.items {
                    self.set_item(item, &scope);
                }
                scope
            }
            Clause::Remove(r) => {
                for item in &r.items {
                    match item {
                        RemoveItem::Property { target, .. } => self.write_target(target, &scope),
                        RemoveItem::Labels {
                            variable, labels, ..
                        } => {
                            self.lookup(variable, &scope);
                            self.dynamic_labels(labels, &scope, DynamicPlace::SetRemove);
                        }
                    }
                }
                scope
            }
            Clause::Delete(d) => {
                for e in &d.exprs {
                    self.expr(e, &scope, Ctx::default());
                    if matches!(e.kind, ExprKind::HasLabels { .. }) {
                        self.diag(
                            DiagnosticKind::InvalidDelete,
                            "DELETE doesn't support removing labels from a node. Try REMOVE."
                                .into(),
                            e.span,
                        );
                    } else if let Some(t) = self.static_type(e, &scope) {
                        use super::types::{Ty, Types};
                        let expected = Types::of(Ty::Node)
                            .union(Types::of(Ty::Path))
                            .union(Types::of(Ty::Relationship));
                        if !t.meets(expected) {
                            // (Neo4j lists these three in this order.)
                            let actual = t.describe();
                            self.report_mismatch(e, "Node, Path or Relationship", &actual, e.span);
                        }
                    }
                }
                scope
            }
            Clause::Foreach(f) => {
                self.expr(&f.list, &scope, Ctx::default());
                let mut inner = scope.clone();
                inner.bind(&f.variable.name, Kind::Unknown, None);
                for c in &f.clauses {
                    inner = self.clause(c, inner, false);
                }
                scope
            }
            Clause::LoadCsv(l) => {
                self.expr(&l.source, &scope, Ctx::default());
                self.bind_value(&l.variable, &mut scope, Kind::Value, "LOAD CSV … AS");
                scope
            }
            Clause::Show(c) => {
                let (all, default) = crate::catalogue::show_columns(c.kind);
                let mut columns = scope.clone();
                for col in all {
                    columns.bind(col, Kind::Value, None);
                }
                let where_ctx = Ctx {
                    in_where: true,
                    ..Ctx::default()
                };
                match &c.yield_ {
                    None => {
                        if let Some(w) = &c.where_ {
                            self.expr(w, &columns, where_ctx);
                        }
                        for col in default {
                            scope.bind(col, Kind::Value, None);
                        }
                    }
                    Some(y) => {
                        if y.star {
                            for col in all {
                                scope.bind(col, Kind::Value, None);
                            }
                        }
                        for item in &y.items {
                            if !all.contains(&item.field.name.as_str()) {
                                self.diag(
                                    DiagnosticKind::UnknownProcedureOutput,
                                    format!(
                                        "Trying to YIELD non-existing column: `{}`",
                                        item.field.name
                                    ),
                                    item.field.span,
                                );
                            }
                            let v = item.alias.as_ref().unwrap_or(&item.field);
                            self.bind_value(v, &mut scope, Kind::Value, "YIELD");
                        }
                        for s in &c.order_by {
                            self.expr(&s.expr, &scope, Ctx::default());
                        }
                        for (e, what) in [(&c.skip, "SKIP"), (&c.limit, "LIMIT")] {
                            if let Some(e) = e {
                                self.expr(e, &scope, Ctx::default());
                                self.constant_count(e, &scope, what);
                            }
                        }
                        if let Some(w) = &y.where_ {
                            self.expr(w, &scope, where_ctx);
                        }
                    }
                }
                scope
            }
            Clause::Use(_) | Clause::Finish(_) => scope,
            Clause::Schema(c) => {
                self.schema_command(c);
                scope
            }
            Clause::Admin(c) => {
                self.admin_command(c);
                scope
            }
            Clause::Let(l) => {
                self.cypher_25_clause("LET", l.span);
                // The items see the incoming row, not each other.
                let before = scope.clone();
                for (v, e) in &l.items {
                    self.pattern_as_value(e);
                    self.expr(e, &before, Ctx::default());
                    if contains_aggregate(e) {
                        self.diag(
                            DiagnosticKind::InvalidAggregation,
                            "Invalid use of aggregating function in this context: LET computes one value per row".into(),
                            e.span,
                        );
                    }
                    let (kind, binding) = self.kind_of(e, &before);
                    if scope.get(&v.name).is_some() {
                        self.bind_value(v, &mut scope, kind, "LET");
                    } else {
                        scope.bind(&v.name, kind, binding);
                    }
                }
                scope
            }
            Clause::Filter(f) => {
                self.cypher_25_clause("FILTER", f.span);
                let ctx = Ctx {
                    in_where: true,
                    ..Ctx::default()
                };
                self.expr(&f.predicate, &scope, ctx);
                scope
            }
            // Composed queries (Cypher 25): each part sees the incoming variables (the whole
            // incoming table), and what it returns is what follows it.
            Clause::Braced(b) => {
                self.cypher_25_clause("{", b.span);
                self.composed_part(&b.query, scope)
            }
            Clause::Next(n) => {
                self.cypher_25_clause("NEXT", n.span);
                for q in &n.queries {
                    scope = self.composed_part(q, scope);
                }
                scope
            }
            Clause::When(w) => {
                self.cypher_25_clause("WHEN", w.span);
                let mut out = None;
                let mut columns: Option<Vec<String>> = None;
                let branches = w
                    .branches
                    .iter()
                    .map(|b| (Some(&b.condition), &b.query))
                    .chain(w.else_.as_deref().map(|q| (None, q)));
                for (condition, q) in branches {
                    if let Some(cnd) = condition {
                        self.expr(cnd, &scope, Ctx::default());
                        self.expect_boolean(cnd, &scope);
                    }
                    let returned = self.composed_part(q, scope.clone());
                    let names = q
                        .final_return()
                        .filter(|r| !r.projection.star)
                        .map(|r| self.column_names(r));
                    match (&columns, names) {
                        (None, Some(n)) => columns = Some(n),
                        (Some(c), Some(n)) if c.len() != n.len() => self.diag(
                            DiagnosticKind::DifferentColumns,
                            "42N3B: All conditional queries must return the same number of columns.".into(),
                            q.span,
                        ),
                        (Some(c), Some(n)) if *c != n => self.diag(
                            DiagnosticKind::DifferentColumns,
                            "42N39: All conditional queries must have the same return column names. Use `AS` to ensure columns have the same name.".into(),
                            q.span,
                        ),
                        _ => {}
                    }
                    out.get_or_insert(returned);
                }
                out.unwrap_or(scope)
            }
        }
    }

    /// The parts of a UNION return the same columns (by name, in order).
    pub(super) fn union_columns(&mut self, q: &Query) {
        let names = |c: &Self, s: &SingleQuery| {
            let q = Query {
                first: s.clone(),
                unions: Vec::new(),
                span: s.span,
            };
            q.final_return()
                .filter(|r| !r.projection.star)
                .map(|r| c.column_names(r))
        };
        // UNION and UNION ALL cannot be mixed in one query.
        if let Some(u) = q.unions.iter().find(|u| u.all != q.unions[0].all) {
            self.diag(
                DiagnosticKind::InvalidClauseComposition,
                "Invalid combination of UNION and UNION ALL".into(),
                u.span,
            );
        }
        let Some(first) = names(self, &q.first) else {
            return;
        };
        for u in &q.unions {
            if names(self, &u.query).is_some_and(|n| n != first) {
                self.diag(
                    DiagnosticKind::DifferentColumns,
                    "All sub queries in an UNION must have the same return column names".into(),
                    u.span,
                );
                self.last_facts(GqlFacts::UnionColumns);
            }
        }
    }

    /// A condition Neo4j types statically as something other than a boolean.
    pub(super) fn expect_boolean(&mut self, e: &Expr, scope: &Scope) {
        // A pattern standing as a condition tests that it exists.
        if matches!(e.kind, ExprKind::Pattern(_)) {
            return;
        }
        self.expect_type(e, scope, super::types::Types::of(super::types::Ty::Boolean));
    }

    /// One part of a composed query: checked with `scope` in view, each of its single
    /// queries concluding as a query must; returns what the query returns.
    fn composed_part(&mut self, q: &Query, scope: Scope) -> Scope {
        let returned = self.query(q, scope.clone());
        for part in q.parts() {
            self.query_conclusion(part);
        }
        if q.final_return().is_some() {
            returned
        } else {
            scope
        }
    }

    /// The column names of a RETURN (an item's alias, its variable, or its text).
    fn column_names(&self, r: &Return) -> Vec<String> {
        r.projection
            .items
            .iter()
            .map(|it| match (&it.alias, &it.expr.kind) {
                (Some(a), _) => a.name.clone(),
                (None, ExprKind::Variable(v)) => v.name.clone(),
                (None, _) => it.expr.span.text(self.src).to_string(),
            })
            .collect()
    }

    /// A query ends with a clause that produces its result or its effect: RETURN, FINISH, an
    /// update, a unit subquery, a procedure call (standalone, or without YIELD), SHOW.
    pub(super) fn query_conclusion(&mut self, q: &SingleQuery) {
        let Some(last) = q.clauses.last() else {
            return;
        };
        let name = match last {
            Clause::Match(_) => "MATCH",
            Clause::With(_) => "WITH",
            Clause::Unwind(_) => "UNWIND",
            Clause::LoadCsv(_) => "LOAD CSV",
            Clause::Let(_) => "LET",
            Clause::Filter(_) => "FILTER",
            Clause::CallSubquery(c) if c.query.final_return().is_some() => "CALL",
            Clause::CallProcedure(c) if c.yield_.is_some() && q.clauses.len() > 1 => "CALL",
            _ => return,
        };
        self.diag(
            DiagnosticKind::QueryConclusion,
            format!("Query cannot conclude with {name} (must be a RETURN clause, a FINISH clause, an update clause, a unit subquery call, or a procedure call with no YIELD)."),
            last.span(),
        );
    }

    /// A Cypher 25 clause in a Cypher 5 statement: Neo4j 5's parser does not know it.
    fn cypher_25_clause(&mut self, keyword: &str, span: Span) {
        if self.version == CypherVersion::Cypher5 {
            let what = match keyword {
                "{" => "a query in braces is Cypher 25".to_string(),
                _ => format!("{keyword} is a Cypher 25 clause"),
            };
            self.diag(
                DiagnosticKind::CypherVersion,
                format!("Invalid input '{keyword}': {what}; prefix the query with CYPHER 25"),
                span,
            );
        }
    }

    /// One part of a `CALL { … }` without a scope clause: it starts with nothing in scope, except
    /// that a leading `WITH` imports from `outer`.
    pub(super) fn call_body(&mut self, q: &SingleQuery, outer: &Scope) -> Scope {
        let start = match q.clauses.first() {
            Some(Clause::With(_)) => outer.clone(),
            _ => Scope::default(),
        };
        self.single_query(q, start)
    }

    pub(super) fn match_clause(&mut self, m: &Match, mut scope: Scope) -> Scope {
        if let (Some(mode), CypherVersion::Cypher5) = (m.mode, self.version) {
            let name = match mode {
                MatchMode::RepeatableElements => "REPEATABLE ELEMENTS",
                MatchMode::DifferentRelationships => "DIFFERENT RELATIONSHIPS",
            };
            self.diag(
                DiagnosticKind::CypherVersion,
                format!("Match modes such as `{name}` are not supported in Cypher 5."),
                m.span,
            );
        }
        let before = scope.clone();
        self.pattern(&m.pattern, &mut scope, Mode::Read);
        if let Some(s) = &m.search {
            self.search_clause(m, s, &before, &mut scope);
        }
        for h in &m.hints {
            match h {
                Hint::Index { variable, .. } | Hint::Scan { variable, .. } => {
                    self.lookup(variable, &scope)
                }
                Hint::Join { variables, .. } => {
                    for v in variables {
                        self.lookup(v, &scope)
                    }
                }
            }
        }
        if let Some(w) = &m.where_ {
            self.expr(
                w,
                &scope,
                Ctx {
                    in_where: true,
                    ..Ctx::default()
                },
            );
            self.expect_boolean(w, &scope);
        }
        scope
    }

    /// Cypher 25's `SEARCH` clause, as Neo4j 2026's compiler checks it: one node or
    /// relationship pattern with one named variable, which the clause searches for; a vector
    /// index named, not a parameter; the query vector a list of numbers; the filter an AND of
    /// property predicates, per property an exact value, a half-bounded or a bounded range;
    /// a constant, non-negative LIMIT and no SKIP; a new name for the score.
    fn search_clause(&mut self, m: &Match, s: &Search, before: &Scope, scope: &mut Scope) {
        let span_at = |start: usize| Span::new(start, start);
        if self.version == CypherVersion::Cypher5 {
            self.cypher_25_clause("SEARCH", span_at(s.span.start));
        } else if s.fulltext {
            self.diag(
                DiagnosticKind::InvalidSearch,
                "The `FULLTEXT SEARCH` clause is not supported.".into(),
                span_at(s.span.start),
            );
        }
        if scope.get(&s.variable.name).is_some() {
            self.search_pattern(m, s);
        } else {
            self.lookup(&s.variable, scope);
        }
        if let SchemaName::Parameter(_, span) = &s.index {
            self.diag(
                DiagnosticKind::InvalidSearch,
                "Parameter cannot be used in a VECTOR INDEX clause.".into(),
                *span,
            );
        }
        self.expr(&s.query, before, Ctx::default());
        if let (false, Some(t)) = (s.fulltext, self.static_type(&s.query, before)) {
            let numbers = types::Types::list_of(types::Ty::Integer)
                .union(types::Types::list_of(types::Ty::Float))
                .union(types::Types::any_list());
            if !t.meets(numbers) {
                self.report_mismatch(
                    &s.query,
                    "Vector, List<Float>, List<Integer> or List<Number>",
                    &t.describe(),
                    s.query.span,
                );
            }
        }
        if let Some(f) = &s.filter {
            self.expr(f, scope, Ctx::default());
            self.search_filter(f, &s.variable.name);
        }
        if let Some((word, span, _)) = &s.skip {
            self.diag(
                DiagnosticKind::InvalidSearch,
                format!("{word} cannot be used together with VECTOR INDEX."),
                span_at(span.start),
            );
        }
        self.expr(&s.limit, before, Ctx::default());
        self.constant_count(&s.limit, scope, "LIMIT");
        let valid = match &s.limit.kind {
            ExprKind::Literal(Literal::Integer(k)) => (0..=i64::from(i32::MAX)).contains(k),
            ExprKind::Parameter(_) | ExprKind::Variable(_) => true,
            _ => false,
        };
        if !valid
            && self
                .diags
                .iter()
                .all(|d| d.kind != DiagnosticKind::NonConstantExpression)
        {
            self.diag(
                DiagnosticKind::InvalidSearch,
                format!(
                    "Invalid input. '{}' is not a valid value. Must be a non-negative integer smaller than or equal to 2147483647.",
                    self.text(s.limit.span)
                ),
                s.limit.span,
            );
        }
        if let Some(v) = &s.score {
            if scope.get(&v.name).is_some() {
                self.diag(
                    DiagnosticKind::VariableAlreadyBound,
                    format!("Variable `{}` already declared", v.name),
                    v.span,
                );
            } else {
                scope.bind(&v.name, Kind::Value, None);
            }
        }
    }

    /// A search's MATCH has one pattern of one node, or of one relationship between two
    /// anonymous nodes, and no selector; the searched variable is its only named one.
    fn search_pattern(&mut self, m: &Match, s: &Search) {
        const SHAPE: &str = "In order to have a search clause, a MATCH statement can only have a single node or relationship pattern and no selectors.";
        if let Some(second) = m.pattern.get(1) {
            self.diag(DiagnosticKind::InvalidSearch, SHAPE.into(), second.span);
            return;
        }
        let Some(part) = m.pattern.first() else {
            return;
        };
        let chain = part.path.chain();
        let simple = part.selector.is_none()
            && matches!(part.path, PathExpr::Chain(_))
            && chain.elements.iter().all(|e| match e {
                PathElement::Node(_) => true,
                PathElement::Relationship(r) => r.length.is_none(),
                PathElement::Group(_) => false,
            })
            && (chain.elements.len() == 1 || chain.elements.len() == 3);
        if !simple {
            self.diag(DiagnosticKind::InvalidSearch, SHAPE.into(), part.span);
            return;
        }
        let other = chain.elements.iter().find_map(|e| {
            let v = match e {
                PathElement::Node(n) => n.variable.as_ref(),
                PathElement::Relationship(r) => r.variable.as_ref(),
                PathElement::Group(_) => None,
            };
            v.filter(|v| v.name != s.variable.name)
        });
        if let Some(v) = other {
            self.diag(
                DiagnosticKind::InvalidSearch,
                "In order to have a search clause, a MATCH statement can only have one bound variable.".into(),
                v.span,
            );
        }
    }

    /// A search filter is an AND of predicates `v.p <op> value` (`=`, `<`, `<=`, `>`, `>=`,
    /// either way round), `v.p IN list` or `v.p IS NOT NULL`, where the value does not read
    /// `v`; per property one exact value (or IS NOT NULL), or at most one bound each way.
    fn search_filter(&mut self, f: &Expr, var: &str) {
        let mut atoms = Vec::new();
        let mut stack = vec![f];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Binary {
                    op: BinaryOp::And,
                    lhs,
                    rhs,
                } => {
                    stack.push(rhs);
                    stack.push(lhs);
                }
                _ => atoms.push(e),
            }
        }
        let prop_of = |e: &Expr| match &e.kind {
            ExprKind::Property { expr, key } => match &expr.kind {
                ExprKind::Variable(v) if v.name == var => Some(key.name.clone()),
                _ => None,
            },
            _ => None,
        };
        let reads_var = |e: &Expr| {
            let mut stack = vec![e];
            while let Some(x) = stack.pop() {
                if matches!(&x.kind, ExprKind::Variable(v) if v.name == var) {
                    return Some(x.span);
                }
                stack.extend(x.children());
            }
            None
        };
        // Per property: exact values, lower bounds, upper bounds.
        let mut per: Vec<(String, [u32; 3])> = Vec::new();
        let mut valid = true;
        for a in atoms {
            let (key, slot, other) = match &a.kind {
                ExprKind::Binary { op, lhs, rhs } => {
                    let (key, other, flipped) = match (prop_of(lhs), prop_of(rhs)) {
                        (Some(k), _) => (k, &**rhs, false),
                        (None, Some(k)) => (k, &**lhs, true),
                        _ => {
                            valid = false;
                            continue;
                        }
                    };
                    let slot = match (op, flipped) {
                        (BinaryOp::Eq | BinaryOp::In, false) => 0,
                        (BinaryOp::Gt | BinaryOp::Ge, false)
                        | (BinaryOp::Lt | BinaryOp::Le, true) => 1,
                        (BinaryOp::Lt | BinaryOp::Le, false)
                        | (BinaryOp::Gt | BinaryOp::Ge, true) => 2,
                        (BinaryOp::Eq, true) => 0,
                        _ => {
                            valid = false;
                            continue;
                        }
                    };
                    (key, slot, Some(other))
                }
                ExprKind::IsNull {
                    expr,
                    negated: true,
                } => match prop_of(expr) {
                    Some(k) => (k, 0, None),
                    None => {
                        valid = false;
                        continue;
                    }
                },
                _ => {
                    valid = false;
                    continue;
                }
            };
            if let Some(span) = other.and_then(reads_var) {
                let dot = self
                    .src
                    .get(span.end..)
                    .unwrap_or_default()
                    .find('.')
                    .map_or(span.start, |i| span.end + i);
                self.diag(
                    DiagnosticKind::InvalidSearch,
                    "Vector search filter predicate referencing the search binding variable".into(),
                    Span::new(dot, dot),
                );
                return;
            }
            match per.iter_mut().find(|(k, _)| *k == key) {
                Some((_, counts)) => counts[slot] += 1,
                None => {
                    let mut counts = [0; 3];
                    counts[slot] = 1;
                    per.push((key, counts));
                }
            }
        }
        let shapes = per.iter().all(|(_, [eq, lo, hi])| {
            (*eq == 1 && *lo == 0 && *hi == 0) || (*eq == 0 && *lo <= 1 && *hi <= 1)
        });
        if !valid || !shapes {
            // Neo4j points one past the start of the filter's top operator.
            let at = match &f.kind {
                ExprKind::Binary { lhs, rhs, .. } => {
                    let gap = self
                        .src
                        .get(lhs.span.end..rhs.span.start)
                        .unwrap_or_default();
                    lhs.span.end + gap.len() - gap.trim_start().len() + 1
                }
                _ => f.span.start,
            };
            self.diag(
                DiagnosticKind::InvalidSearch,
                format!("The vector search filter predicate '{}' must consist of one or more property predicates joined by AND, and the combined property predicates for each property must specify either an exact value (e.g. x.prop = 1), a half-bounded range (e.g. x.prop >= 1), or a bounded range (e.g. x.prop > 1 AND x.prop < 100). Note that this is not an exhaustive list of valid predicates, see documentation for all rules.", double_quoted(self.text(f.span))),
                Span::new(at, at),
            );
        }
    }

    pub(super) fn set_item(&mut self, item: &SetItem, scope: &Scope) {
        match item {
            SetItem::Property { target, value, .. } => {
                self.write_target(target, scope);
                self.pattern_as_value(value);
                self.expr(value, scope, Ctx::default());
            }
            SetItem::Variable {
                variable, value, ..
            } => {
                self.lookup(variable, scope);
                self.expr(value, scope, Ctx::default());
            }
            SetItem::Labels {
                variable, labels, ..
            } => {
                self.lookup(variable, scope);
                self.dynamic_labels(labels, scope, DynamicPlace::SetRemove);
            }
        }
    }

    /// `n.p` / `n[k]` written by `SET` or `REMOVE`: the object is read, the key is not.
    pub(super) fn write_target(&mut self, target: &Expr, scope: &Scope) {
        match &target.kind {
            ExprKind::Property { expr, .. } => self.expr(expr, scope, Ctx::default()),
            ExprKind::Index { expr, index } => {
                self.expr(expr, scope, Ctx::default());
                self.expr(index, scope, Ctx::default());
            }
            _ => self.expr(target, scope, Ctx::default()),
        }
    }

    /// Binds a non-pattern variable (`UNWIND … AS x`, `YIELD x`, …).
    pub(super) fn bind_value(&mut self, v: &Ident, scope: &mut Scope, kind: Kind, clause: &str) {
        if scope.get(&v.name).is_some() {
            self.diag(
                DiagnosticKind::VariableAlreadyBound,
                format!(
                    "variable `{}` is already declared; give {clause} a new name",
                    v.name
                ),
                v.span,
            );
        }
        scope.bind(&v.name, kind, None);
    }

    /// Neo4j's checks of a procedure call's arguments (`sig`: the procedure's signature, when
    /// known): their count and static types, no aggregation, and implicit arguments and
    /// results only in a standalone call.
    fn procedure_call_arguments(
        &mut self,
        p: &CallProcedure,
        sig: Option<&crate::catalogue::Signature>,
        scope: &Scope,
        standalone: bool,
    ) {
        for a in p.args.iter().flatten() {
            let mut found = Vec::new();
            aggregate_calls(a, &mut found);
            if let Some(agg) = found.first() {
                self.diag(
                    DiagnosticKind::InvalidAggregation,
                    "Procedure call cannot take an aggregating function as argument, please add a 'WITH' to your statement.\nFor example:\n    MATCH (n:Person) WITH collect(n.name) AS names CALL proc(names) YIELD value RETURN value".into(),
                    agg.span,
                );
            }
        }
        let Some(sig) = sig else {
            return;
        };
        // (Without parentheses, arguments come from parameters: the parser allows that only
        // in a standalone call.)
        if let Some(args) = &p.args {
            if let Some(message) = sig.procedure_arity_error(args.len()) {
                self.diag(DiagnosticKind::WrongArity, message, p.span);
            } else {
                for (arg, param) in args.iter().zip(&sig.params) {
                    if let Some(expected) = types::Types::procedure_argument(&param.ty) {
                        self.expect_type(arg, scope, expected);
                    }
                }
            }
        }
        if !standalone && p.yield_.is_none() && !sig.outputs.is_empty() {
            self.diag(
                DiagnosticKind::ImplicitProcedureResults,
                "Procedure call inside a query does not support naming results implicitly (name explicitly using `YIELD` instead)".into(),
                p.name.span,
            );
        }
    }

    pub(super) fn projection(&mut self, p: &Projection, scope: &Scope, clause: &str) -> Scope {
        let mut out = Scope::default();
        if p.all && self.version == CypherVersion::Cypher5 {
            // (Neo4j 5 reads `ALL` there as a variable; grape's parser reads the Cypher 25
            // keyword, so `RETURN all - 1` with a variable named `all` is refused under 5.)
            self.diag(
                DiagnosticKind::CypherVersion,
                format!("Invalid input 'ALL': {clause} ALL is Cypher 25; prefix the query with CYPHER 25"),
                Span::new(p.span.start, p.span.start + 3),
            );
        }
        if p.star {
            // `WITH *` with nothing in scope is legal (it projects nothing); `RETURN *` is not.
            if clause == "RETURN" && scope.vars.is_empty() && !scope.open {
                self.diag(
                    DiagnosticKind::ReturnStarWithoutVariables,
                    format!("{clause} * is not allowed when there are no variables in scope; name the values to return"),
                    p.span,
                );
            }
            out = scope.clone();
        }
        for item in &p.items {
            self.pattern_as_value(&item.expr);
            self.expr(&item.expr, scope, Ctx::default());
            let (kind, binding) = self.kind_of(&item.expr, scope);
            let name = match (&item.alias, &item.expr.kind) {
                (Some(a), _) => a.name.clone(),
                (None, ExprKind::Variable(v)) => v.name.clone(),
                (None, _) => self.text(item.expr.span).to_string(),
            };
            out.bind(&name, kind, binding);
            // A parameter's type (from its value) goes with the name it is projected to.
            // So does a variable's known type (`UNWIND [1.5] AS x WITH x`).
            let typed_variable =
                kind == Kind::Unknown && matches!(item.expr.kind, ExprKind::Variable(_));
            if kind == Kind::Value
                || typed_variable
                || matches!(item.expr.kind, ExprKind::Parameter(_))
            {
                let known = match &item.expr.kind {
                    ExprKind::Variable(v) => scope.types.get(&v.name).cloned(),
                    _ => self.static_type(&item.expr, scope),
                };
                if let Some(t) = known {
                    out.types.insert(name, t);
                }
            }
        }
        // ORDER BY sees the projected names and, unless shadowed, what was in scope before.
        let mut order_scope = scope.clone();
        for (k, v) in &out.vars {
            order_scope.vars.insert(k.clone(), *v);
        }
        // A GROUP BY groups, with aggregates or without (Cypher 25).
        let aggregating =
            p.group_by.is_some() || p.items.iter().any(|it| contains_aggregate(&it.expr));
        let cypher5 = self.version == CypherVersion::Cypher5;
        let head = &self.src[..p.span.start.min(self.src.len())];
        let at = head
            .to_ascii_uppercase()
            .rfind(clause)
            .unwrap_or(p.span.start);
        let clause_at = Span::new(at, at + clause.len());
        match &p.group_by {
            Some(g) if cypher5 => self.diag(
                DiagnosticKind::CypherVersion,
                "Invalid input 'GROUP': expected ',', 'ORDER BY', 'SKIP', 'LIMIT', a clause or the end of the query (GROUP BY is Cypher 25; prefix the query with CYPHER 25)".into(),
                Span::new(g.span.start, g.span.start + 5),
            ),
            Some(g) if !matches!(g.keys, GroupKeys::All) => {
                self.explicit_group_by(p, g, &order_scope, clause_at)
            }
            Some(_) => {
                let before = self.diags.len();
                self.implicit_grouping_keys(p);
                if self.diags.len() == before {
                    self.group_by_all(p);
                }
            }
            _ if aggregating => self.implicit_grouping_keys(p),
            _ => {}
        }
        // Without an aggregating projection, no sort key may aggregate; Neo4j reports that
        // before anything else about the sort keys, at the clause's keyword.
        // (Cypher 25 lets a sort key aggregate anew after an aggregating or DISTINCT projection,
        // and refuses it elsewhere as an illegal aggregation: Neo4j 2026.08.)
        let sorts_by_aggregate =
            cypher5 && !aggregating && p.order_by.iter().any(|s| contains_aggregate(&s.expr));
        if sorts_by_aggregate {
            self.diag(
                DiagnosticKind::InvalidAggregation,
                format!("Cannot use aggregation in ORDER BY if there are no aggregate expressions in the preceding {clause}"),
                clause_at,
            );
        }
        for s in &p.order_by {
            // A key that repeats a projected expression sorts by that column (Neo4j rewrites
            // it to the column's name): it was checked as the column.
            if p.items.iter().any(|it| same_sort_expr(&it.expr, &s.expr)) {
                continue;
            }
            self.pattern_as_value(&s.expr);
            self.expr(&s.expr, &order_scope, Ctx::default());
            let before = self.diags.len();
            if (p.distinct || aggregating) && !p.star && !sorts_by_aggregate {
                self.sort_key_reads_projection(&s.expr, p, &out, &mut Vec::new(), cypher5);
            }
            let refuse_new = if cypher5 {
                aggregating
            } else {
                !aggregating && !p.distinct
            };
            if refuse_new && self.diags.len() == before {
                self.sort_key_aggregates(&s.expr, p);
            }
        }
        for (e, what) in [(&p.skip, "SKIP"), (&p.limit, "LIMIT")] {
            if let Some(e) = e {
                self.expr(e, &order_scope, Ctx::default());
                self.constant_count(e, &order_scope, what);
            }
        }
        out
    }

    /// `SKIP` and `LIMIT` are computed before any row: they may not read a variable of the
    /// query (Neo4j: `It is not allowed to refer to variables in SKIP, …`).
    fn constant_count(&mut self, e: &Expr, scope: &Scope, what: &str) {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let ExprKind::Variable(v) = &x.kind {
                if scope.vars.contains_key(&v.name) {
                    self.diag(
                        DiagnosticKind::NonConstantExpression,
                        format!("It is not allowed to refer to variables in {what}, so that the value for {what} can be statically calculated."),
                        v.span,
                    );
                    return;
                }
            }
            stack.extend(x.children());
        }
    }

    /// An aggregating column may read, outside its aggregates, only the grouping keys: a
    /// variable that is a key, a property of one, or a property that is itself a key (Neo4j:
    /// `Aggregation column contains implicit grouping expressions …`).
    fn implicit_grouping_keys(&mut self, p: &Projection) {
        let keys: Vec<&Expr> = p
            .items
            .iter()
            .map(|it| &it.expr)
            .filter(|e| !contains_aggregate(e))
            .collect();
        for item in p.items.iter().filter(|it| contains_aggregate(&it.expr)) {
            let mut illegal = Vec::new();
            // Neo4j 5 names the property read (`n.y`, where it stands); 2026's Cypher 25 the
            // variable, at the column.
            let cypher25 = self.version != CypherVersion::Cypher5;
            implicit_keys(&item.expr, &keys, cypher25, &mut Vec::new(), &mut illegal);
            let first = illegal
                .first()
                .map(|(_, at)| if cypher25 { item.expr.span } else { *at });
            if let Some(at) = first {
                let names: Vec<&str> = illegal.iter().map(|(n, _)| n.as_str()).collect();
                self.non_grouping(&names, at);
            }
        }
    }

    /// After an aggregating projection, an aggregate in a sort key must be a projection item
    /// of its own (Neo4j 5.26: `Illegal aggregation expression(s) in order by: count(f). …`);
    /// one that reads a variable the projection dropped is refused for that first (see
    /// [`Self::sort_key_reads_projection`]). Without an aggregating projection, any aggregate
    /// in ORDER BY is refused (`Cannot use aggregation in ORDER BY if there are no aggregate
    /// expressions in the preceding RETURN`).
    fn sort_key_aggregates(&mut self, key: &Expr, p: &Projection) {
        if p.items.iter().any(|it| same_sort_expr(&it.expr, key)) {
            return;
        }
        let mut found = Vec::new();
        aggregate_calls(key, &mut found);
        for a in found {
            if p.items.iter().any(|it| same_sort_expr(&it.expr, a)) {
                continue;
            }
            self.diag(
                DiagnosticKind::InvalidAggregation,
                format!("Illegal aggregation expression(s) in order by: {}. If an aggregation expression is used in order by, it also needs to be a projection item on it's own. For example, in 'RETURN n.a, 1 + count(*) ORDER BY count(*) + 1' the aggregation expression 'count(*) + 1' is not a projection item on its own, but it could be rewritten to 'RETURN n.a, 1 + count(*) AS cnt ORDER BY 1 + count(*)'.", self.text(a.span)),
                a.span,
            );
        }
    }

    /// After `DISTINCT` or an aggregation only the projected columns exist: a sort key may
    /// read them, or repeat a projected expression, but not a variable from before the
    /// projection (Neo4j: `In a WITH/RETURN with DISTINCT or an aggregation, it is not possible
    /// to access variables declared before the WITH/RETURN: x`). `local`: variables a
    /// comprehension around `e` binds.
    fn sort_key_reads_projection(
        &mut self,
        e: &Expr,
        p: &Projection,
        out: &Scope,
        local: &mut Vec<String>,
        into_aggregates: bool,
    ) {
        if p.items.iter().any(|it| same_sort_expr(&it.expr, e)) {
            return;
        }
        // After a GROUP BY, its keys (a key variable with its properties) are there too.
        if let Some(keys) = p.grouping_keys(self.src) {
            let keyed = |k: &&Expr| match (&k.kind, &e.kind) {
                (ExprKind::Variable(a), ExprKind::Variable(b)) => a.name == b.name,
                _ => same_sort_expr(k, e),
            };
            if keys.iter().any(keyed) {
                return;
            }
        }
        let aggregate = matches!(&e.kind, ExprKind::CountStar)
            || matches!(&e.kind, ExprKind::FunctionCall { name, .. } if name.is_aggregate());
        if aggregate && !into_aggregates {
            return;
        }
        match &e.kind {
            ExprKind::Variable(v) => {
                if out.get(&v.name).is_none() && !local.contains(&v.name) {
                    self.diag(
                        DiagnosticKind::UndefinedVariable,
                        format!("In a WITH/RETURN with DISTINCT or an aggregation, it is not possible to access variables declared before the WITH/RETURN: {}", v.name),
                        v.span,
                    );
                }
            }
            // An aggregate that is not a projection item reads the projected columns too
            // (Neo4j 5.26: `RETURN o.name AS n, collect(a) AS x ORDER BY count(a)` cannot read
            // `a`).
            _ => {
                let n = local.len();
                local.extend(binds(e));
                for c in e.children() {
                    self.sort_key_reads_projection(c, p, out, local, into_aggregates);
                }
                local.truncate(n);
            }
        }
    }

    /// What an expression evaluates to, as far as the analysis needs to know.
    pub(super) fn kind_of(&self, e: &Expr, scope: &Scope) -> (Kind, Option<usize>) {
        match &e.kind {
            ExprKind::Variable(v) => scope.get(&v.name).unwrap_or((Kind::Unknown, None)),
            ExprKind::Literal(Literal::Null) => (Kind::Unknown, None),
            // A list is never a node or a relationship; one that may hold relationships may
            // still stand for a variable-length relationship (`-[rs*]-`).
            ExprKind::List(items)
                if items
                    .iter()
                    .all(|x| matches!(self.kind_of(x, scope).0, Kind::Node | Kind::Value)) =>
            {
                (Kind::Value, None)
            }
            ExprKind::Literal(_)
            | ExprKind::Map(_)
            | ExprKind::Property { .. }
            | ExprKind::Binary { .. }
            | ExprKind::Comparison { .. }
            | ExprKind::IsNull { .. }
            | ExprKind::IsType { .. }
            | ExprKind::CountStar
            | ExprKind::CountSubquery(_)
            | ExprKind::Exists(_)
            | ExprKind::MapProjection { .. } => (Kind::Value, None),
            ExprKind::Unary { op, .. } if *op == UnaryOp::Not => (Kind::Value, None),
            // A list of nodes or values (not one that may hold relationships, see above).
            ExprKind::FunctionCall { name, args, .. }
                if name.dotted().eq_ignore_ascii_case("collect")
                    && args.first().is_some_and(|a| {
                        matches!(self.kind_of(a, scope).0, Kind::Node | Kind::Value)
                    }) =>
            {
                (Kind::Value, None)
            }
            ExprKind::FunctionCall { name, .. }
                if name.parts.len() == 1
                    && matches!(
                        name.parts[0].name.to_ascii_lowercase().as_str(),
                        "count"
                            | "sum"
                            | "avg"
                            | "size"
                            | "tostring"
                            | "tointeger"
                            | "tofloat"
                            | "length"
                            | "id"
                            | "elementid"
                            | "type"
                            | "labels"
                            | "keys"
                    ) =>
            {
                (Kind::Value, None)
            }
            _ => (Kind::Unknown, None),
        }
    }

    pub(super) fn lookup(&mut self, v: &Ident, scope: &Scope) {
        if scope.get(&v.name).is_some() || scope.open {
            return;
        }
        let help = closest(&v.name, scope.vars.keys().map(String::as_str))
            .map(|c| format!("did you mean `{c}`?"))
            .unwrap_or_else(|| "bind it in a MATCH, WITH or UNWIND first".to_string());
        self.diag_help(
            DiagnosticKind::UndefinedVariable,
            format!("Variable `{}` not defined", v.name),
            help,
            v.span,
        );
    }

    // ----- patterns -----
}

/// The variables `e` binds for its own sub-expressions: a list comprehension's or a
/// quantifier's variable, `reduce`'s accumulator and variable.
pub(super) fn binds(e: &Expr) -> Vec<String> {
    match &e.kind {
        ExprKind::ListComprehension { variable, .. } | ExprKind::Quantified { variable, .. } => {
            vec![variable.name.clone()]
        }
        ExprKind::Reduce {
            accumulator,
            variable,
            ..
        } => vec![accumulator.name.clone(), variable.name.clone()],
        _ => Vec::new(),
    }
}

/// The aggregate calls in `e` (not looking inside them or into subqueries).
/// Whether a sort key repeats a projection's expression (function names in any case).
pub(super) fn same_sort_expr(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (
            ExprKind::FunctionCall {
                name: n1,
                distinct: d1,
                args: a1,
            },
            ExprKind::FunctionCall {
                name: n2,
                distinct: d2,
                args: a2,
            },
        ) => {
            d1 == d2
                && n1.dotted().eq_ignore_ascii_case(&n2.dotted())
                && a1.len() == a2.len()
                && a1.iter().zip(a2).all(|(x, y)| same_sort_expr(x, y))
        }
        _ => a == b,
    }
}

pub(super) fn aggregate_calls<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::CountStar => out.push(e),
        ExprKind::FunctionCall { name, .. } if name.is_aggregate() => out.push(e),
        _ => e
            .children()
            .into_iter()
            .for_each(|c| aggregate_calls(c, out)),
    }
}

/// The variables `e` reads, outside its aggregates, that are not grouping keys (`keys`): a
/// key variable and its properties are keys, and so is a property that is a key itself.
/// `local`: variables a comprehension around `e` binds.
fn implicit_keys(
    e: &Expr,
    keys: &[&Expr],
    variables_only: bool,
    local: &mut Vec<String>,
    out: &mut Vec<(String, Span)>,
) {
    let key_var = |name: &str| {
        keys.iter()
            .any(|k| matches!(&k.kind, ExprKind::Variable(v) if v.name == name))
    };
    // What Neo4j names: the variable, or the property read from it (`n.y`), where it stands.
    let flag = |name: &str, shown: String, at: Span, out: &mut Vec<(String, Span)>| {
        if !key_var(name) && !local.iter().any(|l| l == name) && !out.iter().any(|o| o.0 == shown) {
            out.push((shown, at));
        }
    };
    match &e.kind {
        ExprKind::CountStar => {}
        ExprKind::FunctionCall { name, .. } if name.is_aggregate() => {}
        ExprKind::Variable(v) => flag(&v.name, v.name.clone(), e.span, out),
        ExprKind::Property { .. } if keys.iter().any(|k| **k == *e) => {}
        ExprKind::Property { expr, key } if matches!(expr.kind, ExprKind::Variable(_)) => {
            if let ExprKind::Variable(v) = &expr.kind {
                let shown = if variables_only {
                    v.name.clone()
                } else {
                    format!("{}.{}", v.name, key.name)
                };
                flag(&v.name, shown, e.span, out);
            }
        }
        _ => {
            let n = local.len();
            local.extend(binds(e));
            for c in e.children() {
                implicit_keys(c, keys, variables_only, local, out);
            }
            local.truncate(n);
        }
    }
}

/// Expression text as Neo4j's messages print it: string literals in double quotes.
fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                out.push('"');
            }
            (Some(_), '\\') => {
                out.push('\\');
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            (Some(q), c) if c == q => {
                quote = None;
                out.push('"');
            }
            (_, c) => out.push(c),
        }
    }
    out
}
