use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    for line in s.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["record"] != "query" {
            continue;
        }
        let q = v["source"].as_str().unwrap().to_string();
        let id = v["id"].to_string();
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || match grape::syntax::parse(&q) {
                Ok(a) => {
                    let p = grape::syntax::print(&a, &Default::default());
                    eprintln!("{id} ok {}", p.len());
                }
                Err(e) => eprintln!("{id} err {e}"),
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
