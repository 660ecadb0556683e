//! The classifier on the public sets of `../shared/data/classify` (skipped, with the reason
//! printed, when absent): a slice of each, with the protocols of `indexer classify eval`.
//!
//! THUCNews is held out (settings chosen by cross-validation inside its dev split, scored on
//! its test split); AG News is in-sample, as the test's name says: the default algorithm was
//! adopted on its cross-validated figure too, and that protocol has no split held out from
//! the choice (README, "Content classification").

mod common;

use indexer::classify::eval::evaluate_shared;
use indexer::config::ClassifyConfig;

#[test]
fn thucnews_held_out_and_ag_news_in_sample_slices_are_classified_well() {
    let Some(data) = common::shared_data("classify") else { return };
    // 1,500 documents of each file (evenly spaced) keep the test fast in a debug build. Calibration weighs the
    // default algorithm's two members against each other, so it stays on, with the fewest folds.
    let config = ClassifyConfig { calibration_folds: 2, ..ClassifyConfig::default() };
    let results = evaluate_shared(&data, &config, Some(1500)).unwrap();
    assert_eq!(results.len(), 2);
    for result in &results {
        eprintln!("{result:?}");
        // Chance is 10% (THUCNews) and 25% (AG News); the full sets give 87% and 89%.
        assert!(result.accuracy > 0.72, "{result:?}");
        assert!(result.macro_f1 > 0.7, "{result:?}");
        assert_eq!(result.test_documents, if result.set.starts_with("AG") { 300 } else { 1500 });
    }
}
