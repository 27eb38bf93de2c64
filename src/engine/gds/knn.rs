//! GDS's K-nearest neighbours (`gds.knn`), step for step as GDS 2.13 runs it with one thread:
//! random initial neighbours, then iterations that join each node's new and old neighbours
//! (and their reverses, sampled) until few lists change — drawn from Java's
//! `SplittableRandom`, split in GDS's order, so that a given `randomSeed` gives GDS's
//! neighbours. Its generator serves sampled betweenness too.

use super::algo::Tick;
use crate::engine::error::Result;

/// Java's `java.util.SplittableRandom` (and the bounded draws of Java 17's
/// `RandomSupport`).
pub(super) struct SplittableRandom {
    seed: i64,
    gamma: i64,
}

const GOLDEN_GAMMA: i64 = 0x9e37_79b9_7f4a_7c15u64 as i64;

fn mix64(z: i64) -> i64 {
    let z = (z ^ ((z as u64) >> 30) as i64).wrapping_mul(0xbf58_476d_1ce4_e5b9u64 as i64);
    let z = (z ^ ((z as u64) >> 27) as i64).wrapping_mul(0x94d0_49bb_1331_11ebu64 as i64);
    z ^ ((z as u64) >> 31) as i64
}

fn mix32(z: i64) -> i32 {
    let z = (z ^ ((z as u64) >> 33) as i64).wrapping_mul(0x62a9_d9ed_7997_05f5u64 as i64);
    (((z ^ ((z as u64) >> 28) as i64).wrapping_mul(0xcb24_d0a5_c88c_35b3u64 as i64) as u64) >> 32)
        as i32
}

fn mix_gamma(z: i64) -> i64 {
    let z = (z ^ ((z as u64) >> 33) as i64).wrapping_mul(0xff51_afd7_ed55_8ccdu64 as i64);
    let z = (z ^ ((z as u64) >> 33) as i64).wrapping_mul(0xc4ce_b9fe_1a85_ec53u64 as i64);
    let z = (z ^ ((z as u64) >> 33) as i64) | 1;
    let n = (z ^ ((z as u64) >> 1) as i64).count_ones();
    if n < 24 {
        z ^ 0xaaaa_aaaa_aaaa_aaaau64 as i64
    } else {
        z
    }
}

/// Java 17's bounded draws (`RandomSupport.boundedNextInt` / `boundedNextLong`): a power of
/// two masks, anything else rejects draws that would bias the remainder.
macro_rules! bounded {
    ($(#[$doc:meta])* $between:ident, $below:ident, $t:ty, $u:ty, $draw:ident) => {
        $(#[$doc])*
        pub fn $between(&mut self, origin: $t, bound: $t) -> $t {
            let mut r = self.$draw();
            if origin < bound {
                let n = bound.wrapping_sub(origin);
                let m = n.wrapping_sub(1);
                if n & m == 0 {
                    r = (r & m).wrapping_add(origin);
                } else if n > 0 {
                    let mut u = ((r as $u) >> 1) as $t;
                    loop {
                        r = u % n;
                        if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                            break;
                        }
                        u = ((self.$draw() as $u) >> 1) as $t;
                    }
                    r = r.wrapping_add(origin);
                } else {
                    while r < origin || r >= bound {
                        r = self.$draw();
                    }
                }
            }
            r
        }

        pub fn $below(&mut self, bound: $t) -> $t {
            let mut r = self.$draw();
            let m = bound.wrapping_sub(1);
            if bound & m == 0 {
                r & m
            } else {
                let mut u = ((r as $u) >> 1) as $t;
                loop {
                    r = u % bound;
                    if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                        return r;
                    }
                    u = ((self.$draw() as $u) >> 1) as $t;
                }
            }
        }
    };
}

impl SplittableRandom {
    pub fn new(seed: i64) -> SplittableRandom {
        SplittableRandom {
            seed,
            gamma: GOLDEN_GAMMA,
        }
    }

    fn next_seed(&mut self) -> i64 {
        self.seed = self.seed.wrapping_add(self.gamma);
        self.seed
    }

    pub fn split(&mut self) -> SplittableRandom {
        let seed = mix64(self.next_seed());
        let gamma = mix_gamma(self.next_seed());
        SplittableRandom { seed, gamma }
    }

    pub fn next_long(&mut self) -> i64 {
        mix64(self.next_seed())
    }

    pub fn next_int(&mut self) -> i32 {
        mix32(self.next_seed())
    }

    bounded!(
        /// `nextInt(origin, bound)` / `nextInt(bound)`.
        int_between, int_below, i32, u32, next_int
    );
    bounded!(
        /// `nextLong(origin, bound)` / `nextLong(bound)`.
        long_between, long_below, i64, u64, next_long
    );

    pub fn next_double(&mut self) -> f64 {
        ((self.next_long() as u64) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// One neighbour: node, similarity, and whether a join has used it already.
#[derive(Clone, Copy)]
struct Entry {
    node: usize,
    similarity: f64,
    checked: bool,
}

/// A node's K best neighbours, most similar first.
struct Neighbours {
    entries: Vec<Entry>,
}

impl Neighbours {
    /// GDS's `NeighborList.add`: 1 if `node` went in.
    fn add(
        &mut self,
        k: usize,
        node: usize,
        similarity: f64,
        rng: &mut SplittableRandom,
        perturbation: f64,
    ) -> u64 {
        let len = self.entries.len();
        let entry = Entry {
            node,
            similarity,
            checked: false,
        };
        if len == 0 {
            self.entries.push(entry);
            return 1;
        }
        if len == k && similarity < self.entries[len - 1].similarity {
            return 0;
        }
        let lb = self
            .entries
            .iter()
            .position(|e| similarity >= e.similarity)
            .unwrap_or(len);
        let ub = self.entries[lb..]
            .iter()
            .position(|e| similarity > e.similarity)
            .map_or(len, |x| lb + x);
        if len == k && ub == len {
            if perturbation > 0.0 && rng.next_double() < perturbation {
                let at = rng.int_between(lb as i32, ub as i32) as usize;
                if at < len {
                    self.entries[at] = entry;
                    return 1;
                }
            }
            return 0;
        }
        if lb < ub && self.entries[lb..ub].iter().any(|e| e.node == node) {
            return 0;
        }
        let at = if lb == ub {
            lb
        } else {
            rng.int_between(lb as i32, ub as i32) as usize
        };
        self.entries.insert(at.min(len), entry);
        if self.entries.len() > k {
            self.entries.pop();
        }
        1
    }
}

/// The settings of [`knn`].
pub(super) struct KnnConfig {
    pub top_k: i64,
    pub sample_rate: f64,
    pub delta_threshold: f64,
    pub max_iterations: i64,
    pub random_joins: i64,
    pub perturbation_rate: f64,
    pub similarity_cutoff: f64,
    pub seed: i64,
}

/// What KNN found: each node's neighbours (in GDS's order), the iterations run, whether it
/// converged, and `nodePairsConsidered`.
pub(super) struct Knn {
    pub neighbours: Vec<Vec<(usize, f64)>>,
    pub ran_iterations: i64,
    pub did_converge: bool,
    pub pairs_considered: i64,
}

/// Draws `count` distinct values from `[0, bound)` other than `exclude`, in draw order.
fn sample_distinct(
    rng: &mut SplittableRandom,
    bound: i64,
    count: usize,
    exclude: Option<i64>,
    tick: Tick,
) -> Result<Vec<i64>> {
    let mut drawn: Vec<i64> = Vec::with_capacity(count);
    let mut seen = std::collections::HashSet::new();
    while drawn.len() < count {
        tick()?;
        let x = rng.long_between(0, bound);
        if Some(x) == exclude || !seen.insert(x) {
            continue;
        }
        drawn.push(x);
    }
    Ok(drawn)
}

pub(super) fn knn(
    n: usize,
    similarity: &dyn Fn(usize, usize) -> f64,
    config: &KnnConfig,
    tick: Tick,
) -> Result<Knn> {
    if n < 2 {
        return Ok(Knn {
            neighbours: vec![Vec::new(); n],
            ran_iterations: 0,
            did_converge: true,
            pairs_considered: 0,
        });
    }
    let top_k = config.top_k.max(1) as usize;
    let k = top_k.min(n - 1);
    let sampled_k = ((config.sample_rate * top_k as f64).ceil() as usize).min(n - 1);
    let update_threshold = (config.delta_threshold
        * (config.sample_rate * top_k as f64 * n as f64).ceil())
    .floor() as u64;
    let sim = |a: usize, b: usize| {
        let s = similarity(a, b);
        if s.is_finite() {
            s
        } else {
            0.0
        }
    };
    let mut master = SplittableRandom::new(config.seed);
    let mut sampler = master.split();
    let mut inserter = master.split();
    let mut lists: Vec<Neighbours> = Vec::with_capacity(n);
    for v in 0..n {
        tick()?;
        let candidates: Vec<usize> = if k >= n - 1 {
            (0..n).filter(|&u| u != v).collect()
        } else if (k as f64) / ((n - 1) as f64) < 0.6 {
            sample_distinct(&mut sampler, n as i64, k, Some(v as i64), tick)?
                .into_iter()
                .map(|x| x as usize)
                .collect()
        } else {
            let others: Vec<usize> = (0..n).filter(|&u| u != v).collect();
            let mut removed = sample_distinct(&mut sampler, (n - 1) as i64, n - 1 - k, None, tick)?;
            removed.sort_unstable();
            others
                .into_iter()
                .enumerate()
                .filter(|(i, _)| removed.binary_search(&(*i as i64)).is_err())
                .map(|(_, u)| u)
                .collect()
        };
        let mut list = Neighbours {
            entries: Vec::with_capacity(k),
        };
        for u in candidates {
            list.add(k, u, sim(v, u), &mut inserter, 0.0);
        }
        lists.push(list);
    }
    let mut considered = (n * k) as i64;
    let mut ran = 0;
    let mut converged = false;
    while ran < config.max_iterations {
        ran += 1;
        // Old and new neighbours: the checked ones, and a reservoir sample of the others.
        let mut splitter = master.split();
        let mut old: Vec<Option<Vec<usize>>> = vec![None; n];
        let mut new: Vec<Option<Vec<usize>>> = vec![None; n];
        for v in 0..n {
            tick()?;
            let mut olds = Vec::new();
            let mut slots: Vec<usize> = Vec::new();
            let mut unchecked = 0usize;
            for (i, e) in lists[v].entries.iter().enumerate() {
                if e.checked {
                    olds.push(e.node);
                } else {
                    if slots.len() < sampled_k {
                        slots.push(i);
                    } else {
                        let r = splitter.int_below((unchecked + 1) as i32) as usize;
                        if r < sampled_k {
                            slots[r] = i;
                        }
                    }
                    unchecked += 1;
                }
            }
            if !olds.is_empty() {
                old[v] = Some(olds);
            }
            if !slots.is_empty() {
                let mut news = Vec::with_capacity(slots.len());
                for &i in &slots {
                    lists[v].entries[i].checked = true;
                    news.push(lists[v].entries[i].node);
                }
                new[v] = Some(news);
            }
        }
        let mut rev_old: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut rev_new: Vec<Vec<usize>> = vec![Vec::new(); n];
        for v in 0..n {
            for &u in old[v].iter().flatten() {
                rev_old[u].push(v);
            }
            for &u in new[v].iter().flatten() {
                rev_new[u].push(v);
            }
        }
        let mut joiner = master.split();
        let mut updates = 0u64;
        let perturbation = config.perturbation_rate;
        for v in 0..n {
            tick()?;
            if let Some(o) = old[v].as_mut() {
                let len = rev_old[v].len();
                for &r in &rev_old[v] {
                    if (joiner.int_below(len as i32) as usize) < sampled_k {
                        o.push(r);
                    }
                }
            }
            if let Some(nw) = new[v].as_mut() {
                let len = rev_new[v].len();
                for &r in &rev_new[v] {
                    if (joiner.int_below(len as i32) as usize) < sampled_k {
                        nw.push(r);
                    }
                }
            }
            if let Some(news) = new[v].clone() {
                let olds = old[v].clone().unwrap_or_default();
                for (i, &a) in news.iter().enumerate() {
                    considered += 1;
                    updates += lists[a].add(k, v, sim(a, v), &mut joiner, perturbation);
                    for &b in &news[i + 1..] {
                        if a == b {
                            continue;
                        }
                        considered += 1;
                        let s = sim(a, b);
                        updates += lists[a].add(k, b, s, &mut joiner, perturbation);
                        updates += lists[b].add(k, a, s, &mut joiner, perturbation);
                    }
                    for &b in &olds {
                        if a == b {
                            continue;
                        }
                        considered += 1;
                        let s = sim(a, b);
                        updates += lists[a].add(k, b, s, &mut joiner, perturbation);
                        updates += lists[b].add(k, a, s, &mut joiner, perturbation);
                    }
                }
            }
            for _ in 0..config.random_joins.max(0) {
                let mut r = joiner.long_below((n - 1) as i64) as usize;
                if r >= v {
                    r += 1;
                }
                considered += 1;
                lists[v].add(k, r, sim(v, r), &mut joiner, perturbation);
            }
        }
        if updates <= update_threshold {
            converged = true;
            break;
        }
    }
    let neighbours = lists
        .into_iter()
        .map(|l| {
            let mut out: Vec<(usize, f64)> =
                l.entries.iter().map(|e| (e.node, e.similarity)).collect();
            if config.similarity_cutoff > 0.0 {
                if let Some(cut) = out.iter().position(|(_, s)| *s < config.similarity_cutoff) {
                    out.truncate(cut);
                }
            }
            out
        })
        .collect();
    Ok(Knn {
        neighbours,
        ran_iterations: ran,
        did_converge: converged,
        pairs_considered: considered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Java 17's `SplittableRandom(42)`, as the JDK draws it.
    #[test]
    fn splittable_random_draws_as_java_does() {
        let mut r = SplittableRandom::new(42);
        assert_eq!(r.next_long(), -4767286540954276203);
        assert_eq!(r.next_long(), 2949826092126892291);
        assert_eq!(r.next_int(), -1877322334);
        let mut master = SplittableRandom::new(42);
        let mut a = master.split();
        let draws: Vec<i64> = (0..5).map(|_| a.long_between(0, 10)).collect();
        assert_eq!(draws, [2, 0, 0, 7, 5]);
        let mut b = master.split();
        let draws: Vec<i32> = (0..5).map(|_| b.int_between(0, 3)).collect();
        assert_eq!(draws, [1, 1, 2, 2, 0]);
    }
}
