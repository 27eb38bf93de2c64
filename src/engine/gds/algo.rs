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
pub(super) fn betweenness(v: &View, weighted: bool, tick: Tick) -> Result<Vec<f64>> {
    let n = v.n();
    let mut centrality = vec![0.0f64; n];
    for s in 0..n {
        tick()?;
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

/// Weakly connected components (relationships of weight above `threshold` only, when
/// given): each node's component is the smallest internal id in it.
pub(super) fn wcc(v: &View, threshold: Option<f64>) -> Vec<usize> {
    let n = v.n();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for i in 0..n {
        for &(w, x) in &v.out[i] {
            if threshold.is_some_and(|t| x <= t) {
                continue;
            }
            let (a, b) = (find(&mut parent, i), find(&mut parent, w));
            if a != b {
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                parent[hi] = lo;
            }
        }
    }
    (0..n).map(|i| v.nodes[find(&mut parent, i)]).collect()
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
    seeds: Option<Vec<i64>>,
    node_weights: Option<Vec<f64>>,
    max_iterations: i64,
    tick: Tick,
) -> Result<Labels> {
    let n = v.n();
    let mut labels: Vec<i64> =
        seeds.unwrap_or_else(|| v.ids.iter().map(|id| id.0 as i64).collect());
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

/// What Louvain found: each node's final community (an index), its community at each level,
/// and the modularity after each level.
pub(super) struct Louvain {
    pub communities: Vec<usize>,
    pub levels: Vec<Vec<usize>>,
    pub modularities: Vec<f64>,
}

/// Modularity of a partition of a weighted graph given as adjacency lists (undirected graphs
/// hold each relationship both ways).
fn modularity(adj: &[Vec<(usize, f64)>], community: &[usize]) -> f64 {
    let total: f64 = adj
        .iter()
        .flatten()
        .map(|(_, w)| *w)
        .fold(0.0, |a, b| a + b);
    if total == 0.0 {
        return 0.0;
    }
    let mut inside: BTreeMap<usize, f64> = BTreeMap::new();
    let mut tot: BTreeMap<usize, f64> = BTreeMap::new();
    for (i, list) in adj.iter().enumerate() {
        for &(j, w) in list {
            *tot.entry(community[i]).or_insert(0.0) += w;
            if community[i] == community[j] {
                *inside.entry(community[i]).or_insert(0.0) += w;
            }
        }
    }
    tot.iter()
        .map(|(c, t)| inside.get(c).copied().unwrap_or(0.0) / total - (t / total) * (t / total))
        .fold(0.0, |a, b| a + b)
}

/// Louvain: local moving (nodes in order, each to the neighbouring community of largest
/// modularity gain, until an iteration gains less than `tolerance`), then the communities
/// become the nodes of the next level; it stops when a level no longer raises modularity by
/// `tolerance` or after `maxLevels`.
pub(super) fn louvain(
    v: &View,
    max_levels: i64,
    max_iterations: i64,
    tolerance: f64,
    tick: Tick,
) -> Result<Louvain> {
    let n = v.n();
    let mut adj: Vec<Vec<(usize, f64)>> = v.out.clone();
    // The community of each original node, level by level.
    let mut membership: Vec<usize> = (0..n).collect();
    let mut levels = Vec::new();
    let mut modularities = Vec::new();
    let mut last = modularity(&adj, &(0..n).collect::<Vec<_>>());
    for _ in 0..max_levels.max(0) {
        let m = adj.len();
        let total: f64 = adj
            .iter()
            .flatten()
            .map(|(_, w)| *w)
            .fold(0.0, |a, b| a + b);
        if total == 0.0 {
            break;
        }
        let degree: Vec<f64> = adj
            .iter()
            .map(|l| l.iter().map(|(_, w)| *w).fold(0.0, |a, b| a + b))
            .collect();
        let mut community: Vec<usize> = (0..m).collect();
        let mut tot: Vec<f64> = degree.clone();
        let mut q = modularity(&adj, &community);
        for _ in 0..max_iterations.max(1) {
            let mut moved = false;
            for i in 0..m {
                tick()?;
                let own = community[i];
                let mut links: BTreeMap<usize, f64> = BTreeMap::new();
                for &(j, w) in &adj[i] {
                    if j != i {
                        *links.entry(community[j]).or_insert(0.0) += w;
                    }
                }
                tot[own] -= degree[i];
                let gain = |c: usize, k_in: f64| k_in - tot[c] * degree[i] / total;
                let mut best = own;
                let mut best_gain = gain(own, links.get(&own).copied().unwrap_or(0.0));
                for (&c, &k_in) in &links {
                    let g = gain(c, k_in);
                    if g > best_gain + 1e-12 || (g == best_gain && c < best && c != own) {
                        best = c;
                        best_gain = g;
                    }
                }
                tot[best] += degree[i];
                if best != own {
                    community[i] = best;
                    moved = true;
                }
            }
            let nq = modularity(&adj, &community);
            let gained = nq - q;
            q = nq;
            if !moved || gained < tolerance {
                break;
            }
        }
        // Renumber the communities 0.. in order of first member.
        let mut renumber: HashMap<usize, usize> = HashMap::new();
        for c in &community {
            let k = renumber.len();
            renumber.entry(*c).or_insert(k);
        }
        let community: Vec<usize> = community.iter().map(|c| renumber[c]).collect();
        if q - last < tolerance && !levels.is_empty() {
            break;
        }
        let k = renumber.len();
        let unchanged = k == m;
        for c in membership.iter_mut() {
            *c = community[*c];
        }
        levels.push(membership.clone());
        modularities.push(q);
        if unchanged {
            break;
        }
        last = q;
        let mut next: Vec<BTreeMap<usize, f64>> = vec![BTreeMap::new(); k];
        for (i, list) in adj.iter().enumerate() {
            for &(j, w) in list {
                *next[community[i]].entry(community[j]).or_insert(0.0) += w;
            }
        }
        adj = next.into_iter().map(|m| m.into_iter().collect()).collect();
    }
    if levels.is_empty() {
        levels.push((0..n).collect());
        modularities.push(last);
    }
    Ok(Louvain {
        communities: membership,
        levels,
        modularities,
    })
}

/// Distinct neighbours of each node but itself, sorted (undirected views).
fn simple_neighbours(v: &View) -> Vec<Vec<usize>> {
    v.out
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut ns: Vec<usize> = l.iter().map(|(w, _)| *w).filter(|w| *w != i).collect();
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

/// Node similarity's metrics over two nodes' neighbour weights (sorted by neighbour).
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

/// The `k` most similar of `candidates` (offered in order), at least `cutoff`, as GDS's
/// bounded priority queue keeps them: a candidate no more similar than the least kept one of
/// a full queue is refused; an accepted one goes before those equal to it, and the least
/// falls out.
pub(super) fn top_k(candidates: Vec<(usize, f64)>, k: usize, cutoff: f64) -> Vec<(usize, f64)> {
    let mut kept: Vec<(usize, f64)> = Vec::new();
    if k == 0 {
        return kept;
    }
    for (id, s) in candidates {
        if s.is_nan() || s < cutoff {
            continue;
        }
        if kept.len() == k && kept.last().is_some_and(|l| s <= l.1) {
            continue;
        }
        let at = kept.partition_point(|e| e.1 > s);
        kept.insert(at, (id, s));
        if kept.len() > k {
            kept.pop();
        }
    }
    kept
}

/// A shortest path found by Dijkstra: its nodes and the cost to reach each.
pub(super) struct ShortestPath {
    pub target: usize,
    pub nodes: Vec<usize>,
    pub costs: Vec<f64>,
}

/// Dijkstra from `source`, as GDS's: a node's predecessor is fixed by the first relaxation
/// that reaches it at its final cost; nodes leave the queue by cost, then by id. Paths come
/// in the order their targets are settled — every reachable node, the source first (no
/// `targets`), or the targets, stopping once all are reached.
pub(super) fn dijkstra(
    v: &View,
    source: usize,
    targets: Option<&[usize]>,
    tick: Tick,
) -> Result<Vec<ShortestPath>> {
    let n = v.n();
    let mut dist = vec![f64::INFINITY; n];
    let mut pred = vec![usize::MAX; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    dist[source] = 0.0;
    heap.push(Cost(0.0, source));
    let mut paths = Vec::new();
    let mut remaining = targets.map(|t| t.len());
    while let Some(Cost(d, u)) = heap.pop() {
        tick()?;
        if done[u] {
            continue;
        }
        done[u] = true;
        let wanted = targets.is_none_or(|t| t.contains(&u));
        if wanted {
            let mut nodes = vec![u];
            let mut at = u;
            while pred[at] != usize::MAX {
                at = pred[at];
                nodes.push(at);
            }
            nodes.reverse();
            let costs = nodes.iter().map(|&x| dist[x]).collect();
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
            if nd < dist[w] {
                dist[w] = nd;
                pred[w] = u;
                heap.push(Cost(nd, w));
            }
        }
    }
    Ok(paths)
}

/// Breadth-first traversal from `source`: nodes in the order visited, to `maxDepth` (-1: no
/// limit), stopping at the first of `targets` reached.
pub(super) fn bfs(
    v: &View,
    source: usize,
    targets: &[usize],
    max_depth: i64,
    tick: Tick,
) -> Result<Vec<usize>> {
    let n = v.n();
    let mut seen = vec![false; n];
    let mut order = Vec::new();
    let mut queue = VecDeque::new();
    seen[source] = true;
    queue.push_back((source, 0i64));
    while let Some((u, depth)) = queue.pop_front() {
        tick()?;
        order.push(u);
        if targets.contains(&u) {
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

/// Depth-first traversal from `source`, as GDS's: each visited node pushes its neighbours not
/// seen yet onto a stack, marking them seen, and the next node visited is the one on top (so
/// the last neighbour first).
pub(super) fn dfs(
    v: &View,
    source: usize,
    targets: &[usize],
    max_depth: i64,
    tick: Tick,
) -> Result<Vec<usize>> {
    let n = v.n();
    let mut seen = vec![false; n];
    let mut order = Vec::new();
    let mut stack = vec![(source, 0i64)];
    seen[source] = true;
    while let Some((u, depth)) = stack.pop() {
        tick()?;
        order.push(u);
        if targets.contains(&u) {
            break;
        }
        if max_depth >= 0 && depth >= max_depth {
            continue;
        }
        for &(w, _) in &v.out[u] {
            if !seen[w] {
                seen[w] = true;
                stack.push((w, depth + 1));
            }
        }
    }
    Ok(order)
}
