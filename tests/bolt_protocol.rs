//! The Bolt server, driven message by message on loopback: versions 4.4 and 5.x, streaming with
//! `n` and `qid`, transactions, failures and RESET, authentication, access modes, routing,
//! value structures and bounds.
#![cfg(feature = "bolt")]

use grape::bolt::client::Client;
use grape::bolt::packstream::Ps;
use grape::bolt::{Config, Server, ServerHandle};

const SUCCESS: u8 = 0x70;
const RECORD: u8 = 0x71;
const IGNORED: u8 = 0x7E;
const FAILURE: u8 = 0x7F;

fn graph() -> grape::graph::Graph {
    grape::graph::Graph::from_cypher_script(
        "CREATE (a:Person {name: 'Ann', born: date('1990-05-01')})-[:KNOWS {since: 2020}]->(b:Person {name: 'Bob'}), (c:Person {name: 'Cy'})",
    )
    .unwrap()
}

fn start(config: Config) -> ServerHandle {
    Server::bind("127.0.0.1:0", graph(), config)
        .unwrap()
        .spawn()
}

fn addr(h: &ServerHandle) -> String {
    h.local_addr().to_string()
}

fn no_params() -> Ps {
    Ps::map::<&str>([])
}

fn count_people(c: &mut Client) -> i64 {
    let (_, rows, _) = c
        .run("MATCH (p:Person) RETURN count(p) AS n", no_params())
        .unwrap()
        .unwrap();
    rows[0][0].as_int().unwrap()
}

#[test]
fn versions_and_values() {
    let h = start(Config::default());
    // Bolt 5: element ids, UTC date-times.
    let mut c = Client::connect(&addr(&h), &[(5, 8, 8), (4, 4, 0)]).unwrap();
    assert_eq!(c.version, (5, 8));
    let hello = c.login("neo4j", "x").unwrap();
    assert_eq!(
        hello.get("server").and_then(Ps::as_str),
        Some("Neo4j/5.26.0")
    );
    let (meta, rows, summary) = c
        .run(
            "MATCH p = (a:Person {name: 'Ann'})-[k:KNOWS]->(b) RETURN a, k, p, a.born AS born, datetime('2024-01-02T03:04:05+02:00') AS dt",
            no_params(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        meta.get("fields"),
        Some(&Ps::List(vec![
            Ps::from("a"),
            Ps::from("k"),
            Ps::from("p"),
            Ps::from("born"),
            Ps::from("dt")
        ]))
    );
    assert_eq!(summary.get("type").and_then(Ps::as_str), Some("r"));
    let r = &rows[0];
    let Ps::Struct(0x4E, node) = &r[0] else {
        panic!("{:?}", r[0])
    };
    assert_eq!(node.len(), 4);
    assert_eq!(node[1], Ps::List(vec![Ps::from("Person")]));
    // Neo4j 5's element id: `4:<database id>:<id>`.
    let Ps::Int(id) = node[0] else {
        panic!("{:?}", node[0])
    };
    assert_eq!(
        node[3].as_str().unwrap(),
        grape::value::element_id(true, "neo4j", id as u32)
    );
    let Ps::Struct(0x52, rel) = &r[1] else {
        panic!("{:?}", r[1])
    };
    assert_eq!(rel.len(), 8);
    assert_eq!(rel[3], Ps::from("KNOWS"));
    let Ps::Struct(0x50, path) = &r[2] else {
        panic!("{:?}", r[2])
    };
    assert_eq!(path[2], Ps::List(vec![Ps::Int(1), Ps::Int(1)]));
    // date('1990-05-01'): days since the epoch.
    assert_eq!(r[3], Ps::Struct(0x44, vec![Ps::Int(7425)]));
    // 2024-01-02T03:04:05+02:00 is 01:04:05 UTC.
    assert_eq!(
        r[4],
        Ps::Struct(
            0x49,
            vec![Ps::Int(1_704_157_445), Ps::Int(0), Ps::Int(7200)]
        )
    );
    // Parameters of every kind come back as they went.
    let p = Ps::map([
        (
            "l",
            Ps::List(vec![Ps::Int(1), Ps::Float(2.5), Ps::Null, Ps::from("s")]),
        ),
        ("d", Ps::Struct(0x44, vec![Ps::Int(19_000)])),
        (
            "z",
            Ps::Struct(
                0x69,
                vec![Ps::Int(1_717_236_000), Ps::Int(5), Ps::from("Europe/Paris")],
            ),
        ),
        (
            "du",
            Ps::Struct(0x45, vec![Ps::Int(1), Ps::Int(2), Ps::Int(3), Ps::Int(4)]),
        ),
    ]);
    let (_, rows, _) = c
        .run(
            "RETURN $l AS l, $d AS d, $z AS z, $du AS du, $z.hour AS h",
            p.clone(),
        )
        .unwrap()
        .unwrap();
    for (i, k) in ["l", "d", "z", "du"].iter().enumerate() {
        assert_eq!(&rows[0][i], p.get(k).unwrap(), "{k}");
    }
    // 10:00 UTC on 1 June 2024 is noon in Paris.
    assert_eq!(rows[0][4], Ps::Int(12));
    // Byte arrays both ways: stored as a property, made by APOC, read back.
    let (_, rows, _) = c
        .run(
            "CREATE (f:File {data: $b}) RETURN f.data AS data, apoc.util.compress('Test', {compression: 'NONE'}) AS made, apoc.util.decompress($b, {compression: 'NONE'}) AS text",
            Ps::map([("b", Ps::Bytes(b"Test".to_vec()))]),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        rows[0],
        vec![
            Ps::Bytes(b"Test".to_vec()),
            Ps::Bytes(b"Test".to_vec()),
            Ps::from("Test")
        ]
    );

    // Bolt 4.4: no element ids, local date-times unless the utc patch is asked for.
    let mut c = Client::connect(&addr(&h), &[(4, 4, 0)]).unwrap();
    assert_eq!(c.version, (4, 4));
    c.login("neo4j", "x").unwrap();
    let (_, rows, _) = c
        .run(
            "MATCH (a:Person {name: 'Ann'}) RETURN a, datetime('2024-01-02T03:04:05+02:00') AS dt",
            no_params(),
        )
        .unwrap()
        .unwrap();
    let Ps::Struct(0x4E, node) = &rows[0][0] else {
        panic!()
    };
    assert_eq!(node.len(), 3);
    assert_eq!(
        rows[0][1],
        Ps::Struct(
            0x46,
            vec![Ps::Int(1_704_164_645), Ps::Int(0), Ps::Int(7200)]
        )
    );
    // No common version: the server answers zero and closes.
    assert!(Client::connect(&addr(&h), &[(3, 0, 0)]).is_err());
}

#[test]
fn streaming_transactions_failures_and_reset() {
    let h = start(Config::default());
    let mut c = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    c.login("u", "p").unwrap();
    // PULL in batches: has_more until the last.
    let (tag, _) = c
        .request(
            0x10,
            vec![
                Ps::from("UNWIND range(1, 5) AS i RETURN i"),
                no_params(),
                no_params(),
            ],
        )
        .unwrap();
    assert_eq!(tag, SUCCESS);
    c.send(0x3F, vec![Ps::map([("n", Ps::Int(2))])]).unwrap();
    assert_eq!(c.recv().unwrap().0, RECORD);
    assert_eq!(c.recv().unwrap().0, RECORD);
    let (tag, f) = c.recv().unwrap();
    assert_eq!(
        (tag, f[0].get("has_more")),
        (SUCCESS, Some(&Ps::Bool(true)))
    );
    // DISCARD the rest: the summary, no records.
    let (tag, f) = c
        .request(0x2F, vec![Ps::map([("n", Ps::Int(-1))])])
        .unwrap();
    assert_eq!(tag, SUCCESS);
    assert!(f[0].get("bookmark").is_some());

    // An explicit transaction with two open results, pulled by qid; rolled back.
    assert_eq!(c.request(0x11, vec![no_params()]).unwrap().0, SUCCESS);
    let (_, f1) = c
        .request(
            0x10,
            vec![
                Ps::from("CREATE (:Person {name: 'Dee'})"),
                no_params(),
                no_params(),
            ],
        )
        .unwrap();
    let q1 = f1[0].get("qid").and_then(Ps::as_int).unwrap();
    let (_, f2) = c
        .request(
            0x10,
            vec![
                Ps::from("MATCH (p:Person) RETURN count(p) AS n"),
                no_params(),
                no_params(),
            ],
        )
        .unwrap();
    let q2 = f2[0].get("qid").and_then(Ps::as_int).unwrap();
    assert_ne!(q1, q2);
    c.send(
        0x3F,
        vec![Ps::map([("n", Ps::Int(-1)), ("qid", Ps::Int(q2))])],
    )
    .unwrap();
    let (tag, rec) = c.recv().unwrap();
    assert_eq!((tag, &rec[0]), (RECORD, &Ps::List(vec![Ps::Int(4)])));
    assert_eq!(c.recv().unwrap().0, SUCCESS);
    let (tag, f) = c
        .request(
            0x3F,
            vec![Ps::map([("n", Ps::Int(-1)), ("qid", Ps::Int(q1))])],
        )
        .unwrap();
    assert_eq!(tag, SUCCESS);
    assert_eq!(f[0].get("type").and_then(Ps::as_str), Some("w"));
    assert_eq!(
        f[0].get("stats").and_then(|s| s.get("nodes-created")),
        Some(&Ps::Int(1))
    );
    assert_eq!(c.request(0x13, vec![]).unwrap().0, SUCCESS);
    assert_eq!(count_people(&mut c), 3);
    // Other connections never saw the uncommitted node; a committed one is seen by all.
    let mut other = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    other.login("u", "p").unwrap();
    assert_eq!(c.request(0x11, vec![no_params()]).unwrap().0, SUCCESS);
    c.run("CREATE (:Person {name: 'Eve'})", no_params())
        .unwrap()
        .unwrap();
    assert_eq!(count_people(&mut other), 3);
    let (tag, f) = c.request(0x12, vec![]).unwrap();
    assert_eq!(tag, SUCCESS);
    assert!(f[0].get("bookmark").is_some());
    assert_eq!(count_people(&mut other), 4);

    // A failure: FAILURE with the status code, then IGNORED until RESET.
    let e = c
        .run("MATCH (n RETURN n", no_params())
        .unwrap()
        .unwrap_err();
    assert_eq!(
        e.get("code").and_then(Ps::as_str),
        Some("Neo.ClientError.Statement.SyntaxError")
    );
    assert_eq!(
        c.request(0x10, vec![Ps::from("RETURN 1"), no_params(), no_params()])
            .unwrap()
            .0,
        IGNORED
    );
    assert_eq!(c.request(0x0F, vec![]).unwrap().0, SUCCESS);
    let e = c
        .run("RETURN 1 / 0 AS x", no_params())
        .unwrap()
        .unwrap_err();
    assert!(e
        .get("code")
        .and_then(Ps::as_str)
        .unwrap()
        .starts_with("Neo.ClientError"));
    assert_eq!(c.request(0x0F, vec![]).unwrap().0, SUCCESS);
    // EXPLAIN: no rows, a plan, the type the query would have.
    let (_, rows, s) = c.run("EXPLAIN CREATE (:X)", no_params()).unwrap().unwrap();
    assert!(rows.is_empty());
    assert_eq!(s.get("type").and_then(Ps::as_str), Some("w"));
    assert!(s.get("plan").is_some());
    assert_eq!(count_people(&mut c), 4);
    // Access mode r refuses writes.
    let (tag, f) = c
        .request(
            0x10,
            vec![
                Ps::from("CREATE (:Person)"),
                no_params(),
                Ps::map([("mode", Ps::from("r"))]),
            ],
        )
        .unwrap();
    assert_eq!(tag, FAILURE);
    assert_eq!(
        f[0].get("code").and_then(Ps::as_str),
        Some("Neo.ClientError.Statement.AccessMode")
    );
    assert_eq!(c.request(0x0F, vec![]).unwrap().0, SUCCESS);
    // ROUTE: this server in every role.
    let (tag, f) = c
        .request(0x66, vec![no_params(), Ps::List(vec![]), no_params()])
        .unwrap();
    assert_eq!(tag, SUCCESS);
    let rt = f[0].get("rt").unwrap();
    let Some(Ps::List(servers)) = rt.get("servers") else {
        panic!("{rt:?}")
    };
    assert_eq!(servers.len(), 3);
    // An unknown database.
    let e = c
        .request(
            0x10,
            vec![
                Ps::from("RETURN 1"),
                no_params(),
                Ps::map([("db", Ps::from("nope"))]),
            ],
        )
        .unwrap();
    assert_eq!(e.0, FAILURE);
}

#[test]
fn authentication_read_only_and_bounds() {
    let h = start(Config {
        auth: Some(("neo4j".into(), "secret".into())),
        read_only: true,
        max_message_bytes: 4096,
        ..Default::default()
    });
    // Wrong password: FAILURE and the connection closes (5.x with LOGON, 4.4 with HELLO).
    for v in [(5, 4, 4), (4, 4, 0)] {
        let mut c = Client::connect(&addr(&h), &[v]).unwrap();
        assert!(c.login("neo4j", "wrong").is_err());
    }
    let mut c = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    // Before LOGON nothing runs.
    let (tag, _) = c.request(0x01, vec![no_params()]).unwrap();
    assert_eq!(tag, SUCCESS);
    let (tag, _) = c
        .request(0x10, vec![Ps::from("RETURN 1"), no_params(), no_params()])
        .unwrap();
    assert_eq!(tag, FAILURE);
    let mut c = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    c.login("neo4j", "secret").unwrap();
    let e = c.run("CREATE (:Person)", no_params()).unwrap().unwrap_err();
    assert_eq!(
        e.get("code").and_then(Ps::as_str),
        Some("Neo.ClientError.Statement.AccessMode")
    );
    c.request(0x0F, vec![]).unwrap();
    assert_eq!(count_people(&mut c), 3);
    // A message over the bound closes the connection.
    c.send(
        0x10,
        vec![Ps::from("RETURN 1".repeat(2000)), no_params(), no_params()],
    )
    .unwrap();
    assert!(c.recv().is_err());
    // Garbage instead of a handshake is dropped.
    let mut s = std::net::TcpStream::connect(addr(&h)).unwrap();
    std::io::Write::write_all(&mut s, &[0u8; 20]).unwrap();
    let mut buf = [0u8; 4];
    assert!(matches!(
        std::io::Read::read(&mut s, &mut buf),
        Ok(0) | Err(_)
    ));
    // The graph is untouched.
    assert_eq!(h.graph().node_count(), 3);
}

#[test]
fn concurrent_sessions() {
    let h = start(Config::default());
    let a = addr(&h);
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let a = a.clone();
            std::thread::spawn(move || {
                let mut c = Client::connect(&a, &[(5, 4, 4)]).unwrap();
                c.login("u", "p").unwrap();
                for j in 0..25 {
                    let (_, rows, _) = c
                        .run(
                            "CREATE (n:T {i: $i, j: $j}) RETURN n.i * 100 + n.j AS v",
                            Ps::map([("i", Ps::Int(i)), ("j", Ps::Int(j))]),
                        )
                        .unwrap()
                        .unwrap();
                    assert_eq!(rows[0][0], Ps::Int(i * 100 + j));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let mut c = Client::connect(&a, &[(5, 4, 4)]).unwrap();
    c.login("u", "p").unwrap();
    let (_, rows, _) = c
        .run(
            "MATCH (n:T) RETURN count(DISTINCT [n.i, n.j]) AS n",
            no_params(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(rows[0][0], Ps::Int(200));
}

/// The system database's users as Neo4j 5.26 community manages them (each answer below read
/// off the Neo4j oracle): `CREATE [OR REPLACE] USER`, `ALTER USER`, `ALTER CURRENT USER`,
/// `RENAME USER`, `DROP USER`, `SHOW USERS`, logins against them, a password that must be
/// changed first, enterprise's commands refused, and a rolled-back transaction's user changes
/// undone.
#[test]
fn users_as_neo4j_community_manages_them() {
    let h = start(Config {
        auth: Some(("neo4j".into(), "foobarbaz".into())),
        ..Default::default()
    });
    let mut c = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    c.login("neo4j", "foobarbaz").unwrap();
    let ok = |c: &mut Client, q: &str| -> (Vec<Vec<Ps>>, Ps) {
        let (_, rows, meta) = c
            .run(q, no_params())
            .unwrap()
            .unwrap_or_else(|e| panic!("{q}: {e:?}"));
        (rows, meta)
    };
    let fails = |c: &mut Client, q: &str| -> (String, String) {
        let e = c.run(q, no_params()).unwrap().expect_err(q);
        c.request(0x0F, vec![]).unwrap();
        (
            e.get("code").and_then(Ps::as_str).unwrap_or("").to_string(),
            e.get("message")
                .and_then(Ps::as_str)
                .unwrap_or("")
                .to_string(),
        )
    };
    let updates = |meta: &Ps| {
        meta.get("stats")
            .and_then(|s| s.get("system-updates"))
            .and_then(Ps::as_int)
    };
    // neomodel's session fixture, on the default database.
    let (_, meta) = ok(
        &mut c,
        "CREATE OR REPLACE USER troygreene SET PASSWORD 'foobarbaz' CHANGE NOT REQUIRED",
    );
    assert_eq!(updates(&meta), Some(1));
    assert_eq!(meta.get("type").and_then(Ps::as_str), Some("s"));
    let (_, meta) = ok(
        &mut c,
        "CREATE OR REPLACE USER troygreene SET PASSWORD 'foobarbaz' CHANGE NOT REQUIRED",
    );
    assert_eq!(updates(&meta), Some(2), "a replaced user counts twice");
    let (rows, _) = ok(&mut c, "SHOW USERS YIELD user, passwordChangeRequired");
    assert_eq!(
        rows.iter()
            .map(|r| format!("{}:{}", r[0].as_str().unwrap(), r[1] == Ps::Bool(true)))
            .collect::<Vec<_>>(),
        ["neo4j:false", "troygreene:false"]
    );
    for (q, code, message) in [
        ("CREATE USER troygreene SET PASSWORD 'foobarbaz'", "Neo.ClientError.Statement.ArgumentError", "Failed to create the specified user 'troygreene': User already exists."),
        ("CREATE USER bob SET PASSWORD 'short'", "Neo.ClientError.Statement.ArgumentError", "A password must be at least 8 characters."),
        ("CREATE USER bob SET PASSWORD 'foobarbaz1' SET STATUS SUSPENDED", "Neo.DatabaseError.Statement.ExecutionFailed", "Failed to create the specified user 'bob': 'SET STATUS' is not available in community edition."),
        ("CREATE USER bob SET ENCRYPTED PASSWORD 'foobarbaz1'", "Neo.ClientError.Statement.ArgumentError", "Incorrect format of encrypted password. Correct format is '<encryption-version>,<hash>,<salt>'."),
        ("CREATE USER `a:b` SET PASSWORD 'password1'", "Neo.ClientError.Statement.ArgumentError", "Username 'a:b' contains illegal characters."),
        ("CREATE OR REPLACE USER troy IF NOT EXISTS SET PASSWORD 'foobarbaz'", "Neo.ClientError.Statement.SyntaxError", "Failed to create the specified user 'troy': cannot have both `OR REPLACE` and `IF NOT EXISTS`. (line 1, column 1 (offset: 0))"),
        ("ALTER USER nobody SET PASSWORD 'abcdefghij'", "Neo.ClientError.Statement.ArgumentError", "Failed to alter the specified user 'nobody': User does not exist."),
        ("ALTER USER troygreene SET PASSWORD 'foobarbaz'", "Neo.ClientError.Statement.ArgumentError", "Failed to alter the specified user 'troygreene': Old password and new password cannot be the same."),
        ("ALTER CURRENT USER SET PASSWORD FROM 'wrong' TO 'abcdefghi'", "Neo.ClientError.Statement.ArgumentError", "User 'neo4j' failed to alter their own password: Invalid principal or credentials."),
        ("DROP USER neo4j", "Neo.ClientError.Statement.ArgumentError", "Failed to delete the specified user 'neo4j': Deleting yourself is not allowed."),
        ("RENAME USER nobody TO r3", "Neo.ClientError.Statement.ArgumentError", "Failed to rename the specified user 'nobody' to 'r3': The user 'nobody' does not exist."),
        ("CREATE ROLE publisher", "Neo.ClientError.Statement.UnsupportedAdministrationCommand", "Unsupported administration command: CREATE ROLE publisher"),
        ("GRANT ROLE publisher TO troygreene", "Neo.ClientError.Statement.UnsupportedAdministrationCommand", "Unsupported administration command: GRANT ROLE publisher TO troygreene"),
    ] {
        assert_eq!(fails(&mut c, q), (code.to_string(), message.to_string()), "{q}");
    }
    let (_, meta) = ok(&mut c, "DROP USER nobody IF EXISTS");
    assert_eq!(updates(&meta), None);
    // A user logs in with its password; one that must change it may only do that, on system.
    ok(
        &mut c,
        "ALTER USER troygreene SET PASSWORD 'newpassword' CHANGE REQUIRED",
    );
    let mut t = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    t.login("troygreene", "newpassword").unwrap();
    assert_eq!(
        fails(&mut t, "RETURN 1"),
        (
            "Neo.ClientError.Security.CredentialsExpired".into(),
            "ACCESS on database 'neo4j' is not allowed.".into()
        )
    );
    let (_, _, _) = t
        .run_with(
            "ALTER CURRENT USER SET PASSWORD FROM 'newpassword' TO 'newpassword2'",
            no_params(),
            Ps::map([("db", Ps::from("system"))]),
        )
        .unwrap()
        .unwrap();
    assert!(Client::connect(&addr(&h), &[(5, 4, 4)])
        .unwrap()
        .login("troygreene", "newpassword")
        .is_err());
    let mut t = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
    t.login("troygreene", "newpassword2").unwrap();
    let (rows, _) = ok(&mut t, "SHOW CURRENT USER YIELD user");
    assert_eq!(rows[0][0].as_str(), Some("troygreene"));
    // The system database runs administration commands, not queries.
    let e = c
        .run_with(
            "MATCH (n) CREATE (m)",
            no_params(),
            Ps::map([("db", Ps::from("system"))]),
        )
        .unwrap()
        .unwrap_err();
    assert_eq!(
        e.get("message").and_then(Ps::as_str),
        Some("The following unsupported clauses were used: CREATE, MATCH. ")
    );
    c.request(0x0F, vec![]).unwrap();
    // A transaction keeps administration commands apart from queries, and its user changes
    // go when it rolls back.
    c.request(0x11, vec![no_params()]).unwrap();
    ok(&mut c, "CREATE USER r9 SET PASSWORD 'password1'");
    let e = c.run("RETURN 1", no_params()).unwrap().unwrap_err();
    assert_eq!(
        e.get("message").and_then(Ps::as_str),
        Some("Tried to execute Read query after executing Administration command")
    );
    c.request(0x0F, vec![]).unwrap();
    let (rows, _) = ok(&mut c, "SHOW USERS YIELD user WHERE user = 'r9'");
    assert!(rows.is_empty(), "the rolled-back user is gone");
    // Dropped users cannot log in.
    ok(&mut c, "DROP USER troygreene");
    assert!(Client::connect(&addr(&h), &[(5, 4, 4)])
        .unwrap()
        .login("troygreene", "newpassword2")
        .is_err());
}

/// Community edition refuses what only enterprise has, with community's errors (texts from
/// Neo4j 5.26 community); `Config::enterprise` accepts them. `dbms.components` says which.
#[test]
fn editions_answer_as_neo4j_community_and_enterprise() {
    for enterprise in [false, true] {
        let h = start(Config {
            enterprise,
            ..Default::default()
        });
        let mut c = Client::connect(&addr(&h), &[(5, 4, 4)]).unwrap();
        c.login("neo4j", "x").unwrap();
        let (_, rows, _) = c
            .run(
                "CALL dbms.components() YIELD edition RETURN edition",
                no_params(),
            )
            .unwrap()
            .unwrap();
        let edition = if enterprise {
            "enterprise"
        } else {
            "community"
        };
        assert_eq!(rows[0][0].as_str(), Some(edition));
        for (q, message) in [
            (
                "CREATE CONSTRAINT app_k FOR (n:AppK) REQUIRE n.name IS NODE KEY",
                "Unable to create Constraint( type='NODE KEY', schema=(:AppK {name}) ):\nNode Key constraint requires Neo4j Enterprise Edition. Note that only the first found violation is shown.",
            ),
            (
                "CREATE CONSTRAINT app_rnn FOR ()-[r:AppR]-() REQUIRE r.name IS NOT NULL",
                "Unable to create Constraint( type='RELATIONSHIP PROPERTY EXISTENCE', schema=()-[:AppR {name}]-() ):\nProperty existence constraint requires Neo4j Enterprise Edition. Note that only the first found violation is shown.",
            ),
            (
                "CREATE CONSTRAINT app_t FOR (n:AppK) REQUIRE n.name IS :: STRING",
                "Unable to create Constraint( name='app_t', type='NODE PROPERTY TYPE', schema=(:AppK {name}), propertyType=STRING ):\nProperty type constraint requires Neo4j Enterprise Edition. Note that only the first found violation is shown.",
            ),
        ] {
            let got = c.run(q, no_params()).unwrap();
            if enterprise {
                assert!(got.is_ok(), "{q}: {got:?}");
            } else {
                let e = got.expect_err(q);
                assert_eq!(
                    e.get("code").and_then(Ps::as_str),
                    Some("Neo.DatabaseError.Schema.ConstraintCreationFailed")
                );
                assert_eq!(e.get("message").and_then(Ps::as_str), Some(message));
                c.request(0x0F, vec![]).unwrap();
            }
        }
        // Uniqueness is community's too.
        assert!(c
            .run(
                "CREATE CONSTRAINT app_u FOR (n:AppU) REQUIRE n.name IS UNIQUE",
                no_params()
            )
            .unwrap()
            .is_ok());
    }
}

/// Bolt 5.8, as Neo4j 5.26 speaks it to the 6.x drivers: GQL statuses in a summary, GQL
/// errors with their cause, and the home database resolved (texts from the oracle).
#[test]
fn bolt_5_8_carries_gql_statuses_and_errors() {
    let h = start(Config::default());
    let mut c = Client::connect(&addr(&h), &[(5, 8, 8)]).unwrap();
    c.login("neo4j", "x").unwrap();
    let (fields, _, meta) = c
        .run("MATCH (n:NoSuchFlowLabel) RETURN n", no_params())
        .unwrap()
        .unwrap();
    assert_eq!(fields.get("fields"), Some(&Ps::List(vec![Ps::from("n")])));
    // Bolt 5.8: the home database the server resolved.
    assert_eq!(fields.get("db").and_then(Ps::as_str), Some("neo4j"));
    let statuses = match meta.get("statuses") {
        Some(Ps::List(s)) => s.clone(),
        other => panic!("no statuses: {other:?}"),
    };
    let codes: Vec<&str> = statuses
        .iter()
        .filter_map(|s| s.get("gql_status").and_then(Ps::as_str))
        .collect();
    assert_eq!(codes, ["02000", "01N50"]);
    assert_eq!(
        statuses[1].get("status_description").and_then(Ps::as_str),
        Some("warn: label does not exist. The label `NoSuchFlowLabel` does not exist. Verify that the spelling is correct.")
    );
    assert!(meta.get("notifications").is_none());
    let e = c
        .run("CALL nosuch.proc()", no_params())
        .unwrap()
        .expect_err("an unknown procedure");
    assert_eq!(
        e.get("neo4j_code").and_then(Ps::as_str),
        Some("Neo.ClientError.Procedure.ProcedureNotFound")
    );
    assert_eq!(e.get("gql_status").and_then(Ps::as_str), Some("42001"));
    let cause = e.get("cause").expect("a cause");
    assert_eq!(cause.get("gql_status").and_then(Ps::as_str), Some("42N08"));
    assert_eq!(
        cause.get("message").and_then(Ps::as_str),
        Some("42N08: The procedure or function nosuch.proc() was not registered for this database instance. Verify that the spelling is correct.")
    );
    c.request(0x0F, vec![]).unwrap();
    let e = c
        .run("RETURN 1/0", no_params())
        .unwrap()
        .expect_err("division by zero");
    assert_eq!(e.get("gql_status").and_then(Ps::as_str), Some("50N42"));
    assert_eq!(
        e.get("description").and_then(Ps::as_str),
        Some("error: general processing exception - unexpected error. Unexpected error has occurred. See debug log for details.")
    );
}

/// `SHOW TRANSACTIONS`, `TERMINATE TRANSACTIONS` and `SHOW SETTINGS` as Neo4j 5.26 answers them
/// (each answer below read off the Neo4j oracle through the Python driver): an open explicit
/// transaction listed with its metadata and no current query, the statement's own transaction
/// listed while it runs, termination ending the other transaction's next statement and its
/// commit with `Neo.ClientError.Transaction.Terminated`, ids read as Neo4j reads them, the
/// commands composed, and the server's settings.
#[test]
fn transactions_and_settings_as_neo4j_lists_them() {
    let h = start(Config {
        auth: Some(("neo4j".into(), "pw".into())),
        ..Config::default()
    });
    let mut a = Client::connect(&addr(&h), &[(5, 8, 8)]).unwrap();
    a.login("neo4j", "pw").unwrap();
    let mut b = Client::connect(&addr(&h), &[(5, 8, 8)]).unwrap();
    b.login("neo4j", "pw").unwrap();
    let tx_meta = Ps::map([("tx_metadata", Ps::map([("app", Ps::from("x"))]))]);
    assert_eq!(a.request(0x11, vec![tx_meta]).unwrap().0, SUCCESS);
    let (_, rows, _) = a.run("RETURN 1 AS x", no_params()).unwrap().unwrap();
    assert_eq!(rows, vec![vec![Ps::Int(1)]]);

    let listing = "SHOW TRANSACTIONS YIELD transactionId, currentQuery, status, metaData, \
                   connectionId, username, currentQueryId, database RETURN *";
    let (run, rows, _) = b.run(listing, no_params()).unwrap().unwrap();
    let Some(Ps::List(fields)) = run.get("fields") else {
        panic!("{run:?}")
    };
    let fields: Vec<String> = fields
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    let col = |row: &[Ps], name: &str| row[fields.iter().position(|f| f == name).unwrap()].clone();
    assert_eq!(rows.len(), 2, "{rows:?}");
    // The newest first: the listing's own transaction, running it.
    assert_eq!(col(&rows[0], "currentQuery"), Ps::from(listing));
    assert!(col(&rows[0], "currentQueryId")
        .as_str()
        .unwrap()
        .starts_with("query-"));
    let other = &rows[1];
    assert_eq!(col(other, "currentQuery"), Ps::from(""));
    assert_eq!(col(other, "currentQueryId"), Ps::from(""));
    assert_eq!(col(other, "status"), Ps::from("Running"));
    assert_eq!(col(other, "username"), Ps::from("neo4j"));
    assert_eq!(col(other, "database"), Ps::from("neo4j"));
    assert_eq!(col(other, "metaData"), Ps::map([("app", Ps::from("x"))]));
    assert_eq!(col(other, "connectionId"), Ps::from("bolt-1"));
    let id = col(other, "transactionId").as_str().unwrap().to_string();
    assert!(id.starts_with("neo4j-transaction-"), "{id}");

    // Terminated: listed so, its next statement and its commit fail.
    let padded = id.replace("-transaction-", "-transaction-0");
    let (_, rows, _) = b
        .run(
            "TERMINATE TRANSACTIONS $ids",
            Ps::map([(
                "ids",
                Ps::List(vec![Ps::from(padded.as_str()), Ps::from(padded.as_str())]),
            )]),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        rows,
        vec![vec![
            Ps::from(id.as_str()),
            Ps::from("neo4j"),
            Ps::from("Transaction terminated.")
        ]]
    );
    let (_, rows, _) = b
        .run(
            "SHOW TRANSACTIONS $id YIELD status",
            Ps::map([("id", Ps::from(id.as_str()))]),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        rows,
        vec![vec![Ps::from(
            "Terminated with reason: Status.Code[Neo.ClientError.Transaction.Terminated]"
        )]]
    );
    let f = a.run("RETURN 2", no_params()).unwrap().unwrap_err();
    assert_eq!(
        f.get("neo4j_code").or(f.get("code")).and_then(Ps::as_str),
        Some("Neo.ClientError.Transaction.Terminated")
    );
    assert!(f
        .get("message")
        .and_then(Ps::as_str)
        .unwrap()
        .starts_with("The transaction has been terminated. Retry your operation"));
    assert_eq!(a.request(0x0F, vec![]).unwrap().0, SUCCESS);
    assert_eq!(a.request(0x11, vec![no_params()]).unwrap().0, SUCCESS);
    let (_, rows, _) = b
        .run(
            "SHOW TRANSACTIONS YIELD transactionId AS t, currentQuery AS q WHERE q = '' \
             TERMINATE TRANSACTIONS t YIELD message RETURN message",
            no_params(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(rows, vec![vec![Ps::from("Transaction terminated.")]]);
    let (tag, f) = a.request(0x12, vec![]).unwrap();
    assert_eq!(tag, FAILURE);
    assert_eq!(
        f[0].get("neo4j_code")
            .or(f[0].get("code"))
            .and_then(Ps::as_str),
        Some("Neo.ClientError.Transaction.Terminated")
    );
    // Rolled back, it is gone from the list.
    assert_eq!(a.request(0x0F, vec![]).unwrap().0, SUCCESS);
    let (_, rows, _) = b
        .run(
            "SHOW TRANSACTIONS YIELD transactionId RETURN count(*) AS n",
            no_params(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(rows, vec![vec![Ps::Int(1)]]);

    // Ids as Neo4j reads them.
    let (_, rows, _) = b
        .run(
            "TERMINATE TRANSACTIONS 'NEO4J-transaction-999'",
            no_params(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        rows,
        vec![vec![
            Ps::from("neo4j-transaction-999"),
            Ps::Null,
            Ps::from("Transaction not found.")
        ]]
    );
    for (q, code, message) in [
        (
            "TERMINATE TRANSACTIONS 'neo4j-transaction-'",
            "Neo.ClientError.General.InvalidArguments",
            "Could not parse id (expected format: <databasename>-transaction-<id>)",
        ),
        (
            "TERMINATE TRANSACTIONS 'neo4j-transaction--1'",
            "Neo.ClientError.General.InvalidArguments",
            "Negative ids are not supported (expected format: <databasename>-transaction-<id>)",
        ),
        (
            "SHOW TRANSACTIONS 5",
            "Neo.ClientError.Statement.TypeError",
            "Expected a string or a list of strings, but got: Long(5)",
        ),
        (
            "SHOW SETTINGS ['a', 1]",
            "Neo.ClientError.Statement.TypeError",
            "Expected a string, but got: Long(1)",
        ),
    ] {
        let f = b.run(q, no_params()).unwrap().unwrap_err();
        assert_eq!(
            (
                f.get("neo4j_code").or(f.get("code")).and_then(Ps::as_str),
                f.get("message").and_then(Ps::as_str)
            ),
            (Some(code), Some(message)),
            "{q}"
        );
        assert_eq!(b.request(0x0F, vec![]).unwrap().0, SUCCESS);
    }
    let f = b
        .run(
            "SHOW TRANSACTIONS YIELD transactionId AS t SHOW TRANSACTIONS t",
            no_params(),
        )
        .unwrap()
        .unwrap_err();
    assert_eq!(f.get("gql_status").and_then(Ps::as_str), Some("22N93"));
    assert_eq!(b.request(0x0F, vec![]).unwrap().0, SUCCESS);

    // Settings: the server's where it has them, Neo4j's defaults elsewhere.
    let (_, rows, _) = b
        .run(
            "SHOW SETTINGS 'server.bolt.listen_address', 'dbms.security.auth_enabled', \
             'db.transaction.timeout', 'db.checkpoint.interval.time', 'nope' \
             YIELD name, value, defaultValue, isExplicitlySet",
            no_params(),
        )
        .unwrap()
        .unwrap();
    let row = |v: [&str; 3], set: bool| {
        vec![
            Ps::from(v[0]),
            Ps::from(v[1]),
            Ps::from(v[2]),
            Ps::Bool(set),
        ]
    };
    assert_eq!(
        rows,
        vec![
            row(["db.checkpoint.interval.time", "15m", "15m"], false),
            row(["db.transaction.timeout", "30s", "0s"], true),
            row(["dbms.security.auth_enabled", "true", "false"], true),
            row(["server.bolt.listen_address", &addr(&h), ":7687"], true),
        ]
    );
    let (_, rows, _) = b
        .run("SHOW SETTINGS YIELD name RETURN count(*) AS n", no_params())
        .unwrap()
        .unwrap();
    assert_eq!(rows, vec![vec![Ps::Int(171)]]);
}
