//! Neo4j's compile-time checks of schema commands (`CREATE INDEX`, `CREATE CONSTRAINT`, …),
//! with its messages.

use super::*;

/// The name Neo4j's messages give a constraint of this kind on this entity.
pub(crate) fn constraint_kind_name(kind: &ConstraintKind, rel: bool, cypher25: bool) -> String {
    let on = if rel { "relationship" } else { "node" };
    match kind {
        ConstraintKind::Unique(_) if cypher25 => format!("{on} property uniqueness constraint"),
        ConstraintKind::Unique(_) if rel => "relationship uniqueness constraint".into(),
        ConstraintKind::Unique(_) => "uniqueness constraint".into(),
        ConstraintKind::Key(_) => format!("{on} key constraint"),
        ConstraintKind::NotNull => format!("{on} property existence constraint"),
        ConstraintKind::Typed(_) => format!("{on} property type constraint"),
    }
}

impl Checker<'_, '_> {
    pub(super) fn schema_command(&mut self, c: &SchemaCommand) {
        let cypher25 = self.version == CypherVersion::Cypher25;
        match c {
            SchemaCommand::CreateIndex(i) => {
                if i.or_replace {
                    self.schema_diag(
                        "Failed to create index: `OR REPLACE` cannot be used together with this command.",
                        i.span,
                    );
                }
                self.schema_properties(&i.entity, &i.properties);
                if let Some(first) = i.with_properties.first() {
                    // Only Cypher 25's vector indexes take additional properties.
                    if !cypher25 || i.kind != IndexKind::Vector {
                        let before = self.src.get(..first.span.start).unwrap_or_default();
                        let at = before
                            .to_ascii_lowercase()
                            .rfind("with")
                            .unwrap_or(first.span.start);
                        self.diag(
                            DiagnosticKind::InvalidSearch,
                            "Invalid input 'WITH': expected 'OPTIONS' or <EOF>".into(),
                            Span::new(at, at),
                        );
                    }
                    self.schema_properties(&i.entity, &i.with_properties);
                }
                let single = match i.kind {
                    IndexKind::Text => Some("text"),
                    IndexKind::Point => Some("point"),
                    IndexKind::Vector => Some("vector"),
                    _ => None,
                };
                if let Some(what) = single {
                    if i.properties.len() > 1 {
                        self.schema_diag(
                            &format!("Only single property {what} indexes are supported"),
                            i.properties[1].span,
                        );
                    }
                }
                if let Some((f, v)) = &i.lookup {
                    let (valid, on) = if i.entity.relationship {
                        ("type", "relationship")
                    } else {
                        ("labels", "node")
                    };
                    if !f.name.eq_ignore_ascii_case(valid) {
                        self.schema_diag(
                            &format!(
                                "Failed to create {on} lookup index: Function '{}' is not allowed, valid function is '{valid}'.",
                                f.name
                            ),
                            f.span,
                        );
                    }
                    if v.name != i.entity.variable.name {
                        self.undefined_schema_variable(v);
                    }
                }
                if let Some(o) = &i.options {
                    self.schema_options(o, cypher25);
                }
            }
            SchemaCommand::CreateConstraint(k) => {
                let rel = k.entity.relationship;
                if k.or_replace {
                    self.schema_diag(
                        &format!(
                            "Failed to create {}: `OR REPLACE` cannot be used together with this command.",
                            constraint_kind_name(&k.kind, rel, cypher25)
                        ),
                        k.span,
                    );
                }
                self.schema_properties(&k.entity, &k.properties);
                let (word, written) = match &k.kind {
                    ConstraintKind::Unique(w) => ("UNIQUE", *w),
                    ConstraintKind::Key(w) => ("KEY", *w),
                    _ => ("", None),
                };
                match written {
                    Some(EntityWord::Node) if rel => self.schema_diag(
                        &format!("'IS NODE {word}' does not allow relationship patterns"),
                        k.entity.span,
                    ),
                    Some(EntityWord::Relationship) if !rel => self.schema_diag(
                        &format!("'IS RELATIONSHIP {word}' does not allow node patterns"),
                        k.entity.span,
                    ),
                    _ => {}
                }
                let single = match &k.kind {
                    ConstraintKind::NotNull => Some("IS NOT NULL"),
                    ConstraintKind::Typed(_) => Some("IS TYPED"),
                    _ => None,
                };
                if let Some(what) = single {
                    if k.properties.len() > 1 {
                        self.schema_diag(
                            &format!("Constraint type '{what}' does not allow multiple properties"),
                            k.properties[1].span,
                        );
                    }
                }
                if let ConstraintKind::Typed(t) = &k.kind {
                    if !crate::graph::schema::valid_property_type(t) {
                        let list_nullable = matches!(&t.kind, TypeKind::List(inner) if !inner.not_null && !t.not_null);
                        let mut text = crate::syntax::print_type(t);
                        if list_nullable {
                            text.push_str("`. Lists cannot have nullable inner types.");
                        } else {
                            text.push_str("`.");
                        }
                        self.schema_diag(
                            &format!(
                                "Failed to create {}: Invalid property type `{text}",
                                constraint_kind_name(&k.kind, rel, cypher25)
                            ),
                            k.span,
                        );
                    }
                }
                if let Some(o) = &k.options {
                    self.schema_options(o, cypher25);
                }
            }
            SchemaCommand::DropIndex(_) | SchemaCommand::DropConstraint(_) => {}
        }
    }

    fn schema_diag(&mut self, message: &str, span: Span) {
        self.diag(
            DiagnosticKind::InvalidSchemaCommand,
            message.to_string(),
            span,
        );
    }

    fn undefined_schema_variable(&mut self, v: &Ident) {
        self.diag(
            DiagnosticKind::UndefinedVariable,
            format!("Variable `{}` not defined", v.name),
            v.span,
        );
    }

    /// Every property is of the pattern's variable.
    fn schema_properties(&mut self, e: &SchemaEntity, props: &[SchemaProperty]) {
        for p in props {
            if p.variable.name != e.variable.name {
                self.undefined_schema_variable(&p.variable);
            }
        }
    }

    /// `OPTIONS`: a map literal's values are expressions without variables; Cypher 25 has
    /// no `indexProvider`.
    fn schema_options(&mut self, o: &Expr, cypher25: bool) {
        let empty = Scope::default();
        self.expr(o, &empty, Ctx::default());
        if let ExprKind::Map(entries) = &o.kind {
            for (k, _) in entries {
                if cypher25 && k.name == "indexProvider" {
                    self.schema_diag(
                        "Invalid input 'indexProvider' for 'OPTIONS'. Expected 'indexConfig'.",
                        k.span,
                    );
                }
            }
        }
    }
}
