//! The `neo4j` backend against `grape serve bolt` on loopback: every value type, parameters,
//! column order, errors, credentials, timeouts, schema from both sources, writes, concurrent
//! use of the connection pool, and TLS (`bolt+ssc://` through a TLS-terminating proxy with a
//! self-signed certificate; `bolt+s://` refuses that certificate).
#![cfg(feature = "neo4j")]

use grape::backend::neo4j::{Neo4j, Neo4jConfig, SchemaSource};
use grape::backend::record::same_result;
use grape::backend::{Backend, FailureKind};
use grape::bolt::{Config, Server, ServerHandle};
use grape::engine::Params;
use grape::graph::Graph;
use grape::value::{Entities, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

const SCRIPT: &str =
    "CREATE (a:Person {name: 'Ann', born: date('1990-05-17'), tags: ['x', 'y'], score: 1.5})
       -[:KNOWS {since: 2020, d: duration('P1Y1M2DT3.5S')}]->
       (b:Person:Admin {name: 'Bob', at: datetime('2024-01-02T03:04:05[Europe/Paris]'),
                        t: localtime('10:11:12'), off: time('10:11:12+02:00'),
                        ldt: localdatetime('2020-02-29T23:59:59.123456789'),
                        utc: datetime('1969-12-31T23:59:59.5Z')}),
       (b)-[:LIVES_IN]->(:City {name: 'Rome'})";

fn graph() -> Graph {
    Graph::from_cypher_script(SCRIPT).unwrap()
}

fn serve(config: Config) -> ServerHandle {
    Server::bind("127.0.0.1:0", graph(), config)
        .unwrap()
        .spawn()
}

fn config_for(addr: SocketAddr) -> Neo4jConfig {
    let mut c = Neo4jConfig::new(format!("bolt://{addr}"));
    c.password = "secret".into();
    c
}

#[test]
fn values_columns_and_parameters_arrive_intact() {
    let h = serve(Config::default());
    let db = Neo4j::connect(config_for(h.local_addr())).unwrap();
    assert_eq!(db.bolt_version(), (5, 8));
    assert!(
        db.server_agent().starts_with("Neo4j/"),
        "{}",
        db.server_agent()
    );
    let q = "MATCH p = (a:Person {name: $n})-[k:KNOWS]->(b) \
             RETURN b.name AS z, a, k, p, a.born AS born, k.d AS d, b.at AS at, b.t AS t, \
             b.off AS off, b.ldt AS ldt, b.utc AS utc, [1, 2.5, 'x', null, true] AS l, \
             {m: 1, n: [a.name]} AS m, a.tags AS tags";
    let mut params = Params::new();
    params.insert("n".into(), Value::from("Ann"));
    let remote = db.run(q, &params).unwrap();
    assert_eq!(
        remote.columns,
        ["z", "a", "k", "p", "born", "d", "at", "t", "off", "ldt", "utc", "l", "m", "tags"]
    );
    let mut g = graph();
    let local = grape::engine::run(&mut g, q, &params).unwrap();
    // Nodes, relationships and paths by content; every temporal value equal.
    same_result(&remote, &local, true).unwrap();
    let row = &remote.rows[0];
    let (Value::Node(a), Value::Relationship(k), Value::Path(p)) = (&row[1], &row[2], &row[3])
    else {
        panic!("{row:?}")
    };
    assert_eq!(remote.node_labels(*a)[0].as_ref(), "Person");
    assert_eq!(remote.rel_type(*k).as_deref(), Some("KNOWS"));
    let (s, e) = remote.rel_endpoints(*k).unwrap();
    assert_eq!(s, *a);
    assert_eq!(p.nodes, vec![s, e]);
    assert_eq!(p.rels, vec![*k]);
    assert_eq!(
        remote.node_props(e).get("name").and_then(Value::as_str),
        Some("Bob")
    );
    assert_eq!(row[5].to_string(), "P1Y1M2DT3.5S");
    assert_eq!(
        row[6].to_string(),
        "2024-01-02T03:04:05+01:00[Europe/Paris]"
    );
    // A path walked against the direction of its relationship keeps the relationship's ends.
    let back = db
        .run(
            "MATCH p = (:City)<-[:LIVES_IN]-(:Person) RETURN p",
            &Params::new(),
        )
        .unwrap();
    let Value::Path(bp) = &back.rows[0][0] else {
        panic!()
    };
    let (rs, re) = back.rel_endpoints(bp.rels[0]).unwrap();
    assert_eq!((rs, re), (bp.nodes[1], bp.nodes[0]));
    // Parameters of every kind go out and come back unchanged.
    let params = grape::engine::params_from_json(
        r#"{"list": [1, 2.5, "s", null, [true]], "map": {"k": {"~date": "2020-01-01"}},
            "d": {"~duration": "P2M3DT4S"}, "dt": {"~datetime": "2021-03-04T05:06:07+09:00"},
            "z": {"~datetime": "2021-06-01T12:00:00+02:00[Europe/Berlin]"},
            "big": 9007199254740993, "nan": {"~float": "NaN"}}"#,
    )
    .unwrap();
    let t = db
        .run(
            "RETURN $list AS list, $map AS map, $d AS d, $dt AS dt, $z AS z, $big AS big",
            &params,
        )
        .unwrap();
    for (i, name) in ["list", "map", "d", "dt", "z", "big"].iter().enumerate() {
        assert_eq!(
            t.rows[0][i].to_string(),
            params[*name].to_string(),
            "parameter {name}"
        );
    }
    let nan = db.run("RETURN $nan AS x", &params).unwrap();
    assert!(matches!(nan.rows[0][0], Value::Float(f) if f.is_nan()));
}

#[test]
fn failures_are_typed_and_the_connection_survives_them() {
    let h = serve(Config::default());
    let db = Neo4j::connect(config_for(h.local_addr())).unwrap();
    let e = db.run("MATCH (n RETURN n", &Params::new()).unwrap_err();
    assert_eq!(e.kind, FailureKind::Query);
    assert_eq!(
        e.code.as_deref(),
        Some("Neo.ClientError.Statement.SyntaxError")
    );
    let e = db.run("RETURN $missing", &Params::new()).unwrap_err();
    assert_eq!(e.kind, FailureKind::Query);
    // The pooled connection was reset and works.
    let t = db.run("RETURN 1 AS one", &Params::new()).unwrap();
    assert!(matches!(t.rows[0][0], Value::Int(1)));

    let mut c = config_for(h.local_addr());
    c.database = Some("nope".into());
    let e = Neo4j::connect(c)
        .unwrap()
        .run("RETURN 1", &Params::new())
        .unwrap_err();
    assert_eq!(
        e.code.as_deref(),
        Some("Neo.ClientError.Database.DatabaseNotFound")
    );

    // Wrong credentials.
    let guarded = serve(Config {
        auth: Some(("neo4j".into(), "right".into())),
        ..Config::default()
    });
    let e = Neo4j::connect(config_for(guarded.local_addr()))
        .err()
        .unwrap();
    assert_eq!(e.kind, FailureKind::Auth, "{e}");
    let mut ok = config_for(guarded.local_addr());
    ok.password = "right".into();
    assert!(Neo4j::connect(ok).is_ok());

    // Nobody listening.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let e = Neo4j::connect(Neo4jConfig::new(format!("bolt://127.0.0.1:{port}")))
        .err()
        .unwrap();
    assert_eq!(e.kind, FailureKind::Connection, "{e}");
    let e = Neo4j::connect(Neo4jConfig::new("http://127.0.0.1:1"))
        .err()
        .unwrap();
    assert!(e.message.contains("unknown scheme"), "{e}");

    // The server's time limit.
    let mut engine = grape::engine::Options::default();
    engine.limits.timeout = Some(Duration::from_millis(20));
    let slow = serve(Config {
        engine,
        ..Config::default()
    });
    let db = Neo4j::connect(config_for(slow.local_addr())).unwrap();
    let e = db
        .run(
            "UNWIND range(1, 100000000) AS x WITH x WHERE x < 0 RETURN count(x)",
            &Params::new(),
        )
        .unwrap_err();
    assert_eq!(e.kind, FailureKind::Timeout, "{e}");
}

#[test]
fn schema_from_apoc_and_from_db_schema_procedures() {
    let h = serve(Config::default());
    let expected = grape::engine::schema_of(&graph());
    for source in [
        SchemaSource::Auto,
        SchemaSource::Apoc,
        SchemaSource::DbSchema,
    ] {
        let mut c = config_for(h.local_addr());
        c.schema_source = source;
        let s = Neo4j::connect(c).unwrap().schema().unwrap();
        assert_eq!(
            s.labels.keys().collect::<Vec<_>>(),
            expected.labels.keys().collect::<Vec<_>>(),
            "{source:?}"
        );
        assert_eq!(s.triples, expected.triples, "{source:?}");
        assert_eq!(
            s.node_property("Person", "born").map(|p| &p.ty),
            Some(&grape::schema::PropertyType::Date),
            "{source:?}"
        );
        assert_eq!(
            s.relationship_property("KNOWS", "since").map(|p| &p.ty),
            Some(&grape::schema::PropertyType::Integer),
            "{source:?}"
        );
    }
}

#[test]
fn writes_and_concurrent_queries() {
    let h = serve(Config::default());
    let db = Arc::new(Neo4j::connect(config_for(h.local_addr())).unwrap());
    let t = db
        .run("CREATE (:Tmp {i: 1})-[:T]->(:Tmp {i: 2})", &Params::new())
        .unwrap();
    assert_eq!(t.stats.nodes_created, 2);
    assert_eq!(t.stats.relationships_created, 1);
    assert_eq!(t.stats.properties_set, 2);
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let db = db.clone();
            std::thread::spawn(move || {
                for j in 0..20 {
                    let mut p = Params::new();
                    p.insert("i".into(), Value::Int(i * 100 + j));
                    let t = db.run("RETURN $i * 2 AS x", &p).unwrap();
                    assert!(matches!(t.rows[0][0], Value::Int(x) if x == (i * 100 + j) * 2));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let n = db
        .run("MATCH (t:Tmp) RETURN count(t)", &Params::new())
        .unwrap();
    assert!(matches!(n.rows[0][0], Value::Int(2)));
    assert_eq!(db.describe(), format!("neo4j bolt://{}", h.local_addr()));
}

/// A TLS-terminating proxy in front of `backend` with the self-signed certificate in
/// tests/data/tls (CN localhost, 127.0.0.1).
fn tls_proxy(backend: SocketAddr) -> SocketAddr {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let cert = CertificateDer::from_pem_slice(include_bytes!("data/tls/cert.pem")).unwrap();
    let key = PrivateKeyDer::from_pem_slice(include_bytes!("data/tls/key.pem")).unwrap();
    let config = Arc::new(
        rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert], key)
        .unwrap(),
    );
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(s) = s else { break };
            let config = config.clone();
            std::thread::spawn(move || pump(s, backend, config));
        }
    });
    addr
}

fn pump(tcp: TcpStream, backend: SocketAddr, config: Arc<rustls::ServerConfig>) {
    let quiet = |e: &std::io::Error| {
        matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        )
    };
    let tick = Some(Duration::from_millis(2));
    let Ok(conn) = rustls::ServerConnection::new(config) else {
        return;
    };
    let _ = tcp.set_read_timeout(tick);
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let Ok(mut plain) = TcpStream::connect(backend) else {
        return;
    };
    let _ = plain.set_read_timeout(tick);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match tls.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if plain.write_all(&buf[..n]).is_err() {
                    return;
                }
            }
            Err(e) if quiet(&e) => {}
            Err(_) => return,
        }
        match plain.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if tls.write_all(&buf[..n]).and_then(|_| tls.flush()).is_err() {
                    return;
                }
            }
            Err(e) if quiet(&e) => {}
            Err(_) => return,
        }
    }
}

#[test]
fn tls_with_a_self_signed_certificate() {
    let h = serve(Config::default());
    let proxy = tls_proxy(h.local_addr());
    let mut c = config_for(proxy);
    c.uri = format!("bolt+ssc://127.0.0.1:{}", proxy.port());
    let db = Neo4j::connect(c).unwrap();
    let t = db
        .run(
            "MATCH (p:Person) RETURN p.name AS name ORDER BY name",
            &Params::new(),
        )
        .unwrap();
    assert_eq!(t.rows.len(), 2);
    // A large result crosses many TLS records.
    let t = db
        .run(
            "UNWIND range(1, 20000) AS i RETURN i, 'row ' + i AS s",
            &Params::new(),
        )
        .unwrap();
    assert_eq!(t.rows.len(), 20000);
    // bolt+s checks the certificate against the web's roots: a self-signed one is refused.
    let mut c = config_for(proxy);
    c.uri = format!("neo4j+s://localhost:{}", proxy.port());
    let e = Neo4j::connect(c).err().unwrap();
    assert_eq!(e.kind, FailureKind::Connection);
    assert!(e.message.to_lowercase().contains("certificate"), "{e}");
}
