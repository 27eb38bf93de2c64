//! Pattern predicates — `exists((a)-->())`, a pattern used as a boolean, `EXISTS { … }` and
//! `COUNT { … }` over a pattern, pattern comprehensions, `shortestPath(…)` as a value — planned
//! once per statement, not per row (Neo4j's `SemiApply` / `RollUpApply`).
//!
//! Each predicate is a *site*: its pattern and WHERE, owned, found again on every row by its
//! span and structure. The first row compiles the site (slots, pushed-down filters, compiled
//! property checks, the anchor); later rows with the same variables in scope reuse the
//! compiled chains and only match them. A change to the graph (an updating statement writing
//! between rows) makes the compiled site stale: it is compiled again on the graph as it is.

use super::*;
use std::rc::Rc;
use yoke::Yoke;

/// What kind of pattern predicate a site is (two kinds over the same text are two sites).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SiteKind {
    /// A pattern as a boolean: `exists((a)-->())`, `WHERE (a)-->()`.
    Exists,
    /// `[(a)-->(b) WHERE … | …]`.
    Comprehension,
    /// `shortestPath(…)` (`false`) / `allShortestPaths(…)` (`true`) as a value.
    Shortest(bool),
    /// `EXISTS { pattern WHERE … }` / `COUNT { pattern WHERE … }`.
    Subquery,
}

/// A site's pattern and WHERE, owned by the statement's cache.
pub(crate) struct Site {
    parts: Vec<PatternPart>,
    where_: Option<Expr>,
}

/// A site's compiled chains (borrowing the site's pattern) and the part of WHERE not pushed
/// down to an element.
#[derive(yoke::Yokeable)]
pub(crate) struct CompiledSite<'q> {
    chains: Vec<ChainInfo<'q>>,
    rest: Option<Expr>,
}

/// One compilation of a site: for the variables in scope around it, on one version of the
/// graph.
pub(crate) struct SiteEntry {
    /// The variables in scope where the predicate is evaluated (outermost first).
    outer: Vec<Arc<str>>,
    /// `outer` followed by the pattern's new variables: the frame its matches fill.
    names: Vec<Arc<str>>,
    /// The graph's [`Graph::version`] it was compiled on.
    version: u64,
    compiled: Yoke<CompiledSite<'static>, Rc<Site>>,
}

/// The sites of one statement, by kind and span; each holds its compilations.
pub(crate) type SiteCache = RefCell<HashMap<(SiteKind, (usize, usize)), Vec<Rc<SiteEntry>>>>;

/// How many compilations a statement keeps (distinct sites × scopes). A statement has
/// finitely many sites, so this is only reached by a pathological one; past it, sites are
/// compiled per row as a fallback, without caching.
const MAX_SITE_ENTRIES: usize = 4096;

impl Runner<'_> {
    /// Matches a site's pattern (`parts` and `where_` as the AST has them) in `env` and calls
    /// `f` for each match with the extended frame, until it returns `false`. `takes`: whether
    /// `f` takes the matches as rows (a count, a comprehension), or only asks whether there is
    /// one (an existence test). Under PROFILE the site counts its evaluations, those that
    /// found a match and those that did not, and the rows it handed on
    /// (`exec::counter::SITE_*`, keyed by the site's first pattern part: `counter::site_key`).
    fn for_each_site_match(
        &self,
        kind: SiteKind,
        pattern: SitePattern,
        where_: Option<&Expr>,
        env: &Env,
        takes: bool,
        f: &mut MatchCallback,
    ) -> Result<()> {
        if self.sh.profile.is_none() {
            return self.site_matches(kind, pattern, where_, env, f);
        }
        let mut found = 0u64;
        self.site_matches(kind, pattern, where_, env, &mut |names, vals| {
            found += 1;
            f(names, vals)
        })?;
        self.profile_site(pattern.key(), found, takes);
        Ok(())
    }

    /// Under PROFILE: one evaluation of the pattern predicate or subquery filed under `key`,
    /// which found `found` matches (handed on when the consumer `takes` them).
    pub(super) fn profile_site(&self, key: usize, found: u64, takes: bool) {
        self.sh.profile_steps(key, counter::SITE_ARGUMENT, 1);
        let outcome = match found {
            0 => counter::SITE_NOT_FOUND,
            _ => counter::SITE_FOUND,
        };
        self.sh.profile_steps(key, outcome, 1);
        if takes {
            self.sh.profile_steps(key, counter::SITE_HANDED, found);
        }
    }

    fn site_matches(
        &self,
        kind: SiteKind,
        pattern: SitePattern,
        where_: Option<&Expr>,
        env: &Env,
        f: &mut MatchCallback,
    ) -> Result<()> {
        let (mut outer, mut vals) = (Vec::new(), Vec::new());
        flatten_env(env, &mut outer, &mut vals);
        let entry = self.site_entry(kind, pattern, where_, outer)?;
        let compiled = entry.compiled.get();
        let names = &entry.names;
        let mut st = MatchState {
            bound: vec![true; vals.len()],
            vals,
            used: Vec::new(),
            repeatable: false,
            halt: Default::default(),
            // An existence test needs one match.
            batch: match kind {
                SiteKind::Exists => 1,
                _ => super::physical::BATCH,
            },
        };
        st.vals.resize(names.len(), Value::Null);
        st.bound.resize(names.len(), false);
        self.match_parts(&compiled.chains, 0, &mut st, names, &mut |st, run| {
            if st.halt.get() {
                return Ok(());
            }
            if let Some(w) = &compiled.rest {
                if !crate::engine::eval::passes(&run.eval(w, &Env::new(names, &st.vals))?)? {
                    return Ok(());
                }
            }
            if !f(names, &st.vals)? {
                // Enough (an existence test's first match): the search stops.
                st.halt.set(true);
            }
            Ok(())
        })
    }

    /// The compiled site for `parts` / `where_` with `outer` in scope: from the statement's
    /// cache when it was compiled for the same scope on the graph as it is, else compiled now
    /// (and cached, replacing a stale compilation).
    fn site_entry(
        &self,
        kind: SiteKind,
        pattern: SitePattern,
        where_: Option<&Expr>,
        outer: Vec<Arc<str>>,
    ) -> Result<Rc<SiteEntry>> {
        let key = (kind, pattern.span(where_));
        let version = self.graph().version();
        let same_site = |e: &SiteEntry, outer: &[Arc<str>]| {
            let s = e.compiled.backing_cart();
            e.outer == outer && s.where_.as_ref() == where_ && pattern.is(&s.parts)
        };
        let mut stale = None;
        if let Some(entries) = self.sh.sites.borrow().get(&key) {
            if let Some((i, e)) = entries
                .iter()
                .enumerate()
                .find(|(_, e)| same_site(e, &outer))
            {
                if e.version == version {
                    return Ok(e.clone());
                }
                stale = Some(i);
            }
        }
        let site = Rc::new(Site {
            parts: pattern.parts(),
            where_: where_.cloned(),
        });
        let mut names = outer.clone();
        declare_pattern_vars(&site.parts, &mut names);
        let old_len = outer.len();
        let compiled = Yoke::try_attach_to_cart(site, |s: &Site| -> Result<CompiledSite<'_>> {
            let (mut chains, rest) =
                self.compile_chains(&s.parts, &names, old_len, s.where_.as_ref())?;
            // PROFILE files a chain's steps under its part's span, where the planner finds
            // them (`counter::site_key`, `planner::site_plan`), not under this copy's address.
            for ch in chains.iter_mut() {
                ch.part = ch.source.map_or(0, |p| counter::site_key(p.span));
            }
            Ok(CompiledSite { chains, rest })
        })?;
        let entry = Rc::new(SiteEntry {
            outer,
            names,
            version,
            compiled,
        });
        let mut sites = self.sh.sites.borrow_mut();
        let total: usize = sites.values().map(Vec::len).sum();
        let entries = sites.entry(key).or_default();
        match stale {
            // The cache may have changed while compiling (a nested site): find it again.
            Some(i) if i < entries.len() && same_site(&entries[i], &entry.outer) => {
                entries[i] = entry.clone()
            }
            _ if total < MAX_SITE_ENTRIES => entries.push(entry.clone()),
            _ => {}
        }
        Ok(entry)
    }

    /// `shortestPath(…)` / `allShortestPaths(…)` used as an expression: the path (or null), or
    /// the list of all shortest paths.
    pub(crate) fn shortest_path_value(
        &self,
        all: bool,
        chain: &PathChain,
        env: &Env,
    ) -> Result<Value> {
        let mut paths = Vec::new();
        self.for_each_site_match(
            SiteKind::Shortest(all),
            SitePattern::Shortest(all, chain),
            None,
            env,
            true,
            &mut |names, vals| {
                if let Some(i) = names.iter().rposition(|n| &**n == SHORTEST_VAR) {
                    paths.push(vals[i].clone());
                }
                Ok(all)
            },
        )?;
        Ok(if all {
            Value::List(paths)
        } else {
            paths.into_iter().next().unwrap_or(Value::Null)
        })
    }

    /// A pattern as a boolean: whether it has a match.
    pub(crate) fn pattern_exists(&self, chain: &PathChain, env: &Env) -> Result<bool> {
        let mut found = false;
        self.for_each_site_match(
            SiteKind::Exists,
            SitePattern::Chain(None, chain),
            None,
            env,
            false,
            &mut |_, _| {
                found = true;
                Ok(false)
            },
        )?;
        Ok(found)
    }

    /// `[p = (a)-->(b) WHERE filter | map]`.
    pub(crate) fn pattern_comprehension(
        &self,
        variable: Option<&Ident>,
        pattern: &PathChain,
        filter: Option<&Expr>,
        map: &Expr,
        env: &Env,
    ) -> Result<Value> {
        let mut out = Vec::new();
        let mut bytes = 0usize;
        self.for_each_site_match(
            SiteKind::Comprehension,
            SitePattern::Chain(variable, pattern),
            filter,
            env,
            true,
            &mut |names, vals| {
                let v = self.eval(map, &Env::new(names, vals))?;
                self.sh.grow(&mut bytes, &v)?;
                out.push(v);
                Ok(true)
            },
        )?;
        Ok(Value::List(out))
    }

    /// The matches of an `EXISTS { pattern WHERE … }` / `COUNT { … }` body (stops at the first
    /// when `exists_only`).
    pub(crate) fn pattern_subquery_count(
        &self,
        pattern: &[PatternPart],
        where_: Option<&Expr>,
        env: &Env,
        exists_only: bool,
    ) -> Result<usize> {
        let mut n = 0;
        self.for_each_site_match(
            SiteKind::Subquery,
            SitePattern::Parts(pattern),
            where_,
            env,
            !exists_only,
            &mut |_, _| {
                n += 1;
                Ok(!exists_only)
            },
        )?;
        Ok(n)
    }
}

/// The variable a `shortestPath(…)` value binds its path to (no user variable has this name).
const SHORTEST_VAR: &str = "\u{0}shortest";

/// A site's pattern as the AST has it, compared with a cached site without building one.
#[derive(Clone, Copy)]
enum SitePattern<'x> {
    /// A lone chain, with the comprehension's path variable if it has one.
    Chain(Option<&'x Ident>, &'x PathChain),
    /// `shortestPath(chain)` (`false`) / `allShortestPaths(chain)` (`true`).
    Shortest(bool, &'x PathChain),
    /// The pattern parts of an `EXISTS` / `COUNT` body.
    Parts(&'x [PatternPart]),
}

impl SitePattern<'_> {
    /// The pattern parts to match (built once per site).
    fn parts(self) -> Vec<PatternPart> {
        match self {
            SitePattern::Chain(variable, chain) => vec![PatternPart {
                variable: variable.cloned(),
                selector: None,
                path: PathExpr::Chain(chain.clone()),
                span: chain.span,
            }],
            SitePattern::Shortest(all, chain) => vec![PatternPart {
                variable: Some(Ident {
                    name: SHORTEST_VAR.to_string(),
                    span: chain.span,
                }),
                selector: None,
                path: PathExpr::ShortestFunction {
                    all,
                    chain: chain.clone(),
                    span: chain.span,
                },
                span: chain.span,
            }],
            SitePattern::Parts(parts) => parts.to_vec(),
        }
    }

    /// Whether `parts` (a cached site's) is this pattern.
    fn is(self, parts: &[PatternPart]) -> bool {
        match (self, parts) {
            (SitePattern::Parts(p), _) => p == parts,
            (SitePattern::Chain(variable, chain), [part]) => {
                part.selector.is_none()
                    && part.variable.as_ref() == variable
                    && matches!(&part.path, PathExpr::Chain(c) if c == chain)
            }
            (SitePattern::Shortest(all, chain), [part]) => matches!(
                &part.path,
                PathExpr::ShortestFunction { all: a, chain: c, .. } if *a == all && c == chain
            ),
            _ => false,
        }
    }

    /// The key of the site's PROFILE counters: its first pattern part's (a lone chain's, for
    /// a pattern or a comprehension) [`counter::site_key`].
    fn key(self) -> usize {
        match self {
            SitePattern::Chain(_, chain) | SitePattern::Shortest(_, chain) => {
                counter::site_key(chain.span)
            }
            SitePattern::Parts(parts) => parts.first().map_or(0, |p| counter::site_key(p.span)),
        }
    }

    /// The span of the pattern and its WHERE in the statement's text.
    fn span(self, where_: Option<&Expr>) -> (usize, usize) {
        let span = match self {
            SitePattern::Chain(_, chain) | SitePattern::Shortest(_, chain) => chain.span,
            SitePattern::Parts(parts) => parts
                .iter()
                .map(|p| p.span)
                .reduce(|a, b| a.to(b))
                .unwrap_or_default(),
        };
        let span = where_.map_or(span, |w| span.to(w.span));
        (span.start, span.end)
    }
}
