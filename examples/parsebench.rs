fn main() {
    let text = std::fs::read_to_string("../shared/tck/TCK_SYNTAX.jsonl").unwrap();
    let qs: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["record"] == "query" && v["expectation"] == "accept")
        .map(|v| v["source"].as_str().unwrap().to_string())
        .collect();
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(5);
    let t = std::time::Instant::now();
    let mut ok = 0;
    for _ in 0..n {
        for q in &qs {
            if grape::syntax::parse(q).is_ok() {
                ok += 1;
            }
        }
    }
    let el = t.elapsed().as_secs_f64();
    println!("{ok} ok, {:.0} q/s", (n * qs.len()) as f64 / el);
}
