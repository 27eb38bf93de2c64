//! Multi-turn metrics over sessions, as `docs/METRICS.md` defines them.
//!
//! - SEM (session exact match): 1 when every turn of the session has EX = 1, else 0.
//! - CER (chain error rate): over the turns that depend on an earlier turn's result *and* whose
//!   earlier turn failed (EX = 0), the share that fail too. `None` when no turn qualifies.

use std::collections::HashMap;

/// One scored turn of a session.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnOutcome {
    pub turn_id: u32,
    /// The earlier turn whose result this one uses (`depends_on_result_of`).
    pub depends_on: Option<u32>,
    pub ex: f64,
}

/// Session exact match: 1.0 when every turn is exactly right (an empty session is vacuously
/// right).
pub fn sem(turns: &[TurnOutcome]) -> f64 {
    if turns.iter().all(|t| t.ex == 1.0) {
        1.0
    } else {
        0.0
    }
}

/// Counts for CER within one session: (dependent turns whose earlier turn failed, of those the
/// ones that failed). Sum them over sessions and divide for the corpus CER.
pub fn chain_error_counts(turns: &[TurnOutcome]) -> (usize, usize) {
    let by_id: HashMap<u32, f64> = turns.iter().map(|t| (t.turn_id, t.ex)).collect();
    let mut given = 0;
    let mut failed = 0;
    for t in turns {
        let Some(dep) = t.depends_on else { continue };
        // A dependency on a turn that is not in the session (or on itself) is not a chain.
        if dep == t.turn_id {
            continue;
        }
        if by_id.get(&dep).is_some_and(|ex| *ex == 0.0) {
            given += 1;
            if t.ex == 0.0 {
                failed += 1;
            }
        }
    }
    (given, failed)
}

/// Chain error rate over sessions; `None` when no dependent turn follows a failed one.
pub fn cer(sessions: &[Vec<TurnOutcome>]) -> Option<f64> {
    let (given, failed) = sessions
        .iter()
        .map(|s| chain_error_counts(s))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (given > 0).then(|| failed as f64 / given as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t(turn_id: u32, depends_on: Option<u32>, ex: f64) -> TurnOutcome {
        TurnOutcome {
            turn_id,
            depends_on,
            ex,
        }
    }

    #[test]
    fn sem_needs_every_turn_right() {
        assert_eq!(sem(&[t(1, None, 1.0), t(2, Some(1), 1.0)]), 1.0);
        assert_eq!(sem(&[t(1, None, 1.0), t(2, Some(1), 0.0)]), 0.0);
        assert_eq!(sem(&[]), 1.0);
    }

    #[test]
    fn cer_counts_failures_after_failed_dependencies_only() {
        // Turn 2 depends on failed turn 1 and fails; turn 3 depends on failed turn 1 and is
        // right; turn 5 depends on right turn 4 and fails (not counted); turn 6 has no
        // dependency.
        let s = vec![
            t(1, None, 0.0),
            t(2, Some(1), 0.0),
            t(3, Some(1), 1.0),
            t(4, None, 1.0),
            t(5, Some(4), 0.0),
            t(6, None, 0.0),
        ];
        assert_eq!(chain_error_counts(&s), (2, 1));
        assert_eq!(cer(std::slice::from_ref(&s)), Some(0.5));
        // Over two sessions the counts add up: (2, 1) + (1, 1) = 2/3.
        let s2 = vec![t(1, None, 0.0), t(2, Some(1), 0.0)];
        assert!((cer(&[s, s2]).unwrap() - 2.0 / 3.0).abs() < 1e-12);
        // No failed dependency: undefined.
        assert_eq!(cer(&[vec![t(1, None, 1.0), t(2, Some(1), 0.0)]]), None);
    }

    proptest! {
        #[test]
        fn session_metrics_stay_in_range(outcomes in proptest::collection::vec((any::<bool>(), any::<bool>()), 0..20)) {
            let turns: Vec<TurnOutcome> = outcomes
                .iter()
                .enumerate()
                .map(|(i, (ok, dep))| t(i as u32 + 1, (*dep && i > 0).then_some(i as u32), if *ok { 1.0 } else { 0.0 }))
                .collect();
            let s = sem(&turns);
            prop_assert!(s == 0.0 || s == 1.0);
            if let Some(c) = cer(std::slice::from_ref(&turns)) {
                prop_assert!((0.0..=1.0).contains(&c));
            }
            // All right: SEM 1 and no chain errors to count.
            let right: Vec<TurnOutcome> = turns.iter().map(|x| TurnOutcome { ex: 1.0, ..x.clone() }).collect();
            prop_assert_eq!(sem(&right), 1.0);
            prop_assert_eq!(cer(&[right]), None);
        }
    }
}
