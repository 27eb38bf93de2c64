//! Spatial values: `point()` in Neo4j's four coordinate reference systems, components,
//! `point.distance` and `point.withinBBox` with the Neo4j manual's values, equality, ordering,
//! grouping, storage as properties (fixtures, constraints) and errors.

mod common;

use grape::engine::{run, Params};

fn one(query: &str) -> Vec<String> {
    let mut g = grape::graph::Graph::new();
    common::rows(&mut g, query)
}

fn error(query: &str) -> grape::engine::ExecError {
    let mut g = grape::graph::Graph::new();
    run(&mut g, query, &Params::new()).unwrap_err()
}

#[test]
fn construction_and_components() {
    assert_eq!(
        one("WITH point({x: 2.3, y: 4.5, crs: 'cartesian'}) AS p \
             RETURN p.x, p.y, p.crs, p.srid, toString(p)"),
        ["2.3 | 4.5 | 'cartesian' | 7203 | 'point({x: 2.3, y: 4.5, crs: \\'cartesian\\'})'"]
    );
    assert_eq!(
        one(
            "WITH point({longitude: 56.7, latitude: 12.78, height: 8}) AS p \
             RETURN p.longitude, p.latitude, p.height, p.x, p.z, p.crs, p.srid"
        ),
        ["56.7 | 12.78 | 8.0 | 56.7 | 8.0 | 'wgs-84-3d' | 4979"]
    );
    assert_eq!(
        one("RETURN point({x: 1, y: 2, z: 3}).crs AS a, point({x: 1, y: 2, srid: 4326}).crs AS b, \
             point({latitude: 1, longitude: 2}).srid AS c, point({x: 1, y: 2, z: 3, crs: 'WGS-84-3D'}).srid AS d"),
        ["'cartesian-3d' | 'wgs-84' | 4326 | 4979"]
    );
    // Null in, null out.
    assert_eq!(
        one("RETURN point(null) IS NULL AS a, point({x: null, y: 1}) IS NULL AS b"),
        ["true | true"]
    );
    assert_eq!(
        one(
            "RETURN valueType(point({x: 1, y: 2})) AS t, point({x: 1, y: 2}) IS :: POINT AS p, \
             1 IS :: POINT AS q"
        ),
        ["'POINT NOT NULL' | true | false"]
    );
}

#[test]
fn distance_and_bounding_boxes_as_the_manual_gives_them() {
    assert_eq!(
        one("WITH point({x: 2.3, y: 4.5, crs: 'cartesian'}) AS p1, \
             point({x: 1.1, y: 5.4, crs: 'cartesian'}) AS p2 \
             RETURN point.distance(p1, p2) AS dist"),
        ["1.5"]
    );
    // Copenhagen and Malmö central stations.
    assert_eq!(
        one(
            "WITH point({longitude: 12.56459, latitude: 55.672874}) AS cph, \
             point({longitude: 12.994341, latitude: 55.611784}) AS mmo \
             RETURN round(point.distance(cph, mmo)) AS travelDistance"
        ),
        ["27842.0"]
    );
    assert_eq!(
        one(
            "RETURN point.distance(point({x: 0, y: 0, z: 0}), point({x: 2, y: 3, z: 6})) AS d, \
             point.distance(point({x: 0, y: 0}), point({latitude: 0, longitude: 0})) AS across, \
             point.distance(null, point({x: 0, y: 0})) AS n"
        ),
        ["7.0 | null | null"]
    );
    assert_eq!(
        one("RETURN point.withinBBox(point({x: 0, y: 0}), point({x: 0, y: 0}), point({x: 10, y: 10})) AS edge, \
             point.withinBBox(point({x: 11, y: 5}), point({x: 0, y: 0}), point({x: 10, y: 10})) AS out, \
             point.withinBBox(point({longitude: 179, latitude: 5}), point({longitude: 170, latitude: 0}), \
               point({longitude: -170, latitude: 10})) AS dateline, \
             point.withinBBox(point({x: 1, y: 1}), point({latitude: 0, longitude: 0}), point({x: 5, y: 5})) AS mixed"),
        ["true | false | true | null"]
    );
}

#[test]
fn equality_ordering_and_grouping() {
    assert_eq!(
        one(
            "RETURN point({x: 1, y: 2}) = point({x: 1.0, y: 2.0}) AS same, \
             point({x: 1, y: 2}) = point({x: 1, y: 2, z: 0}) AS dims, \
             point({x: 1, y: 2}) = point({latitude: 2, longitude: 1}) AS crs, \
             point({x: 1, y: 2}) < point({x: 2, y: 2}) AS lt"
        ),
        ["true | false | false | null"]
    );
    // ORDER BY: points after paths and before temporal values (as the Neo4j 5.26 oracle orders
    // them), by CRS code (WGS-84's 4326 before Cartesian's 7203), then coordinates.
    assert_eq!(
        one("UNWIND [point({latitude: 0, longitude: 0}), 'a', point({x: 2, y: 0}), date('2024-01-01'), \
             point({x: 1, y: 5})] AS v RETURN v ORDER BY v"),
        [
            "point({x: 0.0, y: 0.0, crs: 'wgs-84'})",
            "point({x: 1.0, y: 5.0, crs: 'cartesian'})",
            "point({x: 2.0, y: 0.0, crs: 'cartesian'})",
            "2024-01-01",
            "'a'"
        ]
    );
    assert_eq!(
        one(
            "UNWIND [point({x: 1, y: 2}), point({x: 1.0, y: 2.0}), point({x: 2, y: 1})] AS p \
             RETURN count(DISTINCT p) AS n"
        ),
        ["2"]
    );
}

#[test]
fn points_as_properties_fixtures_and_constraints() {
    let mut g = common::graph(
        "CREATE (:Station {name: 'Copenhagen', loc: point({longitude: 12.56459, latitude: 55.672874})}), \
         (:Station {name: 'Malmo', loc: point({longitude: 12.994341, latitude: 55.611784})}), \
         (:Station {name: 'Lund', loc: point({longitude: 13.18652, latitude: 55.70504})})",
    );
    common::rows(
        &mut g,
        "CREATE CONSTRAINT loc_type FOR (s:Station) REQUIRE s.loc IS :: POINT",
    );
    common::rows(
        &mut g,
        "CREATE POINT INDEX station_loc FOR (s:Station) ON (s.loc)",
    );
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (a:Station {name: 'Copenhagen'}), (b:Station) WHERE b <> a \
             RETURN b.name, round(point.distance(a.loc, b.loc) / 1000) AS km ORDER BY km"
        ),
        ["'Malmo' | 28.0", "'Lund' | 39.0"]
    );
    let e = run(
        &mut g,
        "CREATE (:Station {name: 'Nowhere', loc: 'here'})",
        &Params::new(),
    )
    .unwrap_err();
    assert_eq!(
        e.code(),
        "Neo.ClientError.Schema.ConstraintValidationFailed"
    );
    // A JSON fixture keeps points as {"~point": …} and reads them back equal.
    let json = grape::graph::import::graph_to_json(&g);
    let text = serde_json::to_string(&json).unwrap();
    assert!(
        text.contains("\"~point\":{\"crs\":\"wgs-84\",\"x\":12.56459,\"y\":55.672874}"),
        "{text}"
    );
    let mut back = grape::graph::import::parse_json_fixture(&text, "points.json").unwrap();
    assert_eq!(
        common::rows(
            &mut back,
            "MATCH (s:Station {name: 'Lund'}) \
             RETURN s.loc = point({longitude: 13.18652, latitude: 55.70504}) AS same, s.loc.srid"
        ),
        ["true | 4326"]
    );
    let bad = r#"{"nodes": [{"id": 1, "labels": ["X"], "properties": {"p": {"~point": {"x": 1}}}}], "relationships": []}"#;
    let e = grape::graph::import::parse_json_fixture(bad, "bad.json").unwrap_err();
    assert!(
        e.to_string().contains("is not describing a valid point"),
        "{e}"
    );
    // Lists of points are properties too.
    assert_eq!(
        common::rows(
            &mut g,
            "CREATE (r:Route {stops: [point({x: 0, y: 0}), point({x: 3, y: 4})]}) \
             RETURN point.distance(r.stops[0], r.stops[1]) AS d"
        ),
        ["5.0"]
    );
}

#[test]
fn bad_points_fail_as_neo4j_fails_them() {
    for (query, message) in [
        (
            "RETURN point({x: 1})",
            "A map with keys 'x' is not describing a valid point",
        ),
        (
            "WITH {y: 2} AS m RETURN point(m)",
            "A map with keys 'y' is not describing a valid point",
        ),
        (
            "RETURN point({x: 1, y: 2, crs: 'mars'})",
            "Unknown coordinate reference system: mars",
        ),
        (
            "RETURN point({x: 1, y: 2, z: 3, crs: 'cartesian'})",
            "Cannot create point with 2D coordinate reference system and 3 coordinates",
        ),
        (
            "RETURN point({longitude: 1, latitude: 100})",
            "Valid range for Y coordinate is [-90, 90]",
        ),
        ("RETURN point({x: 1, y: 2, w: 3})", "Unknown key 'w'"),
        (
            "RETURN point({x: 1, y: 2}).latitude",
            "Field: latitude is not available on cartesian point",
        ),
        ("RETURN point({x: 1, y: 2}).z", "Field: z is not available"),
    ] {
        let e = error(query);
        assert!(e.message.contains(message), "{query}: {}", e.message);
    }
}
