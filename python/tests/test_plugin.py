"""The pytest plugin: fixtures that replace a Neo4j container."""

import pytest

from conftest import need

neo4j = None


@pytest.fixture(autouse=True)
def _driver():
    global neo4j
    neo4j = need("neo4j")


@pytest.mark.grape_graph("../../corpora/demo/graph.json")
def test_driver_code_runs_unchanged(grape_bolt_uri, grape_bolt):
    # Application code written against Neo4j, as it stands.
    driver = neo4j.GraphDatabase.driver(grape_bolt_uri, auth=("neo4j", "secret"))
    with driver:
        driver.verify_connectivity()
        records, summary, keys = driver.execute_query(
            "MATCH (b:Book) WHERE b.year < $year RETURN b.title AS title ORDER BY title",
            year=1940,
            database_="neo4j",
        )
        assert keys == ["title"] and records
        with driver.session(database="neo4j") as session:
            session.execute_write(
                lambda tx: tx.run("CREATE (:Book {title: 'New', year: 2024})").consume()
            )
            n = session.execute_read(
                lambda tx: tx.run("MATCH (b:Book {title: 'New'}) RETURN count(b) AS n").single()["n"]
            )
            assert n == 1
    assert grape_bolt.graph().run("MATCH (b:Book {title: 'New'}) RETURN count(*)").value() == 1


@pytest.mark.grape_graph("../../corpora/demo/graph.json")
def test_each_test_gets_a_fresh_graph(grape_graph, grape_bolt_uri):
    # The write of the test before is not here.
    assert grape_graph.run("MATCH (b:Book {title: 'New'}) RETURN count(*)").value() == 0
    with neo4j.GraphDatabase.driver(grape_bolt_uri, auth=("u", "p")) as driver:
        records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) AS n")
        assert records[0]["n"] == grape_graph.node_count == 200


@pytest.mark.grape_graph(cypher="CREATE (:Person {name: 'Ann'})")
def test_marker_with_a_script(grape_graph):
    assert grape_graph.run("MATCH (p:Person) RETURN p.name").value() == "Ann"


def test_credentials_fixture_without_ini_auth(grape_bolt_uri, grape_bolt_auth):
    assert grape_bolt_auth == ("neo4j", "grape")
    with neo4j.GraphDatabase.driver(grape_bolt_uri, auth=grape_bolt_auth) as d:
        d.verify_connectivity()


def test_no_marker_gives_an_empty_graph(grape_graph):
    assert grape_graph.node_count == 0


def test_ini_options_and_auth(pytester, demo):
    pytester.makeini(
        f"""
        [pytest]
        grape_graph = {demo / 'graph.json'}
        grape_bolt_auth = alice:wonderland
        """
    )
    pytester.makepyfile(
        """
        import neo4j, pytest

        def test_ini_graph(grape_graph):
            assert grape_graph.node_count == 200

        def test_auth(grape_bolt_uri, grape_bolt_auth):
            assert grape_bolt_auth == ("alice", "wonderland")
            with neo4j.GraphDatabase.driver(grape_bolt_uri, auth=grape_bolt_auth) as d:
                d.verify_connectivity()
            with neo4j.GraphDatabase.driver(grape_bolt_uri, auth=("alice", "wrong")) as d:
                with pytest.raises(neo4j.exceptions.AuthError):
                    d.verify_connectivity()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_a_read_only_server_refuses_writes(demo):
    import grape

    g = grape.Graph.load(demo / "graph.json")
    with grape.serve_bolt(g, read_only=True) as uri:
        with neo4j.GraphDatabase.driver(uri, auth=("neo4j", "x")) as d:
            records, _, _ = d.execute_query("MATCH (n) RETURN count(n) AS n")
            assert records[0]["n"] == 200
            with pytest.raises(neo4j.exceptions.Neo4jError) as e:
                d.execute_query("CREATE (:X)")
            assert e.value.code.startswith("Neo.ClientError")
    server = grape.serve_bolt(g)
    assert not server.closed
    server.close()
    assert server.closed
    with pytest.raises(RuntimeError):
        server.graph()


def test_serve_bolt_takes_a_graph_or_a_path(demo):
    import grape

    # The path form and the Graph form serve the same data, str or pathlib.
    for graph in (str(demo / "graph.json"), demo / "graph.json", grape.Graph.load(demo / "graph.json")):
        with grape.serve_bolt(graph) as uri:
            with neo4j.GraphDatabase.driver(uri, auth=("neo4j", "x")) as d:
                records, _, _ = d.execute_query("MATCH (n) RETURN count(n) AS n")
                assert records[0]["n"] == 200
    with pytest.raises(TypeError, match="graph must be a grape.Graph or a path"):
        grape.serve_bolt(42)
