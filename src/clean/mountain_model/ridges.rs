//! Information ridges (§3.3, Definition 3; GetRidgeSet of §4) and their features
//! (Definition 4, Formulas 4–7).

use super::smoothing::Slot;

/// A ridge: a stretch of the smoothed sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Ridge {
    /// First and last slot of the ridge (inclusive).
    pub first_slot: usize,
    pub last_slot: usize,
    /// The page cells in the ridge (indices into the cells), in order; blank cells left out.
    pub cells: Vec<usize>,
}

/// The ridges of a smoothed sequence (Definition 3): stretches that
/// 1. hold a score above `peak` (the peak threshold),
/// 2. hold no run of more than `span_window` scores below `primary` (the primary threshold),
/// 3. begin and end with a score above `primary`.
///
/// GetRidgeSet grows a ridge from a peak backwards and forwards while the conditions hold. The
/// same ridges come out of one pass: cut the sequence at every run of more than `span_window`
/// scores not above `primary`, trim each piece to its first and last score above `primary`, and
/// keep the pieces with a peak. A score equal to the primary threshold counts as below it.
pub fn find_ridges(smoothed: &[f64], primary: f64, peak: f64, span_window: usize) -> Vec<(usize, usize)> {
    let mut ridges = Vec::new();
    // (first, last above primary, has a peak) of the piece being read.
    let mut open: Option<(usize, usize, bool)> = None;
    let mut below = 0usize;
    for (i, &score) in smoothed.iter().enumerate() {
        if score > primary {
            let (first, _, has_peak) = open.unwrap_or((i, i, false));
            open = Some((first, i, has_peak || score > peak));
            below = 0;
        } else if let Some((first, last, has_peak)) = open {
            below += 1;
            if below > span_window {
                if has_peak {
                    ridges.push((first, last));
                }
                open = None;
            }
        }
    }
    if let Some((first, last, true)) = open {
        ridges.push((first, last));
    }
    ridges
}

/// The feature vector of a ridge (Definition 4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RidgeFeatures {
    /// Formula 4: AVG_n / AVG_max, the ridge's mean smoothed cell score over the highest mean.
    pub height: f64,
    /// Formula 5: NoC_n / NoC_max, its number of cells over the most any ridge has.
    pub width: f64,
    /// Formula 6: RP = n / NoR, its place among the ridges (n counted from 1).
    pub ridge_position: f64,
    /// Formula 7: CP = FCN_n / TC, its first cell's number (from 1) over the page's cells.
    pub cell_position: f64,
}

impl RidgeFeatures {
    /// The names, in the order of [`RidgeFeatures::to_vec`].
    pub const NAMES: [&'static str; 4] = ["height", "width", "ridge_position", "cell_position"];

    pub fn to_vec(self) -> Vec<f64> {
        vec![self.height, self.width, self.ridge_position, self.cell_position]
    }
}

/// The ridges of a page with their page cells, and each one's feature vector. Ridges made of
/// blank cells only (a lone smoothed-up blank) are dropped. Cell counts and positions are over
/// page cells: blank cells only stand for code distance.
pub fn ridges_with_features(
    slots: &[Slot],
    smoothed: &[f64],
    spans: &[(usize, usize)],
    total_cells: usize,
) -> Vec<(Ridge, RidgeFeatures)> {
    let ridges: Vec<(Ridge, f64)> = spans
        .iter()
        .filter_map(|&(first_slot, last_slot)| {
            let in_ridge = slots.get(first_slot..=last_slot)?;
            let cells: Vec<usize> = in_ridge.iter().filter_map(|s| s.cell).collect();
            let scores = in_ridge.iter().zip(smoothed.get(first_slot..=last_slot)?);
            let total: f64 = scores.filter(|(s, _)| s.cell.is_some()).map(|(_, &score)| score).sum();
            let average = total / cells.len().max(1) as f64;
            (!cells.is_empty()).then_some((Ridge { first_slot, last_slot, cells }, average))
        })
        .collect();
    let max_average = ridges.iter().map(|(_, a)| *a).fold(f64::MIN, f64::max);
    let max_cells = ridges.iter().map(|(r, _)| r.cells.len()).max().unwrap_or(1).max(1) as f64;
    let count = ridges.len() as f64;
    let total_cells = total_cells.max(1) as f64;
    ridges
        .into_iter()
        .enumerate()
        .map(|(n, (ridge, average))| {
            let features = RidgeFeatures {
                height: if max_average > 0.0 { average / max_average } else { 0.0 },
                width: ridge.cells.len() as f64 / max_cells,
                ridge_position: (n + 1) as f64 / count,
                cell_position: ridge.cells.first().map_or(0.0, |&c| (c + 1) as f64 / total_cells),
            };
            (ridge, features)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ridges_on_a_synthetic_sequence() {
        // Mean-like primary threshold 1, peak threshold 3, span window 2.
        let scores = [
            0.0, 2.0, 4.0, 0.5, 0.5, 2.0, // ridge 1: 1..=5 (a gap of 2 low cells is bridged)
            0.0, 0.0, 0.0, // 3 low cells end it
            2.0, 2.0, // a rise without a peak: no ridge
            0.0, 0.0, 0.0, 0.0, //
            1.5, 5.0, 1.0, // ridge 2: 15..=16 (1.0 is not above the primary threshold)
        ];
        assert_eq!(find_ridges(&scores, 1.0, 3.0, 2), [(1, 5), (15, 16)]);
        // With a span window of 1 the first ridge splits at its gap; its right part has no peak.
        assert_eq!(find_ridges(&scores, 1.0, 3.0, 1), [(1, 2), (15, 16)]);
        // A wider span window bridges everything into one ridge.
        assert_eq!(find_ridges(&scores, 1.0, 3.0, 4), [(1, 16)]);
        assert!(find_ridges(&[], 1.0, 3.0, 2).is_empty());
        assert!(find_ridges(&[0.5, 0.9], 1.0, 3.0, 2).is_empty());
    }

    #[test]
    fn features_follow_formulas_4_to_7() {
        let slots: Vec<Slot> = [Some(0), Some(1), None, Some(2), Some(3), Some(4), Some(5)]
            .into_iter()
            .map(|cell| Slot { cell, score: 0.0 })
            .collect();
        let smoothed = [4.0, 2.0, 9.0, 1.0, 1.0, 6.0, 0.0];
        // Ridge A: slots 0..=2 (cells 0, 1; the blank's score is not averaged), ridge B: slots 5..=5.
        let ridges = ridges_with_features(&slots, &smoothed, &[(0, 2), (5, 5)], 6);
        assert_eq!(ridges[0].0.cells, [0, 1]);
        assert_eq!(ridges[1].0.cells, [4]);
        let (a, b) = (ridges[0].1, ridges[1].1);
        assert_eq!((a.height, b.height), (0.5, 1.0)); // averages 3 and 6
        assert_eq!((a.width, b.width), (1.0, 0.5));
        assert_eq!((a.ridge_position, b.ridge_position), (0.5, 1.0));
        assert_eq!((a.cell_position, b.cell_position), (1.0 / 6.0, 5.0 / 6.0));
        // A ridge of blank cells only is dropped.
        assert!(ridges_with_features(&slots, &smoothed, &[(2, 2)], 6).is_empty());
    }
}
