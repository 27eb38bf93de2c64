import json

import pytest

import grape

PROMPT_SCHEMA = """Node properties are the following:
Person {name: STRING, born: INTEGER}
Movie {title: STRING}
Relationship properties are the following:
ACTED_IN {roles: LIST}
The relationships are the following:
(:Person)-[:ACTED_IN]->(:Movie)"""


def test_parse_print_canonical_and_json():
    s = grape.parse("match (p:Person)-[:ACTED_IN]->(m) return m.title as t")
    assert s.print() == "MATCH (p:Person)-[:ACTED_IN]->(m) RETURN m.title AS t"
    assert s.canonical() == "MATCH (v0:Person)-[:ACTED_IN]->(v1) RETURN v1.title AS v2"
    assert grape.print("match (n) return n") == "MATCH (n) RETURN n"
    assert grape.print("match (n) return n", canonical=True) == "MATCH (v0) RETURN v0"
    ast = s.json()
    assert json.dumps(ast)  # plain JSON data
    assert "query" in ast
    assert not s.is_updating and not s.orders_rows
    assert grape.parse("CREATE (n)").is_updating
    assert grape.parse("MATCH (n) RETURN n ORDER BY n.x").orders_rows


def test_syntax_errors_carry_line_column_and_code():
    with pytest.raises(grape.CypherSyntaxError) as e:
        grape.parse("MATCH (n)\nRETURN n.")
    err = e.value
    assert (err.line, err.column) == (2, 10)
    assert err.code == "Neo.ClientError.Statement.SyntaxError"
    assert isinstance(err, grape.GrapeError)
    assert "line 2, column 10" in str(err)


def test_validate_against_a_schema_with_positions():
    schema = grape.Schema.read(PROMPT_SCHEMA)
    ok, wrong_dir, bad_prop, broken = grape.validate(
        [
            "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) RETURN p.name",
            "MATCH (m:Movie)-[:ACTED_IN]->(p:Person) RETURN p.name",
            "MATCH (p:Person) RETURN p.nmae",
            "MATCH (p:Person RETURN p",
        ],
        schema,
    )
    assert ok.kg_valid and ok.syntax_ok and ok.diagnostics == []
    assert not wrong_dir.kg_valid
    assert wrong_dir.diagnostics[0].kind == "WrongDirection"
    assert wrong_dir.diagnostics[0].category == "schema"
    d = bad_prop.diagnostics[0]
    assert d.kind == "UnknownPropertyKey" and "name" in d.message
    assert (d.line, d.column) == (1, 27)
    assert d.category == "properties"
    assert not broken.syntax_ok and broken.schema_score == 0
    # A single query is accepted too, and parameters are checked when named.
    (v,) = grape.validate("MATCH (p:Person {name: $who}) RETURN p", schema, parameters=[])
    assert any(x.kind == "MissingParameter" for x in v.diagnostics)


def test_validate_without_a_schema_reports_neo4j_compile_errors():
    (v,) = grape.validate("MATCH (b:Business) RETURN stringLength(b.name)")
    assert not v.syntax_ok
    # No schema: the unknown label is not judged, the unknown function is Neo4j's error.
    (d,) = v.diagnostics
    assert d.kind == "UnknownFunction" and d.category == "syntax"
    assert "stringLength" in d.message and (d.line, d.column) == (1, 27)
    assert v.kg_valid is None and v.schema_score is None
    (ok,) = grape.validate("MATCH (b:Business) RETURN b.name AS name")
    assert ok.syntax_ok and ok.diagnostics == []


def test_schema_read_from_file_and_text_and_write(tmp_path):
    schema = grape.Schema.read(PROMPT_SCHEMA, format="prompt")
    as_json = schema.write("grape")
    path = tmp_path / "schema.json"
    path.write_text(as_json)
    again = grape.Schema.read(path)  # a PathLike
    assert again.write("grape") == as_json
    assert grape.Schema.read(str(path)).to_prompt() == schema.to_prompt()
    with pytest.raises(grape.DataError):
        grape.Schema.read(tmp_path / "missing.json")
    with pytest.raises(ValueError):
        schema.write("no-such-format")


def test_a_graph_is_accepted_wherever_a_schema_is(demo, tmp_path):
    # Schema.read on a graph file gives its data's schema, as the command line does.
    schema = grape.Schema.read(demo / "graph.json")
    assert "(:Author)-[:WROTE]->(:Book)" in schema.to_prompt()
    g = grape.Graph.load(demo / "graph.json")
    assert schema.to_prompt() == g.schema().to_prompt()
    # validate takes a Schema, a Graph or a path alike.
    q = "MATCH (b:Bok) RETURN b"
    verdicts = [grape.validate(q, s)[0].kg_valid for s in (schema, g, demo / "graph.json")]
    assert verdicts == [False, False, False]
    assert grape.validate("MATCH (b:Book) RETURN b.title", g)[0].kg_valid
    with pytest.raises(TypeError, match="schema must be"):
        grape.validate(q, 5)
    # A file that is neither says both reasons.
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    with pytest.raises(grape.DataError, match="nor is it a graph"):
        grape.Schema.read(bad)


def test_analyze_hops_aliases_access():
    a = grape.analyze("MATCH (a)-[:KNOWS*1..3]->(b)-->(c) RETURN c.name")
    assert a.hops == 4  # the variable-length part at its upper bound, 3, plus one
    assert a.complexity["hops_min"] == 2
    assert a.missing_aliases[0]["text"] == "c.name"
    assert a.missing_aliases[0]["suggestion"] == "name"
    assert a.access == "r"
    assert grape.analyze("MATCH (n) SET n.x = 1 RETURN n").access == "rw"
