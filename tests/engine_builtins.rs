//! Every built-in function of Neo4j 5 (the catalogue's `isBuiltIn` functions, the same set under
//! Cypher 5 and Cypher 25) with a value the Neo4j Cypher manual gives for it, run on a small
//! graph; and a check that the table covers the catalogue, so that a function added to the
//! catalogue without an example fails here.

mod common;

/// The graph the examples run on: two people who know each other.
const SETUP: &str = "CREATE (a:Person {name: 'Alice', age: 38, eyes: 'brown'})\
                     -[:KNOWS {since: 2010}]->(b:Person {name: 'Bob', age: 25})";

/// (function, query, the row it returns). A query's first column is what is checked. Temporal
/// values print as Neo4j prints them (Java's ISO forms: seconds left out when zero, `12:00`).
const EXAMPLES: &[(&str, &str, &str)] = &[
    // ---- predicates ----
    ("all", "RETURN all(x IN [1, 2, 3] WHERE x > 0)", "true"),
    ("any", "RETURN any(x IN [0, 1, 2] WHERE x = 2)", "true"),
    ("none", "RETURN none(x IN [1, 2, 3] WHERE x > 5)", "true"),
    ("single", "RETURN single(x IN [1, 2, 3] WHERE x = 2)", "true"),
    ("exists", "MATCH (a:Person {name: 'Alice'}) RETURN exists((a)-[:KNOWS]->())", "true"),
    ("isEmpty", "RETURN [isEmpty([]), isEmpty(''), isEmpty({}), isEmpty([1])]", "[true, true, true, false]"),
    ("isNaN", "RETURN isNaN(0 / 0.0)", "true"),
    // ---- scalar ----
    ("char_length", "RETURN char_length('Alice')", "5"),
    ("character_length", "RETURN character_length('Alice')", "5"),
    ("coalesce", "RETURN coalesce(null, 'brown', 'blue')", "'brown'"),
    ("elementId", "MATCH (a:Person {name: 'Alice'}) RETURN elementId(a) = elementId(a)", "true"),
    ("endNode", "MATCH ()-[r:KNOWS]->() RETURN endNode(r).name", "'Bob'"),
    ("head", "RETURN head(['one', 'two', 'three'])", "'one'"),
    ("id", "MATCH (a:Person {name: 'Alice'}) RETURN id(a) >= 0", "true"),
    ("last", "RETURN last(['one', 'two', 'three'])", "'three'"),
    ("length", "MATCH p = (:Person)-[:KNOWS]->(:Person) RETURN length(p)", "1"),
    ("nullIf", "RETURN [nullIf(4, 4), nullIf('abc', 'def')]", "[null, 'abc']"),
    ("properties", "MATCH (b:Person {name: 'Bob'}) RETURN properties(b)", "{age: 25, name: 'Bob'}"),
    ("randomUUID", "RETURN size(randomUUID()) = 36 AND randomUUID() <> randomUUID()", "true"),
    ("size", "RETURN [size(['Alice', 'Bob']), size('Alice')]", "[2, 5]"),
    ("startNode", "MATCH ()-[r:KNOWS]->() RETURN startNode(r).name", "'Alice'"),
    ("timestamp", "RETURN timestamp() > 1700000000000", "true"),
    ("toBoolean", "RETURN [toBoolean('true'), toBoolean('not a boolean'), toBoolean(0)]", "[true, null, false]"),
    ("toBooleanOrNull", "RETURN [toBooleanOrNull('true'), toBooleanOrNull(1.5)]", "[true, null]"),
    ("toFloat", "RETURN [toFloat('11.5'), toFloat('not a number')]", "[11.5, null]"),
    ("toFloatOrNull", "RETURN [toFloatOrNull('11.5'), toFloatOrNull(true)]", "[11.5, null]"),
    ("toInteger", "RETURN [toInteger('42'), toInteger('not a number'), toInteger(true)]", "[42, null, 1]"),
    ("toIntegerOrNull", "RETURN [toIntegerOrNull('42'), toIntegerOrNull(['A'])]", "[42, null]"),
    ("type", "MATCH ()-[r]->() RETURN type(r)", "'KNOWS'"),
    ("valueType", "RETURN [valueType(1), valueType('abc'), valueType([date('2024-01-01')])]", "['INTEGER NOT NULL', 'STRING NOT NULL', 'LIST<DATE NOT NULL> NOT NULL']"),
    // ---- aggregating ----
    ("avg", "UNWIND [38, 25] AS age RETURN avg(age)", "31.5"),
    ("collect", "UNWIND [1, null, 2] AS x RETURN collect(x)", "[1, 2]"),
    ("count", "MATCH (p:Person) RETURN count(p)", "2"),
    ("max", "UNWIND [1, 'a', null, 0.2, 'b', '1', '99'] AS val RETURN max(val)", "1"),
    ("min", "UNWIND [1, 'a', null, 0.2, 'b', '1', '99'] AS val RETURN min(val)", "'1'"),
    ("percentileCont", "UNWIND [13, 33, 44] AS n RETURN percentileCont(n, 0.4)", "29.0"),
    ("percentileDisc", "UNWIND [13, 33, 44] AS n RETURN percentileDisc(n, 0.5)", "33"),
    ("stdev", "UNWIND [2, 4, 4, 4, 5, 5, 7, 9] AS n RETURN round(stdev(n), 6)", "2.13809"),
    ("stdevp", "UNWIND [2, 4, 4, 4, 5, 5, 7, 9] AS n RETURN stdevp(n)", "2.0"),
    ("sum", "MATCH (p:Person) RETURN sum(p.age)", "63"),
    // ---- lists ----
    ("keys", "MATCH (a:Person {name: 'Alice'}) RETURN keys(a)", "['age', 'eyes', 'name']"),
    ("labels", "MATCH (a:Person {name: 'Alice'}) RETURN labels(a)", "['Person']"),
    ("nodes", "MATCH p = (:Person)-[:KNOWS]->(:Person) RETURN [n IN nodes(p) | n.name]", "['Alice', 'Bob']"),
    ("range", "RETURN [range(0, 3), range(2, 18, 3), range(0, 5, -1)]", "[[0, 1, 2, 3], [2, 5, 8, 11, 14, 17], []]"),
    ("reduce", "RETURN reduce(total = 0, n IN [1, 2, 3] | total + n)", "6"),
    ("relationships", "MATCH p = (:Person)-[:KNOWS]->(:Person) RETURN [r IN relationships(p) | r.since]", "[2010]"),
    ("reverse", "RETURN reverse([4923, 'abc', 521, null, 487])", "[487, null, 521, 'abc', 4923]"),
    ("tail", "RETURN tail(['one', 'two', 'three'])", "['two', 'three']"),
    ("toBooleanList", "RETURN toBooleanList(['a string', true, 'false', null, ['A', 'B']])", "[null, true, false, null, null]"),
    ("toFloatList", "RETURN toFloatList([null, '1.5', 2, 'x', ['1']])", "[null, 1.5, 2.0, null, null]"),
    ("toIntegerList", "RETURN toIntegerList(['1', 2.7, 'x', true, null])", "[1, 2, null, 1, null]"),
    ("toStringList", "RETURN toStringList([1, 2.5, true, null, ['A']])", "['1', '2.5', 'true', null, null]"),
    // ---- numeric ----
    ("abs", "RETURN abs(25 - 38)", "13"),
    ("ceil", "RETURN ceil(0.1)", "1.0"),
    ("floor", "RETURN floor(0.9)", "0.0"),
    ("rand", "WITH rand() AS r RETURN r >= 0.0 AND r < 1.0", "true"),
    ("round", "RETURN [round(3.141592), round(3.141592, 3), round(1.249, 1, 'UP')]", "[3.0, 3.142, 1.3]"),
    ("sign", "RETURN [sign(-17), sign(0.1), sign(0)]", "[-1, 1, 0]"),
    // ---- logarithmic ----
    ("e", "RETURN e()", "2.718281828459045"),
    ("exp", "RETURN exp(2)", "7.38905609893065"),
    ("log", "RETURN log(27)", "3.295836866004329"),
    ("log10", "RETURN log10(27)", "1.4313637641589874"),
    ("sqrt", "RETURN sqrt(256)", "16.0"),
    // ---- trigonometric ----
    ("acos", "RETURN acos(0.5)", "1.0471975511965979"),
    ("asin", "RETURN asin(0.5)", "0.5235987755982989"),
    ("atan", "RETURN atan(0.5)", "0.4636476090008061"),
    ("atan2", "RETURN atan2(0.5, 0.6)", "0.6947382761967033"),
    ("cos", "RETURN cos(0.5)", "0.8775825618903728"),
    ("cot", "RETURN cot(0.5)", "1.830487721712452"),
    ("degrees", "RETURN degrees(3.14159)", "179.9998479605043"),
    ("haversin", "RETURN haversin(0.5)", "0.06120871905481362"),
    ("pi", "RETURN pi()", "3.141592653589793"),
    ("radians", "RETURN radians(180)", "3.141592653589793"),
    ("sin", "RETURN sin(0.5)", "0.479425538604203"),
    ("tan", "RETURN tan(0.5)", "0.5463024898437905"),
    // ---- strings ----
    ("btrim", "RETURN [btrim('   hello    '), btrim('xxyyhelloxyxy', 'xy')]", "['hello', 'hello']"),
    ("left", "RETURN left('hello', 3)", "'hel'"),
    ("lower", "RETURN lower('HELLO')", "'hello'"),
    ("ltrim", "RETURN [ltrim('   hello'), ltrim('xxyyhelloxyxy', 'xy')]", "['hello', 'helloxyxy']"),
    ("normalize", "RETURN normalize('\\u212B') = '\\u00C5'", "true"),
    ("replace", "RETURN replace('hello', 'l', 'w')", "'hewwo'"),
    ("right", "RETURN right('hello', 3)", "'llo'"),
    ("rtrim", "RETURN [rtrim('hello   '), rtrim('xxyyhelloxyxy', 'xy')]", "['hello', 'xxyyhello']"),
    ("split", "RETURN split('one,two', ',')", "['one', 'two']"),
    ("substring", "RETURN [substring('hello', 1, 3), substring('hello', 2)]", "['ell', 'llo']"),
    ("toLower", "RETURN toLower('HELLO')", "'hello'"),
    ("toString", "RETURN [toString(11.5), toString('already a string'), toString(true), toString(date({year: 1984, month: 10, day: 11}))]", "['11.5', 'already a string', 'true', '1984-10-11']"),
    ("toStringOrNull", "RETURN [toStringOrNull(11.5), toStringOrNull(['A', 'B'])]", "['11.5', null]"),
    ("toUpper", "RETURN toUpper('hello')", "'HELLO'"),
    ("trim", "RETURN trim('   hello   ')", "'hello'"),
    ("upper", "RETURN upper('hello')", "'HELLO'"),
    // ---- temporal instants ----
    ("date", "RETURN [date('2015-07-21'), date({year: 1984, month: 10, day: 11}), date({year: 1984, week: 10, dayOfWeek: 3})]", "[2015-07-21, 1984-10-11, 1984-03-07]"),
    ("date.realtime", "RETURN valueType(date.realtime())", "'DATE NOT NULL'"),
    ("date.statement", "RETURN date.statement() = date.statement()", "true"),
    ("date.transaction", "RETURN date.transaction() = date.statement()", "true"),
    ("date.truncate", "RETURN date.truncate('month', date('2019-10-17'))", "2019-10-01"),
    ("datetime", "RETURN datetime('2015-07-21T21:40:32.142+0100')", "2015-07-21T21:40:32.142+01:00"),
    ("datetime.fromepoch", "RETURN datetime.fromepoch(1683000000, 123456789)", "2023-05-02T04:00:00.123456789Z"),
    ("datetime.fromepochmillis", "RETURN datetime.fromepochmillis(1724198400000)", "2024-08-21T00:00Z"),
    ("datetime.realtime", "RETURN valueType(datetime.realtime())", "'ZONED DATETIME NOT NULL'"),
    ("datetime.statement", "RETURN datetime.statement() = datetime.statement()", "true"),
    ("datetime.transaction", "RETURN datetime.transaction() = datetime.statement()", "true"),
    ("datetime.truncate", "RETURN datetime.truncate('day', datetime('2017-11-11T12:31:14.645876123+01:00'))", "2017-11-11T00:00+01:00"),
    ("localdatetime", "RETURN localdatetime('2015-07-21T21:40:32.142')", "2015-07-21T21:40:32.142"),
    ("localdatetime.realtime", "RETURN valueType(localdatetime.realtime())", "'LOCAL DATETIME NOT NULL'"),
    ("localdatetime.statement", "RETURN localdatetime.statement() = localdatetime.statement()", "true"),
    ("localdatetime.transaction", "RETURN localdatetime.transaction() = localdatetime.statement()", "true"),
    ("localdatetime.truncate", "RETURN localdatetime.truncate('hour', localdatetime('2017-11-11T12:31:14.645876123'))", "2017-11-11T12:00"),
    ("localtime", "RETURN localtime('21:40:32.142')", "21:40:32.142"),
    ("localtime.realtime", "RETURN valueType(localtime.realtime())", "'LOCAL TIME NOT NULL'"),
    ("localtime.statement", "RETURN localtime.statement() = localtime.statement()", "true"),
    ("localtime.transaction", "RETURN localtime.transaction() = localtime.statement()", "true"),
    ("localtime.truncate", "RETURN localtime.truncate('hour', localtime('12:31:14.645876123'))", "12:00"),
    ("time", "RETURN time('21:40:32.142+0100')", "21:40:32.142+01:00"),
    ("time.realtime", "RETURN valueType(time.realtime())", "'ZONED TIME NOT NULL'"),
    ("time.statement", "RETURN time.statement() = time.statement()", "true"),
    ("time.transaction", "RETURN time.transaction() = time.statement()", "true"),
    ("time.truncate", "RETURN time.truncate('minute', time('12:31:14.645876123+01:00'))", "12:31+01:00"),
    // ---- durations ----
    ("duration", "RETURN [duration({days: 14, hours: 16, minutes: 12}), duration('P14DT16H12M')]", "[P14DT16H12M, P14DT16H12M]"),
    ("duration.between", "RETURN duration.between(date('1984-10-11'), date('2015-06-24'))", "P30Y8M13D"),
    ("duration.inDays", "RETURN duration.inDays(date('1984-10-11'), date('2015-06-24'))", "P11213D"),
    ("duration.inMonths", "RETURN duration.inMonths(date('1984-10-11'), date('2015-06-24'))", "P30Y8M"),
    ("duration.inSeconds", "RETURN duration.inSeconds(date('1984-10-11'), date('1984-10-12'))", "PT24H"),
    // ---- spatial ----
    ("point", "RETURN point({longitude: 56.7, latitude: 12.78}).srid", "4326"),
    ("point.distance", "RETURN point.distance(point({x: 2.3, y: 4.5, crs: 'cartesian'}), point({x: 1.1, y: 5.4, crs: 'cartesian'}))", "1.5"),
    ("point.withinBBox", "RETURN point.withinBBox(point({x: 0, y: 0}), point({x: 0, y: 0}), point({x: 10, y: 10}))", "true"),
    // ---- vectors ----
    ("vector.similarity.cosine", "RETURN vector.similarity.cosine([1.0, 1.0], [2.0, 2.0])", "1.0"),
    ("vector.similarity.euclidean", "RETURN vector.similarity.euclidean([4.0, 5.0], [1.0, 1.0])", "0.038461538461538464"),
    // ---- database ----
    // Outside LOAD CSV (see `file_and_linenumber_follow_load_csv` for inside).
    ("file", "RETURN file() IS NULL", "true"),
    ("linenumber", "RETURN linenumber() IS NULL", "true"),
    ("db.nameFromElementId", "MATCH (a:Person {name: 'Alice'}) RETURN db.nameFromElementId(elementId(a))", "'neo4j'"),
];

/// Built-ins whose values need more than one graph, tested where the server's databases are:
/// the composite database of the manual's examples in `tests/engine_graphs.rs`.
const TESTED_ELSEWHERE: &[(&str, &str)] = &[
    (
        "graph.byElementId",
        "engine_graphs::use_names_a_database_by_name_by_graph_function_or_by_element_id",
    ),
    (
        "graph.byName",
        "engine_graphs::a_statement_on_a_composite_runs_on_the_constituent_its_leading_use_names",
    ),
    (
        "graph.names",
        "engine_graphs::graph_names_and_properties_give_the_manuals_values",
    ),
    (
        "graph.propertiesByName",
        "engine_graphs::graph_names_and_properties_give_the_manuals_values",
    ),
];

#[test]
fn every_built_in_gives_the_manuals_value() {
    let failures = common::first_column_mismatches(SETUP, EXAMPLES);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_examples_cover_every_built_in_of_the_catalogue() {
    let covered = |name: &str| {
        EXAMPLES
            .iter()
            .any(|(f, _, _)| f.eq_ignore_ascii_case(name))
            || TESTED_ELSEWHERE
                .iter()
                .any(|(f, _)| f.eq_ignore_ascii_case(name))
    };
    let built_ins: Vec<&str> = grape::catalogue::functions()
        .iter()
        .filter(|f| f.built_in)
        .map(|f| f.name)
        .collect();
    assert_eq!(built_ins.len(), 135, "Neo4j 5.26's built-in functions");
    let missing: Vec<&&str> = built_ins.iter().filter(|n| !covered(n)).collect();
    assert!(
        missing.is_empty(),
        "built-ins without an example: {missing:?}"
    );
    // And nothing here that is not a built-in.
    for (f, _, _) in EXAMPLES {
        assert!(
            built_ins.iter().any(|b| b.eq_ignore_ascii_case(f)),
            "{f} is not a built-in"
        );
    }
    for (f, _) in TESTED_ELSEWHERE {
        assert!(grape::engine::function_is_implemented(f), "{f}");
    }
}

#[test]
fn file_and_linenumber_follow_load_csv() {
    let dir = std::env::temp_dir().join(format!("grape-linenumber-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("people.csv"), "name,age\nAnn,30\nBob,40\n").unwrap();
    let opts = grape::engine::Options {
        import_dir: Some(dir.clone()),
        ..Default::default()
    };
    let mut g = grape::graph::Graph::new();
    let t = grape::engine::run_with(
        &mut g,
        "LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS row \
         RETURN row.name AS name, linenumber() AS line, file() AS f",
        &grape::engine::Params::new(),
        &opts,
    )
    .unwrap();
    let path = dir.join("people.csv").canonicalize().unwrap();
    let want = |name: &str, line: i64| format!("'{name}' | {line} | '{}'", path.display());
    // The header is line 1.
    assert_eq!(common::display_rows(&t), [want("Ann", 2), want("Bob", 3)]);
    // RETURN * does not show them.
    let t = grape::engine::run_with(
        &mut g,
        "LOAD CSV FROM 'file:///people.csv' AS row RETURN * LIMIT 1",
        &grape::engine::Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.columns, ["row"]);
    std::fs::remove_dir_all(&dir).ok();
}
