//! The graph algorithms, over a [`View`]: each as GDS 2.13 computes it (node order, adjacency
//! order — targets sorted —, tie-breaking and iteration counts checked against GDS itself on
//! the oracle, `tests/engine_gds.rs`). Every loop that the graph's size lengthens calls
//! `tick`, which checks the statement's deadline.

use super::catalog::View;
use crate::engine::error::Result;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};

pub(super) type Tick<'a> = &'a dyn Fn() -> Result<()>;

/// What the Pregel rank algorithms ran: the scores, the supersteps and whether they
/// converged before `maxIterations`.
pub(super) struct Ranks {
    pub scores: Vec<f64>,
    pub ran_iterations: i64,
    pub did_converge: bool,
}

/// PageRank and ArticleRank as GDS runs them: Pregel supersteps passing rank deltas. Every
/// node starts at `1 - d` (personalised: only the source nodes); in superstep 0 each sends its
/// rank over its relationships, split by out-degree (weighted: by weight over the weight sum;
/// ArticleRank: over degree — or weight sum — plus the average degree); afterwards a node adds `d` times the
/// deltas it received and passes that delta on while it exceeds the tolerance.
/// The settings of [`ranks`].
pub(super) struct RankConfig {
    pub damping: f64,
    pub tolerance: f64,
    pub max_iterations: i64,
    /// Split a node's rank by relationship weight.
    pub weighted: bool,
    /// ArticleRank rather than PageRank.
    pub article: bool,
}

pub(super) fn ranks(
    v: &View,
    config: &RankConfig,
    sources: Option<&[usize]>,
    tick: Tick,
) -> Result<Ranks> {
    let RankConfig {
        damping,
        tolerance,
        max_iterations,
        weighted,
        article,
    } = *config;
    let n = v.n();
    let alpha = 1.0 - damping;
    let mut rank: Vec<f64> = (0..n)
        .map(|i| match sources {
            Some(s) if !s.contains(&i) => 0.0,
            _ => alpha,
        })
        .collect();
    let weight_sum: Vec<f64> = v
        .out
        .iter()
        .map(|l| l.iter().map(|(_, w)| *w).fold(0.0, |a, b| a + b))
        .collect();
    let average_degree = if n == 0 {
        0.0
    } else {
        v.relationship_count as f64 / n as f64
    };
    let mut inbox = vec![0.0f64; n];
    let mut received = vec![false; n];
    let mut halted = vec![false; n];
    let mut ran = 0;
    let mut converged = false;
    for step in 0..max_iterations.max(0) {
        tick()?;
        ran = step + 1;
        let mut next = vec![0.0f64; n];
        let mut next_received = vec![false; n];
        for i in 0..n {
            if step > 0 && halted[i] && !received[i] {
                continue;
            }
            let delta = if step == 0 {
                rank[i]
            } else {
                let d = damping * inbox[i];
                rank[i] += d;
                d
            };
            if step == 0 || delta > tolerance {
                halted[i] = false;
                let degree = v.out[i].len();
                if degree > 0 {
                    for &(w, x) in &v.out[i] {
                        let share = if article && weighted {
                            delta * x / (weight_sum[i] + average_degree)
                        } else if article {
                            delta / (degree as f64 + average_degree)
                        } else if weighted {
                            if weight_sum[i] == 0.0 {
                                0.0
                            } else {
                                delta * x / weight_sum[i]
                            }
                        } else {
                            delta / degree as f64
                        };
                        next[w] += share;
                        next_received[w] = true;
                    }
                }
            } else {
                halted[i] = true;
            }
        }
        if step > 0 && halted.iter().all(|h| *h) && !next_received.iter().any(|r| *r) {
            // Pregel leaves its loop before counting the superstep that converged.
            ran = step;
            converged = true;
            break;
        }
        inbox = next;
        received = next_received;
    }
    Ok(Ranks {
        scores: rank,
        ran_iterations: ran,
        did_converge: converged,
    })
}

/// GDS's scalers (`scaler`), applied to the scores in place.
pub(super) fn scale(scores: &mut [f64], scaler: &str) {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return;
    }
    let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = scores.iter().fold(0.0, |a, b| a + b);
    let mean = sum / n;
    match scaler {
        "MINMAX" => {
            let range = max - min;
            for s in scores.iter_mut() {
                *s = if range == 0.0 {
                    0.0
                } else {
                    (*s - min) / range
                };
            }
        }
        "MAX" => {
            let m = scores.iter().fold(0.0f64, |a, s| a.max(s.abs()));
            for s in scores.iter_mut() {
                *s = if m == 0.0 { 0.0 } else { *s / m };
            }
        }
        "MEAN" => {
            let range = max - min;
            for s in scores.iter_mut() {
                *s = if range == 0.0 {
                    0.0
                } else {
                    (*s - mean) / range
                };
            }
        }
        "LOG" => {
            for s in scores.iter_mut() {
                *s = s.ln();
            }
        }
        "L1NORM" => {
            let norm: f64 = scores.iter().map(|s| s.abs()).fold(0.0, |a, b| a + b);
            for s in scores.iter_mut() {
                *s = if norm == 0.0 { 0.0 } else { *s / norm };
            }
        }
        "L2NORM" => {
            let norm = scores.iter().map(|s| s * s).fold(0.0, |a, b| a + b).sqrt();
            for s in scores.iter_mut() {
                *s = if norm == 0.0 { 0.0 } else { *s / norm };
            }
        }
        "CENTER" => {
            for s in scores.iter_mut() {
                *s -= mean;
            }
        }
        "STDSCORE" => {
            let var = scores
                .iter()
                .map(|s| (s - mean) * (s - mean))
                .fold(0.0, |a, b| a + b)
                / n;
            let std = var.sqrt();
            for s in scores.iter_mut() {
                *s = if std == 0.0 { 0.0 } else { (*s - mean) / std };
            }
        }
        _ => {}
    }
}

/// Degree centrality: relationships (or their weights) per node, in the orientation asked.
pub(super) fn degree(v: &View, orientation: &str, weighted: bool) -> Vec<f64> {
    let mut out: Vec<f64> = v
        .out
        .iter()
        .map(|l| {
            if weighted {
                l.iter()
                    .map(|(_, w)| if *w > 0.0 { *w } else { 0.0 })
                    .fold(0.0, |a, b| a + b)
            } else {
                l.len() as f64
            }
        })
        .collect();
    if orientation == "NATURAL" {
        return out;
    }
    let mut inc = vec![0.0f64; v.n()];
    for l in &v.out {
        for &(w, x) in l {
            inc[w] += if weighted {
                if x > 0.0 {
                    x
                } else {
                    0.0
                }
            } else {
                1.0
            };
        }
    }
    if orientation == "REVERSE" {
        return inc;
    }
    for (o, i) in out.iter_mut().zip(inc) {
        *o += i;
    }
    out
}

/// A float with a total order, for the priority queues.
#[derive(Clone, Copy, PartialEq)]
struct Cost(f64, usize);

impl Eq for Cost {}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cost {
    /// Reversed: the smallest cost (then the smallest node) first out of a max-heap.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then_with(|| other.1.cmp(&self.1))
    }
}

/// Betweenness centrality (Brandes), unweighted by breadth-first search or weighted by
/// Dijkstra; on an undirected graph every path is counted once, not once each way.
pub(super) fn betweenness(
    v: &View,
    weighted: bool,
    sources: Option<&[bool]>,
    tick: Tick,
) -> Result<Vec<f64>> {
    let n = v.n();
    let mut centrality = vec![0.0f64; n];
    for s in 0..n {
        tick()?;
        if sources.is_some_and(|src| !src[s]) {
            continue;
        }
        let mut stack = Vec::new();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut sigma = vec![0.0f64; n];
        let mut dist = vec![f64::INFINITY; n];
        sigma[s] = 1.0;
        dist[s] = 0.0;
        if weighted {
            let mut heap = BinaryHeap::new();
            heap.push(Cost(0.0, s));
            let mut done = vec![false; n];
            while let Some(Cost(d, u)) = heap.pop() {
                if done[u] {
                    continue;
                }
                done[u] = true;
                stack.push(u);
                for &(w, x) in &v.out[u] {
                    let nd = d + x;
                    if nd < dist[w] {
                        dist[w] = nd;
                        sigma[w] = sigma[u];
                        preds[w] = vec![u];
                        heap.push(Cost(nd, w));
                    } else if nd == dist[w] && !done[w] {
                        sigma[w] += sigma[u];
                        preds[w].push(u);
                    }
                }
            }
        } else {
            let mut queue = VecDeque::new();
            queue.push_back(s);
            while let Some(u) = queue.pop_front() {
                stack.push(u);
                for &(w, _) in &v.out[u] {
                    if dist[w].is_infinite() {
                        dist[w] = dist[u] + 1.0;
                        queue.push_back(w);
                    }
                    if dist[w] == dist[u] + 1.0 {
                        sigma[w] += sigma[u];
                        preds[w].push(u);
                    }
                }
            }
        }
        let mut delta = vec![0.0f64; n];
        while let Some(w) = stack.pop() {
            for &u in &preds[w] {
                delta[u] += sigma[u] / sigma[w] * (1.0 + delta[w]);
            }
            if w != s {
                centrality[w] += delta[w];
            }
        }
    }
    if v.undirected {
        for c in &mut centrality {
            *c /= 2.0;
        }
    }
    Ok(centrality)
}

/// The source nodes of sampled betweenness, as GDS's random degree selection draws them: the
/// nodes in partitions of `max(64, n / concurrency)` rounded up to 64, each partition with a
/// generator split from `seed`'s, a node taken when a draw in `1..=maxDegree` is at most its
/// degree, until `size` are taken; short of that, passes over the others take each on a coin
/// from the first generator.
pub(super) fn sample_sources(
    procedure: &str,
    v: &View,
    size: usize,
    seed: i64,
    concurrency: usize,
    tick: Tick,
) -> Result<Vec<bool>> {
    let n = v.n();
    let degree = |x: usize| v.out[x].len();
    let max_degree = (0..n).map(degree).max().unwrap_or(0);
    if max_degree == 0 {
        return Err(crate::engine::error::ExecError::procedure_failed(
            procedure,
            "java.lang.IllegalArgumentException: bound must be positive",
        ));
    }
    let batch = (n.div_ceil(concurrency.max(1))).max(64).div_ceil(64) * 64;
    let mut random = super::knn::SplittableRandom::new(seed);
    let mut selected = vec![false; n];
    let mut count = 0;
    let mut start = 0;
    while start < n {
        let mut child = random.split();
        let end = (start + batch).min(n);
        for (x, taken) in selected.iter_mut().enumerate().take(end).skip(start) {
            tick()?;
            if count >= size {
                break;
            }
            let f = child.int_below(max_degree as i32) as usize + 1;
            if f <= degree(x) {
                *taken = true;
                count += 1;
            }
        }
        start += batch;
    }
    while count < size {
        for taken in selected.iter_mut() {
            tick()?;
            if count >= size {
                break;
            }
            if !*taken && random.next_double() >= 0.5 {
                *taken = true;
                count += 1;
            }
        }
    }
    Ok(selected)
}

/// Weakly connected components as GDS's disjoint sets join them: for every relationship
/// (of weight above `threshold`, when given), in node order, the two roots are found and the
/// one of the larger set id is hung under the other. A set's id is its root's internal id —
/// or, seeded, the seed of its root, an unseeded root drawing the next id above the largest
/// seed when first asked; so a component holds its smallest seed.
pub(super) fn wcc(
    v: &View,
    threshold: Option<f64>,
    seeds: Option<&[Option<i64>]>,
    tick: Tick,
) -> Result<Vec<i64>> {
    let n = v.n();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut community: Vec<i64> = match seeds {
        Some(s) => s
            .iter()
            .map(|x| x.filter(|v| *v >= 0).unwrap_or(-1))
            .collect(),
        None => Vec::new(),
    };
    let mut max = seeds
        .map(|s| s.iter().flatten().copied().max().unwrap_or(0))
        .unwrap_or(0);
    let mut set_id = |root: usize, community: &mut Vec<i64>| -> i64 {
        if seeds.is_none() {
            return root as i64;
        }
        if community[root] < 0 {
            max = max.wrapping_add(1);
            community[root] = max;
        }
        community[root]
    };
    for i in 0..n {
        tick()?;
        for &(w, x) in &v.out[i] {
            if threshold.is_some_and(|t| x <= t) {
                continue;
            }
            let (mut a, mut b) = (find(&mut parent, i), find(&mut parent, w));
            if a == b {
                continue;
            }
            let (ia, ib) = (set_id(a, &mut community), set_id(b, &mut community));
            if ia < ib {
                std::mem::swap(&mut a, &mut b);
            }
            parent[a] = b;
        }
    }
    Ok((0..n)
        .map(|i| {
            let root = find(&mut parent, i);
            set_id(root, &mut community)
        })
        .collect())
}

/// What label propagation ran.
pub(super) struct Labels {
    pub labels: Vec<i64>,
    pub ran_iterations: i64,
    pub did_converge: bool,
}

/// Label propagation as GDS runs it: labels start as the nodes' Neo4j ids (or a seed
/// property); in each iteration every node, in order, takes the label with the largest
/// weight among its neighbours' current labels (ties: the smallest label), updating in
/// place; it stops after an iteration in which no label changed.
pub(super) fn label_propagation(
    v: &View,
    seeds: Option<&[Option<i64>]>,
    node_weights: Option<Vec<f64>>,
    max_iterations: i64,
    tick: Tick,
) -> Result<Labels> {
    let n = v.n();
    // A node without a seed: the largest seed (or -1) plus its Neo4j id plus one.
    let max = seeds.map_or(-1, |s| s.iter().flatten().copied().max().unwrap_or(-1));
    let mut labels: Vec<i64> = (0..n)
        .map(|i| match seeds.and_then(|s| s[i]) {
            Some(seed) => seed,
            None => max.wrapping_add(v.ids[i].0 as i64).wrapping_add(1),
        })
        .collect();
    let mut ran = 0;
    let mut converged = false;
    while ran < max_iterations {
        ran += 1;
        let mut changed = false;
        for i in 0..n {
            tick()?;
            if v.out[i].is_empty() {
                continue;
            }
            let mut votes: BTreeMap<i64, f64> = BTreeMap::new();
            for &(w, x) in &v.out[i] {
                let nw = node_weights.as_ref().map_or(1.0, |ws| ws[w]);
                *votes.entry(labels[w]).or_insert(0.0) += x * nw;
            }
            let mut best = labels[i];
            let mut best_weight = f64::NEG_INFINITY;
            for (label, weight) in votes {
                if weight > best_weight {
                    best = label;
                    best_weight = weight;
                }
            }
            if best != labels[i] {
                labels[i] = best;
                changed = true;
            }
        }
        if !changed {
            converged = true;
            break;
        }
    }
    Ok(Labels {
        labels,
        ran_iterations: ran,
        did_converge: converged,
    })
}

/// What Louvain found: each node's final community and its community at each kept level
/// (communities named by the internal id of the node whose singleton community survived),
/// and the modularity of each kept level.
pub(super) struct Louvain {
    pub communities: Vec<i64>,
    pub levels: Vec<Vec<i64>>,
    pub modularities: Vec<f64>,
}

/// GDS's K1 colouring (at most five rounds): each node to colour, in order, takes the
/// smallest colour none of its neighbours has (updated in place); a node whose neighbour
/// ended with its colour is coloured again.
fn k1_colouring(adj: &[Vec<(usize, f64)>], tick: Tick) -> Result<Vec<usize>> {
    let n = adj.len();
    let mut colour = vec![1000usize; n];
    let mut to_colour: Vec<usize> = (0..n).collect();
    for _ in 0..5 {
        for &x in &to_colour {
            tick()?;
            let forbidden: std::collections::HashSet<usize> = adj[x]
                .iter()
                .filter(|(t, _)| *t != x)
                .map(|(t, _)| colour[*t])
                .collect();
            colour[x] = (0..).find(|c| !forbidden.contains(c)).unwrap_or(0);
        }
        let mut marked = vec![false; n];
        let mut again = Vec::new();
        for &x in &to_colour {
            if adj[x]
                .iter()
                .any(|(t, _)| *t != x && colour[*t] == colour[x] && !marked[*t])
            {
                marked[x] = true;
                again.push(x);
            }
        }
        if again.is_empty() {
            break;
        }
        to_colour = again;
    }
    Ok(colour)
}

/// GDS's modularity: `(1 / T) Σ_c (I_c - K_c² / T)`, `I_c` the weight of the relationships
/// inside community `c`, `K_c` its members' weights, `T` all the weights.
fn modularity(adj: &[Vec<(usize, f64)>], community: &[usize], weight: &[f64], total: f64) -> f64 {
    if total == 0.0 {
        return 0.0;
    }
    let mut inside = vec![0.0f64; adj.len()];
    for (i, list) in adj.iter().enumerate() {
        for &(j, w) in list {
            if community[i] == community[j] {
                inside[community[i]] += w;
            }
        }
    }
    let mut q = 0.0;
    for c in 0..adj.len() {
        q += inside[c] - weight[c] * weight[c] * (1.0 / total);
    }
    q * (1.0 / total)
}

/// One level of GDS's modularity optimisation: colour by colour (nodes of a colour in
/// order), each node takes the neighbouring community of the largest positive gain (ties:
/// the smallest community), all moves of a colour applied together; passes repeat while
/// modularity rises by more than `tolerance` (the first pass always counts).
fn optimise(
    adj: &[Vec<(usize, f64)>],
    initial: Vec<usize>,
    max_iterations: i64,
    tolerance: f64,
    tick: Tick,
) -> Result<(Vec<usize>, f64)> {
    let n = adj.len();
    let colour = k1_colouring(adj, tick)?;
    // The nodes of each colour, colours ascending, nodes in order.
    let mut by_colour: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (x, c) in colour.iter().enumerate() {
        by_colour.entry(*c).or_default().push(x);
    }
    let k: Vec<f64> = adj
        .iter()
        .map(|l| l.iter().fold(0.0, |a, (_, w)| a + w))
        .collect();
    let total = k.iter().fold(0.0, |a, b| a + b);
    let mut community = initial;
    let mut weight = vec![0.0f64; n];
    for (x, c) in community.iter().enumerate() {
        weight[*c] += k[x];
    }
    let mut q = modularity(adj, &community, &weight, total);
    for iteration in 0..max_iterations.max(1) {
        for members in by_colour.values() {
            let mut next = Vec::with_capacity(members.len());
            let mut update: BTreeMap<usize, f64> = BTreeMap::new();
            for &x in members {
                tick()?;
                let cur = community[x];
                let mut links: BTreeMap<usize, f64> = BTreeMap::new();
                let mut self_loops = 0.0;
                for &(t, w) in &adj[x] {
                    *links.entry(community[t]).or_insert(0.0) += w;
                    if t == x {
                        self_loops += w;
                    }
                }
                let eix = links.get(&cur).copied().unwrap_or(0.0) - self_loops;
                let ax = weight[cur] - k[x];
                let mut best = cur;
                let mut best_gain = 0.0f64;
                for (&candidate, &w) in &links {
                    if candidate == cur {
                        continue;
                    }
                    let gain = (w - eix) / (total / 2.0)
                        + (2.0 * k[x] * ax - 2.0 * k[x] * weight[candidate]) / (total * total);
                    if gain > best_gain || (gain == best_gain && gain != 0.0 && candidate < best) {
                        best = candidate;
                        best_gain = gain;
                    }
                }
                *update.entry(cur).or_insert(0.0) -= k[x];
                *update.entry(best).or_insert(0.0) += k[x];
                next.push(best);
            }
            for (&x, &b) in members.iter().zip(&next) {
                community[x] = b;
            }
            // In id order, as GDS adds its array of updates.
            for (id, u) in update {
                weight[id] += u;
            }
        }
        let nq = modularity(adj, &community, &weight, total);
        let rose = nq > q && (nq - q).abs() > tolerance;
        q = nq;
        if iteration > 0 && !rose {
            break;
        }
    }
    Ok((community, q))
}

/// Louvain as GDS runs it: a level of [`optimise`], then each community becomes a node of the
/// next level (relationships between communities summed); it stops when a level merges
/// nothing, merges everything, or no longer raises modularity by `tolerance` — and then, as
/// GDS does, drops that last level (but the first).
pub(super) fn louvain(
    v: &View,
    seeds: Option<&[Option<i64>]>,
    max_levels: i64,
    max_iterations: i64,
    tolerance: f64,
    tick: Tick,
) -> Result<Louvain> {
    let n = v.n();
    let mut adj: Vec<Vec<(usize, f64)>> = v.out.clone();
    // The name of each community id of the level (internal ids, or seeds), and each root
    // node's node in the level.
    let mut names: Vec<i64> = (0..n as i64).collect();
    let mut initial: Vec<usize> = (0..n).collect();
    if let Some(seeds) = seeds {
        // Seeds (a node without one: its Neo4j id plus the largest seed) name dense community
        // ids, in order of first appearance.
        let max = seeds.iter().flatten().copied().max().unwrap_or(0);
        let mut dense: HashMap<i64, usize> = HashMap::new();
        names.clear();
        for (i, s) in seeds.iter().enumerate() {
            let key = match s {
                Some(s) => *s,
                None => (v.ids[i].0 as i64).wrapping_add(max),
            };
            let next = dense.len();
            let d = *dense.entry(key).or_insert_with(|| {
                names.push(key);
                next
            });
            initial[i] = d;
        }
    }
    let mut at: Vec<usize> = (0..n).collect();
    let mut levels: Vec<Vec<i64>> = Vec::new();
    let mut modularities: Vec<f64> = Vec::new();
    for r in 0..max_levels.max(1) {
        let start = std::mem::take(&mut initial);
        let (community, q) = optimise(&adj, start, max_iterations, tolerance, tick)?;
        levels.push(at.iter().map(|&x| names[community[x]]).collect());
        modularities.push(q);
        // The next level: the communities, in the order of their first member.
        let mut index: HashMap<usize, usize> = HashMap::new();
        let mut next_names = Vec::new();
        for &c in &community {
            if let std::collections::hash_map::Entry::Vacant(e) = index.entry(c) {
                e.insert(next_names.len());
                next_names.push(names[c]);
            }
        }
        let m = next_names.len();
        let mut next: Vec<BTreeMap<usize, f64>> = vec![BTreeMap::new(); m];
        for (i, list) in adj.iter().enumerate() {
            for &(j, w) in list {
                *next[index[&community[i]]]
                    .entry(index[&community[j]])
                    .or_insert(0.0) += w;
            }
        }
        let stop = m == adj.len()
            || m == 1
            || (r > 0 && {
                let prev = modularities[modularities.len() - 2];
                !(q > prev && (q - prev).abs() > tolerance)
            });
        if stop {
            let keep = if r > 0 { r as usize } else { 1 };
            levels.truncate(keep);
            modularities.truncate(keep);
            break;
        }
        for x in at.iter_mut() {
            *x = index[&community[*x]];
        }
        names = next_names;
        adj = next.into_iter().map(|m| m.into_iter().collect()).collect();
        initial = (0..adj.len()).collect();
    }
    Ok(Louvain {
        communities: levels
            .last()
            .cloned()
            .unwrap_or_else(|| (0..n as i64).collect()),
        levels,
        modularities,
    })
}

/// Distinct neighbours of each node but itself, sorted (undirected views; several types
/// read as one adjacency).
fn simple_neighbours(v: &View) -> Vec<Vec<usize>> {
    v.out
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut ns: Vec<usize> = l.iter().map(|(w, _)| *w).filter(|w| *w != i).collect();
            ns.sort_unstable();
            ns.dedup();
            ns
        })
        .collect()
}

/// Triangles through each node (`-1` for nodes above `maxDegree`, whose triangles are not
/// counted) and the number of triangles in the graph.
pub(super) fn triangles(v: &View, max_degree: i64, tick: Tick) -> Result<(Vec<i64>, i64)> {
    let ns = simple_neighbours(v);
    let n = v.n();
    let skip: Vec<bool> = v.out.iter().map(|l| l.len() as i64 > max_degree).collect();
    let mut count = vec![0i64; n];
    let mut global = 0;
    for a in 0..n {
        tick()?;
        if skip[a] {
            continue;
        }
        for &b in ns[a].iter().filter(|&&b| b > a && !skip[b]) {
            for &c in ns[b].iter().filter(|&&c| c > b && !skip[c]) {
                if ns[a].binary_search(&c).is_ok() {
                    count[a] += 1;
                    count[b] += 1;
                    count[c] += 1;
                    global += 1;
                }
            }
        }
    }
    for (c, s) in count.iter_mut().zip(&skip) {
        if *s {
            *c = -1;
        }
    }
    Ok((count, global))
}

/// Local clustering coefficients from triangle counts: `2T / (d (d - 1))`, 0 below degree 2.
pub(super) fn clustering(v: &View, triangles: &[i64]) -> Vec<f64> {
    let ns = simple_neighbours(v);
    triangles
        .iter()
        .zip(&ns)
        .map(|(&t, n)| {
            let d = n.len() as f64;
            if d < 2.0 || t < 0 {
                if t < 0 {
                    f64::NAN
                } else {
                    0.0
                }
            } else {
                2.0 * t as f64 / (d * (d - 1.0))
            }
        })
        .collect()
}

/// Node similarity's metrics over two nodes' neighbour vectors (sorted by neighbour;
/// repeated neighbours count as often as they appear: a multiset intersection).
pub(super) fn set_similarity(
    a: &[(usize, f64)],
    b: &[(usize, f64)],
    metric: &str,
    weighted: bool,
) -> f64 {
    let (mut i, mut j) = (0, 0);
    let (mut inter, mut min_sum, mut max_sum, mut dot) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    while i < a.len() || j < b.len() {
        let ka = a.get(i).map(|x| x.0);
        let kb = b.get(j).map(|x| x.0);
        match (ka, kb) {
            (Some(x), Some(y)) if x == y => {
                let (wa, wb) = (a[i].1, b[j].1);
                inter += 1.0;
                min_sum += wa.min(wb);
                max_sum += wa.max(wb);
                dot += wa * wb;
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                max_sum += a[i].1;
                i += 1;
            }
            (Some(_), None) => {
                max_sum += a[i].1;
                i += 1;
            }
            _ => {
                max_sum += b[j].1;
                j += 1;
            }
        }
    }
    let (la, lb) = (a.len() as f64, b.len() as f64);
    match metric {
        "OVERLAP" => {
            if weighted {
                let sa: f64 = a.iter().map(|x| x.1).fold(0.0, |a, b| a + b);
                let sb: f64 = b.iter().map(|x| x.1).fold(0.0, |a, b| a + b);
                min_sum / sa.min(sb)
            } else {
                inter / la.min(lb)
            }
        }
        "COSINE" => {
            if weighted {
                let na = a.iter().map(|x| x.1 * x.1).fold(0.0, |a, b| a + b).sqrt();
                let nb = b.iter().map(|x| x.1 * x.1).fold(0.0, |a, b| a + b).sqrt();
                dot / (na * nb)
            } else {
                inter / (la * lb).sqrt()
            }
        }
        _ => {
            if weighted {
                min_sum / max_sum
            } else {
                inter / (la + lb - inter)
            }
        }
    }
}

/// Java's `Arrays.binarySearch` over sorted doubles: the index of an element equal to `key`
/// (comparing equal values by their bits), or `-(insertion point + 1)`.
fn java_binary_search(keys: &[f64], key: f64) -> isize {
    let bits = |x: f64| -> i64 {
        if x.is_nan() {
            0x7ff8_0000_0000_0000
        } else {
            x.to_bits() as i64
        }
    };
    let (mut low, mut high) = (0isize, keys.len() as isize - 1);
    while low <= high {
        let mid = ((low + high) as usize >> 1) as isize;
        let m = keys[mid as usize];
        if m < key {
            low = mid + 1;
        } else if m > key {
            high = mid - 1;
        } else {
            let (mb, kb) = (bits(m), bits(key));
            if mb == kb {
                return mid;
            } else if mb < kb {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
    }
    -(low + 1)
}

/// GDS's bounded priority queue of the `k` most similar (node similarity's top-K and top-N):
/// keys (the negated similarities) sorted ascending; a full queue refuses what is not
/// strictly more similar than its least; an accepted element goes where Java's binary search
/// puts it — before the equal element it lands on — and the least falls out.
pub(super) struct TopK<T> {
    k: usize,
    keys: Vec<f64>,
    items: Vec<T>,
}

impl<T> TopK<T> {
    pub fn new(k: usize) -> TopK<T> {
        TopK {
            k,
            keys: Vec::new(),
            items: Vec::new(),
        }
    }

    pub fn offer(&mut self, item: T, similarity: f64) {
        if self.k == 0 {
            return;
        }
        let key = -similarity;
        if self.keys.len() == self.k && self.keys.last().is_some_and(|l| key >= *l) {
            return;
        }
        let found = java_binary_search(&self.keys, key);
        let at = if found >= 0 {
            found as usize
        } else {
            (-(found + 1)) as usize
        };
        self.keys.insert(at, key);
        self.items.insert(at, item);
        if self.keys.len() > self.k {
            self.keys.pop();
            self.items.pop();
        }
    }

    /// The elements, most similar first, with their similarities.
    pub fn into_sorted(self) -> Vec<(T, f64)> {
        self.items
            .into_iter()
            .zip(self.keys.into_iter().map(|k| -k))
            .collect()
    }
}

/// A shortest path found by Dijkstra: its nodes and the cost to reach each.
pub(super) struct ShortestPath {
    pub target: usize,
    pub nodes: Vec<usize>,
    pub costs: Vec<f64>,
}

/// GDS's indexed min-priority queue of nodes by cost: a binary heap (1-based) that moves an
/// element up only past strictly costlier parents and down only to strictly cheaper
/// children (the right child when strictly cheaper than the left), so that among equal
/// costs the order follows the heap's shape, not the node ids.
struct Heap {
    heap: Vec<usize>,
    position: Vec<usize>,
    cost: Vec<f64>,
}

impl Heap {
    fn new(n: usize) -> Heap {
        Heap {
            heap: vec![usize::MAX],
            position: vec![0; n],
            cost: vec![0.0; n],
        }
    }

    fn len(&self) -> usize {
        self.heap.len() - 1
    }

    fn contains(&self, x: usize) -> bool {
        self.position[x] != 0
    }

    fn less(&self, a: usize, b: usize) -> bool {
        self.cost[a] < self.cost[b]
    }

    fn place(&mut self, i: usize, x: usize) {
        self.heap[i] = x;
        self.position[x] = i;
    }

    /// Moves the element at `i` up; whether it moved.
    fn up(&mut self, mut i: usize) -> bool {
        let start = i;
        let x = self.heap[i];
        let mut j = i >> 1;
        while j > 0 && self.less(x, self.heap[j]) {
            let parent = self.heap[j];
            self.place(i, parent);
            i = j;
            j >>= 1;
        }
        self.place(i, x);
        i != start
    }

    fn down(&mut self, mut i: usize) {
        let size = self.len();
        let x = self.heap[i];
        let child = |h: &Heap, i: usize| {
            let j = i << 1;
            if j < size && h.less(h.heap[j + 1], h.heap[j]) {
                j + 1
            } else {
                j
            }
        };
        let mut j = child(self, i);
        while j <= size && self.less(self.heap[j], x) {
            let c = self.heap[j];
            self.place(i, c);
            i = j;
            j = child(self, i);
        }
        self.place(i, x);
    }

    fn add(&mut self, x: usize, cost: f64) {
        self.cost[x] = cost;
        self.heap.push(x);
        let i = self.len();
        self.position[x] = i;
        self.up(i);
    }

    /// Lowers the cost of an element in the queue.
    fn set(&mut self, x: usize, cost: f64) {
        self.cost[x] = cost;
        let i = self.position[x];
        if !self.up(i) && i < self.len() {
            self.down(i);
        }
    }

    fn pop(&mut self) -> Option<(usize, f64)> {
        if self.len() == 0 {
            return None;
        }
        let top = self.heap[1];
        let last = self.heap.pop().unwrap_or(top);
        self.position[top] = 0;
        if self.len() > 0 {
            self.place(1, last);
            self.down(1);
        }
        Some((top, self.cost[top]))
    }
}

/// Dijkstra from `source`, as GDS's: nodes leave [`Heap`] by cost; a node not yet settled is
/// queued when first reached (its predecessor the node that reached it) and re-costed, with a
/// new predecessor, only when a path is strictly cheaper. Paths come in the order their
/// targets are settled — every reachable node, the source first (no `targets`), or the
/// targets, stopping once all are reached.
pub(super) fn dijkstra(
    v: &View,
    source: usize,
    targets: Option<&[usize]>,
    tick: Tick,
) -> Result<Vec<ShortestPath>> {
    let n = v.n();
    let mut pred = vec![usize::MAX; n];
    let mut settled = vec![f64::NAN; n];
    let mut done = vec![false; n];
    let mut heap = Heap::new(n);
    heap.add(source, 0.0);
    let mut wanted = vec![false; n];
    for &t in targets.unwrap_or(&[]) {
        wanted[t] = true;
    }
    let mut paths = Vec::new();
    let mut remaining = targets.map(|_| wanted.iter().filter(|w| **w).count());
    while let Some((u, d)) = heap.pop() {
        tick()?;
        done[u] = true;
        settled[u] = d;
        if targets.is_none() || wanted[u] {
            let mut nodes = vec![u];
            let mut at = u;
            while pred[at] != usize::MAX {
                at = pred[at];
                nodes.push(at);
            }
            nodes.reverse();
            let costs = nodes.iter().map(|&x| settled[x]).collect();
            paths.push(ShortestPath {
                target: u,
                nodes,
                costs,
            });
            if let Some(r) = remaining.as_mut() {
                *r -= 1;
                if *r == 0 {
                    break;
                }
            }
        }
        for &(w, x) in &v.out[u] {
            if done[w] {
                continue;
            }
            let nd = d + x;
            if !heap.contains(w) {
                heap.add(w, nd);
                pred[w] = u;
            } else if nd < heap.cost[w] {
                heap.set(w, nd);
                pred[w] = u;
            }
        }
    }
    Ok(paths)
}

/// A flag per node: whether it is one of `nodes`.
fn marks(n: usize, nodes: &[usize]) -> Vec<bool> {
    let mut m = vec![false; n];
    for &x in nodes {
        m[x] = true;
    }
    m
}

/// Traversal from `source`, as GDS's BFS and DFS: each visited node queues its neighbours
/// not seen yet, marking them seen; breadth-first visits the oldest queued next, depth-first
/// the newest (so the last neighbour first). To `maxDepth` (-1: no limit), stopping at the
/// first of `targets` reached.
pub(super) fn traverse(
    v: &View,
    source: usize,
    targets: &[usize],
    max_depth: i64,
    depth_first: bool,
    tick: Tick,
) -> Result<Vec<usize>> {
    let n = v.n();
    let wanted = marks(n, targets);
    let mut seen = vec![false; n];
    let mut order = Vec::new();
    let mut queue = VecDeque::new();
    seen[source] = true;
    queue.push_back((source, 0i64));
    loop {
        let next = if depth_first {
            queue.pop_back()
        } else {
            queue.pop_front()
        };
        let Some((u, depth)) = next else { break };
        tick()?;
        order.push(u);
        if wanted[u] {
            break;
        }
        if max_depth >= 0 && depth >= max_depth {
            continue;
        }
        for &(w, _) in &v.out[u] {
            if !seen[w] {
                seen[w] = true;
                queue.push_back((w, depth + 1));
            }
        }
    }
    Ok(order)
}
