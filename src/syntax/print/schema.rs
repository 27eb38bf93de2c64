//! The canonical printer's schema commands (`CREATE`/`DROP` `INDEX`/`CONSTRAINT`, their names, entities, properties and options) and Cypher types.

use super::*;

impl Printer<'_> {
    pub(super) fn entity_word(&mut self, e: Option<EntityWord>) {
        match e {
            None => {}
            Some(EntityWord::Node) => self.w("NODE "),
            Some(EntityWord::Relationship) => self.w("RELATIONSHIP "),
        }
    }

    pub(super) fn schema_name(&mut self, n: &SchemaName) {
        match n {
            SchemaName::Name(i) => self.name(i),
            SchemaName::Parameter(p, span) => {
                self.expr(&Expr::new(ExprKind::Parameter(p.clone()), *span))
            }
        }
    }

    pub(super) fn schema_entity(&mut self, e: &SchemaEntity) {
        if e.relationship {
            self.w(if e.left_arrow { "()<-[" } else { "()-[" });
        } else {
            self.w("(");
        }
        self.var(&e.variable);
        for (i, l) in e.labels.iter().enumerate() {
            self.w(if i == 0 { ":" } else { "|" });
            self.name(l);
        }
        if e.relationship {
            self.w(if e.right_arrow { "]->()" } else { "]-()" });
        } else {
            self.w(")");
        }
    }

    pub(super) fn schema_props(&mut self, ps: &[SchemaProperty]) {
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.var(&p.variable);
            self.w(".");
            self.name(&p.key);
        }
    }

    pub(super) fn schema_head(
        &mut self,
        or_replace: bool,
        what: &str,
        name: &Option<SchemaName>,
        ine: bool,
    ) {
        self.w(if or_replace {
            "CREATE OR REPLACE "
        } else {
            "CREATE "
        });
        self.w(what);
        if let Some(n) = name {
            self.w(" ");
            self.schema_name(n);
        }
        if ine {
            self.w(" IF NOT EXISTS");
        }
        self.w(" FOR ");
    }

    pub(super) fn schema_command(&mut self, c: &SchemaCommand) {
        match c {
            SchemaCommand::CreateIndex(i) => {
                let what = match (i.kind, i.kind_written) {
                    (IndexKind::Range, false) => "INDEX",
                    (IndexKind::Range, true) => "RANGE INDEX",
                    (IndexKind::Text, _) => "TEXT INDEX",
                    (IndexKind::Point, _) => "POINT INDEX",
                    (IndexKind::Lookup, _) => "LOOKUP INDEX",
                    (IndexKind::Fulltext, _) => "FULLTEXT INDEX",
                    (IndexKind::Vector, _) => "VECTOR INDEX",
                };
                self.schema_head(i.or_replace, what, &i.name, i.if_not_exists);
                self.schema_entity(&i.entity);
                match (&i.lookup, i.kind) {
                    (Some((f, v)), _) => {
                        self.w(" ON EACH ");
                        self.name(f);
                        self.w("(");
                        self.var(v);
                        self.w(")");
                    }
                    (None, IndexKind::Fulltext) => {
                        self.w(" ON EACH [");
                        self.schema_props(&i.properties);
                        self.w("]");
                    }
                    (None, _) => {
                        self.w(" ON (");
                        self.schema_props(&i.properties);
                        self.w(")");
                    }
                }
                if !i.with_properties.is_empty() {
                    self.w(" WITH [");
                    self.schema_props(&i.with_properties);
                    self.w("]");
                }
                self.schema_options(&i.options);
            }
            SchemaCommand::CreateConstraint(c) => {
                self.schema_head(c.or_replace, "CONSTRAINT", &c.name, c.if_not_exists);
                self.schema_entity(&c.entity);
                self.w(" REQUIRE ");
                if c.properties.len() == 1 {
                    self.schema_props(&c.properties);
                } else {
                    self.w("(");
                    self.schema_props(&c.properties);
                    self.w(")");
                }
                match &c.kind {
                    ConstraintKind::Unique(e) => {
                        self.w(" IS ");
                        self.entity_word(*e);
                        self.w("UNIQUE");
                    }
                    ConstraintKind::Key(e) => {
                        self.w(" IS ");
                        self.entity_word(*e);
                        self.w("KEY");
                    }
                    ConstraintKind::NotNull => self.w(" IS NOT NULL"),
                    ConstraintKind::Typed(t) => {
                        self.w(" IS :: ");
                        self.cypher_type(t, true);
                    }
                }
                self.schema_options(&c.options);
            }
            SchemaCommand::DropIndex(d) | SchemaCommand::DropConstraint(d) => {
                self.w(if matches!(c, SchemaCommand::DropIndex(_)) {
                    "DROP INDEX "
                } else {
                    "DROP CONSTRAINT "
                });
                self.schema_name(&d.name);
                if d.if_exists {
                    self.w(" IF EXISTS");
                }
            }
        }
    }

    pub(super) fn schema_options(&mut self, o: &Option<Expr>) {
        if let Some(o) = o {
            self.w(" OPTIONS ");
            self.expr(o);
        }
    }

    pub(super) fn cypher_type(&mut self, t: &CypherType, top: bool) {
        match &t.kind {
            TypeKind::Union(alts) => {
                let wrap = !top || t.not_null;
                if wrap {
                    self.w("ANY<");
                }
                for (i, a) in alts.iter().enumerate() {
                    if i > 0 {
                        self.w(" | ");
                    }
                    self.cypher_type(a, false);
                }
                if wrap {
                    self.w(">");
                }
            }
            TypeKind::List(inner) => {
                self.w("LIST<");
                self.cypher_type(inner, true);
                self.w(">");
            }
            k => self.w(match k {
                TypeKind::Nothing => "NOTHING",
                TypeKind::Null => "NULL",
                TypeKind::Boolean => "BOOLEAN",
                TypeKind::String => "STRING",
                TypeKind::Integer => "INTEGER",
                TypeKind::Float => "FLOAT",
                TypeKind::Date => "DATE",
                TypeKind::LocalTime => "LOCAL TIME",
                TypeKind::ZonedTime => "ZONED TIME",
                TypeKind::LocalDateTime => "LOCAL DATETIME",
                TypeKind::ZonedDateTime => "ZONED DATETIME",
                TypeKind::Duration => "DURATION",
                TypeKind::Point => "POINT",
                TypeKind::Node => "NODE",
                TypeKind::Relationship => "RELATIONSHIP",
                TypeKind::Map => "MAP",
                TypeKind::Path => "PATH",
                TypeKind::PropertyValue => "PROPERTY VALUE",
                _ => "ANY",
            }),
        }
        if t.not_null {
            self.w(" NOT NULL");
        }
    }
}

impl Printer<'_> {
    fn secret(&mut self, s: &Secret) {
        match s {
            Secret::Literal(text, _) => write_string(&mut self.out, text),
            Secret::Parameter(p, span) => {
                self.expr(&Expr::new(ExprKind::Parameter(p.clone()), *span))
            }
        }
    }

    fn user_options(&mut self, options: &[UserOption]) {
        for o in options {
            match o {
                UserOption::Password {
                    encrypted,
                    secret,
                    change_required,
                    ..
                } => {
                    self.w(if *encrypted {
                        " SET ENCRYPTED PASSWORD "
                    } else {
                        " SET PASSWORD "
                    });
                    self.secret(secret);
                    if let Some(c) = change_required {
                        self.w(if *c {
                            " CHANGE REQUIRED"
                        } else {
                            " CHANGE NOT REQUIRED"
                        });
                    }
                }
                UserOption::ChangeRequired {
                    required,
                    set_password,
                    ..
                } => {
                    if *set_password {
                        self.w(" SET PASSWORD");
                    }
                    self.w(if *required {
                        " CHANGE REQUIRED"
                    } else {
                        " CHANGE NOT REQUIRED"
                    });
                }
                UserOption::Status { suspended, .. } => self.w(if *suspended {
                    " SET STATUS SUSPENDED"
                } else {
                    " SET STATUS ACTIVE"
                }),
                UserOption::Home { database, .. } => {
                    self.w(" SET HOME DATABASE ");
                    self.w(database);
                }
                UserOption::RemoveHome(_) => self.w(" REMOVE HOME DATABASE"),
            }
        }
    }

    pub(super) fn admin_command(&mut self, c: &AdminCommand) {
        match c {
            AdminCommand::CreateUser {
                name,
                or_replace,
                if_not_exists,
                options,
                ..
            } => {
                self.w(if *or_replace {
                    "CREATE OR REPLACE USER "
                } else {
                    "CREATE USER "
                });
                self.schema_name(name);
                if *if_not_exists {
                    self.w(" IF NOT EXISTS");
                }
                self.user_options(options);
            }
            AdminCommand::AlterUser {
                name,
                if_exists,
                options,
                ..
            } => {
                self.w("ALTER USER ");
                self.schema_name(name);
                if *if_exists {
                    self.w(" IF EXISTS");
                }
                self.user_options(options);
            }
            AdminCommand::AlterCurrentUser { old, new, .. } => {
                self.w("ALTER CURRENT USER SET PASSWORD FROM ");
                self.secret(old);
                self.w(" TO ");
                self.secret(new);
            }
            AdminCommand::RenameUser {
                from,
                to,
                if_exists,
                ..
            } => {
                self.w("RENAME USER ");
                self.schema_name(from);
                if *if_exists {
                    self.w(" IF EXISTS");
                }
                self.w(" TO ");
                self.schema_name(to);
            }
            AdminCommand::DropUser {
                name, if_exists, ..
            } => {
                self.w("DROP USER ");
                self.schema_name(name);
                if *if_exists {
                    self.w(" IF EXISTS");
                }
            }
            AdminCommand::Enterprise { text, .. } => self.w(text),
        }
    }
}
