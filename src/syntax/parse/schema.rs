//! The builder for schema commands (indexes and constraints) and the `SHOW` filters for them.

use super::*;

impl<'s> Builder<'s> {
    /// A schema command, wrapped as the only clause of a query.
    pub(super) fn schema_command(&self, p: Pair<'_, Rule>) -> Res<Query> {
        let span = span_of(&p);
        let c = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        let cmd = match c.as_rule() {
            Rule::create_index => SchemaCommand::CreateIndex(self.create_index(c)?),
            Rule::create_constraint => SchemaCommand::CreateConstraint(self.create_constraint(c)?),
            Rule::drop_index => SchemaCommand::DropIndex(self.drop_schema(c)?),
            _ => SchemaCommand::DropConstraint(self.drop_schema(c)?),
        };
        Ok(Query {
            first: SingleQuery {
                clauses: vec![Clause::Schema(cmd)],
                span,
            },
            unions: Vec::new(),
            span,
        })
    }

    pub(super) fn schema_name(&self, p: Pair<'_, Rule>) -> Res<SchemaName> {
        let span = span_of(&p);
        let x = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        if x.as_rule() == Rule::parameter {
            match self.atom(x)?.expr.kind {
                ExprKind::Parameter(param) => Ok(SchemaName::Parameter(param, span)),
                _ => Err(internal(self.src, span.start)),
            }
        } else {
            Ok(SchemaName::Name(self.ident(x)?))
        }
    }

    /// `(n:A)`, `(n:A|B)`, `()-[r:T]->()`, `(n)` and `()-[r]-()` (LOOKUP).
    fn schema_entity(&self, p: Pair<'_, Rule>) -> Res<SchemaEntity> {
        let span = span_of(&p);
        let relationship = matches!(
            p.as_rule(),
            Rule::schema_rel | Rule::lookup_rel | Rule::fulltext_rel
        );
        let mut e = SchemaEntity {
            variable: Ident {
                name: String::new(),
                span,
            },
            relationship,
            labels: Vec::new(),
            left_arrow: false,
            right_arrow: false,
            span,
        };
        let mut seen_var = false;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => {
                    e.variable = self.ident(x)?;
                    seen_var = true;
                }
                Rule::symbolic_name => e.labels.push(self.ident(x)?),
                Rule::schema_left => e.left_arrow = true,
                Rule::schema_right => e.right_arrow = true,
                _ => {}
            }
        }
        if !seen_var {
            return Err(internal(self.src, span.start));
        }
        Ok(e)
    }

    fn schema_prop(&self, p: Pair<'_, Rule>) -> Res<SchemaProperty> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let (Some(v), Some(k)) = (it.next(), it.next()) else {
            return Err(internal(self.src, span.start));
        };
        Ok(SchemaProperty {
            variable: self.ident(v)?,
            key: self.ident(k)?,
            span,
        })
    }

    fn schema_options(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = span_of(&p);
        let x = p
            .into_inner()
            .find(|x| matches!(x.as_rule(), Rule::map_literal | Rule::parameter))
            .ok_or_else(|| internal(self.src, span.start))?;
        Ok(self.atom(x)?.expr)
    }

    fn create_index(&self, p: Pair<'_, Rule>) -> Res<CreateIndex> {
        let span = span_of(&p);
        let mut or_replace = false;
        let mut body = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::or_replace => or_replace = true,
                Rule::property_index | Rule::lookup_index | Rule::fulltext_index => body = Some(x),
                _ => {}
            }
        }
        let body = body.ok_or_else(|| internal(self.src, span.start))?;
        let mut kind = match body.as_rule() {
            Rule::lookup_index => IndexKind::Lookup,
            Rule::fulltext_index => IndexKind::Fulltext,
            _ => IndexKind::Range,
        };
        let mut kind_written = kind != IndexKind::Range;
        let mut name = None;
        let mut if_not_exists = false;
        let mut entity = None;
        let mut properties = Vec::new();
        let mut with_properties = Vec::new();
        let mut function = None;
        let mut argument = None;
        let mut options = None;
        for x in body.into_inner() {
            match x.as_rule() {
                Rule::create_index_kind => {
                    kind_written = true;
                    kind = match x.into_inner().next().map(|k| k.as_rule()) {
                        Some(Rule::TEXT) => IndexKind::Text,
                        Some(Rule::POINT) => IndexKind::Point,
                        Some(Rule::VECTOR) => IndexKind::Vector,
                        _ => IndexKind::Range,
                    };
                }
                Rule::schema_name => name = Some(self.schema_name(x)?),
                Rule::if_not_exists => if_not_exists = true,
                Rule::schema_node
                | Rule::schema_rel
                | Rule::lookup_node
                | Rule::lookup_rel
                | Rule::fulltext_node
                | Rule::fulltext_rel => entity = Some(self.schema_entity(x)?),
                Rule::schema_prop => properties.push(self.schema_prop(x)?),
                Rule::index_with => {
                    for y in x.into_inner() {
                        if y.as_rule() == Rule::schema_prop {
                            with_properties.push(self.schema_prop(y)?);
                        }
                    }
                }
                Rule::symbolic_name => function = Some(self.ident(x)?),
                Rule::variable => argument = Some(self.ident(x)?),
                Rule::schema_options => options = Some(self.schema_options(x)?),
                _ => {}
            }
        }
        Ok(CreateIndex {
            or_replace,
            kind,
            kind_written,
            name,
            if_not_exists,
            entity: entity.ok_or_else(|| internal(self.src, span.start))?,
            properties,
            with_properties,
            lookup: function.zip(argument),
            options,
            span,
        })
    }

    fn create_constraint(&self, p: Pair<'_, Rule>) -> Res<CreateConstraint> {
        let span = span_of(&p);
        let mut c = CreateConstraint {
            or_replace: false,
            name: None,
            if_not_exists: false,
            entity: SchemaEntity {
                variable: Ident {
                    name: String::new(),
                    span,
                },
                relationship: false,
                labels: Vec::new(),
                left_arrow: false,
                right_arrow: false,
                span,
            },
            properties: Vec::new(),
            kind: ConstraintKind::NotNull,
            options: None,
            span,
        };
        let word = |x: Pair<'_, Rule>| {
            x.into_inner()
                .find(|k| k.as_rule() == Rule::constraint_entity)
                .map(|k| entity_word(&k))
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::or_replace => c.or_replace = true,
                Rule::schema_name => c.name = Some(self.schema_name(x)?),
                Rule::if_not_exists => c.if_not_exists = true,
                Rule::schema_node | Rule::schema_rel => c.entity = self.schema_entity(x)?,
                Rule::schema_prop => c.properties.push(self.schema_prop(x)?),
                Rule::constraint_not_null => c.kind = ConstraintKind::NotNull,
                Rule::constraint_unique => c.kind = ConstraintKind::Unique(word(x)),
                Rule::constraint_key => c.kind = ConstraintKind::Key(word(x)),
                Rule::constraint_typed => {
                    let ty = x
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, span.start))?;
                    c.kind = ConstraintKind::Typed(self.cypher_type(ty)?);
                }
                Rule::schema_options => c.options = Some(self.schema_options(x)?),
                _ => {}
            }
        }
        Ok(c)
    }

    fn drop_schema(&self, p: Pair<'_, Rule>) -> Res<DropSchema> {
        let span = span_of(&p);
        let mut name = None;
        let mut if_exists = false;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::schema_name => name = Some(self.schema_name(x)?),
                Rule::if_exists => if_exists = true,
                _ => {}
            }
        }
        Ok(DropSchema {
            name: name.ok_or_else(|| internal(self.src, span.start))?,
            if_exists,
            span,
        })
    }

    /// `SHOW [ALL|RANGE|…] INDEXES` / `SHOW [ALL|NODE UNIQUE|…] CONSTRAINTS`.
    pub(super) fn show_schema_kind(&self, p: Pair<'_, Rule>) -> ShowKind {
        let indexes = p.as_rule() == Rule::show_indexes;
        let filter = p.into_inner().find(|x| {
            matches!(
                x.as_rule(),
                Rule::show_index_kind | Rule::show_constraint_kind
            )
        });
        if indexes {
            let kind = filter.and_then(|f| match f.into_inner().next()?.as_rule() {
                Rule::RANGE => Some(IndexKind::Range),
                Rule::TEXT => Some(IndexKind::Text),
                Rule::POINT => Some(IndexKind::Point),
                Rule::LOOKUP => Some(IndexKind::Lookup),
                Rule::FULLTEXT => Some(IndexKind::Fulltext),
                Rule::VECTOR => Some(IndexKind::Vector),
                _ => None,
            });
            return ShowKind::Indexes(kind);
        }
        let Some(f) = filter else {
            return ShowKind::Constraints(ShowConstraints::All);
        };
        let mut entity = None;
        let mut out = ShowConstraints::All;
        for k in f.into_inner() {
            match k.as_rule() {
                Rule::constraint_entity => entity = Some(entity_word(&k)),
                Rule::UNIQUE | Rule::UNIQUENESS => out = ShowConstraints::Unique(entity),
                Rule::KEY => out = ShowConstraints::Key(entity),
                Rule::TYPE => out = ShowConstraints::PropertyType(entity),
                Rule::EXIST | Rule::EXISTENCE => out = ShowConstraints::Existence(entity),
                _ => {}
            }
        }
        ShowKind::Constraints(out)
    }
}

fn entity_word(p: &Pair<'_, Rule>) -> EntityWord {
    match p.clone().into_inner().next().map(|k| k.as_rule()) {
        Some(Rule::NODE) => EntityWord::Node,
        _ => EntityWord::Relationship,
    }
}
