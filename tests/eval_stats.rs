//! The significance tests of `grape compare` against SciPy: McNemar's exact test equals
//! `scipy.stats.binomtest` (two-sided, p = ½) on a grid of discordant counts, and the exact
//! paired permutation test equals `scipy.stats.permutation_test` over every sign pattern.
//! Needs Python with SciPy (`target/pyenv`); skipped loudly without it, unless
//! `GRAPE_REQUIRE_SCIPY=1` (as `.ci/run` sets).

mod common;

use grape::eval::compare::{mcnemar_exact, paired_permutation_p};
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn mcnemar_and_permutation_p_values_equal_scipy() {
    let Some(py) = common::python_with("import scipy.stats", "GRAPE_REQUIRE_SCIPY", "SciPy check")
    else {
        return;
    };
    let mcnemar: Vec<[usize; 2]> = [0usize, 1, 2, 3, 5, 8, 13, 40, 150]
        .iter()
        .flat_map(|&b| [0usize, 1, 4, 9, 21, 60, 170].map(|c| [b, c]))
        .collect();
    // Paired samples with at most 12 non-zero differences (the exact branch).
    let mut paired: Vec<[Vec<f64>; 2]> = Vec::new();
    let mut seed = 7u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as f64 / (1u64 << 31) as f64
    };
    for n in [3usize, 6, 9, 12] {
        let x: Vec<f64> = (0..n).map(|_| (next() * 100.0).round() / 100.0).collect();
        let y: Vec<f64> = x
            .iter()
            .map(|v| ((v + next() * 0.6 - 0.2) * 100.0).round() / 100.0)
            .collect();
        paired.push([x, y]);
    }
    let input = serde_json::json!({"mcnemar": mcnemar, "paired": paired});
    let mut child = Command::new(&py)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/eval_support/stats_check.py"
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the SciPy script failed");
    let want: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (i, [b, c]) in mcnemar.iter().enumerate() {
        let w = want["mcnemar"][i].as_f64().unwrap();
        let got = mcnemar_exact(*b, *c);
        assert!(
            (got - w).abs() <= 1e-12 * w.max(1e-300) + 1e-300,
            "b={b} c={c}: {got} vs {w}"
        );
    }
    for (i, [x, y]) in paired.iter().enumerate() {
        let d: Vec<f64> = x.iter().zip(y).map(|(a, b)| b - a).collect();
        let w = want["paired"][i].as_f64().unwrap();
        let got = paired_permutation_p(&d, 1000, 1);
        assert!((got - w).abs() < 1e-12, "sample {i}: {got} vs {w}");
    }
}
