//! Builds over the real crawls in `../shared/data/ir-web/` and the judged copycat pairs
//! (skipped, with the reason printed, when the shared data is not beside the checkout).
//!
//! Both tests are in-sample, as their names say: the default detector (MinHash) and its
//! shingle size and threshold were chosen after looking at these sets (README, "Replica
//! removal"), so they guard against regressions; they do not estimate how well replicas are
//! found on other pages.

mod common;

use std::collections::HashMap;

use common::shared_data;
use indexer::config::Config;
use indexer::pipeline::{Quiet, build};

#[test]
fn in_sample_replica_set_near_replicas_are_found_and_non_replicas_kept() {
    let Some(dir) = shared_data("ir-web/replicas") else { return };
    let out = tempfile::tempdir().unwrap();
    let summary = build(&[dir.join("pages.warc.gz")], out.path(), &Config::default(), &Quiet).unwrap();
    assert_eq!(summary.pages_read, 375);
    assert_eq!(summary.skipped_total(), 0);

    let removed: HashMap<String, String> = std::fs::read_to_string(out.path().join("current/replicas.tsv"))
        .unwrap()
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect();
    let group = |url: &str| removed.get(url).cloned().unwrap_or_else(|| url.to_string());
    let truth = std::fs::read_to_string(dir.join("truth.tsv")).unwrap();
    let (mut near, mut hits, mut non, mut errors) = (0, 0, 0, 0);
    for line in truth.lines().skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        let same = group(cells[0]) == group(cells[2]);
        match cells[1] {
            "near" => (near, hits) = (near + 1, hits + usize::from(same)),
            "non" => (non, errors) = (non + 1, errors + usize::from(same)),
            _ => {}
        }
    }
    assert_eq!((near, non), (125, 125));
    // The paper reports 58% / 1.6% (§7.2). Guards against regressions of cleaning + fingerprint.
    eprintln!("hit rate {hits}/{near}, error rate {errors}/{non}");
    assert!(hits * 100 >= near * 80, "hit rate {hits}/{near}");
    assert!(errors * 100 <= non * 2, "error rate {errors}/{non}");
}

#[test]
fn in_sample_copycat_pairs_minhash_beats_the_reference_detectors() {
    use indexer::eval::replicas::evaluate_pairs;
    let Some(dir) = shared_data("neardup/webis-copycat-canonical-edges") else { return };
    let rates = evaluate_pairs(&dir.join("pairs.jsonl"), &Config::default().replicas).unwrap();
    let minhash = rates.iter().find(|r| r.detector == "minhash" && r.positive_from == 2.0).unwrap();
    let m = minhash.metrics;
    eprintln!("minhash on copycat pairs: P {:.3} R {:.3} FPR {:.3}", m.precision, m.recall, m.false_positive_rate);
    assert_eq!(m.true_positives + m.false_negatives, 132);
    assert_eq!(m.false_positives + m.true_negatives, 176);
    // References (the data's README): DocView-style P .93 / R .51 / FPR 2.8%; MinHash J ≥ 0.8 P .92 / R .58 / FPR 4%.
    assert!(m.precision > 0.93 && m.recall > 0.58 && m.false_positive_rate <= 0.02, "{m:?}");
}

/// Pages of the cleaning training set dragnet-train whose topic content the default cleaner
/// and `blocks` left empty, yet typed topic, before the fallback of `Cleaner::clean` (§4.2's
/// topic blocks when the root search leaves nothing): a page with text gets content.
#[test]
fn training_pages_with_text_never_get_empty_topic_content() {
    use indexer::clean::{Cleaner, CleanerKind, block_weights, site_of};
    use indexer::input::RawPage;
    use indexer::page::PageContext;
    use indexer::tagtree::BlockType;
    use indexer::text::StopWords;
    let Some(dir) = shared_data("clean-train/dragnet-train/html") else { return };
    for kind in [CleanerKind::DocView, CleanerKind::Blocks] {
        let mut config = Config::default();
        config.cleaning.cleaner = kind;
        let stop_words = StopWords::generic();
        let ctx = PageContext::new(&config, &stop_words).unwrap();
        let cleaner = Cleaner::new(kind, &config).unwrap();
        for stem in ["273", "T17"] {
            let path = dir.join(format!("{stem}.html.gz"));
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(
                &mut flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()),
                &mut bytes,
            )
            .unwrap();
            let url = format!("file://{}", path.display());
            let raw = RawPage { url: url.clone(), origin: stem.into(), bytes, http_charset: None, http_language: None };
            let (tree, _) = ctx.tag_tree(&raw);
            let weights = block_weights(&tree, &config.block_weight);
            let content = cleaner.clean(&site_of(&url), &tree, &weights, &config);
            assert_ne!(content.page_type, BlockType::Empty, "{stem} ({kind:?})");
            assert!(content.terms(&tree) > 0, "{stem} ({kind:?}): typed {:?} with no topic content", content.page_type);
        }
    }
}
