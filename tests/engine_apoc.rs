//! APOC core's functions with values from APOC's documentation, run on a small graph; every
//! APOC function the engine runs has an example here (checked against the catalogue), and the
//! ones it does not run are refused at compile time as not supported.

mod common;

const SETUP: &str = "CREATE (a:Person {name: 'Alice', age: 38})-[:KNOWS {since: 2010}]->\
                     (b:Person {name: 'Bob', age: 25}), (a)-[:LIKES]->(:Movie {title: 'Up'})";

/// (function, query, its first column).
const EXAMPLES: &[(&str, &str, &str)] = &[
    // ---- apoc.coll ----
    ("apoc.coll.avg", "RETURN apoc.coll.avg([0.5, 1, 2.3])", "1.2666666666666666"),
    ("apoc.coll.combinations", "RETURN apoc.coll.combinations([1, 2, 3, 4], 3)", "[[1, 2, 3], [1, 2, 4], [1, 3, 4], [2, 3, 4]]"),
    ("apoc.coll.contains", "RETURN apoc.coll.contains([1, 2, 3, 4, 5], 4)", "true"),
    ("apoc.coll.containsAll", "RETURN apoc.coll.containsAll([1, 2, 3, 4, 5], [3, 7])", "false"),
    ("apoc.coll.containsAllSorted", "RETURN apoc.coll.containsAllSorted([1, 2, 3, 4, 5], [3, 4])", "true"),
    ("apoc.coll.containsDuplicates", "RETURN apoc.coll.containsDuplicates([1, 3, 5, 7, 9, 9])", "true"),
    ("apoc.coll.containsSorted", "RETURN apoc.coll.containsSorted([1, 2, 3, 4, 5], 6)", "false"),
    ("apoc.coll.different", "RETURN apoc.coll.different([1, 3, 5, 7, 9, 9])", "false"),
    ("apoc.coll.disjunction", "RETURN apoc.coll.disjunction([1, 2, 3, 4, 5], [3, 4, 5, 6])", "[1, 2, 6]"),
    ("apoc.coll.dropDuplicateNeighbors", "RETURN apoc.coll.dropDuplicateNeighbors([1, 2, 2, 3, 3, 3, 1])", "[1, 2, 3, 1]"),
    ("apoc.coll.duplicates", "RETURN apoc.coll.duplicates([1, 3, 5, 7, 9, 9])", "[9]"),
    ("apoc.coll.duplicatesWithCount", "RETURN apoc.coll.duplicatesWithCount([1, 3, 5, 7, 9, 9])", "[{count: 2, item: 9}]"),
    ("apoc.coll.fill", "RETURN apoc.coll.fill('abc', 2)", "['abc', 'abc']"),
    ("apoc.coll.flatten", "RETURN [apoc.coll.flatten([1, 2, 3, [4, 5, 6]]), apoc.coll.flatten([1, [2, [3, [4]]]], true)]", "[[1, 2, 3, 4, 5, 6], [1, 2, 3, 4]]"),
    ("apoc.coll.frequencies", "RETURN apoc.coll.frequencies([1, 9, 9])", "[{count: 1, item: 1}, {count: 2, item: 9}]"),
    ("apoc.coll.frequenciesAsMap", "RETURN apoc.coll.frequenciesAsMap([1, 3, 9, 9])", "{1: 1, 3: 1, 9: 2}"),
    ("apoc.coll.indexOf", "RETURN apoc.coll.indexOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5)", "4"),
    ("apoc.coll.insert", "RETURN apoc.coll.insert([1, 3, 5, 7, 9], 1, 11)", "[1, 11, 3, 5, 7, 9]"),
    ("apoc.coll.insertAll", "RETURN apoc.coll.insertAll([1, 3, 5, 7, 9], 1, [11, 12, 13])", "[1, 11, 12, 13, 3, 5, 7, 9]"),
    ("apoc.coll.intersection", "RETURN apoc.coll.intersection([1, 2, 3, 4, 5], [3, 4, 5])", "[3, 4, 5]"),
    ("apoc.coll.isEqualCollection", "RETURN [apoc.coll.isEqualCollection([1, 2, 3, 3], [3, 2, 1, 3]), apoc.coll.isEqualCollection([1, 1], [1])]", "[true, false]"),
    ("apoc.coll.max", "RETURN apoc.coll.max([1, 2, 3, 4, 5])", "5"),
    ("apoc.coll.min", "RETURN apoc.coll.min([1, 2, 3, 4, 5])", "1"),
    ("apoc.coll.occurrences", "RETURN apoc.coll.occurrences([1, 3, 5, 7, 9, 9], 9)", "2"),
    ("apoc.coll.pairs", "RETURN apoc.coll.pairs([1, 2, 3])", "[[1, 2], [2, 3], [3, null]]"),
    ("apoc.coll.pairsMin", "RETURN apoc.coll.pairsMin([1, 2, 3])", "[[1, 2], [2, 3]]"),
    ("apoc.coll.pairWithOffset", "RETURN apoc.coll.pairWithOffset([1, 2, 3, 4], 2)", "[[1, 3], [2, 4], [3, null], [4, null]]"),
    ("apoc.coll.partition", "RETURN apoc.coll.partition([1, 2, 3, 4, 5], 2)", "[[1, 2], [3, 4], [5]]"),
    ("apoc.coll.randomItem", "WITH [1, 2, 3] AS xs RETURN apoc.coll.randomItem(xs) IN xs", "true"),
    ("apoc.coll.randomItems", "RETURN size(apoc.coll.toSet(apoc.coll.randomItems([1, 2, 3, 4, 5], 3)))", "3"),
    ("apoc.coll.remove", "RETURN apoc.coll.remove([1, 3, 5, 7, 9], 1)", "[1, 5, 7, 9]"),
    ("apoc.coll.removeAll", "RETURN apoc.coll.removeAll([1, 3, 5, 7, 9], [3, 7])", "[1, 5, 9]"),
    ("apoc.coll.runningTotal", "RETURN apoc.coll.runningTotal([1, 2, 3.5])", "[1, 3, 6.5]"),
    ("apoc.coll.set", "RETURN apoc.coll.set([1, 3, 5, 7, 9], 1, 11)", "[1, 11, 5, 7, 9]"),
    ("apoc.coll.shuffle", "RETURN apoc.coll.sort(apoc.coll.shuffle([3, 1, 2]))", "[1, 2, 3]"),
    ("apoc.coll.sort", "RETURN apoc.coll.sort([5, 4, 2, 3, 1])", "[1, 2, 3, 4, 5]"),
    ("apoc.coll.sortMaps", "RETURN [m IN apoc.coll.sortMaps([{n: 'b'}, {n: 'c'}, {n: 'a'}], 'n') | m.n] + [m IN apoc.coll.sortMaps([{n: 'b'}, {n: 'c'}, {n: 'a'}], '^n') | m.n]", "['c', 'b', 'a', 'a', 'b', 'c']"),
    ("apoc.coll.sortMulti", "RETURN [m IN apoc.coll.sortMulti([{a: 1, b: 'x'}, {a: 2, b: 'y'}, {a: 1, b: 'z'}], ['^a', 'b']) | m.b]", "['z', 'x', 'y']"),
    ("apoc.coll.sortNodes", "MATCH (p:Person) WITH collect(p) AS people RETURN [p IN apoc.coll.sortNodes(people, 'name') | p.name]", "['Bob', 'Alice']"),
    ("apoc.coll.sortText", "RETURN apoc.coll.sortText(['b', 'C', 'a'])", "['a', 'b', 'C']"),
    ("apoc.coll.stdev", "RETURN [apoc.coll.stdev([10, 12, 23, 23, 16, 23, 21, 16]), apoc.coll.stdev([10, 12, 23, 23, 16, 23, 21, 16], false)]", "[5.237229365663817, 4.898979485566356]"),
    ("apoc.coll.subtract", "RETURN apoc.coll.subtract([1, 2, 3, 4, 5, 6, 6], [3, 4, 5])", "[1, 2, 6]"),
    ("apoc.coll.sum", "RETURN apoc.coll.sum([1, 2, 3, 4, 5])", "15.0"),
    ("apoc.coll.sumLongs", "RETURN apoc.coll.sumLongs([1, 2, 3, 4, 5])", "15"),
    ("apoc.coll.toSet", "RETURN apoc.coll.toSet([1, 1, 2, 1, 3, 4, 1])", "[1, 2, 3, 4]"),
    ("apoc.coll.union", "RETURN apoc.coll.union([1, 2, 3, 4, 5], [3, 4, 5, 6, 7])", "[1, 2, 3, 4, 5, 6, 7]"),
    ("apoc.coll.unionAll", "RETURN apoc.coll.unionAll([1, 2, 3], [3, 4])", "[1, 2, 3, 3, 4]"),
    ("apoc.coll.zip", "RETURN apoc.coll.zip([1, 2, 3], ['a', 'b'])", "[[1, 'a'], [2, 'b'], [3, null]]"),
    // ---- apoc.map ----
    ("apoc.map.clean", "RETURN apoc.map.clean({name: 'Alice', age: null, city: '', x: 1}, ['x'], [''])", "{name: 'Alice'}"),
    ("apoc.map.flatten", "RETURN apoc.map.flatten({a: {b: 1, c: {d: 2}}, e: 3})", "{a.b: 1, a.c.d: 2, e: 3}"),
    ("apoc.map.fromLists", "RETURN apoc.map.fromLists(['a', 'b'], [1, 2])", "{a: 1, b: 2}"),
    ("apoc.map.fromNodes", "RETURN apoc.map.fromNodes('Person', 'name')['Bob'].age", "25"),
    ("apoc.map.fromPairs", "RETURN apoc.map.fromPairs([['a', 1], ['b', 2]])", "{a: 1, b: 2}"),
    ("apoc.map.fromValues", "RETURN apoc.map.fromValues(['a', 1, 'b', 2])", "{a: 1, b: 2}"),
    ("apoc.map.get", "RETURN [apoc.map.get({a: 1}, 'a'), apoc.map.get({a: 1}, 'b', 42, false), apoc.map.get({a: 1}, 'b', 7)]", "[1, 42, 7]"),
    ("apoc.map.groupBy", "RETURN apoc.map.groupBy([{id: 1, n: 'a'}, {id: 2, n: 'b'}], 'id')", "{1: {id: 1, n: 'a'}, 2: {id: 2, n: 'b'}}"),
    ("apoc.map.groupByMulti", "RETURN apoc.map.groupByMulti([{k: 'x', v: 1}, {k: 'x', v: 2}, {k: 'y', v: 3}], 'k')", "{x: [{k: 'x', v: 1}, {k: 'x', v: 2}], y: [{k: 'y', v: 3}]}"),
    ("apoc.map.merge", "RETURN apoc.map.merge({a: 1, b: 1}, {b: 2})", "{a: 1, b: 2}"),
    ("apoc.map.mergeList", "RETURN apoc.map.mergeList([{a: 1}, {b: 2}, {a: 3}])", "{a: 3, b: 2}"),
    ("apoc.map.mget", "RETURN apoc.map.mget({a: 1, b: 2, c: 3}, ['a', 'c'])", "[1, 3]"),
    ("apoc.map.removeKey", "RETURN apoc.map.removeKey({a: 1, b: {a: 2}}, 'a', {recursive: true})", "{b: {}}"),
    ("apoc.map.removeKeys", "RETURN apoc.map.removeKeys({a: 1, b: 2, c: 3}, ['a', 'b'])", "{c: 3}"),
    ("apoc.map.setEntry", "RETURN apoc.map.setEntry({a: 1}, 'b', 2)", "{a: 1, b: 2}"),
    ("apoc.map.setKey", "RETURN apoc.map.setKey({a: 1}, 'a', 2)", "{a: 2}"),
    ("apoc.map.setLists", "RETURN apoc.map.setLists({a: 1}, ['b', 'c'], [2, 3])", "{a: 1, b: 2, c: 3}"),
    ("apoc.map.setPairs", "RETURN apoc.map.setPairs({a: 1}, [['b', 2]])", "{a: 1, b: 2}"),
    ("apoc.map.setValues", "RETURN apoc.map.setValues({a: 1}, ['b', 2, 'c', 3])", "{a: 1, b: 2, c: 3}"),
    ("apoc.map.sortedProperties", "RETURN apoc.map.sortedProperties({b: 2, A: 1})", "[['A', 1], ['b', 2]]"),
    ("apoc.map.submap", "RETURN apoc.map.submap({a: 1, b: 2, c: 3}, ['a', 'b'])", "{a: 1, b: 2}"),
    ("apoc.map.unflatten", "RETURN apoc.map.unflatten({`a.b`: 1, `a.c`: 2, d: 3})", "{a: {b: 1, c: 2}, d: 3}"),
    ("apoc.map.values", "RETURN [apoc.map.values({a: 1, b: 2, c: 3}, ['a', 'c']), apoc.map.values({a: 1}, ['a', 'z'], true)]", "[[1, 3], [1, null]]"),
    // ---- apoc.text ----
    ("apoc.text.base64Decode", "RETURN apoc.text.base64Decode('bmVvNGo=')", "'neo4j'"),
    ("apoc.text.base64Encode", "RETURN apoc.text.base64Encode('neo4j')", "'bmVvNGo='"),
    ("apoc.text.base64UrlDecode", "RETURN apoc.text.base64UrlDecode('aHR0cHM6Ly9uZW80ai5jb20vP3Rlc3Q9dGVzdA')", "'https://neo4j.com/?test=test'"),
    // (APOC's documentation shows it unpadded; APOC 5.26 pads, as Java's URL encoder does.)
    ("apoc.text.base64UrlEncode", "RETURN apoc.text.base64UrlEncode('https://neo4j.com/?test=test')", "'aHR0cHM6Ly9uZW80ai5jb20vP3Rlc3Q9dGVzdA=='"),
    ("apoc.text.byteCount", "RETURN [apoc.text.byteCount('neo4j'), apoc.text.byteCount('été')]", "[5, 5]"),
    // (APOC's documentation shows Java's signed bytes; Neo4j 5.26 returns them unsigned.)
    ("apoc.text.bytes", "RETURN [apoc.text.bytes('neo4j'), apoc.text.bytes('é')]", "[[110, 101, 111, 52, 106], [195, 169]]"),
    ("apoc.text.camelCase", "RETURN [apoc.text.camelCase('FOO_BAR'), apoc.text.camelCase('Test Camel Case')]", "['fooBar', 'testCamelCase']"),
    ("apoc.text.capitalize", "RETURN apoc.text.capitalize('neo4j')", "'Neo4j'"),
    ("apoc.text.capitalizeAll", "RETURN apoc.text.capitalizeAll('graph database')", "'Graph Database'"),
    ("apoc.text.charAt", "RETURN apoc.text.charAt('neo4j', 1)", "101"),
    ("apoc.text.clean", "RETURN apoc.text.clean('Neo4j: the Graph!')", "'neo4jthegraph'"),
    ("apoc.text.code", "RETURN apoc.text.code(101)", "'e'"),
    ("apoc.text.compareCleaned", "RETURN apoc.text.compareCleaned('Neo4j', 'neo-4j!')", "true"),
    ("apoc.text.decapitalize", "RETURN apoc.text.decapitalize('Graph')", "'graph'"),
    ("apoc.text.decapitalizeAll", "RETURN apoc.text.decapitalizeAll('Graph Database')", "'graph database'"),
    ("apoc.text.distance", "RETURN apoc.text.distance('kitten', 'sitting')", "3"),
    ("apoc.text.fuzzyMatch", "RETURN [apoc.text.fuzzyMatch('Neo4j', 'Neo4k'), apoc.text.fuzzyMatch('Neo', 'Neo4j')]", "[true, false]"),
    ("apoc.text.hammingDistance", "RETURN apoc.text.hammingDistance('Neo4j', 'Neoj4')", "2"),
    ("apoc.text.indexesOf", "RETURN apoc.text.indexesOf('neo4j neo4j', 'neo')", "[0, 6]"),
    ("apoc.text.indexOf", "RETURN [apoc.text.indexOf('neo4j', '4'), apoc.text.indexOf('neo4j', 'x')]", "[3, -1]"),
    ("apoc.text.join", "RETURN apoc.text.join(['Hello', 'World'], ' ')", "'Hello World'"),
    ("apoc.text.levenshteinDistance", "RETURN apoc.text.levenshteinDistance('Neo4j', 'Neo4j Aura')", "5"),
    ("apoc.text.levenshteinSimilarity", "RETURN apoc.text.levenshteinSimilarity('Neo4j', 'Neo4j Aura')", "0.5"),
    ("apoc.text.lpad", "RETURN apoc.text.lpad('Neo4j', 8, '-')", "'---Neo4j'"),
    ("apoc.text.phonetic", "RETURN apoc.text.phonetic('Robert')", "'R163'"),
    ("apoc.text.random", "RETURN size(apoc.text.random(10, 'A-Z'))", "10"),
    ("apoc.text.regexGroups", "RETURN apoc.text.regexGroups('abc <link xxx1>yyy1</link> def <link xxx2>yyy2</link>', '<link (\\\\w+)>(\\\\w+)</link>')", "[['<link xxx1>yyy1</link>', 'xxx1', 'yyy1'], ['<link xxx2>yyy2</link>', 'xxx2', 'yyy2']]"),
    ("apoc.text.regreplace", "RETURN apoc.text.regreplace('Hello World!', '[^a-zA-Z]', '')", "'HelloWorld'"),
    ("apoc.text.repeat", "RETURN apoc.text.repeat('Na', 3)", "'NaNaNa'"),
    ("apoc.text.replace", "RETURN apoc.text.replace('2024-01-02', '(\\\\d+)-(\\\\d+)-(\\\\d+)', '$3/$2/$1')", "'02/01/2024'"),
    ("apoc.text.rpad", "RETURN apoc.text.rpad('Neo4j', 8, '-')", "'Neo4j---'"),
    ("apoc.text.split", "RETURN apoc.text.split('Hello   World', ' +')", "['Hello', 'World']"),
    ("apoc.text.swapCase", "RETURN apoc.text.swapCase('Neo4j')", "'nEO4J'"),
    ("apoc.text.toCypher", "RETURN apoc.text.toCypher({a: 1, b: 'x', `c d`: [true]})", "'{a:1,b:\\'x\\',`c d`:[true]}'"),
    ("apoc.text.toUpperCase", "RETURN [apoc.text.toUpperCase('test upper case'), apoc.text.toUpperCase('fooBar')]", "['TEST_UPPER_CASE', 'FOO_BAR']"),
    ("apoc.text.upperCamelCase", "RETURN apoc.text.upperCamelCase('FOO_BAR')", "'FooBar'"),
    ("apoc.text.urldecode", "RETURN apoc.text.urldecode('http%3A%2F%2Fneo4j.com%2Ftest%3Ftest%3Dtest')", "'http://neo4j.com/test?test=test'"),
    ("apoc.text.urlencode", "RETURN apoc.text.urlencode('http://neo4j.com/test?test=test')", "'http%3A%2F%2Fneo4j.com%2Ftest%3Ftest%3Dtest'"),
    // ---- apoc.math ----
    ("apoc.math.cosh", "RETURN round(apoc.math.cosh(1), 12)", "1.543080634815"),
    ("apoc.math.coth", "RETURN round(apoc.math.coth(1), 12)", "1.313035285499"),
    ("apoc.math.csch", "RETURN round(apoc.math.csch(1), 12)", "0.850918128239"),
    ("apoc.math.maxByte", "RETURN apoc.math.maxByte()", "127"),
    ("apoc.math.maxDouble", "RETURN apoc.math.maxDouble()", "1.7976931348623157e308"),
    ("apoc.math.maxInt", "RETURN apoc.math.maxInt()", "2147483647"),
    ("apoc.math.maxLong", "RETURN apoc.math.maxLong()", "9223372036854775807"),
    ("apoc.math.minByte", "RETURN apoc.math.minByte()", "-128"),
    ("apoc.math.minDouble", "RETURN apoc.math.minDouble()", "5e-324"),
    ("apoc.math.minInt", "RETURN apoc.math.minInt()", "-2147483648"),
    ("apoc.math.minLong", "RETURN apoc.math.minLong()", "-9223372036854775808"),
    ("apoc.math.sech", "RETURN round(apoc.math.sech(1), 12)", "0.648054273664"),
    ("apoc.math.sigmoid", "RETURN apoc.math.sigmoid(1)", "0.7310585786300049"),
    ("apoc.math.sigmoidPrime", "RETURN round(apoc.math.sigmoidPrime(1), 12)", "0.196611933241"),
    ("apoc.math.sinh", "RETURN round(apoc.math.sinh(1), 12)", "1.175201193644"),
    ("apoc.math.tanh", "RETURN round(apoc.math.tanh(1), 12)", "0.761594155956"),
    // ---- apoc.convert ----
    ("apoc.convert.fromJsonList", "RETURN apoc.convert.fromJsonList('[1, \"a\", null, {\"b\": 2.5}]')", "[1, 'a', null, {b: 2.5}]"),
    ("apoc.convert.fromJsonMap", "RETURN [apoc.convert.fromJsonMap('{\"a\": 42, \"b\": [true]}'), apoc.convert.fromJsonMap('{\"a\": {\"b\": 1}}', '$.a'), apoc.convert.fromJsonList('{\"a\": [1, 2]}', '$.a')]", "[{a: 42, b: [true]}, {b: 1}, [1, 2]]"),
    ("apoc.convert.toJson", "RETURN apoc.convert.toJson({a: [1, 2], b: 'x'})", "'{\"a\":[1,2],\"b\":\"x\"}'"),
    ("apoc.convert.toList", "RETURN [apoc.convert.toList(1), apoc.convert.toList([1, 2])]", "[[1], [1, 2]]"),
    ("apoc.convert.toMap", "MATCH (b:Person {name: 'Bob'}) RETURN apoc.convert.toMap(b)", "{age: 25, name: 'Bob'}"),
    ("apoc.convert.toNode", "MATCH (b:Person {name: 'Bob'}) RETURN [apoc.convert.toNode(b).name, apoc.convert.toNode(1)]", "['Bob', null]"),
    ("apoc.convert.toNodeList", "MATCH (b:Person {name: 'Bob'}) RETURN size(apoc.convert.toNodeList([b, 1, b]))", "3"),
    ("apoc.convert.toRelationship", "MATCH ()-[r:KNOWS]->() RETURN apoc.convert.toRelationship(r).since", "2010"),
    ("apoc.convert.toRelationshipList", "MATCH ()-[r:KNOWS]->() RETURN size(apoc.convert.toRelationshipList([r, 'x']))", "2"),
    ("apoc.convert.toSet", "RETURN apoc.convert.toSet([1, 2, 1])", "[1, 2]"),
    ("apoc.convert.toSortedJsonMap", "RETURN apoc.convert.toSortedJsonMap({b: 1, a: 2})", "'{\"a\":2,\"b\":1}'"),
    // ---- graph elements ----
    ("apoc.any.isDeleted", "MATCH (b:Person {name: 'Bob'}) RETURN apoc.any.isDeleted(b)", "false"),
    ("apoc.any.properties", "MATCH (b:Person {name: 'Bob'}) RETURN apoc.any.properties(b, ['name'])", "{name: 'Bob'}"),
    ("apoc.any.property", "MATCH (b:Person {name: 'Bob'}) RETURN [apoc.any.property(b, 'age'), apoc.any.property({x: 1}, 'x')]", "[25, 1]"),
    ("apoc.label.exists", "MATCH (b:Person {name: 'Bob'}) RETURN [apoc.label.exists(b, 'Person'), apoc.label.exists(b, 'Movie')]", "[true, false]"),
    ("apoc.node.degree", "MATCH (a:Person {name: 'Alice'}) RETURN [apoc.node.degree(a), apoc.node.degree(a, 'KNOWS>'), apoc.node.degree(a, '<KNOWS')]", "[2, 1, 0]"),
    ("apoc.node.degree.in", "MATCH (b:Person {name: 'Bob'}) RETURN apoc.node.degree.in(b, 'KNOWS')", "1"),
    ("apoc.node.degree.out", "MATCH (a:Person {name: 'Alice'}) RETURN apoc.node.degree.out(a)", "2"),
    ("apoc.node.id", "MATCH (a:Person {name: 'Alice'}) RETURN apoc.node.id(a) = id(a)", "true"),
    ("apoc.node.labels", "MATCH (a:Person {name: 'Alice'}) RETURN apoc.node.labels(a)", "['Person']"),
    ("apoc.node.relationship.exists", "MATCH (a:Person {name: 'Alice'}) RETURN [apoc.node.relationship.exists(a, 'KNOWS>'), apoc.node.relationship.exists(a, '<LIKES')]", "[true, false]"),
    ("apoc.node.relationship.types", "MATCH (a:Person {name: 'Alice'}) RETURN apoc.coll.sort(apoc.node.relationship.types(a))", "['KNOWS', 'LIKES']"),
    ("apoc.node.relationships.exist", "MATCH (a:Person {name: 'Alice'}) RETURN apoc.node.relationships.exist(a, 'KNOWS>|HATES')", "{HATES: false, KNOWS>: true}"),
    ("apoc.nodes.connected", "MATCH (a:Person {name: 'Alice'}), (b:Person {name: 'Bob'}) RETURN [apoc.nodes.connected(a, b), apoc.nodes.connected(a, b, 'LIKES')]", "[true, false]"),
    ("apoc.nodes.isDense", "MATCH (a:Person {name: 'Alice'}) RETURN apoc.nodes.isDense(a)", "false"),
    ("apoc.rel.endNode", "MATCH ()-[r:KNOWS]->() RETURN apoc.rel.endNode(r).name", "'Bob'"),
    ("apoc.rel.id", "MATCH ()-[r:KNOWS]->() RETURN apoc.rel.id(r) = id(r)", "true"),
    ("apoc.rel.startNode", "MATCH ()-[r:KNOWS]->() RETURN apoc.rel.startNode(r).name", "'Alice'"),
    ("apoc.rel.type", "MATCH ()-[r:KNOWS]->() RETURN apoc.rel.type(r)", "'KNOWS'"),
    // ---- aggregating ----
    ("apoc.agg.first", "UNWIND [null, 'a', 'b'] AS x RETURN apoc.agg.first(x)", "'a'"),
    ("apoc.agg.graph", "MATCH p = (:Person)-[:KNOWS]->(:Person) WITH apoc.agg.graph(p) AS g RETURN [size(g.nodes), size(g.relationships)]", "[2, 1]"),
    ("apoc.agg.last", "UNWIND ['a', 'b', null] AS x RETURN apoc.agg.last(x)", "'b'"),
    ("apoc.agg.maxItems", "MATCH (p:Person) RETURN apoc.agg.maxItems(p.name, p.age)", "{items: ['Alice'], value: 38}"),
    ("apoc.agg.median", "UNWIND [1, 4, 2, 9] AS x RETURN [apoc.agg.median(x)]", "[3.0]"),
    ("apoc.agg.minItems", "UNWIND [['a', 2], ['b', 1], ['c', 1]] AS p RETURN apoc.agg.minItems(p[0], p[1])", "{items: ['b', 'c'], value: 1}"),
    ("apoc.agg.nth", "UNWIND ['a', 'b', 'c'] AS x RETURN [apoc.agg.nth(x, 1)]", "['b']"),
    ("apoc.agg.product", "UNWIND [2, 3, 4] AS x RETURN apoc.agg.product(x)", "24"),
    ("apoc.agg.slice", "UNWIND ['a', 'b', 'c', 'd'] AS x RETURN apoc.agg.slice(x, 1, 3)", "['b', 'c']"),
    // ---- dates ----
    ("apoc.date.add", "RETURN apoc.date.add(1700000000000, 'ms', 1, 'd')", "1700086400000"),
    ("apoc.date.convert", "RETURN apoc.date.convert(1700000000000, 'ms', 'd')", "19675"),
    ("apoc.date.currentTimestamp", "RETURN apoc.date.currentTimestamp() > 1700000000000", "true"),
    ("apoc.date.format", "RETURN [apoc.date.format(1700000000000, 'ms', 'yyyy-MM-dd HH:mm:ss'), apoc.date.format(0, 'ms', \"EEE, d MMM yyyy 'at' HH:mmXXX\", 'Europe/Paris'), apoc.date.format(1700000000, 's')]", "['2023-11-14 22:13:20', 'Thu, 1 Jan 1970 at 01:00+01:00', '2023-11-14 22:13:20']"),
    ("apoc.date.fromISO8601", "RETURN apoc.date.fromISO8601('2023-11-14T22:13:20.000Z')", "1700000000000"),
    ("apoc.date.parse", "RETURN [apoc.date.parse('2015/03/25 03-15-59', 's', 'yyyy/MM/dd HH-mm-ss'), apoc.date.parse('2023-11-14', 'ms', 'yyyy-MM-dd'), apoc.date.parse('2023-11-14 23:13:20', 's', 'yyyy-MM-dd HH:mm:ss', 'Europe/Paris')]", "[1427253359, 1699920000000, 1700000000]"),
    ("apoc.date.systemTimezone", "RETURN apoc.date.systemTimezone()", "'UTC'"),
    ("apoc.date.toISO8601", "RETURN apoc.date.toISO8601(1700000000000)", "'2023-11-14T22:13:20.000Z'"),
    ("apoc.temporal.format", "RETURN [apoc.temporal.format(date('2018-12-10'), 'dd MMMM yyyy'), apoc.temporal.format(datetime('2018-12-10T12:34:56.123+01:00'), 'ISO_DATE_TIME'), apoc.temporal.format(localtime('09:05'), 'hh:mm a')]", "['10 December 2018', '2018-12-10T12:34:56+01:00', '09:05 AM']"),
    // ---- paths, diffs, schema ----
    ("apoc.path.combine", "MATCH p = (:Person)-[:KNOWS]->(:Person), q = (:Person {name: 'Bob'}) RETURN length(apoc.path.combine(p, q))", "1"),
    ("apoc.path.create", "MATCH (a:Person {name: 'Alice'})-[r:KNOWS]->() RETURN [n IN nodes(apoc.path.create(a, [r])) | n.name]", "['Alice', 'Bob']"),
    ("apoc.path.elements", "MATCH p = (:Person)-[:KNOWS]->(:Person) RETURN size(apoc.path.elements(p))", "3"),
    ("apoc.path.slice", "MATCH p = (:Person)-[:KNOWS]->(:Person) RETURN [length(apoc.path.slice(p, 0, 1)), length(apoc.path.slice(p, 1))]", "[1, 0]"),
    ("apoc.diff.nodes", "MATCH (a:Person {name: 'Alice'}), (b:Person {name: 'Bob'}) RETURN apoc.diff.nodes(a, b)", "{different: {age: {left: 38, right: 25}, name: {left: 'Alice', right: 'Bob'}}, inCommon: {}, leftOnly: {}, rightOnly: {}}"),
    ("apoc.schema.node.constraintExists", "RETURN apoc.schema.node.constraintExists('Person', ['name'])", "false"),
    ("apoc.schema.node.indexExists", "RETURN apoc.schema.node.indexExists('Person', ['name'])", "false"),
    ("apoc.schema.relationship.constraintExists", "RETURN apoc.schema.relationship.constraintExists('KNOWS', ['since'])", "false"),
    ("apoc.schema.relationship.indexExists", "RETURN apoc.schema.relationship.indexExists('KNOWS', ['since'])", "false"),
    ("apoc.text.format", "RETURN apoc.text.format('%s is %d, %.2f%%', ['Neo4j', 5, 99.5])", "'Neo4j is 5, 99.50%'"),
    // ---- other ----
    ("apoc.bitwise.op", "RETURN [apoc.bitwise.op(60, '|', 13), apoc.bitwise.op(60, '&', 13), apoc.bitwise.op(60, '^', 13), apoc.bitwise.op(60, '>>', 2)]", "[61, 12, 49, 15]"),
    ("apoc.create.uuid", "RETURN size(apoc.create.uuid())", "36"),
    // Neo4j 5.26 reads no property of a virtual entity in Cypher (the oracle: `v.name` null,
    // `properties(v)` empty); the APOC object and the client see them, and Cypher 25 (Neo4j
    // 2025+) reads them.
    ("apoc.create.virtual.fromNode", "MATCH (a:Person {name: 'Alice'}) WITH apoc.create.virtual.fromNode(a, ['name']) AS v RETURN [labels(v), properties(v), apoc.any.properties(v)]", "[['Person'], {}, {name: 'Alice'}]"),
    ("apoc.create.virtual.fromNode", "CYPHER 25 MATCH (a:Person {name: 'Alice'}) WITH apoc.create.virtual.fromNode(a, ['name']) AS v RETURN [labels(v), properties(v)]", "[['Person'], {name: 'Alice'}]"),
    ("apoc.create.vNode", "WITH apoc.create.vNode(['Person', 'Virtual'], {name: 'V'}) AS v RETURN [labels(v), v.name, v:Person, apoc.any.property(v, 'name')]", "[['Person', 'Virtual'], null, false, 'V']"),
    ("apoc.create.vNode", "CYPHER 25 WITH apoc.create.vNode(['Person', 'Virtual'], {name: 'V'}) AS v RETURN [labels(v), v.name, v:Person]", "[['Person', 'Virtual'], 'V', false]"),
    ("apoc.create.vRelationship", "MATCH (a:Person {name: 'Alice'}), (b:Person {name: 'Bob'}) WITH apoc.create.vRelationship(a, 'FRIEND', {since: 1}, b) AS r RETURN [type(r), r.since, keys(r), startNode(r).name, endNode(r).name]", "['FRIEND', null, [], 'Alice', 'Bob']"),
    ("apoc.create.vRelationship", "CYPHER 25 MATCH (a:Person {name: 'Alice'}), (b:Person {name: 'Bob'}) WITH apoc.create.vRelationship(a, 'FRIEND', {since: 1}, b) AS r RETURN [type(r), r.since, startNode(r).name, endNode(r).name]", "['FRIEND', 1, 'Alice', 'Bob']"),
    ("apoc.meta.cypher.isType", "RETURN apoc.meta.cypher.isType('a', 'STRING')", "true"),
    ("apoc.meta.cypher.type", "RETURN [apoc.meta.cypher.type(1), apoc.meta.cypher.type('a'), apoc.meta.cypher.type([1, 2]), apoc.meta.cypher.type(null)]", "['INTEGER', 'STRING', 'LIST OF INTEGER', 'NULL']"),
    ("apoc.meta.cypher.types", "RETURN apoc.meta.cypher.types({a: 1, b: 'x'})", "{a: 'INTEGER', b: 'STRING'}"),
    ("apoc.number.arabicToRoman", "RETURN apoc.number.arabicToRoman(2024)", "'MMXXIV'"),
    ("apoc.number.romanToArabic", "RETURN apoc.number.romanToArabic('MCMXCIV')", "1994"),
    ("apoc.scoring.existence", "RETURN [apoc.scoring.existence(5, true), apoc.scoring.existence(5, false)]", "[5.0, 0.0]"),
    ("apoc.util.md5", "RETURN apoc.util.md5(['ABC'])", "'902fbdd2b1df0c4f70b4a5d23525e932'"),
    ("apoc.util.sha1", "RETURN apoc.util.sha1(['ABC'])", "'3c01bdbb26f358bab27f267924aa2c9a03fcfdb8'"),
    ("apoc.util.sha256", "RETURN apoc.util.sha256(['AB', 'C'])", "'b5d4045c3f466fa91fe2cc6abe79232a1a57cdf104f7a26e716e0a1e2789df78'"),
    ("apoc.util.sha384", "RETURN size(apoc.util.sha384(['ABC']))", "96"),
    ("apoc.util.sha512", "RETURN size(apoc.util.sha512(['ABC']))", "128"),
    ("apoc.util.validatePredicate", "RETURN apoc.util.validatePredicate(false, 'never %s', ['raised'])", "true"),
    ("apoc.version", "RETURN apoc.version()", "'5.26.0'"),
    // ---- APOC's documented values (and its tests' where the page has none) ----
    ("apoc.text.hexValue", "RETURN [apoc.text.hexValue(10), apoc.text.hexValue(65536), apoc.text.hexValue(187723572702975), apoc.text.hexValue(-1)]", "['000A', '00010000', '0000AABBCCDDEEFF', 'FFFFFFFF']"),
    ("apoc.text.hexCharAt", "RETURN [apoc.text.hexCharAt('Neo4j', 4), apoc.text.hexCharAt('Té$™ 中П.', 5), apoc.text.hexCharAt('Neo4j', 5)]", "['006A', '4E2D', null]"),
    ("apoc.text.slug", "RETURN [apoc.text.slug('Neo4j Aura'), apoc.text.slug('Neo4j Aura', '.'), apoc.text.slug(' a b-- c', '.'), apoc.text.slug('a b c d é')]", "['Neo4j-Aura', 'Neo4j.Aura', 'a.b.c', 'a-b-c-d-é']"),
    ("apoc.text.snakeCase", "RETURN [apoc.text.snakeCase('test Snake Case'), apoc.text.snakeCase('FOO_BAR'), apoc.text.snakeCase('fooBar'), apoc.text.snakeCase('foo-bar'), apoc.text.snakeCase('Foo  bar'), apoc.text.snakeCase('rédacteur-en-chef')]", "['test-snake-case', 'foo-bar', 'foo-bar', 'foo-bar', 'foo-bar', 'rédacteur-en-chef']"),
    ("apoc.text.jaroWinklerDistance", "RETURN [apoc.text.jaroWinklerDistance('Neo4j', 'Neo4j'), apoc.text.jaroWinklerDistance('Neo4j', 'Neoj4'), apoc.text.jaroWinklerDistance('Neo4j Aura', 'Neo4j Graph Database')]", "[0.0, 0.046666666666666745, 0.15999999999999992]"),
    ("apoc.text.sorensenDiceSimilarity", "RETURN [apoc.text.sorensenDiceSimilarity('belly', 'jolly'), apoc.text.sorensenDiceSimilarity('halım', 'halim', 'tr-TR'), apoc.text.sorensenDiceSimilarity('halım', 'halim'), apoc.text.sorensenDiceSimilarity('HELLo', 'heLlO')]", "[0.5, 0.5, 1.0, 1.0]"),
    ("apoc.text.regexGroupsByName", "RETURN apoc.text.regexGroupsByName('abc <link xxx1>yyy1</link> def <link xxx2>yyy2</link>', '<link (?<firstPart>\\\\w+)>(?<secondPart>\\\\w+)</link>')", "[{group: '<link xxx1>yyy1</link>', matches: {firstPart: 'xxx1', secondPart: 'yyy1'}}, {group: '<link xxx2>yyy2</link>', matches: {firstPart: 'xxx2', secondPart: 'yyy2'}}]"),
    ("apoc.scoring.pareto", "UNWIND [0, 1, 2, 8, 10, 100] AS v WITH collect(apoc.scoring.pareto(2, 8, 10, v)) AS ps RETURN ps", "[0.0, 0.0, 3.31259695023578, 8.0, 8.662519390047157, 9.999999981682132]"),
    ("apoc.create.uuidHexToBase64", "RETURN [apoc.create.uuidHexToBase64('bd7f1d33-95e8-49ed-a576-873f433304cb'), apoc.create.uuidHexToBase64('290d6cba-ce94-455e-b59f-029cf1e395c5')]", "['vX8dM5XoSe2ldoc/QzMEyw', 'KQ1sus6URV61nwKc8eOVxQ']"),
    ("apoc.create.uuidBase64ToHex", "RETURN [apoc.create.uuidBase64ToHex('vX8dM5XoSe2ldoc/QzMEyw'), apoc.create.uuidBase64ToHex('KQ1sus6URV61nwKc8eOVxQ==')]", "['bd7f1d33-95e8-49ed-a576-873f433304cb', '290d6cba-ce94-455e-b59f-029cf1e395c5']"),
    ("apoc.create.uuidBase64", "WITH apoc.create.uuidBase64() AS u RETURN [size(u), size(apoc.create.uuidBase64ToHex(u)), apoc.create.uuidHexToBase64(apoc.create.uuidBase64ToHex(u)) = u]", "[22, 36, true]"),
    ("apoc.data.url", "RETURN [apoc.data.url('https://www.neo4j.com/developer/graph-data-science?q=neo4j#heading-1'), apoc.data.url('google.com')]", "[{anchor: 'heading-1', file: '/developer/graph-data-science?q=neo4j', host: 'www.neo4j.com', path: '/developer/graph-data-science', port: null, protocol: 'https', query: 'q=neo4j', user: null}, null]"),
    ("apoc.temporal.formatDuration", "WITH duration.between(datetime('2017-06-02T18:40:32.1234560'), datetime('2019-07-13T19:41:33')) AS d RETURN [apoc.temporal.formatDuration(duration({seconds: 6000}), 'hour'), apoc.temporal.formatDuration(duration({seconds: 10000}), 'hour_minute'), apoc.temporal.formatDuration(d, \"yy 'years' MM 'months' www 'weeks' dd 'days' - HH:mm:ss SSSS\"), apoc.temporal.formatDuration(d, 'iso_local_date_time'), apoc.temporal.formatDuration(duration('P0M0DT4820.487660000S'), 'ISO_DATE_TIME')]", "['01', '02:46', '02 years 01 months 001 weeks 11 days - 01:01:00 8765', '0002-01-11T01:01:00.876544', '0000-00-00T01:20:20.48766']"),
    ("apoc.nodes.relationship.types", "MATCH (p:Person) WITH p ORDER BY p.name WITH collect(p) AS people RETURN [x IN apoc.nodes.relationship.types(people, 'KNOWS>|LIKES') | [x.node.name, x.types]]", "[['Alice', ['KNOWS', 'LIKES']], ['Bob', []]]"),
    ("apoc.nodes.relationships.exist", "MATCH (p:Person) WITH p ORDER BY p.name WITH collect(p) AS people RETURN [[x IN apoc.nodes.relationships.exist(people, 'KNOWS>|<KNOWS|LIKES') | [x.node.name, x.exists]], apoc.nodes.relationships.exist(people)]", "[[['Alice', {<KNOWS: false, KNOWS>: true, LIKES: true}], ['Bob', {<KNOWS: true, KNOWS>: false, LIKES: false}]], []]"),
    ("apoc.meta.nodes.count", "CREATE (n:MyCountLabel {id: 1}), (:MyCountLabel {id: 2}), (m:ThirdLabel {id: 3}), (n)-[:MY_COUNT_REL]->(m), (n)-[:ANOTHER_MY_COUNT_REL]->(m), (n)<-[:ANOTHER_MY_COUNT_REL]-(m) WITH count(*) AS done RETURN [apoc.meta.nodes.count(['MyCountLabel', 'ThirdLabel']), apoc.meta.nodes.count(['MyCountLabel'], {includeRels: ['MY_COUNT_REL']}), apoc.meta.nodes.count(['MyCountLabel'], {includeRels: ['MY_COUNT_REL>']}), apoc.meta.nodes.count(['MyCountLabel'], {includeRels: ['MY_COUNT_REL<']})]", "[3, 1, 1, 0]"),
    ("apoc.date.field", "WITH datetime('2020-11-04T10:30:00').epochMillis AS t RETURN [apoc.date.field(t, 'hours'), apoc.date.field(t, 'weekday'), apoc.date.field(380673042000), apoc.date.field(380673042000, 'year')]", "[10, 3, 23, 1982]"),
    // ---- apoc.hashing: APOC's tests; the graph values worked out from APOC's byte layout
    // (MD5 over labels, then each key and the hex MD5 of its value) with Python's hashlib ----
    ("apoc.hashing.fingerprint", "RETURN [apoc.hashing.fingerprint('some string'), apoc.hashing.fingerprint(123), apoc.hashing.fingerprint(123.456), apoc.hashing.fingerprint(true), apoc.hashing.fingerprint(null), apoc.hashing.fingerprint({string: 'some string', boolean: true, long: 123, double: 1234.456})]", "['5AC749FBEEC93607FC28D666BE85E73A', '202CB962AC59075B964B07152D234B70', 'B316DF1D65EE42FF51A5393DF1F86105', 'B326B5062B2F0E69046810717534CB09', 'D41D8CD98F00B204E9800998ECF8427E', '040B354004871F76A693DEC2E5DD8F51']"),
    ("apoc.hashing.fingerprinting", "MATCH (a:Person {name: 'Alice'}) RETURN [apoc.hashing.fingerprinting(a), apoc.hashing.fingerprinting(a, {strategy: 'EAGER'}), apoc.hashing.fingerprint(a), apoc.hashing.fingerprint(a, ['age']) = apoc.hashing.fingerprinting(a, {nodeAllowMap: {Person: ['name']}}), apoc.hashing.fingerprinting('some string', {digestAlgorithm: 'SHA-256'})]", "['D41D8CD98F00B204E9800998ECF8427E', '1AB7A4400BA7DABF10D51621D8D3E408', '1AB7A4400BA7DABF10D51621D8D3E408', true, '61D034473102D7DAC305902770471FD50F4C5B26F6831A56DD90B5184B3C30FC']"),
    ("apoc.hashing.fingerprintGraph", "CREATE (:FP {name: 'ABC'})-[r:KNOWS {since: 12345}]->(:FP {name: 'DEF'}) WITH r MATCH (n) WHERE NOT n:FP DETACH DELETE n WITH DISTINCT r RETURN [apoc.hashing.fingerprint(r), apoc.hashing.fingerprintGraph()]", "['B1E1E12ED264F5CAAEDE20C14D53E0B9', '9B86F921FA07C870EE75D25E7E9EDABD']"),
    ("apoc.text.doubleMetaphone", "RETURN [apoc.text.doubleMetaphone('Apoc'), apoc.text.doubleMetaphone('Hello, dear User!'), apoc.text.doubleMetaphone(null), apoc.text.doubleMetaphone(''), apoc.text.doubleMetaphone('Neo4j Aura'), apoc.text.doubleMetaphone('GRANDstack: Build Fullstack GraphQL Applications With Ease')]", "['APK', 'HLTRASR', null, '', 'NJAR', 'KRNTPLTFLSTKRFKAPLKA0AS']"),
    ("apoc.map.updateTree", "RETURN apoc.map.updateTree({id: 1, c: {id: 2}, d: [{id: 3}]}, 'id', [[1, {a: 1}], [2, {a: 2}], [3, {a: 3}]])", "{a: 1, c: {a: 2, id: 2}, d: [{a: 3, id: 3}], id: 1}"),
    ("apoc.cypher.runFirstColumnSingle", "RETURN [apoc.cypher.runFirstColumnSingle('RETURN a + 7 AS b', {a: 3}), apoc.cypher.runFirstColumnSingle('MATCH (p:Person) RETURN p.name ORDER BY p.name', {}), apoc.cypher.runFirstColumnSingle('MATCH (p:Nobody) RETURN p', null)]", "[10, 'Alice', null]"),
    ("apoc.cypher.runFirstColumnMany", "RETURN [apoc.cypher.runFirstColumnMany('UNWIND range(1, a) AS id RETURN id', {a: 3}), apoc.cypher.runFirstColumnMany('MATCH (p:Person) WHERE p.age > $min RETURN p.name ORDER BY p.name', {min: 20})]", "[[1, 2, 3], ['Alice', 'Bob']]"),
    // ---- JSON paths: APOC's tests (Jayway JsonPath, APOC's default options) ----
    ("apoc.json.path", "WITH '{\"columns\":{\"row\":{\"poiType\":\"Governorate\",\"poi\":772},\"col2\":{\"_id\":\"772col2\"}}}' AS json RETURN [apoc.json.path(json, '$..columns'), apoc.json.path(json, '$..columns', ['AS_PATH_LIST']), apoc.json.path(json, '$..columns', []), apoc.json.path(json, '$.columns.row.poi'), apoc.json.path(json)]", "[[{col2: {_id: '772col2'}, row: {poi: 772, poiType: 'Governorate'}}, null, null, null], ['$[\\'columns\\']'], [{col2: {_id: '772col2'}, row: {poi: 772, poiType: 'Governorate'}}], 772, {columns: {col2: {_id: '772col2'}, row: {poi: 772, poiType: 'Governorate'}}}]"),
    ("apoc.convert.getJsonProperty", "CREATE (a {json: '[1,2,3]'}), (b {json: '{\"foo\":[1,2,3]}'}), (c {json: '{a:[1,2,3]}'}) RETURN [apoc.convert.getJsonProperty(a, 'json'), apoc.convert.getJsonProperty(b, 'json', '$.foo'), apoc.convert.getJsonProperty(c, 'json'), apoc.convert.getJsonProperty(c, 'missing')]", "[[1, 2, 3], [1, 2, 3], {a: [1, 2, 3]}, null]"),
    ("apoc.convert.getJsonPropertyMap", "CREATE (n {prop: '{\"columns\":{\"row\":{\"poiType\":\"Governorate\",\"poi\":772},\"col2\":{\"_id\":\"772col2\"}}}'}) RETURN [apoc.convert.getJsonPropertyMap(n, 'prop', '$.columns.col2'), apoc.convert.getJsonPropertyMap(n, 'prop', '$.columns.missing')]", "[{_id: '772col2'}, null]"),
    // ---- dates written as text (APOC's documentation and tests; toYears: 365-day years) ----
    ("apoc.date.fields", "RETURN [apoc.date.fields('2015-01-02 03:04:05 EET', 'yyyy-MM-dd HH:mm:ss zzz'), apoc.date.fields('2015/01/02_EET', 'yyyy/MM/dd_z'), apoc.date.fields(null)]", "[{days: 2, hours: 3, minutes: 4, months: 1, seconds: 5, weekdays: 5, years: 2015, zoneid: 'EET'}, {days: 2, months: 1, weekdays: 5, years: 2015, zoneid: 'EET'}, {}]"),
    ("apoc.date.convertFormat", "RETURN [apoc.date.convertFormat('2020-11-04', 'date', 'basic_date'), apoc.date.convertFormat('2020-11-04T22', 'date_hour', 'date_hour_minute'), apoc.date.convertFormat('Tue, 14 May 2019 14:52:06 -0400', 'rfc_1123_date_time', 'iso_date_time'), apoc.date.convertFormat('2019-05-14T14:52:06', 'iso_local_date_time'), apoc.date.convertFormat(null, 'date')]", "['20201104', '2020-11-04T22:00', '2019-05-14T14:52:06-04:00', '2019-05-14', null]"),
    ("apoc.date.toYears", "RETURN [apoc.date.toYears(31536000000), apoc.date.toYears('2012-12-23 23:59:59'), apoc.date.toYears('2012-12-23', 'yyyy-MM-dd') < apoc.date.toYears('2012-12-23 23:59:59')]", "[1.0, 2013.0082191463723, true]"),
    ("apoc.temporal.toZonedTemporal", "RETURN [apoc.temporal.toZonedTemporal('2012-12-23 23:59:59', 'yyyy-MM-dd HH:mm:ss'), apoc.temporal.toZonedTemporal('2012-12-23 23:59:59', 'yyyy-MM-dd HH:mm:ss', '+04:30'), apoc.temporal.toZonedTemporal('2012-12-23 23:59:59', 'yyyy-MM-dd HH:mm:ss', 'Pacific/Auckland'), apoc.temporal.toZonedTemporal('2012-12-23', 'yyyy-MM-dd')]", "[2012-12-23T23:59:59Z[UTC], 2012-12-24T04:29:59+04:30, 2012-12-23T23:59:59+13:00[Pacific/Auckland], 2012-12-23T00:00Z[UTC]]"),
    ("apoc.xml.parse", "WITH '<?xml version=\"1.0\"?><table><tr><td><img src=\"pix/logo-tl.gif\"></img></td></tr></table>' AS xml RETURN [apoc.xml.parse(xml), apoc.xml.parse(xml, '/', null, true), apoc.xml.parse('<root><text>text0<mixed/> text1</text><text><![CDATA[\n text as cdata\n ]]></text></root>'), apoc.xml.parse('<catalog><book id=\"bk102\"><title>Midnight Rain</title></book><book id=\"bk103\"><author>Corets, Eva</author><title>Maeve Ascendant</title></book></catalog>', '/catalog/book[title=\"Maeve Ascendant\"]/.'), apoc.xml.parse('<a/>', '/b')]", "[{_children: [{_children: [{_children: [{_type: 'img', src: 'pix/logo-tl.gif'}], _type: 'td'}], _type: 'tr'}], _type: 'table'}, {_table: [{_tr: [{_td: [{_type: 'img', src: 'pix/logo-tl.gif'}], _type: 'td'}], _type: 'tr'}], _type: 'table'}, {_children: [{_children: [{_type: 'mixed'}, 'text0', 'text1'], _type: 'text'}, {_text: 'text as cdata', _type: 'text'}], _type: 'root'}, {_children: [{_text: 'Corets, Eva', _type: 'author'}, {_text: 'Maeve Ascendant', _type: 'title'}], _type: 'book', id: 'bk103'}, null]"),
    // ---- HdrHistogram aggregations: APOC's tests (HdrHistogram 2.1.9's buckets) ----
    ("apoc.agg.percentiles", "UNWIND [0, 1, 1, 2, 2, 2, 3] AS v RETURN [apoc.agg.percentiles(v, [0.5, 0.95]), apoc.agg.percentiles(CASE WHEN v = 2 THEN 2.0 ELSE v END, [0.5, 0.95]) = [2.0000076293945312, 3.0000076293945312]]", "[[2, 3], true]"),
    ("apoc.agg.statistics", "UNWIND [0, 1, 1, 2, 2, 2, 3] AS v WITH apoc.agg.statistics(v, [0.5, 0.95]) AS ints, apoc.agg.statistics(CASE WHEN v = 2 THEN 2.0 ELSE v END, [0.5]) AS floats RETURN [ints, [floats.min, floats.max, floats.minNonZero, floats.total, floats.mean, floats.stdev, floats['0.5'] = 2.0000076293945312]]", "[{0.5: 2, 0.95: 3, max: 3, mean: 1.5714285714285714, min: 0, minNonZero: 1.0, stdev: 0.9035079029052512, total: 7}, [0, 3, 1.0, 7, 1.5714329310825892, 0.9035111771858774, true]]"),
    // ---- compression: APOC's tests (GZIP and DEFLATE byte for byte; every algorithm and
    // charset round-trips) ----
    ("apoc.util.compress", "RETURN [apoc.util.compress('Test', {compression: 'GZIP'}), apoc.util.compress('Test', {compression: 'DEFLATE'}), apoc.util.compress('Test', {compression: 'NONE'}), apoc.util.compress('Test') = apoc.util.compress('Test', {compression: 'GZIP', charset: 'UTF-8'})]", "[0x1f8b08000000000000ff0b492d2e010032d14d7804000000, 0x789c0b492d2e010003dd01a1, 0x54657374, true]"),
    ("apoc.util.decompress", "WITH 'Mätrix, wie „schön“ ' + reduce(s = '', i IN range(1, 50) | s + 'ab') AS t UNWIND ['GZIP', 'DEFLATE', 'BZIP2', 'BLOCK_LZ4', 'FRAMED_SNAPPY', 'NONE'] AS algo UNWIND ['UTF-8', 'UTF-16', 'ISO-8859-1'] AS cs WITH t, algo, cs, apoc.util.compress(t, {compression: algo, charset: cs}) AS b RETURN collect(apoc.util.decompress(b, {compression: algo, charset: cs}) = CASE cs WHEN 'ISO-8859-1' THEN replace(replace(t, '„', '?'), '“', '?') ELSE t END)", "[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]"),
    // ---- apoc.number: APOC's tests (exact arithmetic, Java DecimalFormat) ----
    ("apoc.number.exact.add", "RETURN [apoc.number.exact.add('1213669989', '1238126387'), apoc.number.exact.add(null, '1'), apoc.number.exact.add('1.10', '-2.1')]", "['2451796376', null, '-1.00']"),
    ("apoc.number.exact.sub", "RETURN apoc.number.exact.sub('1238126387', '1213669989')", "'24456398'"),
    ("apoc.number.exact.mul", "RETURN [apoc.number.exact.mul('550058444', '662557', 15, 'HALF_DOWN'), apoc.number.exact.mul('550058444', '662557', 5, 'HALF_DOWN'), apoc.number.exact.mul('550058444', '662557', 10, 'DOWN')]", "['364445072481308', '364450000000000', '364445072400000']"),
    ("apoc.number.exact.div", "RETURN [apoc.number.exact.div('550058444', '662557', 18, 'HALF_DOWN'), apoc.number.exact.div('1', '8')]", "['830.205467605051339', '0.125']"),
    ("apoc.number.exact.toInteger", "RETURN apoc.number.exact.toInteger('504238974', 5, 'HALF_DOWN')", "504238974"),
    ("apoc.number.exact.toFloat", "RETURN apoc.number.exact.toFloat('50423.1656', 10, null)", "50423.1656"),
    ("apoc.number.exact.toExact", "RETURN apoc.number.exact.toExact(521468545698447)", "521468545698447"),
    ("apoc.number.format", "RETURN [apoc.number.format(12345), apoc.number.format('aaa'), apoc.number.format(12345, '', 'it'), apoc.number.format(12345, '', 'apoc'), apoc.number.format(12345, '#,##0.00;(#,##0.00)'), apoc.number.format(12345, '#,##0.00;(#,##0.00)', 'it'), apoc.number.format(12345.67), apoc.number.format(12345.67, '', 'it'), apoc.number.format(12345.67, '#,##0.00;(#,##0.00)', 'it')]", "['12,345', null, '12.345', null, '12,345.00', '12.345,00', '12,345.67', '12.345,67', '12.345,67']"),
    ("apoc.number.parseInt", "RETURN [apoc.number.parseInt('12,345'), apoc.number.parseInt('12.345', '', 'it'), apoc.number.parseInt('12,345', '#,##0.00;(#,##0.00)'), apoc.number.parseInt('aaa'), apoc.number.parseInt(null)]", "[12345, 12345, 12345, null, null]"),
    ("apoc.number.parseFloat", "RETURN [apoc.number.parseFloat('12,345.67'), apoc.number.parseFloat('12.345,67', '', 'it'), apoc.number.parseFloat('aaa')]", "[12345.67, 12345.67, null]"),
];

#[test]
fn apoc_functions_give_the_documented_values() {
    let failures = common::first_column_mismatches(SETUP, EXAMPLES);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn apoc_errors_and_nulls() {
    let mut g = common::graph(SETUP);
    let e = grape::engine::run(
        &mut g,
        "RETURN apoc.util.validatePredicate(true, 'Bad value %s at %d', ['x', 3])",
        &grape::engine::Params::new(),
    )
    .unwrap_err();
    assert!(e.message.ends_with("Bad value x at 3"), "{}", e.message);
    let e = grape::engine::run(
        &mut g,
        "RETURN apoc.map.get({a: 1}, 'b')",
        &grape::engine::Params::new(),
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("Key b is not of one of the existing keys [a]"),
        "{}",
        e.message
    );
    // Hostile sizes end with an error, not a crash or an exhausted machine.
    for (query, message) in [
        ("RETURN apoc.coll.fill('x', 100000000)", "cannot fill"),
        ("RETURN apoc.text.random(-1)", "invalid length"),
        ("RETURN apoc.map.unflatten({`a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a`: 1})", "deeper than 500"),
        ("RETURN apoc.text.split('x', '(')", "PatternSyntaxException"),
        ("RETURN apoc.number.exact.add('1e999999999', '1')", "over grape's limit"),
        ("RETURN apoc.number.exact.div('1', '3', 2000000000)", "over grape's limit"),
        ("RETURN apoc.cypher.runFirstColumnSingle('CREATE (n) RETURN n', {})", "read-only"),
        ("RETURN apoc.map.updateTree({}, 'id', [[1]])", "Wrong data list entry: [1]"),
        (
            "CREATE (n {prop: '{\"a\": {\"b\": 1}}'}) RETURN apoc.convert.getJsonPropertyMap(n, 'prop', '$.a', ['ALWAYS_RETURN_LIST'])",
            "not possible to use ALWAYS_RETURN_LIST",
        ),
        ("RETURN apoc.json.path('{a: 1}', '$.a', ['NOPE'])", "Invalid pathOptions"),
        ("RETURN apoc.xml.parse('<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>')", "DOCTYPE are not allowed"),
        ("RETURN apoc.xml.parse('<a><b></a>')", "SAXParseException"),
        (
            "RETURN apoc.util.decompress(apoc.util.compress('Test'), {compression: 'DEFLATE'})",
            "java.io.IOException",
        ),
        (
            "WITH reduce(s = 'a', i IN range(1, 17) | s + s) AS t RETURN apoc.util.decompress(apoc.util.compress(t))",
            "compression bomb",
        ),
        ("RETURN apoc.util.compress('x', {compression: 'ZIP'})", "No enum constant apoc.util.CompressionAlgo.ZIP"),
        (
            "WITH 'RETURN apoc.cypher.runFirstColumnSingle($q, {q: $q}) AS x' AS q RETURN apoc.cypher.runFirstColumnSingle(q, {q: q})",
            "nest deeper than 8 levels",
        ),
        ("RETURN apoc.number.exact.div('1', '3')", "Non-terminating decimal expansion"),
        ("RETURN apoc.number.exact.mul('2', '3', 2, 'SIDEWAYS')", "No enum constant java.math.RoundingMode.SIDEWAYS"),
        ("RETURN size(apoc.coll.combinations(range(1, 40), 1, 40))", "Memory"),
        (
            "UNWIND range(1, 10000000) AS i RETURN count(apoc.create.vNode(['V'], {i: i, s: 'some text'}))",
            "Memory",
        ),
    ] {
        let mut opts = grape::engine::Options::default();
        opts.limits.max_memory = Some(64 << 20);
        opts.limits.timeout = Some(std::time::Duration::from_secs(5));
        let e = grape::engine::run_with(&mut g, query, &grape::engine::Params::new(), &opts)
            .unwrap_err();
        assert!(
            e.message.contains(message) || e.detail.is_some_and(|d| d.name().contains(message)),
            "{query}: {e}"
        );
    }
    assert_eq!(
        common::rows(
            &mut g,
            "RETURN apoc.coll.sum(null) IS NULL, apoc.text.join(null, ','), apoc.coll.contains(null, 1), apoc.map.merge(null, {a: 1})"
        ),
        // APOC 5.26 on the Neo4j oracle: a null first map merges as an empty one.
        ["true | null | false | {a: 1}"]
    );
}

#[test]
fn every_apoc_function_grape_runs_has_an_example() {
    let apoc: Vec<&str> = grape::catalogue::functions()
        .iter()
        .filter(|f| f.name.starts_with("apoc."))
        .map(|f| f.name)
        .collect();
    assert_eq!(apoc.len(), 246, "APOC core's functions in the catalogue");
    let run: Vec<&&str> = apoc
        .iter()
        .filter(|f| grape::engine::function_is_implemented(f))
        .collect();
    for f in &run {
        assert!(
            EXAMPLES.iter().any(|(e, _, _)| e.eq_ignore_ascii_case(f)),
            "{f} runs but has no example"
        );
    }
    for (e, _, _) in EXAMPLES {
        assert!(
            apoc.iter().any(|f| f.eq_ignore_ascii_case(e)),
            "{e} is not in the catalogue"
        );
    }
    eprintln!(
        "grape runs {} of APOC core's {} functions",
        run.len(),
        apoc.len()
    );
    // One that is not run yet is refused before anything runs, as not supported.
    let mut g = common::graph(SETUP);
    if let Some(missing) = apoc
        .iter()
        .find(|f| !grape::engine::function_is_implemented(f))
    {
        let e = grape::engine::run(
            &mut g,
            &format!("MATCH (n) CREATE (:Touched) RETURN {missing}(n)"),
            &grape::engine::Params::new(),
        )
        .unwrap_err();
        assert!(
            e.message.contains("not supported"),
            "{missing}: {}",
            e.message
        );
        assert_eq!(
            common::rows(&mut g, "MATCH (t:Touched) RETURN count(t)"),
            ["0"]
        );
    }
}

#[test]
fn apoc_merge_node_row_after_row_finds_what_equals_its_identity() {
    // Enough rows that the lookups of (M, k) pay for an index: the nodes earlier rows made
    // are found through it, `1.0` equals `1`, every identifying property and label counts.
    let mut g = grape::graph::Graph::new();
    let run = |g: &mut grape::graph::Graph, q: &str| {
        grape::engine::run(g, q, &grape::engine::Params::new()).unwrap()
    };
    run(
        &mut g,
        "CREATE (:M:Other {k: 1.0, t: 'x'}), (:M {k: 5, t: 'y'}), (:Other {k: 7, t: 'x'})",
    );
    let t = run(
        &mut g,
        "UNWIND range(1, 3000) AS i \
         CALL apoc.merge.node(['M'], {k: i % 300, t: 'x'}, {c: 1}, {seen: true}) \
         YIELD node RETURN count(DISTINCT node) AS n",
    );
    assert_eq!(common::display_rows(&t), ["300"]);
    assert_eq!(t.stats.nodes_created, 299);
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (m:M) RETURN count(*), count(m.c), count(m.seen), \
             sum(CASE WHEN m.k = 1 THEN 1 ELSE 0 END)"
        ),
        ["301 | 299 | 300 | 1"]
    );
    assert_eq!(
        common::rows(&mut g, "MATCH (o:Other) RETURN o.k ORDER BY o.k"),
        ["1.0", "7"]
    );
}

#[test]
fn apoc_writing_procedures_build_graphs() {
    let mut g = grape::graph::Graph::new();
    let run = |g: &mut grape::graph::Graph, q: &str| {
        grape::engine::run(g, q, &grape::engine::Params::new()).unwrap()
    };
    // apoc.merge.node: created once, matched after; onCreate and onMatch properties.
    let t = run(
        &mut g,
        "UNWIND ['Alice', 'Alice', 'Bob'] AS name \
         CALL apoc.merge.node(['Person', 'Human'], {name: name}, {created: true}, {seen: true}) \
         YIELD node RETURN count(DISTINCT node) AS n",
    );
    assert_eq!(common::display_rows(&t), ["2"]);
    assert_eq!((t.stats.nodes_created, t.stats.labels_added), (2, 4));
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (p:Person:Human) RETURN p.name, p.created, p.seen ORDER BY p.name"
        ),
        ["'Alice' | true | true", "'Bob' | true | null"]
    );
    // apoc.merge.relationship: one relationship per (start, type, identifying properties, end).
    let t = run(
        &mut g,
        "MATCH (a:Person {name: 'Alice'}), (b:Person {name: 'Bob'}) \
         UNWIND [1, 2] AS i \
         CALL apoc.merge.relationship(a, 'KNOWS', {since: 2010}, {weight: i}, b, {again: i}) \
         YIELD rel RETURN count(DISTINCT rel) AS n",
    );
    assert_eq!(common::display_rows(&t), ["1"]);
    assert_eq!(t.stats.relationships_created, 1);
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (:Person {name: 'Alice'})-[r:KNOWS]->(:Person {name: 'Bob'}) \
             RETURN r.since, r.weight, r.again"
        ),
        ["2010 | 1 | 2"]
    );
    // Labels and properties as data.
    let t = run(
        &mut g,
        "MATCH (p:Person) WITH collect(p) AS people \
         CALL apoc.create.addLabels(people, ['Employee']) YIELD node \
         CALL apoc.create.setProperty(node, 'team', 'graph') YIELD node AS same \
         RETURN count(same) AS n",
    );
    assert_eq!(common::display_rows(&t), ["2"]);
    assert_eq!(t.stats.labels_added, 2);
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (p:Employee {team: 'graph'}) \
             CALL apoc.create.setLabels(p, ['Person']) YIELD node \
             RETURN labels(node) AS l ORDER BY node.name"
        ),
        ["['Person']", "['Person']"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.create.node(['City'], {name: 'Oslo'}) YIELD node AS c \
             WITH c MATCH (a:Person {name: 'Alice'}) \
             CALL apoc.create.relationship(a, 'LIVES_IN', {since: 2020}, c) YIELD rel \
             RETURN type(rel), rel.since, endNode(rel).name"
        ),
        ["'LIVES_IN' | 2020 | 'Oslo'"]
    );
    // Errors as APOC raises them, and a failed statement leaves nothing behind.
    for (query, message) in [
        (
            "CALL apoc.merge.node(['Person'], {}, {}, {}) YIELD node RETURN node",
            "at least one identifying property",
        ),
        (
            "CALL apoc.merge.node(['Person'], {name: null}) YIELD node RETURN node",
            "Cannot merge node using null property value for name",
        ),
        (
            "CALL apoc.create.node(['X'], {bad: {nested: 1}}) YIELD node RETURN node",
            "Failed to invoke procedure `apoc.create.node`: Caused by: java.lang.IllegalArgumentException: [{nested=1}:java.util.HashMap] is not a supported property value",
        ),
        (
            "CALL apoc.create.node(['X'], {bad: [1, 2.5]}) YIELD node RETURN node",
            "Caused by: java.lang.ArrayStoreException: arraycopy: element type mismatch: can not cast one of the elements of java.lang.Object[] to the type of the destination array, java.lang.Long",
        ),
    ] {
        let before = g.node_count();
        let e = grape::engine::run(&mut g, query, &grape::engine::Params::new()).unwrap_err();
        assert!(e.message.contains(message), "{query}: {}", e.message);
        assert_eq!(g.node_count(), before);
    }
    // Constraints hold for writes through APOC too.
    run(
        &mut g,
        "CREATE CONSTRAINT city_name FOR (c:City) REQUIRE c.name IS UNIQUE",
    );
    let e = grape::engine::run(
        &mut g,
        "CALL apoc.create.node(['City'], {name: 'Oslo'}) YIELD node RETURN node",
        &grape::engine::Params::new(),
    )
    .unwrap_err();
    assert_eq!(
        e.code(),
        "Neo.ClientError.Schema.ConstraintValidationFailed"
    );
    // A read-only run refuses them, as it refuses CREATE.
    let e = grape::engine::run_read(
        &g,
        "CALL apoc.create.node(['City'], {name: 'Rome'}) YIELD node RETURN node",
        &grape::engine::Params::new(),
        &grape::engine::Options::default(),
    )
    .unwrap_err();
    assert!(!e.message.is_empty());
    assert!(grape::engine::is_updating(
        &grape::syntax::parse("CALL apoc.merge.node(['A'], {id: 1}) YIELD node RETURN node")
            .unwrap()
    ));
}

#[test]
fn apoc_meta_graph_gives_virtual_nodes_and_relationships() {
    let mut g = common::graph(SETUP);
    assert_eq!(
        common::rows(
            &mut g,
            "CYPHER 25 CALL apoc.meta.graph() YIELD nodes, relationships \
             RETURN [n IN nodes | [labels(n)[0], n.name, n.count]] AS ns, \
             [r IN relationships | [startNode(r).name, type(r), r.type, r.count, endNode(r).name]] AS rs"
        ),
        [
            "[['Movie', 'Movie', 1], ['Person', 'Person', 2]] | \
             [['Person', 'KNOWS', 'KNOWS', 1, 'Person'], ['Person', 'LIKES', 'LIKES', 1, 'Movie']]"
        ]
    );
    // Neo4j 5.26 reads none of their properties in Cypher (the oracle).
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.meta.graph() YIELD nodes UNWIND nodes AS n \
             RETURN labels(n)[0], n.name, properties(n) ORDER BY labels(n)[0]"
        ),
        ["'Movie' | null | {}", "'Person' | null | {}"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.meta.subGraph({labels: ['Person'], rels: ['KNOWS']}) YIELD nodes, relationships \
             RETURN size(nodes), size(relationships)"
        ),
        ["1 | 1"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.meta.stats() YIELD labelCount, relTypeCount, nodeCount, relCount, labels, relTypesCount \
             RETURN labelCount, relTypeCount, nodeCount, relCount, labels, relTypesCount"
        ),
        ["2 | 2 | 3 | 2 | {Movie: 1, Person: 2} | {KNOWS: 1, LIKES: 1}"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.schema.properties.distinct('Person', 'name') YIELD value RETURN value"
        ),
        ["['Alice', 'Bob']"]
    );
    // Returned to a client, virtual elements come with their labels and properties.
    let t = grape::engine::run(
        &mut g,
        "CALL apoc.meta.graph() YIELD relationships RETURN relationships[0] AS r",
        &grape::engine::Params::new(),
    )
    .unwrap();
    let json = t.to_json().to_string();
    assert!(json.contains("\"type\":\"KNOWS\""), "{json}");
    assert!(json.contains("\"count\":1"), "{json}");
    // They are not in the graph, and cannot be written.
    assert_eq!(common::rows(&mut g, "MATCH (n) RETURN count(n)"), ["3"]);
    let e = grape::engine::run(
        &mut g,
        "CALL apoc.meta.graph() YIELD nodes WITH nodes[0] AS v SET v.x = 1 RETURN v",
        &grape::engine::Params::new(),
    )
    .unwrap_err();
    assert!(e.message.contains("cannot be written"), "{}", e.message);
}

#[test]
fn apoc_schema_checks_see_indexes_and_constraints() {
    let mut g = common::graph(SETUP);
    common::rows(
        &mut g,
        "CREATE INDEX person_name FOR (p:Person) ON (p.name)",
    );
    common::rows(
        &mut g,
        "CREATE CONSTRAINT knows_since FOR ()-[k:KNOWS]-() REQUIRE k.since IS NOT NULL",
    );
    assert_eq!(
        common::rows(
            &mut g,
            "RETURN apoc.schema.node.indexExists('Person', ['name']), \
             apoc.schema.relationship.constraintExists('KNOWS', ['since']), \
             apoc.schema.node.indexExists('Person', ['age'])"
        ),
        ["true | true | false"]
    );
}

/// APOC's sorts and extremes as APOC 5.26 runs them on the Neo4j oracle (answers read off
/// Neo4j 5.26.30 with APOC 5.26.19): Java's TimSort over the Java objects (its exceptions for
/// mixed classes and nulls, for the pair Java compares first, in lists past TimSort's 32
/// elements too), `sortMaps`' comparator (numbers by value, anything else by its Java text,
/// descending as the comparator reversed), `sortMulti`'s `subList` bounds, `max`/`min` as
/// Cypher's `>`/`<` in a reduce.
#[test]
fn apoc_sorts_as_apoc_on_neo4j() {
    let mut g = common::graph(SETUP);
    for (query, want) in [
        ("RETURN apoc.coll.sort([0.0, -0.0, 0.0/0.0, -1.0])", "[-1.0, -0.0, 0.0, NaN]"),
        ("RETURN apoc.coll.sort([null])", "[null]"),
        ("RETURN apoc.coll.sort([true, false])", "[false, true]"),
        (
            "RETURN [d IN apoc.coll.sort([datetime('2020-01-01T00:00+01:00'), datetime('2020-01-01T00:00Z'), datetime('2019-12-31T23:00Z')]) | toString(d)]",
            "['2019-12-31T23:00:00Z', '2020-01-01T00:00:00+01:00', '2020-01-01T00:00:00Z']",
        ),
        ("RETURN apoc.coll.max([1, 2.5, 'a', true])", "2.5"),
        ("RETURN apoc.coll.min([1, 2.5, 'a', true])", "1"),
        ("RETURN apoc.coll.max([[1], 'a', 2])", "[1]"),
        ("RETURN apoc.coll.max([{a: 1}, 2])", "{a: 1}"),
        ("RETURN apoc.coll.min([null, 'b', 'a'])", "'a'"),
        ("RETURN apoc.coll.max([1.0, 1])", "1.0"),
        ("RETURN apoc.coll.max([0.0/0.0, 1])", "NaN"),
        ("RETURN apoc.coll.max([1, 0.0/0.0])", "1"),
        (
            "RETURN [m IN apoc.coll.sortMaps([{a: '10'}, {a: 9}, {a: '9'}, {a: 'a'}, {a: 9.5}, {a: null}], '^a') | m.a]",
            "[null, '10', 9, '9', 9.5, 'a']",
        ),
        (
            "RETURN [m IN apoc.coll.sortMaps([{a: 1, i: 1}, {a: 2, i: 2}, {a: 1, i: 3}], 'a') | m.i]",
            "[2, 1, 3]",
        ),
        (
            "RETURN [m IN apoc.coll.sortMaps([{a: [1, 2]}, {a: [1]}, {a: [0, 5]}], '^a') | m.a]",
            "[[0, 5], [1, 2], [1]]",
        ),
        (
            "RETURN apoc.coll.sortMulti([{a: 1}, {a: 2, b: 3}], ['b', 'a', 'b'], -1, 1)",
            "[{a: 1}]",
        ),
        ("RETURN apoc.text.toUpperCase('FOO bar')", "'F_O_O_BAR'"),
        ("RETURN apoc.text.toUpperCase('ÄpfelBaum')", "'PFEL_BAUM'"),
        ("RETURN apoc.text.toUpperCase('a1B2')", "'A1_B2'"),
        ("RETURN apoc.temporal.format('x', 'n n')", "'x'"),
        ("RETURN apoc.temporal.format(localtime('12:34:56.123456789'), 'n')", "'123456789'"),
        ("RETURN apoc.temporal.format(localtime('12:34:56.123456789'), 'N')", "'45296123456789'"),
        ("RETURN apoc.temporal.format(localtime('12:34:56.123'), 'nnnnnnnnnnn')", "'00123000000'"),
    ] {
        assert_eq!(common::rows(&mut g, query), [want], "{query}");
    }
    for (query, message) in [
        ("RETURN apoc.coll.sort([1, 2.5, 0])", "java.lang.ClassCastException: class java.lang.Long cannot be cast to class java.lang.Double (java.lang.Long and java.lang.Double are in module java.base of loader 'bootstrap')"),
        ("RETURN apoc.coll.sort(range(1, 40) + ['a'])", "class java.lang.Long cannot be cast to class java.lang.String"),
        ("RETURN apoc.coll.sort([1, null])", "because \"a[runHi]\" is null"),
        ("RETURN apoc.coll.sort([null, 1])", "because \"anotherLong\" is null"),
        ("RETURN apoc.coll.sort([1, duration('P1D')])", "class java.lang.Long cannot be cast to class org.neo4j.values.storable.DurationValue (java.lang.Long is in module java.base of loader 'bootstrap'; org.neo4j.values.storable.DurationValue is in unnamed module of loader 'app')"),
        ("RETURN apoc.coll.sort([1, datetime('2020-01-01T00:00Z')])", "cannot be cast to class java.time.chrono.ChronoZonedDateTime"),
        ("RETURN apoc.coll.sort([{a: 1}, {a: 2}])", "class java.util.HashMap cannot be cast to class java.lang.Comparable"),
        ("RETURN apoc.coll.sortMaps([{a: 1}], '')", "java.lang.StringIndexOutOfBoundsException: String index out of range: 0"),
        ("RETURN apoc.coll.sortMulti([{a: 1}, {a: 'x'}], ['a'])", "class java.lang.Long cannot be cast to class java.lang.String"),
        ("RETURN apoc.coll.sortMulti([{a: 1}, {a: 'x'}], ['^a'])", "class java.lang.Long cannot be cast to class java.lang.String"),
        ("RETURN apoc.coll.sortMulti([{a: 1}, {a: 2, b: 3}], ['b'], -1, 3)", "java.lang.IllegalArgumentException: fromIndex(3) > toIndex(2)"),
        ("RETURN apoc.coll.sortMulti([{a: 1}, {a: 2, b: 3}], ['b'], -2, 0)", "fromIndex(0) > toIndex(-2)"),
        ("RETURN apoc.coll.sortMulti([{a: 1}, {a: 2, b: 3}], ['b'], 1, 2)", "java.lang.IndexOutOfBoundsException: toIndex = 3"),
        ("RETURN apoc.temporal.format('x', 'b')", "Available formats are:"),
        ("RETURN apoc.temporal.format('x', \"'\")", "Available formats are:"),
    ] {
        let e = grape::engine::run(&mut g, query, &grape::engine::Params::new()).unwrap_err();
        assert!(e.message.contains(message), "{query}: {}", e.message);
        assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed", "{query}");
    }
}
