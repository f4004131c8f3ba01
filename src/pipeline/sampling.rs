//! Importance sampling of a population's totals: items are drawn with probabilities that
//! follow a cost model fitted as the sample grows, and totals, quantiles and 90 % intervals
//! are estimated from the weighted draws. Nothing here knows about Boggle.
//!
//! Items are drawn one after another without replacement; the `j`-th draw picks among the
//! items left by weights that mix a uniform share ([`UNIFORM_SHARE`]) with the model's
//! predicted costs to the power [`COST_POWER`]. Des Raj's terms `t_j = Σ_{l<j} y_l + y_j / prob_j` are
//! each unbiased for the total of `y` given the draws before them, whatever the model, so the
//! model may be refitted between draws, and their mean is unbiased for a fixed number of
//! draws; a good model only makes it tighter. The uniform share keeps every `y_j / prob_j`
//! below about `y_j · N / UNIFORM_SHARE`, so an item the model wrongly thinks cheap cannot
//! blow the estimate up without bound.

use crate::rng::Rng;

/// Share of each draw's probability spread uniformly over all items.
pub const UNIFORM_SHARE: f64 = 0.25;

/// Draws follow the predicted cost to this power. 1 gives the least variance per draw; when
/// measuring an item takes time in proportion to its cost, 1/2 gives the least variance per
/// second (the variance is Σ y²/q, the time Σ q·y) and draws fewer of the heaviest items
/// into a short budget. Replayed on three finished 3x3 runs (40 seeds, 5 % samples), 3/4
/// was as accurate as 1 and covered best; drawing by the cost itself, a 4x4 estimate had
/// not finished its first 16 classes after 6 minutes.
const COST_POWER: f64 = 0.75;

/// The first refit comes after this many items are measured (before it, the prior model).
const FIRST_FIT: usize = 4;

/// Weight of the prior slope in a fit, as if that many items of unit feature spread had
/// agreed with it.
const PRIOR_WEIGHT: f64 = 4.0;

/// Bootstrap resamples behind each interval.
const BOOTSTRAP: usize = 2000;

/// `ln(cost) ≈ intercept + slope · x`, where `x` is the item's one feature, fitted by least
/// squares with the slope pulled towards a prior value (ridge regression around a prior).
#[derive(Clone, Copy, Debug)]
pub struct CostModel {
    intercept: f64,
    slope: f64,
}

impl CostModel {
    /// The prior model: the prior slope, no intercept (only ratios of predictions matter
    /// for drawing).
    pub fn prior(slope: f64) -> CostModel {
        CostModel {
            intercept: 0.0,
            slope,
        }
    }

    /// Fits the model to `(item, cost)` pairs (costs > 0) of the items' `feature`s, the
    /// slope pulled towards `prior` as if [`PRIOR_WEIGHT`] items of unit feature spread had
    /// agreed with it; `None` if there are fewer than two pairs.
    pub fn fit(feature: &[f32], seen: &[(usize, f64)], prior: f64) -> Option<CostModel> {
        if seen.len() < 2 {
            return None;
        }
        let n = seen.len() as f64;
        let mean_x = seen.iter().map(|&(i, _)| feature[i] as f64).sum::<f64>() / n;
        let mean_y = seen.iter().map(|&(_, y)| y.max(1e-12).ln()).sum::<f64>() / n;
        let (mut sxx, mut sxy) = (0.0, 0.0);
        for &(i, cost) in seen {
            let x = feature[i] as f64 - mean_x;
            sxx += x * x;
            sxy += x * (cost.max(1e-12).ln() - mean_y);
        }
        let slope = (sxy + PRIOR_WEIGHT * prior) / (sxx + PRIOR_WEIGHT);
        slope.is_finite().then_some(CostModel {
            intercept: mean_y - slope * mean_x,
            slope,
        })
    }

    /// The predicted cost of an item with this feature.
    pub fn predict(&self, x: f32) -> f64 {
        // Clamped so one wild coefficient cannot overflow the sum of predictions.
        (self.intercept + self.slope * x as f64)
            .clamp(-200.0, 200.0)
            .exp()
    }
}

/// One draw: the item and the chance it had among the items not drawn before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draw {
    /// The item drawn.
    pub item: usize,
    /// Its probability at that draw, among the items left.
    pub prob: f64,
}

/// Draws items by importance without replacement, refitting the cost model as
/// measurements come in.
pub struct Sampler<'t> {
    /// Each item's feature.
    feature: &'t [f32],
    /// Prior slope of the cost model.
    prior: f64,
    rng: Rng,
    draws: Vec<Draw>,
    /// Whether each item has been drawn.
    drawn: Vec<bool>,
    /// The model's target (e.g. tree nodes) of every measured item, in the order recorded.
    measured: Vec<(usize, f64)>,
    /// Each item's draw weight under the current model (they add up to 1).
    weight: Vec<f64>,
    /// Cumulative weights, drawn items counted as 0 as of the last rebuild.
    cumulative: Vec<f64>,
    /// The weight of the items not drawn yet.
    left: f64,
    /// Refit once this many items are measured.
    next_fit: usize,
}

impl<'t> Sampler<'t> {
    /// A sampler over items with these features (at least one), drawing from `seed`; until
    /// items are measured it draws by the prior model (slope `prior`).
    pub fn new(feature: &'t [f32], prior: f64, seed: u64) -> Sampler<'t> {
        assert!(!feature.is_empty(), "nothing to sample");
        let mut s = Sampler {
            feature,
            prior,
            rng: Rng::new(seed),
            draws: Vec::new(),
            drawn: vec![false; feature.len()],
            measured: Vec::new(),
            weight: Vec::new(),
            cumulative: Vec::new(),
            left: 0.0,
            next_fit: FIRST_FIT,
        };
        s.use_model(CostModel::prior(prior));
        s
    }

    /// Draws an item not drawn before, by the current weights renormalised over the items
    /// left; `None` once every item is drawn. Items drawn so far need not be recorded yet.
    pub fn draw(&mut self) -> Option<usize> {
        if self.draws.len() == self.drawn.len() {
            return None;
        }
        let total = *self.cumulative.last().expect("at least one item");
        if self.left < 0.5 * total {
            // Most of the weight is drawn: reject less by zeroing it.
            self.rebuild();
        }
        let total = *self.cumulative.last().expect("at least one item");
        loop {
            // A uniform point of the cumulative weights, rejected if its item was drawn
            // since the last rebuild: this draws by the weights of the items left.
            let u = self.rng.unit() * total;
            let item = self
                .cumulative
                .partition_point(|&c| c <= u)
                .min(self.drawn.len() - 1);
            if self.drawn[item] {
                continue;
            }
            let prob = (self.weight[item] / self.left).min(1.0);
            self.drawn[item] = true;
            self.left -= self.weight[item];
            self.draws.push(Draw { item, prob });
            return Some(item);
        }
    }

    /// Records the model target of a measured item; refits the model when the number of
    /// measured items has doubled since the last fit.
    pub fn record(&mut self, item: usize, target: f64) {
        self.measured.push((item, target.max(1e-12)));
        if self.measured.len() >= self.next_fit {
            self.next_fit = self.measured.len() * 2;
            self.use_model(self.model());
        }
    }

    /// The draws so far, in order.
    pub fn draws(&self) -> &[Draw] {
        &self.draws
    }

    /// The cost model fitted to every item recorded so far (the prior model before two
    /// are).
    pub fn model(&self) -> CostModel {
        let mut seen = self.measured.clone();
        // A fixed order, so the fit (and every later draw) is reproducible.
        seen.sort_unstable_by_key(|&(i, _)| i);
        CostModel::fit(self.feature, &seen, self.prior).unwrap_or(CostModel::prior(self.prior))
    }

    /// Draws from now on by `model`'s predictions to the power [`COST_POWER`], mixed with
    /// the uniform share.
    fn use_model(&mut self, model: CostModel) {
        let n = self.feature.len();
        let root: Vec<f64> = self
            .feature
            .iter()
            .map(|&x| model.predict(x).powf(COST_POWER))
            .collect();
        let total: f64 = root.iter().sum();
        let share = if total.is_finite() && total > 0.0 {
            1.0 - UNIFORM_SHARE
        } else {
            0.0
        };
        self.weight = root
            .iter()
            .map(|r| (1.0 - share) / n as f64 + if share > 0.0 { share * r / total } else { 0.0 })
            .collect();
        self.rebuild();
    }

    /// Recomputes the cumulative weights with the drawn items as 0, and the weight left.
    fn rebuild(&mut self) {
        let mut acc = 0.0;
        self.cumulative = self
            .weight
            .iter()
            .zip(&self.drawn)
            .map(|(&w, &drawn)| {
                if !drawn {
                    acc += w;
                }
                acc
            })
            .collect();
        self.left = acc;
    }
}

/// A point estimate with its 90 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Point estimate.
    pub point: f64,
    /// Lower end of the 90 % interval.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// Estimates the population total of `value` from one or more independent sequences of draws
/// (each a [`Sampler`]'s, with its own seed), by Des Raj's estimator for draws without
/// replacement: the `j`-th draw of a sequence gives `t_j = (the values drawn before it in its
/// sequence) + value_j / prob_j`, unbiased given those draws, and the estimate is the mean of
/// every sequence's `t_j` (unbiased for fixed numbers of draws; sequences of more draws weigh
/// more, as their terms are as good as anyone's). The 90 % interval is the percentile
/// bootstrap of that mean (resampling the pooled `t_j`, seeded by `seed`), widened by
/// `t(n−1) / z · √(n / (n−1))` so that few draws give the wider interval small samples need.
pub fn estimate_total(
    sequences: &[Vec<Draw>],
    value: impl Fn(usize) -> f64,
    seed: u64,
) -> Interval {
    let mut terms: Vec<f64> = Vec::new();
    for draws in sequences {
        // Invariant: `before` is the sum of the values drawn earlier in this sequence.
        let mut before = 0.0;
        terms.extend(draws.iter().map(|d| {
            let v = value(d.item);
            let t = before + v / d.prob;
            before += v;
            t
        }));
    }
    let n = terms.len();
    if n == 0 {
        return Interval {
            point: 0.0,
            lo: 0.0,
            hi: 0.0,
        };
    }
    let point = terms.iter().sum::<f64>() / n as f64;
    if n == 1 {
        // One draw says nothing about its own spread.
        return Interval {
            point,
            lo: 0.0,
            hi: f64::INFINITY,
        };
    }
    let mut rng = Rng::new(seed);
    let mut means: Vec<f64> = (0..BOOTSTRAP)
        .map(|_| (0..n).map(|_| terms[rng.index(n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * BOOTSTRAP as f64) as usize).min(BOOTSTRAP - 1)];
    let widen = student_t95(n - 1) / Z95 * (n as f64 / (n - 1) as f64).sqrt();
    Interval {
        point,
        lo: (point - (point - at(0.05)) * widen).max(0.0),
        hi: point + (at(0.95) - point) * widen,
    }
}

/// The 95th percentile of the standard normal distribution.
const Z95: f64 = 1.644_853_6;

/// The 95th percentile of Student's t with `nu` degrees of freedom (Cornish-Fisher
/// expansion: 2.115 for 4, true 2.132; within 0.3 % from 8 on).
fn student_t95(nu: usize) -> f64 {
    let (z, v) = (Z95, nu as f64);
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
}

/// How many items of the population each draw stands for in [`estimate_total`]'s point
/// estimate: the total of any `value` is `Σ weight_l · value_l`. In one sequence of `K`
/// draws, the `l`-th weighs `1 / (K · prob_l)` for its own term plus `1 / K` for each later
/// term it was drawn before; sequences pooled into `n` draws in all weigh `K / n` each.
/// The weights come out sequence after sequence, in the order drawn.
pub fn draw_weights(sequences: &[Vec<Draw>]) -> Vec<f64> {
    let n: usize = sequences.iter().map(Vec::len).sum();
    let mut weights = Vec::with_capacity(n);
    for draws in sequences {
        let k = draws.len() as f64;
        let share = k / n as f64;
        weights.extend(
            draws
                .iter()
                .enumerate()
                .map(|(l, d)| share * (1.0 / (k * d.prob) + (k - 1.0 - l as f64) / k)),
        );
    }
    weights
}

/// Quantiles over the population of values given with the number of items each stands
/// for, `(value, weight)`, for each `q` in `qs` (0..=1).
pub fn weighted_quantiles(mut pts: Vec<(f64, f64)>, qs: &[f64]) -> Vec<f64> {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = pts.iter().map(|p| p.1).sum();
    qs.iter()
        .map(|&q| {
            let mut acc = 0.0;
            for &(v, w) in &pts {
                acc += w;
                if acc >= q * total {
                    return v;
                }
            }
            pts.last().map_or(0.0, |p| p.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A population whose log cost is linear in one feature, with a heavy tail.
    fn population(n: usize) -> (Vec<f32>, Vec<f64>) {
        let mut rng = Rng::new(5);
        let mut feature = Vec::new();
        let mut cost = Vec::new();
        for _ in 0..n {
            let x = rng.index(6) as f32;
            feature.push(x);
            cost.push((1.2 * x as f64 + 0.5 * rng.unit()).exp());
        }
        (feature, cost)
    }

    /// The draws of one sampler with this seed.
    fn sequence(feature: &[f32], cost: &[f64], draws: usize, seed: u64) -> Vec<Draw> {
        let mut s = Sampler::new(feature, 0.5, seed);
        while s.draws().len() < draws {
            let i = s.draw().expect("items left");
            s.record(i, cost[i]);
        }
        s.draws().to_vec()
    }

    fn run(feature: &[f32], cost: &[f64], draws: usize, seed: u64) -> Interval {
        estimate_total(&[sequence(feature, cost, draws, seed)], |i| cost[i], seed)
    }

    #[test]
    fn the_model_learns_the_slope() {
        let (feature, cost) = population(400);
        let seen: Vec<(usize, f64)> = (0..100).map(|i| (i, cost[i])).collect();
        let m = CostModel::fit(&feature, &seen, 0.0).unwrap();
        assert!((m.slope - 1.2).abs() < 0.1, "{m:?}");
        // The noise is uniform on [0, 0.5): its mean, 0.25, is the intercept.
        assert!((m.intercept - 0.25).abs() < 0.1, "{m:?}");
        // With one item the prior stands; with two items and a strong prior, it pulls.
        assert!(CostModel::fit(&feature, &seen[..1], 0.0).is_none());
    }

    #[test]
    fn estimates_cover_the_true_total_and_beat_uniform_draws() {
        let (feature, cost) = population(5000);
        let truth: f64 = cost.iter().sum();
        let mut covered = 0;
        let mut worst: f64 = 0.0;
        for seed in 0..40 {
            let e = run(&feature, &cost, 100, seed);
            worst = worst.max((e.point / truth - 1.0).abs());
            if e.lo <= truth && truth <= e.hi {
                covered += 1;
            }
        }
        // 90 % intervals: about 36 of 40; far fewer means the intervals are too narrow.
        assert!(covered >= 32, "covered {covered} of 40");
        assert!(worst < 0.25, "worst error {worst}");
    }

    #[test]
    fn independent_samples_pooled_cover_the_true_total_as_one_sample_does() {
        let (feature, cost) = population(5000);
        let truth: f64 = cost.iter().sum();
        let (mut covered, mut worst, mut width) = (0, 0.0f64, 0.0);
        let (mut covered_one, mut width_one) = (0, 0.0);
        for seed in 0..40 {
            // Two samples of 50 (seeds 2k and 2k + 1) pooled, against one of 100.
            let pooled = [
                sequence(&feature, &cost, 50, 2 * seed),
                sequence(&feature, &cost, 50, 2 * seed + 1),
            ];
            let e = estimate_total(&pooled, |i| cost[i], seed);
            worst = worst.max((e.point / truth - 1.0).abs());
            covered += usize::from(e.lo <= truth && truth <= e.hi);
            width += (e.hi - e.lo) / truth;
            let one = run(&feature, &cost, 100, 1000 + seed);
            covered_one += usize::from(one.lo <= truth && truth <= one.hi);
            width_one += (one.hi - one.lo) / truth;
            // Their weights still stand for the whole population.
            let w: f64 = draw_weights(&pooled)
                .iter()
                .zip(pooled.iter().flatten())
                .map(|(w, d)| w * cost[d.item])
                .sum();
            assert!((w / e.point - 1.0).abs() < 1e-9, "{w} against {}", e.point);
        }
        assert!(covered >= 32, "covered {covered} of 40");
        assert!(worst < 0.25, "worst error {worst}");
        // As tight as one sample of as many draws, give or take the second sample's cold
        // start (its first draws follow the prior model).
        assert!(
            width < 1.5 * width_one,
            "pooled width {width}, one sample {width_one} (covered {covered_one})"
        );
    }

    #[test]
    fn draw_weights_of_uniform_draws_add_up_to_the_population() {
        // Uniform draws without replacement from 100 items: the l-th had 1 / (100 - l).
        let draws: Vec<Draw> = (0..30)
            .map(|l| Draw {
                item: l,
                prob: 1.0 / (100 - l) as f64,
            })
            .collect();
        let total: f64 = draw_weights(std::slice::from_ref(&draws)).iter().sum();
        assert!((total - 100.0).abs() < 1e-9, "{total}");
        // Pooled with a second sequence of 10, the 40 draws still stand for 100 items.
        let pooled = [
            draws,
            (0..10)
                .map(|l| Draw {
                    item: l,
                    prob: 1.0 / (100 - l) as f64,
                })
                .collect(),
        ];
        let total: f64 = draw_weights(&pooled).iter().sum();
        assert!((total - 100.0).abs() < 1e-9, "{total}");
        let q = weighted_quantiles(
            (0..100).map(|i| (i as f64, 1.0)).collect(),
            &[0.5, 0.9, 1.0],
        );
        assert_eq!(q, vec![49.0, 89.0, 99.0]);
    }

    #[test]
    fn a_sampler_draws_every_item_once_then_stops() {
        let (feature, cost) = population(50);
        let mut s = Sampler::new(&feature, 0.5, 3);
        let mut seen = [false; 50];
        while let Some(i) = s.draw() {
            assert!(!seen[i], "item {i} drawn twice");
            seen[i] = true;
            s.record(i, cost[i]);
        }
        assert!(seen.iter().all(|&x| x));
        // The last draw had the only item left: probability 1.
        assert!((s.draws().last().unwrap().prob - 1.0).abs() < 1e-9);
    }
}
