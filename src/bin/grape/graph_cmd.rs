//! `grape graph stats` and `grape graph save`.

use std::process::ExitCode;

pub(super) fn cmd_graph_stats(
    graph: &str,
    types: grape::graph::import::ImporterTypes,
    json: bool,
) -> ExitCode {
    let started = std::time::Instant::now();
    let g = match grape::engine::load_graph(graph, types) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let load_s = started.elapsed().as_secs_f64();
    let loaded = g.memory_stats();
    // The compressed adjacency is built on the first expansion: count it as a queried graph
    // holds it.
    g.build_adjacency();
    let queried = g.memory_stats();
    let elements = (queried.nodes + queried.relationships).max(1);
    if json {
        let v = serde_json::json!({
            "graph": graph,
            "load_seconds": load_s,
            "loaded": loaded,
            "queried": queried,
            "bytes_per_element": queried.total_bytes as f64 / elements as f64,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let per = |b: usize, n: usize| if n == 0 { 0.0 } else { b as f64 / n as f64 };
    println!("{graph}: loaded in {load_s:.2} s");
    println!(
        "{} nodes, {} relationships, {} labels on nodes, {} properties",
        queried.nodes, queried.relationships, queried.labels, queried.properties
    );
    println!("{:<16} {:>10} {:>14}", "part", "MiB", "bytes/element");
    let rows = [
        ("nodes", queried.node_bytes, queried.nodes),
        (
            "relationships",
            queried.relationship_bytes,
            queried.relationships,
        ),
        ("labels", queried.label_bytes, queried.nodes),
        ("properties", queried.property_bytes, queried.properties),
        ("adjacency", queried.adjacency_bytes, queried.relationships),
        ("indexes", queried.index_bytes, elements),
        ("symbols", queried.symbol_bytes, elements),
    ];
    for (name, bytes, n) in rows {
        println!("{name:<16} {:>10.1} {:>14.1}", mib(bytes), per(bytes, n));
    }
    println!(
        "{:<16} {:>10.1} {:>14.1}",
        "total",
        mib(queried.total_bytes),
        per(queried.total_bytes, elements)
    );
    println!(
        "(per element: nodes and labels per node, relationships and adjacency per relationship, properties per property, the total per node or relationship)"
    );
    ExitCode::SUCCESS
}

pub(super) fn cmd_graph_save(
    graph: &str,
    out: &std::path::Path,
    types: grape::graph::import::ImporterTypes,
) -> ExitCode {
    if out.extension().and_then(|e| e.to_str()) != Some("grape") {
        eprintln!(
            "error: {}: a snapshot's name ends in .grape (that is how commands recognise it)",
            out.display()
        );
        return ExitCode::from(2);
    }
    let g = match grape::engine::load_graph(graph, types) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes = match grape::graph::import::snapshot_bytes(&g) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = grape::dataset::write_atomically(out, &bytes) {
        eprintln!("error: writing {}: {e}", out.display());
        return ExitCode::from(2);
    }
    println!(
        "saved {} nodes and {} relationships to {} ({:.1} MiB)",
        g.node_count(),
        g.relationship_count(),
        out.display(),
        bytes.len() as f64 / (1024.0 * 1024.0)
    );
    ExitCode::SUCCESS
}
