//! POLE loads from the Data Importer folder with the counts the dataset documents.

mod common;

use grape::graph::import::{load_importer_dir, ImporterTypes};
use grape::value::Value;

#[test]
fn pole_loads_with_documented_counts_in_both_type_modes() {
    let Some(shared) = common::shared_dir("pole") else {
        return;
    };
    let dir = shared.join("data/pole");
    let g = load_importer_dir(&dir, ImporterTypes::Strings).expect("POLE loads");
    assert_eq!(g.node_count(), 61_521);
    assert_eq!(g.relationship_count(), 105_840);
    // KNOWS_SN has no mapping in the model and still loads; INVOLVED_IN loads once.
    let count = |t: &str| {
        g.relationship_ids()
            .filter(|r| g.rel_type(*r).as_deref() == Some(t))
            .count()
    };
    let lines = |f: &str| {
        std::fs::read_to_string(dir.join(f))
            .unwrap()
            .lines()
            .count()
            - 1
    };
    assert_eq!(
        count("KNOWS_SN"),
        lines("crime-investigation.relationships.KNOWS_SN.csv")
    );
    assert_eq!(
        count("INVOLVED_IN"),
        lines("crime-investigation.relationships.INVOLVED_IN.csv")
    );
    // Labels come from the CSV (`Area`, not the model's `AREA`).
    assert!(g
        .sym("Area")
        .is_some_and(|a| !g.nodes_with_label(a).is_empty()));
    // Strings mode: year stays a string, latitude is a float, id is an integer.
    let vehicle = g.sym("Vehicle").unwrap();
    let v = g.nodes_with_label(vehicle)[0];
    let props = g.node_properties(v);
    assert!(matches!(props.get("year"), Some(Value::String(_))));
    assert!(matches!(props.get("id"), Some(Value::Int(_))));
    let loc = g.nodes_with_label(g.sym("Location").unwrap())[0];
    assert!(matches!(
        g.node_properties(loc).get("latitude"),
        Some(Value::Float(_))
    ));
    // Crime's CSV column `id` is the property `source_id`.
    let crime = g.nodes_with_label(g.sym("Crime").unwrap())[0];
    assert!(matches!(
        g.node_properties(crime).get("source_id"),
        Some(Value::String(_))
    ));

    // The model's schema, as Neo4j's Data Importer creates it: 11 uniqueness constraints with
    // their backing indexes, and 12 more RANGE indexes.
    let mut g = g;
    let p = grape::engine::Params::new();
    let t = grape::engine::run(
        &mut g,
        "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties WHERE name = 'id_Crime_uniq'",
        &p,
    )
    .unwrap();
    assert_eq!(
        grape::engine::run(&mut g, "SHOW CONSTRAINTS", &p)
            .unwrap()
            .rows
            .len(),
        11
    );
    assert_eq!(t.rows.len(), 1);
    assert_eq!(t.rows[0][1].as_str(), Some("UNIQUENESS"));
    let idx = grape::engine::run(
        &mut g,
        "SHOW INDEXES YIELD name, type, owningConstraint WHERE owningConstraint IS NULL AND type = 'RANGE' RETURN count(*) AS n",
        &p,
    )
    .unwrap();
    assert!(matches!(idx.rows[0][0], Value::Int(12)), "{:?}", idx.rows);
    let all = grape::engine::run(&mut g, "SHOW INDEXES", &p).unwrap();
    // (and the two LOOKUP indexes every Neo4j database starts with)
    assert_eq!(all.rows.len(), 25);

    let m = load_importer_dir(&dir, ImporterTypes::Model).expect("POLE loads with model types");
    let v = m.nodes_with_label(m.sym("Vehicle").unwrap())[0];
    assert!(matches!(
        m.node_properties(v).get("year"),
        Some(Value::Int(_))
    ));
    assert_eq!(m.node_count(), 61_521);
}
