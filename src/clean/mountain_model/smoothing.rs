//! Blank cells and the smoothing function (§3.2, Formulas 2 and 3).

use super::cells::Cell;
use crate::config::MountainConfig;

/// One place of the mountain: a cell of the page, or a blank cell inserted for the source code
/// between two cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    /// Index into the page's cells; `None` for a blank cell.
    pub cell: Option<usize>,
    /// The cell score CS (Formula 1); 0 for a blank cell.
    pub score: f64,
}

/// The cell sequence with blank cells inserted: ⌊SCD / `blank_cell_code`⌋ blanks between two
/// neighbouring cells (§3.2: SCD 500 and a threshold of 50 insert 10 blanks).
///
/// The count is capped at 2⌊sw/2⌋ + span window + 1. That cap changes nothing: past ⌊sw/2⌋ cells
/// from a real cell a blank's smoothing window holds only blanks, so its score stays 0, and
/// more than span window such blanks already end a ridge (Definition 3). It keeps the sequence
/// linear in the page's cells.
pub fn insert_blank_cells(cells: &[Cell], scores: &[f64], config: &MountainConfig) -> Vec<Slot> {
    let cap = 2 * (config.smoothing_window / 2) + config.span_window + 1;
    let mut slots = Vec::with_capacity(cells.len());
    for (i, (cell, &score)) in cells.iter().zip(scores).enumerate() {
        if i > 0 {
            let blanks = (cell.code_before / config.blank_cell_code).floor();
            let blanks = if blanks.is_finite() && blanks > 0.0 { (blanks as usize).min(cap) } else { 0 };
            slots.extend(std::iter::repeat_n(Slot { cell: None, score: 0.0 }, blanks));
        }
        slots.push(Slot { cell: Some(i), score });
    }
    slots
}

/// Formula 3: the weight of cell i in the window of cell n, from their distance.
pub fn neighbour_weight(distance: usize) -> f64 {
    if distance <= 4 { 1.0 - distance as f64 * 0.2 } else { 0.1 }
}

/// Formula 2: CSS_n = CS_n + Σ_{i≠n} (CS_i − AVG_n)·w_i / (sw − 1), over the window of `window`
/// cells centred on n; AVG_n is the mean original score in the window. At the ends of the
/// sequence the window holds the cells there are (the denominator stays sw − 1).
pub fn smooth(scores: &[f64], window: usize) -> Vec<f64> {
    let half = window / 2;
    if half == 0 {
        return scores.to_vec();
    }
    let denominator = window.saturating_sub(1).max(1) as f64;
    (0..scores.len())
        .map(|n| {
            let lo = n.saturating_sub(half);
            let hi = (n + half).min(scores.len().saturating_sub(1));
            let around = scores.get(lo..=hi).unwrap_or_default();
            let average = around.iter().sum::<f64>() / around.len().max(1) as f64;
            let pull: f64 = around
                .iter()
                .enumerate()
                .map(|(k, &score)| (lo + k, score))
                .filter(|&(i, _)| i != n)
                .map(|(i, score)| (score - average) * neighbour_weight(i.abs_diff(n)))
                .sum();
            scores.get(n).copied().unwrap_or_default() + pull / denominator
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_3_weights_fall_with_distance() {
        let weights: Vec<f64> = (1..=6).map(neighbour_weight).collect();
        let expected = [0.8, 0.6, 0.4, 0.2, 0.1, 0.1];
        assert!(weights.iter().zip(expected).all(|(w, e)| (w - e).abs() < 1e-12), "{weights:?}");
    }

    #[test]
    fn formula_2_by_hand() {
        // sw = 5 around the middle cell: AVG = 10/5 = 2; pull = (0−2)·0.6 + (0−2)·0.8 + (0−2)·0.8 +
        // (0−2)·0.6 = −5.6; CSS = 10 − 5.6/4 = 8.6.
        let smoothed = smooth(&[0.0, 0.0, 10.0, 0.0, 0.0], 5);
        assert!((smoothed[2] - 8.6).abs() < 1e-12);
        // Its neighbour: window 0..=3, AVG = 2.5; pull = (0−2.5)·0.8 + (10−2.5)·0.8 + (0−2.5)·0.6
        // = 2.5; CSS = 0 + 2.5/4.
        assert!((smoothed[1] - 0.625).abs() < 1e-12);
        // A flat sequence stays flat; a window of 1 changes nothing.
        assert!(smooth(&[3.0; 7], 5).iter().all(|&s| (s - 3.0).abs() < 1e-12));
        assert_eq!(smooth(&[1.0, 5.0], 1), [1.0, 5.0]);
        assert!(smooth(&[], 5).is_empty());
    }

    #[test]
    fn a_low_cell_between_high_ones_is_raised_and_a_high_one_among_low_ones_lowered() {
        let smoothed = smooth(&[5.0, 5.0, 1.0, 5.0, 5.0, 0.0, 0.0, 4.0, 0.0, 0.0], 5);
        assert!(smoothed[2] > 1.0);
        assert!(smoothed[7] < 4.0);
    }

    #[test]
    fn blank_cells_stand_for_the_code_between_cells() {
        let config = MountainConfig::default();
        let cell = |code_before: f64| Cell {
            node: 0,
            item: 0,
            chars: 10,
            cjk_chars: 0,
            punctuation: 0,
            full_stopped: false,
            anchor: false,
            code_before,
            code_after: 0.0,
        };
        // 450 characters of code at 200 per blank: 2 blanks; 100: none; a huge gap: the cap.
        let cells = [cell(999.0), cell(450.0), cell(100.0), cell(1e9)];
        let slots = insert_blank_cells(&cells, &[1.0, 2.0, 3.0, 4.0], &config);
        let kinds: Vec<Option<usize>> = slots.iter().map(|s| s.cell).collect();
        let cap = 2 * 2 + 5 + 1;
        let mut expected = vec![Some(0), None, None, Some(1), Some(2)];
        expected.extend(std::iter::repeat_n(None, cap));
        expected.push(Some(3));
        assert_eq!(kinds, expected);
        assert!(slots.iter().filter(|s| s.cell.is_none()).all(|s| s.score == 0.0));
    }
}
