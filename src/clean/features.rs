//! The feature vector of Formula 2: w_i = Σ_j BWeight_j · BTf_ij, L2-normalised, over the
//! content blocks of a page or of its topic content, after stop-word removal (§3.2).

use std::collections::HashMap;

use fnv::FnvHashMap;

use super::BlockWeights;
use crate::tagtree::{NodeId, TagTree};
use crate::text::StopWords;

/// A normalised feature vector.
///
/// Its terms are hashed with FNV, not the standard library's SipHash (every term of a page's
/// topic content is looked up here): nothing reads the map in its own order, as every walk
/// over it is summed by [`ordered_sum`] or sorted ([`FeatureVector::top`]), so the hasher
/// cannot reach an output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FeatureVector {
    weights: FnvHashMap<String, f64>,
}

impl FeatureVector {
    /// Builds a vector from raw (unnormalised) weights.
    pub fn from_raw(raw: FnvHashMap<String, f64>) -> FeatureVector {
        let norm = ordered_sum(raw.values().map(|w| w * w)).sqrt();
        let weights =
            if norm > 0.0 { raw.into_iter().map(|(t, w)| (t, w / norm)).collect() } else { FnvHashMap::default() };
        FeatureVector { weights }
    }

    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    pub fn len(&self) -> usize {
        self.weights.len()
    }

    pub fn weight(&self, term: &str) -> f64 {
        self.weights.get(term).copied().unwrap_or(0.0)
    }

    /// The `n` heaviest features, heaviest first; ties in alphabetical order, so the result
    /// is deterministic.
    pub fn top(&self, n: usize) -> Vec<(&str, f64)> {
        let mut all: Vec<(&str, f64)> = self.weights.iter().map(|(t, &w)| (t.as_str(), w)).collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        all.truncate(n);
        all
    }

    /// Cosine similarity (Formula 3); both vectors are unit length.
    pub fn cosine(&self, other: &FeatureVector) -> f64 {
        let (small, large) = if self.len() <= other.len() { (self, other) } else { (other, self) };
        ordered_sum(small.weights.iter().map(|(t, w)| w * large.weight(t)))
    }

    /// The cosine (Formula 3) of this vector with the vector of plain term counts of `terms`:
    /// what [`FeatureVector::cosine`] gives for `FeatureVector::from_raw` of those counts,
    /// without a `String` per term. The counts are normalised as `from_raw` does; whichever
    /// vector `cosine` walks, its non-zero products are those of the terms both hold, and
    /// both sum them in ascending order, so the value is the same (a zero's sign aside).
    /// `counts` is scratch space, left holding the counts.
    pub fn cosine_with_counts<'t>(
        &self,
        terms: impl IntoIterator<Item = &'t str>,
        counts: &mut FnvHashMap<&'t str, f64>,
    ) -> f64 {
        counts.clear();
        for term in terms {
            *counts.entry(term).or_insert(0.0) += 1.0;
        }
        let norm = ordered_sum(counts.values().map(|w| w * w)).sqrt();
        if norm > 0.0 {
            ordered_sum(counts.iter().map(|(t, w)| (w / norm) * self.weight(t)))
        } else {
            ordered_sum(std::iter::empty())
        }
    }
}

/// The sum of `values` in ascending order. A `HashMap`'s order changes from run to run, and a
/// float sum's last bits with it; summed in one order, equal inputs give equal bytes
/// (abstracts whose sentences tie on weight, replica decisions at a threshold).
pub(crate) fn ordered_sum(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values.iter().sum()
}

/// Formula 2 over `nodes` (each node's own terms form its block; a term written inside a
/// machine string is no feature, [`crate::tagtree::Terms::keyword_candidates`]). Each term's
/// weight is summed under the borrowed term, in node order, and owned once.
pub fn feature_vector(tree: &TagTree, nodes: &[NodeId], weights: &BlockWeights, stop: &StopWords) -> FeatureVector {
    let mut raw: FnvHashMap<&str, f64> = FnvHashMap::default();
    for &id in nodes {
        let bw = weights.get(id);
        for term in tree.nodes[id].terms.keyword_candidates() {
            if let Some(term) = stop.content_term(term) {
                *raw.entry(term).or_default() += bw;
            }
        }
    }
    FeatureVector::from_raw(raw.into_iter().map(|(t, w)| (t.to_string(), w)).collect())
}

/// Plain term frequencies over `nodes`, stop words and terms written inside a machine string
/// removed, as for [`feature_vector`] (the fingerprint of §5 sorts by term frequency, not by
/// weight). Counted under the borrowed terms, each owned once.
pub fn term_frequencies(tree: &TagTree, nodes: &[NodeId], stop: &StopWords) -> HashMap<String, u32> {
    let mut tf: FnvHashMap<&str, u32> = FnvHashMap::default();
    for &id in nodes {
        for term in tree.nodes[id].terms.keyword_candidates() {
            if let Some(term) = stop.content_term(term) {
                *tf.entry(term).or_default() += 1;
            }
        }
    }
    tf.into_iter().map(|(t, n)| (t.to_string(), n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(pairs: &[(&str, f64)]) -> FeatureVector {
        FeatureVector::from_raw(pairs.iter().map(|(t, w)| (t.to_string(), *w)).collect())
    }

    #[test]
    fn ordered_sums_do_not_depend_on_the_order_of_their_terms() {
        // In this order a plain sum loses the 0.1s to rounding; in another it keeps them.
        let terms = [1e17, 0.1, -1e17, 0.1, 3.0];
        let sums: Vec<u64> = [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [1, 3, 0, 2, 4]]
            .iter()
            .map(|order| ordered_sum(order.iter().map(|&i| terms[i])).to_bits())
            .collect();
        assert!(sums.iter().all(|&s| s == sums[0]), "{sums:?}");
        let plain: Vec<u64> = [[0, 1, 2, 3, 4], [1, 3, 0, 2, 4]]
            .iter()
            .map(|order| order.iter().map(|&i| terms[i]).sum::<f64>().to_bits())
            .collect();
        assert_ne!(plain[0], plain[1], "the example no longer shows the order-dependence");
    }

    #[test]
    fn vectors_are_unit_length_and_ranked_deterministically() {
        let v = vector(&[("b", 3.0), ("a", 3.0), ("c", 4.0)]);
        let norm: f64 = ["a", "b", "c"].iter().map(|t| v.weight(t).powi(2)).sum();
        assert!((norm - 1.0).abs() < 1e-12);
        let top: Vec<&str> = v.top(3).into_iter().map(|(t, _)| t).collect();
        assert_eq!(top, ["c", "a", "b"]);
    }

    #[test]
    fn the_cosine_with_counts_is_the_cosine_with_their_vector() {
        let topic = vector(&[("ice", 0.3), ("glacier", 2.0), ("melt", 1.1), ("river", 0.2), ("zero", 0.0)]);
        let blocks: [&[&str]; 5] = [
            &["glacier", "ice", "glacier", "lake"],
            &["glacier", "ice", "melt", "river", "lake", "snow", "rock", "sky", "sea", "melt"],
            &["snow", "rock"],
            &["zero", "zero", "ice"],
            &[],
        ];
        let mut counts = FnvHashMap::default();
        for terms in blocks {
            let mut raw = FnvHashMap::default();
            for t in terms {
                *raw.entry(t.to_string()).or_insert(0.0) += 1.0;
            }
            let expected = topic.cosine(&FeatureVector::from_raw(raw));
            let found = topic.cosine_with_counts(terms.iter().copied(), &mut counts);
            assert!(found == expected, "{terms:?}: {found} against {expected}");
            assert!(expected == 0.0 || found.to_bits() == expected.to_bits(), "{terms:?}");
        }
    }

    #[test]
    fn cosine_of_equal_and_disjoint_vectors() {
        let v = vector(&[("x", 1.0), ("y", 2.0)]);
        assert!((v.cosine(&v) - 1.0).abs() < 1e-12);
        assert_eq!(v.cosine(&vector(&[("z", 1.0)])), 0.0);
        assert_eq!(v.cosine(&FeatureVector::default()), 0.0);
    }
}
