//! Fusing the abstract index's and the full-text index's hits into the tiered search's one
//! list: reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009) or CombSUM (Fox
//! and Shaw, TREC-2 1994) of min-max normalised scores (Lee, SIGIR 1997) or of z-scores
//! (Montague and Aslam, CIKM 2001).
//!
//! The paper's hierarchical index (§7.3) promises the precision of abstracts with the recall
//! of full text. Filling the abstract list's tail from the full text only helps when the
//! abstract index runs out of hits, which it almost never does; fusion lets a page the full
//! text ranks high rise even when its abstract misses a query word, and lets two indexes
//! agreeing on a page lift it.

use std::collections::HashMap;

use super::Candidate;
use super::settings::{FusionMethod, FusionSettings};

/// The top `limit` pages of the two lists fused. A page in both lists keeps the abstract
/// index's candidate (its record is what the result shows); its score is the fused score.
/// Ties (min-max normalisation gives a list's last page 0, as if it were absent) go to the
/// better rank in the heavier list, then in the other, then to the smaller URL, so the order
/// is deterministic.
pub fn fuse(
    abstract_hits: &[Candidate],
    fulltext_hits: &[Candidate],
    settings: &FusionSettings,
    limit: usize,
) -> Vec<Candidate> {
    let weights = [settings.abstract_weight, 1.0 - settings.abstract_weight];
    // (candidate, fused score, rank in the abstract list, rank in the full-text list).
    let mut fused: HashMap<&str, (Candidate, f32, [usize; 2])> = HashMap::new();
    for (which, (list, weight)) in [abstract_hits, fulltext_hits].into_iter().zip(weights).enumerate() {
        let (low, high) =
            list.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), c| (lo.min(c.score), hi.max(c.score)));
        let deviation = standard_deviation(list);
        for (i, candidate) in list.iter().enumerate() {
            let evidence = match settings.method {
                FusionMethod::Rrf => 1.0 / (settings.rrf_k + (i + 1) as f32),
                // One hit, or all tied: each is the list's best.
                FusionMethod::Combsum if high > low => (candidate.score - low) / (high - low),
                // The z-score less the list's lowest z-score, which a missing page scores: the
                // same constant for every page, so the order is that of the z-scores summed.
                FusionMethod::CombsumZ if deviation > 0.0 => (candidate.score - low) / deviation,
                FusionMethod::Combsum | FusionMethod::CombsumZ => 1.0,
            };
            let entry =
                fused.entry(candidate.url.as_str()).or_insert_with(|| (candidate.clone(), 0.0, [usize::MAX; 2]));
            entry.1 += weight * evidence;
            entry.2[which] = entry.2[which].min(i);
        }
    }
    let heavier = if weights[0] >= weights[1] { [0, 1] } else { [1, 0] };
    let mut out: Vec<(Candidate, f32, [usize; 2])> = fused.into_values().collect();
    out.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| a.2[heavier[0]].cmp(&b.2[heavier[0]]))
            .then_with(|| a.2[heavier[1]].cmp(&b.2[heavier[1]]))
            .then_with(|| a.0.url.cmp(&b.0.url))
    });
    out.truncate(limit);
    out.into_iter()
        .map(|(mut candidate, score, _)| {
            candidate.score = score;
            candidate
        })
        .collect()
}

/// A page of a linear fusion ([`super::LinearFusion`]): the candidate of the first ranking that
/// has it (the abstract index's record is shown of a page it finds), its evidence in each of
/// the rankings (its z-score less the ranking's lowest, which a missing page scores: 0) and its
/// rank in each (`usize::MAX` where missing).
#[derive(Debug, Clone, PartialEq)]
pub struct LinearPage {
    pub candidate: Candidate,
    pub evidence: [f32; 4],
    ranks: [usize; 4],
}

/// Each page of four rankings with its evidence in each, in URL order.
pub fn linear_pages(lists: [&[Candidate]; 4]) -> Vec<LinearPage> {
    let mut pages: HashMap<&str, LinearPage> = HashMap::new();
    for (which, list) in lists.into_iter().enumerate() {
        let low = list.iter().map(|c| c.score).fold(f32::INFINITY, f32::min);
        let deviation = standard_deviation(list);
        for (i, candidate) in list.iter().enumerate() {
            let evidence = if deviation > 0.0 { (candidate.score - low) / deviation } else { 1.0 };
            let page = pages.entry(candidate.url.as_str()).or_insert_with(|| LinearPage {
                candidate: candidate.clone(),
                evidence: [0.0; 4],
                ranks: [usize::MAX; 4],
            });
            if page.ranks[which] == usize::MAX {
                page.evidence[which] = evidence;
                page.ranks[which] = i;
            }
        }
    }
    let mut out: Vec<LinearPage> = pages.into_values().collect();
    out.sort_by(|a, b| a.candidate.url.cmp(&b.candidate.url));
    out
}

/// The top `limit` pages by the weighted sum of their evidence (each candidate's score set to
/// it). Ties go to the better rank in the heaviest ranking, then the next, then to the smaller
/// URL, so the order is deterministic.
pub fn rank_linear(pages: &[LinearPage], weights: [f32; 4], limit: usize) -> Vec<Candidate> {
    let mut order = [0, 1, 2, 3];
    order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
    let mut scored: Vec<(f32, &LinearPage)> =
        pages.iter().map(|page| (page.evidence.iter().zip(weights).map(|(e, w)| e * w).sum::<f32>(), page)).collect();
    let by_rank = |a: &LinearPage, b: &LinearPage| {
        order.iter().map(|&i| a.ranks[i].cmp(&b.ranks[i])).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
    };
    let compare = |a: &(f32, &LinearPage), b: &(f32, &LinearPage)| {
        b.0.total_cmp(&a.0).then_with(|| by_rank(a.1, b.1)).then_with(|| a.1.candidate.url.cmp(&b.1.candidate.url))
    };
    if scored.len() > limit && limit > 0 {
        scored.select_nth_unstable_by(limit - 1, compare);
        scored.truncate(limit);
    }
    scored.sort_by(compare);
    scored.truncate(limit);
    scored.into_iter().map(|(score, page)| Candidate { score, ..page.candidate.clone() }).collect()
}

/// The population standard deviation of a list's scores (0 for fewer than two).
fn standard_deviation(list: &[Candidate]) -> f32 {
    if list.len() < 2 {
        return 0.0;
    }
    let n = list.len() as f64;
    let mean = list.iter().map(|c| f64::from(c.score)).sum::<f64>() / n;
    let variance = list.iter().map(|c| (f64::from(c.score) - mean).powi(2)).sum::<f64>() / n;
    variance.sqrt() as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::IndexKind;
    use tantivy::DocAddress;

    fn list(kind: IndexKind, hits: &[(&str, f32)]) -> Vec<Candidate> {
        hits.iter()
            .enumerate()
            .map(|(i, (url, score))| Candidate {
                url: url.to_string(),
                score: *score,
                kind,
                shard: 0,
                address: DocAddress::new(0, i as u32),
            })
            .collect()
    }

    fn settings(method: FusionMethod, abstract_weight: f32) -> FusionSettings {
        FusionSettings { method, abstract_weight, rrf_k: 60.0, depth: 100 }
    }

    fn urls(fused: &[Candidate]) -> Vec<&str> {
        fused.iter().map(|c| c.url.as_str()).collect()
    }

    #[test]
    fn a_page_both_indexes_rank_rises_above_one_only_the_abstract_ranks_first() {
        let a = list(IndexKind::Abstract, &[("x", 9.0), ("y", 8.0), ("z", 1.0)]);
        let f = list(IndexKind::Fulltext, &[("y", 20.0), ("w", 15.0), ("x", 1.0)]);
        let rrf = fuse(&a, &f, &settings(FusionMethod::Rrf, 0.5), 10);
        assert_eq!(urls(&rrf), ["y", "x", "w", "z"]);
        // y is in both lists: the abstract index's record is shown.
        assert_eq!(rrf[0].kind, IndexKind::Abstract);
        assert_eq!(rrf[2].kind, IndexKind::Fulltext);
        let combsum = fuse(&a, &f, &settings(FusionMethod::Combsum, 0.5), 2);
        // y: 0.5 · 7/8 + 0.5 · 1; x: 0.5 · 1 + 0.5 · 0; w: 0.5 · 14/19.
        assert_eq!(urls(&combsum), ["y", "x"]);
        assert!((combsum[0].score - 0.9375).abs() < 1e-6);
    }

    #[test]
    fn z_scores_let_a_page_far_above_its_list_beat_the_best_of_near_equals() {
        // The abstract's top two are near equals; the full text's top page stands far above
        // the rest of its list. Min-max gives both list tops 1 (a tie, broken by the order of
        // the lists); z-scores count how far each stands above its list.
        let a = list(IndexKind::Abstract, &[("x", 10.0), ("y", 9.0), ("z", 1.0), ("v", 0.0)]);
        let mut full = vec![("w", 100.0)];
        full.extend([("p0", 10.0), ("p1", 9.0), ("p2", 8.0), ("p3", 7.0), ("p4", 6.0), ("p5", 5.0)]);
        let f = list(IndexKind::Fulltext, &full);
        let minmax = fuse(&a, &f, &settings(FusionMethod::Combsum, 0.5), 10);
        assert_eq!(urls(&minmax)[..3], ["x", "w", "y"]);
        assert!((minmax[0].score - minmax[1].score).abs() < 1e-6);
        let z = fuse(&a, &f, &settings(FusionMethod::CombsumZ, 0.5), 10);
        assert_eq!(urls(&z)[..3], ["w", "x", "y"]);
        // x: 0.5 · (10 − 0) / sd(10, 9, 1, 0), sd = √20.5.
        assert!((z[1].score - 0.5 * 10.0 / 20.5f32.sqrt()).abs() < 1e-5, "{z:?}");
    }

    #[test]
    fn a_linear_fusion_weighs_each_rankings_z_scores() {
        let a = list(IndexKind::Abstract, &[("x", 10.0), ("y", 9.0), ("z", 1.0), ("v", 0.0)]);
        let f = list(IndexKind::Fulltext, &[("y", 4.0), ("w", 2.0), ("x", 0.0)]);
        let pages = linear_pages([&a, &f, &[], &[]]);
        assert_eq!(pages.len(), 5);
        // The abstract ranking alone, then the full text's alone (pages missing from it last,
        // in the abstract's order), then both: y has 9 / √20.5 and 4 / sd(4, 2, 0) = 4 / √(8/3).
        assert_eq!(urls(&rank_linear(&pages, [1.0, 0.0, 0.0, 0.0], 10)), ["x", "y", "z", "v", "w"]);
        assert_eq!(urls(&rank_linear(&pages, [0.0, 1.0, 0.0, 0.0], 10)), ["y", "w", "x", "z", "v"]);
        let both = rank_linear(&pages, [1.0, 1.0, 0.0, 0.0], 2);
        assert_eq!(urls(&both), ["y", "x"]);
        let expected = 9.0 / 20.5f32.sqrt() + 4.0 / (8.0f32 / 3.0).sqrt();
        assert!((both[0].score - expected).abs() < 1e-5, "{both:?}");
        // A page both rankings have shows the abstract index's record.
        assert_eq!(both[0].kind, IndexKind::Abstract);
    }

    #[test]
    fn weight_one_is_the_abstract_ranking_and_zero_the_full_texts() {
        let a = list(IndexKind::Abstract, &[("x", 9.0), ("y", 8.0)]);
        let f = list(IndexKind::Fulltext, &[("y", 20.0), ("w", 15.0)]);
        for method in [FusionMethod::Rrf, FusionMethod::Combsum, FusionMethod::CombsumZ] {
            assert_eq!(urls(&fuse(&a, &f, &settings(method, 1.0), 2)), ["x", "y"]);
            assert_eq!(urls(&fuse(&a, &f, &settings(method, 0.0), 2)), ["y", "w"]);
        }
        assert!(fuse(&[], &[], &settings(FusionMethod::Rrf, 0.5), 10).is_empty());
    }
}
