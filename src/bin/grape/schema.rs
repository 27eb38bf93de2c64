//! `grape schema convert`.

use super::*;

pub(super) fn cmd_schema_convert(
    from: Option<&str>,
    to: &str,
    input: &Path,
    output: Option<&Path>,
) -> ExitCode {
    let to = match to.parse::<SchemaFormat>() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let schema = match read_schema(input, from) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read the schema: {e}");
            return ExitCode::from(2);
        }
    };
    let written = match schema.write(to) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    match output {
        Some(p) => {
            if let Err(e) = std::fs::write(p, &written.text) {
                eprintln!("error: cannot write {}: {e}", p.display());
                return ExitCode::from(2);
            }
        }
        None => print!("{}", written.text),
    }
    ExitCode::SUCCESS
}
