//! Turning logits into a token: greedy by default, or sampled at a temperature (seeded, so a run
//! can be repeated).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    /// 0 (the default) is greedy: always the most likely token.
    pub temperature: f32,
    pub seed: u64,
}

impl Default for Sampling {
    fn default() -> Self {
        Self::GREEDY
    }
}

impl Sampling {
    pub const GREEDY: Self = Self {
        temperature: 0.0,
        seed: 0,
    };

    pub fn with_temperature(temperature: f32, seed: u64) -> Self {
        Self { temperature, seed }
    }

    pub fn is_greedy(&self) -> bool {
        self.temperature <= 0.0
    }
}

/// Softmax over the `allowed` entries of `logits` (all when `None`), as (index, probability)
/// sorted most likely first.
pub fn distribution(logits: &[f32], allowed: Option<&[u32]>) -> Vec<(u32, f32)> {
    let ids: Vec<u32> = match allowed {
        Some(a) => a.to_vec(),
        None => (0..logits.len() as u32).collect(),
    };
    let max = ids
        .iter()
        .filter_map(|&i| logits.get(i as usize))
        .fold(f32::NEG_INFINITY, |m, &l| m.max(l));
    let mut out: Vec<(u32, f32)> = ids
        .iter()
        .filter_map(|&i| logits.get(i as usize).map(|&l| (i, (l - max).exp())))
        .collect();
    let sum: f32 = out.iter().map(|(_, p)| p).sum();
    if sum > 0.0 {
        for (_, p) in &mut out {
            *p /= sum;
        }
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

/// Log-probability of token `id` under the full softmax of `logits`.
pub fn log_prob(logits: &[f32], id: u32) -> f32 {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &l| m.max(l));
    let sum: f32 = logits.iter().map(|&l| (l - max).exp()).sum();
    logits
        .get(id as usize)
        .map(|&l| l - max - sum.ln())
        .unwrap_or(f32::NEG_INFINITY)
}

/// A small seeded generator (xorshift64*), enough for sampling.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Uniform in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Picks a token from a sorted distribution: the first when greedy, else sampled after
/// re-weighting by the temperature.
pub fn pick(dist: &[(u32, f32)], sampling: &Sampling, rng: &mut Rng) -> Option<u32> {
    let first = dist.first()?.0;
    if sampling.is_greedy() {
        return Some(first);
    }
    let weights: Vec<f32> = dist
        .iter()
        .map(|(_, p)| p.max(f32::MIN_POSITIVE).powf(1.0 / sampling.temperature))
        .collect();
    let total: f32 = weights.iter().sum();
    let mut target = rng.next_f32() * total;
    for ((id, _), w) in dist.iter().zip(&weights) {
        if target < *w {
            return Some(*id);
        }
        target -= w;
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_most_likely_allowed_token() {
        let logits = [0.0, 5.0, 1.0, 9.0];
        let dist = distribution(&logits, Some(&[0, 1, 2]));
        assert_eq!(dist[0].0, 1);
        assert!((dist.iter().map(|d| d.1).sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(pick(&dist, &Sampling::GREEDY, &mut Rng::new(1)), Some(1));
    }

    #[test]
    fn sampling_is_repeatable_for_a_seed_and_spreads_at_high_temperature() {
        let dist = distribution(&[1.0, 1.0, 1.0, 1.0], None);
        let s = Sampling::with_temperature(1.0, 7);
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|_| pick(&dist, &s, &mut rng).unwrap_or(0))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        let seen: std::collections::HashSet<_> = run(7).into_iter().collect();
        assert!(seen.len() > 1);
    }
}
