//! Path inference over the schema: which labels each pattern element can have given the
//! relationships around it, the path diagnostics and the schema score.

use super::*;

impl<'a, 's> Checker<'a, 's> {
    /// Label pairs `(x, y)` one segment allows, given the current domains, and the relationship
    /// types used (one-hop segments only).
    pub(super) fn support(&self, s: &Segment, dir: Direction) -> (Set, Set, Set) {
        self.support_with(s, s.bounds, dir)
    }

    pub(super) fn support_with(
        &self,
        s: &Segment,
        bounds: Option<(u64, Option<u64>)>,
        dir: Direction,
    ) -> (Set, Set, Set) {
        let dx = &self.bindings[s.left].domain;
        let dy = &self.bindings[s.right].domain;
        let types = &self.bindings[s.rel].domain;
        let (mut nx, mut ny, mut nt) = (Set::new(), Set::new(), Set::new());
        match bounds {
            None => {
                for &(a, t, b) in &self.ix.triples {
                    if !types.contains(&t) {
                        continue;
                    }
                    let fwd = matches!(dir, Direction::Right | Direction::Undirected);
                    let bwd = matches!(dir, Direction::Left | Direction::Undirected);
                    if fwd && dx.contains(&a) && dy.contains(&b) {
                        nx.insert(a);
                        ny.insert(b);
                        nt.insert(t);
                    }
                    if bwd && dx.contains(&b) && dy.contains(&a) {
                        nx.insert(b);
                        ny.insert(a);
                        nt.insert(t);
                    }
                }
            }
            Some((min, max)) => {
                for &x in dx {
                    let reach = self.reach(x, types, dir, min, max);
                    let hits: Vec<usize> = reach.intersection(dy).copied().collect();
                    if !hits.is_empty() {
                        nx.insert(x);
                        ny.extend(hits);
                    }
                }
                nt = types.clone();
            }
        }
        (nx, ny, nt)
    }

    /// Labels reachable from `x` in `min..=max` steps over relationships of `types`.
    pub(super) fn reach(
        &self,
        x: usize,
        types: &Set,
        dir: Direction,
        min: u64,
        max: Option<u64>,
    ) -> Set {
        let step = |from: &Set| -> Set {
            let mut out = Set::new();
            for &(a, t, b) in &self.ix.triples {
                if !types.contains(&t) {
                    continue;
                }
                if matches!(dir, Direction::Right | Direction::Undirected) && from.contains(&a) {
                    out.insert(b);
                }
                if matches!(dir, Direction::Left | Direction::Undirected) && from.contains(&b) {
                    out.insert(a);
                }
            }
            out
        };
        let mut cur: Set = [x].into_iter().collect();
        let mut k = 0u64;
        let mut seen: Vec<Set> = Vec::new();
        // Exactly `min` steps (stopping early once the frontier cycles).
        while k < min {
            cur = step(&cur);
            k += 1;
            if cur.is_empty() {
                return cur;
            }
            if seen.contains(&cur) {
                // Periodic from here on: jump ahead within the cycle.
                let start = seen.iter().position(|s| s == &cur).unwrap_or(0);
                let period = (seen.len() - start) as u64;
                let remaining = (min - k) % period.max(1);
                for _ in 0..remaining {
                    cur = step(&cur);
                }
                break;
            }
            seen.push(cur.clone());
        }
        // Then up to `max - min` more steps; once a step adds nothing new, no later one can.
        let mut out = cur.clone();
        let mut frontier = cur;
        let mut steps_left = max.map(|m| m.saturating_sub(min));
        while steps_left != Some(0) {
            let next = step(&frontier);
            if next.iter().all(|x| out.contains(x)) {
                break;
            }
            out.extend(next.iter().copied());
            frontier = next;
            if let Some(s) = &mut steps_left {
                *s -= 1;
            }
        }
        out
    }

    pub(super) fn infer_paths(&mut self) {
        // Copies inherit an unknown label found on their parent later (parents come first).
        for i in 0..self.bindings.len() {
            if let Some(p) = self.bindings[i].parent {
                self.bindings[i].unknown |= self.bindings[p].unknown;
            }
        }
        // A later occurrence may have given a variable an unknown label: decide skips now.
        for i in 0..self.segments.len() {
            let (l, r, t) = (
                self.segments[i].left,
                self.segments[i].right,
                self.segments[i].rel,
            );
            self.segments[i].skip =
                self.bindings[l].unknown || self.bindings[r].unknown || self.bindings[t].unknown;
        }
        let mut changed = true;
        let mut rounds = 0;
        while changed && rounds < 64 {
            changed = false;
            rounds += 1;
            // A copy narrows with its parent; the parent never learns from the copy.
            for i in 0..self.bindings.len() {
                if let Some(p) = self.bindings[i].parent {
                    let to = self.bindings[p].domain.clone();
                    changed |= narrow(&mut self.bindings[i].domain, &to);
                }
            }
            for i in 0..self.segments.len() {
                if self.segments[i].skip || self.segments[i].invalid {
                    continue;
                }
                let (nx, ny, nt) = self.support(&self.segments[i], self.segments[i].direction);
                if nx.is_empty() {
                    self.report_path(i);
                    self.segments[i].invalid = true;
                    continue;
                }
                let s = &self.segments[i];
                let (l, r, t, var) = (s.left, s.right, s.rel, s.bounds.is_some());
                changed |= narrow(&mut self.bindings[l].domain, &nx);
                changed |= narrow(&mut self.bindings[r].domain, &ny);
                if !var {
                    changed |= narrow(&mut self.bindings[t].domain, &nt);
                }
            }
        }
    }

    pub(super) fn describe(&self, b: usize) -> String {
        let bd = &self.bindings[b];
        let names = self.ix.label_names(&bd.domain);
        let var = bd
            .name
            .clone()
            .map(|n| format!("`{n}`"))
            .unwrap_or_else(|| "the node".to_string());
        if names.len() == self.ix.labels.len() {
            return String::new();
        }
        let labels = if names.is_empty() {
            "no label".to_string()
        } else {
            names
                .iter()
                .map(|n| format!(":{n}"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        if bd.explicit {
            format!("{var} is {labels}")
        } else {
            format!("{var} can only be {labels} (inferred from the rest of the query)")
        }
    }

    pub(super) fn report_path(&mut self, i: usize) {
        let s = &self.segments[i];
        let types = &self.bindings[s.rel].domain;
        let type_names: Vec<&str> = types.iter().map(|&t| self.ix.types[t]).collect();
        let triples: Vec<String> = self
            .ix
            .schema
            .triples
            .iter()
            .filter(|t| type_names.contains(&t.rel_type.as_str()))
            .map(|t| t.to_string())
            .collect();
        let written = format!(
            "{}{}{}",
            self.text(s.left_span),
            self.text(s.span),
            self.text(s.right_span)
        );
        let context: Vec<String> = [self.describe(s.left), self.describe(s.right)]
            .into_iter()
            .filter(|d| !d.is_empty())
            .collect();
        let context = if context.is_empty() {
            String::new()
        } else {
            format!(" ({})", context.join("; "))
        };
        let schema_has = if triples.is_empty() {
            "the schema has no such relationship".to_string()
        } else {
            let shown: Vec<String> = triples.iter().take(6).cloned().collect();
            let more = if triples.len() > 6 {
                format!(" and {} more", triples.len() - 6)
            } else {
                String::new()
            };
            format!("the schema has {}{more}", shown.join(", "))
        };
        let reversed = match s.direction {
            Direction::Right => Direction::Left,
            Direction::Left => Direction::Right,
            Direction::Undirected => Direction::Undirected,
        };
        if s.direction != Direction::Undirected && !self.support(s, reversed).0.is_empty() {
            let rel_text = self.text(s.span).trim();
            let flipped = match s.direction {
                Direction::Right if rel_text.starts_with('-') && rel_text.ends_with('>') => {
                    Some(format!("<{}", &rel_text[..rel_text.len() - 1]))
                }
                Direction::Left if rel_text.starts_with('<') && rel_text.ends_with('-') => {
                    Some(format!("{}>", &rel_text[1..]))
                }
                _ => None,
            };
            let fix = match flipped {
                Some(f) => format!(
                    "write `{}{f}{}`",
                    self.text(s.left_span),
                    self.text(s.right_span)
                ),
                None => "reverse the arrow".to_string(),
            };
            let msg = format!("`{written}` points the wrong way{context}: {schema_has}; {fix}");
            let span = s.span;
            self.diag(DiagnosticKind::WrongDirection, msg, span);
            return;
        }
        if let Some((min, Some(_))) = s.bounds {
            if !self
                .support_with(s, Some((min.min(1), None)), s.direction)
                .0
                .is_empty()
            {
                let msg = format!(
                    "`{written}` cannot be formed with these bounds{context}, but can with more hops: {schema_has}; change the length bounds"
                );
                let span = s.span;
                self.diag(DiagnosticKind::VariableLengthPath, msg, span);
                return;
            }
        }
        let msg = format!("`{written}` does not exist in the schema{context}: {schema_has}");
        let span = s.span;
        self.diag(DiagnosticKind::UnknownPath, msg, span);
    }

    pub(super) fn path_key(&self, s: &Segment) -> String {
        let node = |b: usize| -> String {
            let bd = &self.bindings[b];
            if bd.domain.len() == self.ix.labels.len() && !bd.explicit {
                String::new()
            } else {
                self.ix.label_names(&bd.domain).join("|")
            }
        };
        let rel = &self.bindings[s.rel];
        let types: Vec<&str> = if rel.explicit {
            rel.domain.iter().map(|&t| self.ix.types[t]).collect()
        } else {
            Vec::new()
        };
        let len = match s.bounds {
            None => String::new(),
            Some((a, b)) => format!("*{a}..{}", b.map(|x| x.to_string()).unwrap_or_default()),
        };
        let (l, r) = match s.direction {
            Direction::Right => ("-", "->"),
            Direction::Left => ("<-", "-"),
            Direction::Undirected => ("-", "-"),
        };
        format!(
            "(:{}){l}[:{}{len}]{r}(:{}) {}",
            node(s.left),
            types.join("|"),
            node(s.right),
            if s.skip { self.text(s.span) } else { "" }
        )
    }

    pub(super) fn schema_score(&self) -> f64 {
        let mut groups = Vec::new();
        let frac = |v: &mut dyn Iterator<Item = bool>| -> Option<f64> {
            let (mut n, mut ok) = (0usize, 0usize);
            for b in v {
                n += 1;
                ok += b as usize;
            }
            (n > 0).then(|| ok as f64 / n as f64)
        };
        groups.extend(frac(&mut self.label_group.values().copied()));
        groups.extend(frac(&mut self.type_group.values().copied()));
        let mut paths: BTreeMap<String, bool> = BTreeMap::new();
        for s in &self.segments {
            let ok = !s.skip && !s.invalid;
            let e = paths.entry(self.path_key(s)).or_insert(true);
            *e &= ok;
        }
        groups.extend(frac(&mut paths.values().copied()));
        if groups.is_empty() {
            1.0
        } else {
            groups.iter().sum::<f64>() / groups.len() as f64
        }
    }

    pub(super) fn check_properties(&mut self) -> Option<f64> {
        let mut pairs: BTreeMap<(String, String), bool> = BTreeMap::new();
        let accesses = std::mem::take(&mut self.accesses);
        for a in &accesses {
            let bd = &self.bindings[a.binding];
            let schema = self.ix.schema;
            let names: Vec<&str> = if bd.node {
                self.ix.label_names(&bd.domain)
            } else {
                bd.domain.iter().map(|&t| self.ix.types[t]).collect()
            };
            if self.opts.neo4j_tokens {
                if !schema.has_property_key(&a.key) {
                    self.diag(
                        DiagnosticKind::UnknownPropertyKey,
                        format!("no label or relationship type has a property `{}`", a.key),
                        a.span,
                    );
                }
                continue;
            }
            if bd.unknown || !bd.checked {
                // The label or type is unknown (reported); CyVer cannot check its properties.
                continue;
            }
            let has = |n: &str| {
                if bd.node {
                    schema.node_property(n, &a.key).is_some()
                } else {
                    schema.relationship_property(n, &a.key).is_some()
                }
            };
            let ok = names.iter().any(|n| has(n));
            let entity = if bd.node && names.len() == self.ix.labels.len() && !bd.explicit {
                "*".to_string()
            } else {
                names.join("|")
            };
            let e = pairs.entry((entity, a.key.clone())).or_insert(true);
            *e &= ok;
            if ok {
                continue;
            }
            let what = if bd.node {
                "label"
            } else {
                "relationship type"
            };
            let var = if a.variable.is_empty() {
                "the pattern".to_string()
            } else {
                format!("`{}`", a.variable)
            };
            let owner = if names.is_empty() {
                format!("{var} (which matches nothing in the schema)")
            } else {
                format!(
                    "{var} ({})",
                    names
                        .iter()
                        .map(|n| format!(":{n}"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            };
            let own_keys: BTreeSet<&str> = names
                .iter()
                .flat_map(|n| {
                    if bd.node {
                        schema
                            .label_properties(n)
                            .into_iter()
                            .map(|(k, _)| k)
                            .collect::<Vec<_>>()
                    } else {
                        schema
                            .relationship_types
                            .get(*n)
                            .map(|e| e.properties.keys().map(String::as_str).collect())
                            .unwrap_or_default()
                    }
                })
                .collect();
            let suggestion = closest(&a.key, own_keys.iter().copied())
                .map(|c| format!("; the closest property it has is `{c}`"))
                .unwrap_or_else(|| format!("; that {what} has no properties"));
            if !schema.has_property_key(&a.key) {
                let global = closest(&a.key, schema.property_keys());
                let hint = match (closest(&a.key, own_keys.iter().copied()), global) {
                    (Some(c), _) => format!("; did you mean `{c}`?"),
                    (None, Some(g)) => format!("; did you mean `{g}`?"),
                    _ => String::new(),
                };
                self.diag(
                    DiagnosticKind::UnknownPropertyKey,
                    format!(
                        "no label or relationship type has a property `{}` (read on {owner}){hint}",
                        a.key
                    ),
                    a.span,
                );
            } else {
                let holders: Vec<String> = if bd.node {
                    schema
                        .labels
                        .keys()
                        .filter(|l| schema.node_property(l, &a.key).is_some())
                        .map(|l| format!(":{l}"))
                        .collect()
                } else {
                    schema
                        .relationship_types
                        .iter()
                        .filter(|(_, e)| e.properties.contains_key(&a.key))
                        .map(|(t, _)| format!(":{t}"))
                        .collect()
                };
                let on = if holders.is_empty() {
                    String::new()
                } else {
                    format!(" (it is a property of {})", holders.join(", "))
                };
                self.diag(
                    DiagnosticKind::InvalidPropertyAccessByLabel,
                    format!("{owner} has no property `{}`{on}{suggestion}", a.key),
                    a.span,
                );
            }
        }
        if pairs.is_empty() {
            None
        } else {
            let ok = pairs.values().filter(|v| **v).count();
            Some(ok as f64 / pairs.len() as f64)
        }
    }
}
