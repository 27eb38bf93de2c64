//! `apoc.agg.percentiles` and `apoc.agg.statistics` compute with HdrHistogram 2.1.9 (the
//! version APOC ships): integers go into a histogram of 3 significant digits; at the first
//! float it is copied into a `DoubleHistogram` of 5 digits (an auto-ranging integer histogram
//! behind a power-of-two conversion ratio) and every value after goes there. Results are the
//! histogram's, not exact: a percentile is the highest value equivalent to the recorded one
//! (`12345` → `12351`, `2.0` → `2.0000076293945312`), the mean and deviation use each
//! bucket's median value. This module reproduces those buckets, the auto-ranging and its
//! shifts value for value.

/// An HdrHistogram of longs with a unit magnitude of 0, keyed by each bucket's lowest value.
#[derive(Clone, Debug)]
struct IntHistogram {
    half_magnitude: u32,
    counts: std::collections::BTreeMap<u64, u64>,
    total: u64,
    /// The raw recorded extremes (`Long.MAX_VALUE` / 0 when none).
    max_value: u64,
    min_non_zero: u64,
    /// The length of Java's counts array (for the overflow and underflow checks of shifts).
    length: u64,
    highest_trackable: u64,
}

/// Why a value cannot be recorded.
type Refusal = String;

impl IntHistogram {
    fn new(significant_digits: u32, highest_trackable: u64) -> IntHistogram {
        let largest_single_unit = 2 * 10u64.pow(significant_digits);
        let sub_bucket_count_magnitude = 64 - (largest_single_unit - 1).leading_zeros();
        let mut h = IntHistogram {
            half_magnitude: sub_bucket_count_magnitude.max(1) - 1,
            counts: Default::default(),
            total: 0,
            max_value: 0,
            min_non_zero: u64::MAX >> 1,
            length: 0,
            highest_trackable,
        };
        h.length = h.length_for(highest_trackable);
        h
    }

    fn half_count(&self) -> u64 {
        1 << self.half_magnitude
    }

    fn sub_bucket_count(&self) -> u64 {
        2 << self.half_magnitude
    }

    fn bucket_index(&self, v: u64) -> u32 {
        let base = 64 - self.half_magnitude - 1;
        base - (v | (self.sub_bucket_count() - 1)).leading_zeros()
    }

    fn lowest_equivalent(&self, v: u64) -> u64 {
        let b = self.bucket_index(v);
        (v >> b) << b
    }

    fn range_size(&self, v: u64) -> u64 {
        let b = self.bucket_index(v);
        let sub = v >> b;
        let adjusted = if sub >= self.sub_bucket_count() {
            b + 1
        } else {
            b
        };
        1 << adjusted
    }

    fn highest_equivalent(&self, v: u64) -> u64 {
        self.lowest_equivalent(v) + self.range_size(v) - 1
    }

    fn median_equivalent(&self, v: u64) -> u64 {
        self.lowest_equivalent(v) + (self.range_size(v) >> 1)
    }

    fn index_of(&self, v: u64) -> u64 {
        let b = u64::from(self.bucket_index(v));
        let sub = v >> b;
        ((b + 1) << self.half_magnitude) + sub - self.half_count()
    }

    /// Java's `getLengthForNumberOfBuckets(getBucketsNeededToCoverValue(value))`.
    fn length_for(&self, value: u64) -> u64 {
        let mut smallest_untrackable = self.sub_bucket_count();
        let mut buckets = 1u64;
        while smallest_untrackable <= value {
            if smallest_untrackable > (i64::MAX as u64) / 2 {
                buckets += 1;
                break;
            }
            smallest_untrackable <<= 1;
            buckets += 1;
        }
        (buckets + 1) * self.half_count()
    }

    fn zero_count(&self) -> u64 {
        self.counts.get(&0).copied().unwrap_or(0)
    }

    /// Records `count` of `v`, growing the histogram as auto-resizing does.
    fn record(&mut self, v: u64, count: u64) {
        if self.index_of(v) >= self.length {
            self.length = self.length_for(v);
            self.highest_trackable = v;
        }
        *self.counts.entry(self.lowest_equivalent(v)).or_insert(0) += count;
        self.total += count;
        self.max_value = self.max_value.max(v);
        if v > 0 {
            self.min_non_zero = self.min_non_zero.min(v);
        }
    }

    /// Multiplies every value by 2^k (`shiftValuesLeft`).
    fn shift_left(&mut self, k: u32) -> Result<(), Refusal> {
        if k == 0 || self.total == self.zero_count() {
            return Ok(());
        }
        let shift = u64::from(k) << self.half_magnitude;
        if self.index_of(self.max_value) >= self.length.saturating_sub(shift) {
            return Err("Operation would overflow, would discard recorded value counts".into());
        }
        let old = std::mem::take(&mut self.counts);
        for (v, c) in old {
            let to = if v == 0 {
                0
            } else {
                self.lowest_equivalent(v << k)
            };
            *self.counts.entry(to).or_insert(0) += c;
        }
        self.max_value <<= k;
        if self.min_non_zero < (u64::MAX >> 1) {
            self.min_non_zero <<= k;
        }
        Ok(())
    }

    /// Divides every value by 2^k (`shiftValuesRight`), refused where precision would be lost.
    fn shift_right(&mut self, k: u32) -> Result<(), Refusal> {
        if k == 0 || self.total == self.zero_count() {
            return Ok(());
        }
        let shift = self.half_count() * u64::from(k);
        if self.index_of(self.min_non_zero) < shift + self.half_count() {
            return Err(
                "Operation would underflow and lose precision of already recorded value counts"
                    .into(),
            );
        }
        let old = std::mem::take(&mut self.counts);
        for (v, c) in old {
            let to = if v == 0 {
                0
            } else {
                self.lowest_equivalent(v >> k)
            };
            *self.counts.entry(to).or_insert(0) += c;
        }
        self.max_value >>= k;
        self.min_non_zero >>= k;
        Ok(())
    }

    /// `getValueAtPercentile` as 2.1.9 computes it (the count rounded half up).
    fn value_at_percentile(&self, percentile: f64) -> u64 {
        let requested = percentile.min(100.0);
        let at = ((requested / 100.0) * self.total as f64 + 0.5) as u64;
        let at = at.max(1);
        let mut running = 0;
        for (&v, &c) in &self.counts {
            running += c;
            if running >= at {
                return if percentile == 0.0 {
                    self.lowest_equivalent(v)
                } else {
                    self.highest_equivalent(v)
                };
            }
        }
        0
    }

    fn mean(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let mut total = 0.0;
        for (&v, &c) in &self.counts {
            total += self.median_equivalent(v).wrapping_mul(c) as f64;
        }
        total / self.total as f64
    }

    fn std_deviation(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let mean = self.mean();
        let mut dev = 0.0;
        for (&v, &c) in &self.counts {
            let d = self.median_equivalent(v) as f64 - mean;
            dev += d * d * c as f64;
        }
        (dev / self.total as f64).sqrt()
    }

    /// `getMinNonZeroValue` (`Long.MAX_VALUE` when none).
    fn min_non_zero_value(&self) -> u64 {
        if self.min_non_zero >= (u64::MAX >> 1) {
            i64::MAX as u64
        } else {
            self.lowest_equivalent(self.min_non_zero)
        }
    }
}

/// HdrHistogram's `DoubleHistogram(5)`: auto-ranging over an integer histogram.
#[derive(Clone, Debug)]
struct DoubleHistogram {
    ints: IntHistogram,
    configured_ratio: u64,
    lowest: f64,
    highest: f64,
    to_double: f64,
    to_int: f64,
}

/// The largest value a DoubleHistogram ever records (a power of two well below `f64::MAX`).
fn highest_allowed_ever() -> f64 {
    let mut v = 1.0f64;
    while v < f64::MAX / 4.0 {
        v *= 2.0;
    }
    v
}

fn containing_order(n: u64) -> u32 {
    64 - n.leading_zeros()
}

impl DoubleHistogram {
    fn new() -> DoubleHistogram {
        const DIGITS: u32 = 5;
        let configured_ratio = 2u64;
        let internal_ratio = 1u64 << (containing_order(configured_ratio) + 1);
        let probe = IntHistogram::new(DIGITS, 1);
        let integer_range = probe.half_count() * internal_ratio;
        let ints = IntHistogram::new(DIGITS, integer_range - 1);
        let lowest = 2f64.powi(800);
        let mut h = DoubleHistogram {
            ints,
            configured_ratio,
            lowest: 0.0,
            highest: 0.0,
            to_double: 0.0,
            to_int: 0.0,
        };
        h.set_range(lowest, lowest * internal_ratio as f64);
        h
    }

    fn set_range(&mut self, lowest: f64, highest: f64) {
        self.lowest = lowest;
        self.highest = highest;
        self.to_double = lowest / self.ints.half_count() as f64;
        self.to_int = 1.0 / self.to_double;
    }

    fn capped_order(&self, x: f64) -> u32 {
        if x > self.configured_ratio as f64 {
            return ((self.configured_ratio as f64).ln() / 2f64.ln()) as u32;
        }
        if x > 2f64.powi(50) {
            return 50;
        }
        containing_order(x.ceil() as u64)
    }

    /// Grows the integer histogram instead of shifting (`handleShiftValuesException`).
    fn grow(&mut self, k: u32) -> Result<(), Refusal> {
        let order = k + containing_order(self.ints.highest_trackable);
        if order > 63 {
            return Err("Cannot resize histogram covered range beyond (1L << 63)".into());
        }
        let highest = (1u64 << order) - 1;
        self.ints.length = self.ints.length_for(highest);
        self.ints.highest_trackable = highest;
        self.configured_ratio <<= k;
        Ok(())
    }

    fn shift_range_right(&mut self, k: u32) -> Result<(), Refusal> {
        let m = 1.0 / (1u64 << k) as f64;
        let (mut lowest, mut highest) = (self.lowest, self.highest);
        if self.ints.total > self.ints.zero_count() && self.ints.shift_left(k).is_err() {
            self.grow(k)?;
            highest /= m;
            self.ints.shift_left(k)?;
        }
        lowest *= m;
        highest *= m;
        self.set_range(lowest, highest);
        Ok(())
    }

    fn shift_range_left(&mut self, k: u32) -> Result<(), Refusal> {
        let m = (1u64 << k) as f64;
        let (mut lowest, mut highest) = (self.lowest, self.highest);
        if self.ints.total > self.ints.zero_count() {
            if self.ints.shift_right(k).is_ok() {
                // (2.1.9 scales the range here and again below.)
                lowest *= m;
                highest *= m;
            } else {
                self.grow(k)?;
                lowest /= m;
            }
        }
        lowest *= m;
        highest *= m;
        self.set_range(lowest, highest);
        Ok(())
    }

    fn record(&mut self, value: f64, count: u64) -> Result<(), Refusal> {
        if value < 0.0 {
            return Err("Negative values cannot be recorded".into());
        }
        if value != 0.0 && (value < self.lowest || value >= self.highest) {
            let mut guard = 0;
            while value < self.lowest {
                guard += 1;
                if guard > 4096 {
                    return Err(format!("The value {value} is out of bounds for histogram"));
                }
                let k = self.capped_order((self.lowest / value).ceil() - 1.0);
                self.shift_range_right(k)?;
            }
            if value > highest_allowed_ever() {
                return Err(format!(
                    "Values above {} cannot be recorded",
                    highest_allowed_ever()
                ));
            }
            while value >= self.highest {
                guard += 1;
                if guard > 4096 {
                    return Err(format!("The value {value} is out of bounds for histogram"));
                }
                let next_up = f64::from_bits(value.to_bits() + 1) - value;
                let k = self.capped_order(((value + next_up) / self.highest).ceil() - 1.0);
                self.shift_range_left(k)?;
            }
        }
        let integer = (value * self.to_int) as u64;
        self.ints.record(integer, count);
        Ok(())
    }
}

/// What APOC's aggregation keeps: an integer histogram, or a double one after the first float.
pub(super) struct Hdr {
    ints: Option<IntHistogram>,
    doubles: Option<DoubleHistogram>,
}

/// A number to record, as APOC receives it (a `Long` or a `Double`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Num {
    Int(i64),
    Float(f64),
}

impl Hdr {
    pub fn new() -> Hdr {
        Hdr {
            ints: Some(IntHistogram::new(3, 2)),
            doubles: None,
        }
    }

    pub fn total(&self) -> u64 {
        match (&self.ints, &self.doubles) {
            (Some(h), _) => h.total,
            (_, Some(d)) => d.ints.total,
            _ => 0,
        }
    }

    pub fn record(&mut self, v: Num) -> Result<(), Refusal> {
        if let Some(d) = &mut self.doubles {
            let x = match v {
                Num::Int(i) => i as f64,
                Num::Float(f) => f,
            };
            return d.record(x, 1);
        }
        match v {
            Num::Int(i) => {
                let i = u64::try_from(i)
                    .map_err(|_| "Histogram recorded value cannot be negative.".to_string())?;
                if let Some(h) = &mut self.ints {
                    h.record(i, 1);
                }
                Ok(())
            }
            Num::Float(f) => {
                // APOC's HistogramUtil.toDoubleHistogram: the maximum first, then the rest in
                // order, each bucket as its lowest value.
                let mut d = DoubleHistogram::new();
                if let Some(h) = self.ints.take() {
                    if h.total > 0 {
                        let max = h.lowest_equivalent(h.max_value);
                        let max_count = h.counts.get(&max).copied().unwrap_or(0);
                        d.record(max as f64, max_count)?;
                        for (&v, &c) in h.counts.range(..max) {
                            if c > 0 {
                                d.record(v as f64, c)?;
                            }
                        }
                    }
                }
                d.record(f, 1)?;
                self.doubles = Some(d);
                Ok(())
            }
        }
    }

    /// The value at `p` (a fraction: 0.5 is the median); `None` when nothing was recorded.
    pub fn percentile(&self, p: f64) -> Option<Num> {
        if self.total() == 0 {
            return None;
        }
        Some(match (&self.ints, &self.doubles) {
            (_, Some(d)) => Num::Float(d.ints.value_at_percentile(p * 100.0) as f64 * d.to_double),
            (Some(h), _) => Num::Int(h.value_at_percentile(p * 100.0) as i64),
            _ => return None,
        })
    }

    pub fn mean(&self) -> f64 {
        match (&self.ints, &self.doubles) {
            (_, Some(d)) => d.ints.mean() * d.to_double,
            (Some(h), _) => h.mean(),
            _ => 0.0,
        }
    }

    pub fn std_deviation(&self) -> f64 {
        match (&self.ints, &self.doubles) {
            (_, Some(d)) => d.ints.std_deviation() * d.to_double,
            (Some(h), _) => h.std_deviation(),
            _ => 0.0,
        }
    }

    pub fn min_non_zero(&self) -> f64 {
        match (&self.ints, &self.doubles) {
            (_, Some(d)) => d.ints.min_non_zero_value() as f64 * d.to_double,
            (Some(h), _) => h.min_non_zero_value() as f64,
            _ => i64::MAX as f64,
        }
    }
}

/// A `DoubleHistogram(5)` of a stream of numbers, read as GDS reads its result summaries
/// (`centralityDistribution`, `similarityDistribution`): the smallest and largest recorded
/// values as their buckets' lowest and highest equivalents, the mean and deviation from each
/// bucket's median, percentiles as highest equivalents.
pub(crate) struct Doubles(DoubleHistogram);

impl Doubles {
    pub fn new() -> Doubles {
        Doubles(DoubleHistogram::new())
    }

    /// Records a value (negative or out-of-range values are refused, as HdrHistogram refuses
    /// them).
    pub fn record(&mut self, x: f64) -> Result<(), Refusal> {
        self.0.record(x, 1)
    }

    pub fn min(&self) -> f64 {
        let h = &self.0.ints;
        if h.total == 0 || h.zero_count() > 0 {
            return 0.0;
        }
        h.min_non_zero_value() as f64 * self.0.to_double
    }

    pub fn max(&self) -> f64 {
        let h = &self.0.ints;
        if h.max_value == 0 {
            return 0.0;
        }
        h.highest_equivalent(h.max_value) as f64 * self.0.to_double
    }

    pub fn mean(&self) -> f64 {
        self.0.ints.mean() * self.0.to_double
    }

    pub fn std_deviation(&self) -> f64 {
        self.0.ints.std_deviation() * self.0.to_double
    }

    /// The value at `percentile` (0 to 100).
    pub fn percentile(&self, percentile: f64) -> f64 {
        self.0.ints.value_at_percentile(percentile) as f64 * self.0.to_double
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hdr(xs: &[Num]) -> Hdr {
        let mut h = Hdr::new();
        for x in xs {
            h.record(*x).unwrap();
        }
        h
    }

    fn ps(h: &Hdr, ps: &[f64]) -> Vec<String> {
        ps.iter()
            .map(|p| match h.percentile(*p) {
                Some(Num::Int(i)) => i.to_string(),
                Some(Num::Float(f)) => format!("{f:?}"),
                None => "null".into(),
            })
            .collect()
    }

    const DEFAULT: [f64; 5] = [0.5, 0.75, 0.9, 0.95, 0.99];

    /// Java's printed doubles, as the f64 they denote (Java and Rust may print a tie's last
    /// digit differently: `2.0000076293945312` is 2 + 2^-17 either way).
    fn doubles(xs: &[&str]) -> Vec<String> {
        xs.iter()
            .map(|x| format!("{:?}", x.parse::<f64>().unwrap()))
            .collect()
    }

    #[test]
    fn percentiles_match_hdr_histogram_2_1_9() {
        use Num::{Float as F, Int as I};
        assert_eq!(
            ps(
                &hdr(&[I(0), I(1), I(1), I(2), I(2), I(2), I(3)]),
                &[0.5, 0.95]
            ),
            ["2", "3"]
        );
        assert_eq!(
            ps(
                &hdr(&[I(1), I(1), I(1), I(1), I(2), I(2), I(3), I(4)]),
                &DEFAULT
            ),
            ["1", "2", "3", "4", "4"]
        );
        let ten: Vec<Num> = (1..=10).map(I).collect();
        assert_eq!(ps(&hdr(&ten), &DEFAULT), ["5", "8", "9", "10", "10"]);
        assert_eq!(ps(&hdr(&ten), &[0.0, 0.1, 1.0]), ["1", "1", "10"]);
        assert_eq!(
            ps(&hdr(&[I(10000), I(20000), I(30000), I(12345)]), &DEFAULT),
            ["12351", "20015", "30015", "30015", "30015"]
        );
        let mixed = hdr(&[I(0), I(1), I(1), F(2.0), I(2), I(2), I(3)]);
        assert_eq!(
            ps(&mixed, &[0.5, 0.95]),
            doubles(&["2.0000076293945312", "3.0000076293945312"])
        );
        assert_eq!(
            ps(&hdr(&[F(1.5), F(2.5), F(3.5)]), &DEFAULT),
            doubles(&[
                "2.5000076293945312",
                "2.5000076293945312",
                "3.5000076293945312",
                "3.5000076293945312",
                "3.5000076293945312"
            ])
        );
        assert_eq!(
            ps(&hdr(&[F(100.0), F(200.0), F(300.0)]), &[0.5]),
            doubles(&["200.00048828125"])
        );
    }

    #[test]
    fn statistics_match_hdr_histogram_2_1_9() {
        use Num::{Float as F, Int as I};
        let h = hdr(&[I(0), I(1), I(1), I(2), I(2), I(2), I(3)]);
        assert_eq!(
            (h.min_non_zero(), h.mean(), h.std_deviation()),
            (1.0, 1.5714285714285714, 0.9035079029052512)
        );
        let h = hdr(&[I(0), I(1), I(1), F(2.0), I(2), I(2), I(3)]);
        assert_eq!(
            (h.min_non_zero(), h.mean(), h.std_deviation()),
            (1.0, 1.5714329310825892, 0.9035111771858774)
        );
        let h = hdr(&[F(0.123), F(0.234)]);
        assert_eq!(
            (h.min_non_zero(), h.mean(), h.std_deviation()),
            (
                0.12299966812133789,
                0.17849969863891602,
                0.055500030517578125
            )
        );
        assert_eq!(
            ps(&h, &[0.05, 0.5, 0.95]),
            doubles(&[
                "0.12299966812133789",
                "0.12299966812133789",
                "0.23399972915649414"
            ])
        );
        let h = hdr(&[I(10000), I(20000), I(30000), I(12345)]);
        assert_eq!(h.mean(), 18092.0);
        assert_eq!(Hdr::new().min_non_zero(), 9.223372036854776E18);
        assert!(Hdr::new().record(I(-1)).is_err());
    }
}
