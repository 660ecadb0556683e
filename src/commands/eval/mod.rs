//! `indexer eval`: one module per evaluation.

pub mod clean;
pub mod disk;
pub mod languages;
pub mod page_types;
pub mod replicas;
pub mod report;
pub mod run;
pub mod score;
pub mod stats;
pub mod train_blocks;
pub mod train_mountain;
pub mod tune;
pub mod tune_cleaner;

use crate::commands::prelude::*;

#[derive(Subcommand)]
pub enum EvalCommand {
    /// Run every topic of a topic file and write a TREC run file.
    Run(run::EvalRunArgs),
    /// Score a run against relevance judgments, like trec_eval.
    Score(score::EvalScoreArgs),
    /// Everything §7.3 measures for one collection, written as a report (markdown, JSON, SVG).
    #[command(long_about = "Everything §7.3 of the DocView paper measures, for one collection: \
        P@10 and the other trec_eval measures of the abstract, full-text and tiered searches, \
        the index statistics of Table 3, and the disk access of Figure 6. Writes report.md, \
        report.json, effectiveness.svg and disk-access.svg.\n\n\
        With --config eval/<collection>.toml the topics, judgments, report folder and crawl \
        come from the file, and the crawl is built first when the build folder has no build \
        (default folder: indexer-data/eval-<name>).\n\n\
        Example: indexer eval report --config eval/cacm.toml")]
    Report(report::EvalReportArgs),
    /// Choose the search settings by leave-one-collection-out over several collections.
    #[command(long_about = "Chooses the search settings (BM25 k1 and b and field boosts of each \
        index, the tiered search's fusion, feedback) by leave-one-collection-out: each collection \
        in turn is held out, every value is chosen on the others (the mean of P@10, MAP and \
        nDCG@10 over them) and scored on the held-out one. Then the values are chosen on all \
        the collections together: the settings to ship. Writes report.md and report.json (the \
        held-out table) and, with --write-settings, the chosen settings file.\n\n\
        Each --config is an evaluation config (eval/<collection>.toml); its build folder is \
        indexer-data/eval-<name>, built first when it has no build. Takes a few minutes.\n\n\
        Example: indexer eval tune --config eval/cacm.toml --config eval/cisi.toml \
        --config eval/medline.toml --config eval/adi.toml --write-settings src/search/settings.toml")]
    Tune(tune::EvalTuneArgs),
    /// Disk access of single-term queries on both indexes, in groups (Figure 6).
    Disk(disk::EvalDiskArgs),
    /// Sum of terms and size of both indexes (Table 3).
    Stats(stats::EvalStatsArgs),
    /// A cleaner's topic content scored against human gold text (token-bag P, R, F1).
    #[command(long_about = "Scores a cleaner's topic content against human gold text: pages of \
        --html with a gold file of the same stem in --gold. Tokens are case-folded \\w runs, \
        each CJK ideograph or kana a token of its own; P = tp/|output| averaged over pages \
        with output, R = tp/|gold| averaged over pages with gold, F1 from the two. Pages per \
        second are measured on one thread.")]
    Clean(clean::EvalCleanArgs),
    /// Train the `mountain` cleaner's ridge classifier on the training half of the training sets.
    #[command(long_about = "Trains the ridge classifier of the `mountain` cleaner (the Mountain \
        Model of primary content) and writes it as JSON.\n\n\
        Data: for each --set, <DATA>/<set>/html and <DATA>/<set>/gold (as for `eval clean`). \
        Split: the pages of a set sorted by file stem; those at even positions (0, 2, 4 ...) \
        train, the others are held out. The model lists its training pages, and \
        `indexer eval clean --cleaner mountain` leaves them out (it says how many).\n\n\
        Each ridge of a training page is an example: its four features (height, width, ridge \
        position, cell position) and a label, primary when at least mountain.label_min_gold_share \
        of its tokens are in the gold text. The learner is a logistic regression fitted by \
        gradient descent: deterministic, a few seconds. The cell and ridge parameters \
        ([mountain] of --config) are recorded in the model; train again after changing them.\n\n\
        To use a model: [mountain] model = \"path\" in a config, or write it over the built-in one \
        and rebuild.\n\n\
        Example: indexer eval train-mountain --data ../shared/data/clean-train --out src/clean/mountain_model/ridge-model.json")]
    TrainMountain(train_mountain::EvalTrainMountainArgs),
    /// Train the `blocks` cleaner's block classifier on the training sets, with cross-validated F1.
    #[command(long_about = "Trains the block classifier of the `blocks` cleaner (gradient-boosted \
        trees over the content blocks of the tag tree, correcting the `docview` cleaner's result) \
        on the training sets of the cleaning configuration ([[training_sets]] of \
        eval/cleaning.toml: ../shared/data/clean-train), never on its test sets, and writes it as \
        JSON.\n\n\
        Labels: a block is content when at least blocks.label_min_gold_share of its tokens are in \
        the page's gold text; pages marked gold_not_visible in meta.tsv are not trained on. \
        Cross-validation: blocks.folds folds by site (those of `eval tune-cleaner`); for each \
        fold the decision threshold is chosen on another training fold, then a model fitted on \
        all other folds scores the fold. The shipped model is fitted on every page, its \
        threshold the best over the out-of-fold probabilities. Settings: [blocks] and [cleaning] \
        of --cleaner-config. Writes the model to --out and report.md and report.json (the \
        cross-validated F1 beside docview's) to --report. Takes a few minutes on 2 cores.\n\n\
        To use a model: [blocks] model = \"path\" in a config, or write it over the built-in one \
        and rebuild.\n\n\
        Example: indexer eval train-blocks --config eval/cleaning.toml --out src/clean/block_classifier/block-model.json")]
    TrainBlocks(train_blocks::EvalTrainBlocksArgs),
    /// Choose the default cleaner's settings on the training sets, with cross-validated F1.
    #[command(long_about = "Chooses the settings of the default cleaner ([cleaning] of the \
        configuration) on the training sets of the cleaning configuration ([[training_sets]] of \
        eval/cleaning.toml: ../shared/data/clean-train), never on its test sets.\n\n\
        Folds: --folds folds by site (the page's host from meta.tsv). Search: coordinate descent \
        from the current settings over a grid per setting, at most --rounds rounds; objective the \
        mean of the training sets' F1 (the metric of `eval clean`). Each fold's pages are scored \
        with the setting chosen on the other folds: that cross-validated F1 is the estimate to \
        trust. The setting chosen on all pages is printed (its F1 is in-sample); to adopt it, \
        write it into [cleaning] or into CleaningConfig's defaults.\n\n\
        Writes report.md and report.json (per-fold settings, each setting's curve) to --report, \
        by default the config's training_report folder, which `eval clean --all` reads for its \
        cross-validated row. Every page is parsed once; runs on every core.\n\n\
        Example: indexer eval tune-cleaner --config eval/cleaning.toml")]
    TuneCleaner(tune_cleaner::EvalTuneCleanerArgs),
    /// Replica detection: hit and error rates like §7.2, Table 2, and judged pairs.
    #[command(long_about = "Replica detection measured like §7.2 of the DocView paper. INPUT is a \
        replica test set (base pages, a near replica and a non-replica of each) with --truth \
        (url<TAB>set<TAB>base_url, set = base|near|non). Reports the hit rate (near replicas \
        grouped with their base) and error rate (non-replicas grouped with theirs) of every \
        detector over the topic content and over the raw page text; --sweep adds the paper's \
        Table 2 (Percentage 10–100% × Interval 1–10) with heatmaps; --pairs adds precision, \
        recall and false-positive rate on human-judged pairs (JSON Lines with label_raw, \
        src_doc, target_doc, optionally same_site); --rule-sweep measures a grid of MinHash \
        rules on those pairs and names the ones chosen (how the defaults were chosen on \
        eval/replica-benchmark).\n\nExample: indexer eval replicas --config eval/replicas.toml --sweep")]
    Replicas(replicas::EvalReplicasArgs),
    /// The language identifier against the languages pages declare: accuracy and speed.
    #[command(long_about = "Measures the language identifier. Every page of the inputs (folders \
        of .html or .html.gz pages, WARC or ARC files, JSON Lines) is cleaned as a build cleans \
        it; a page whose <html lang> or Content-Language names a language is identified from its \
        text alone (the topic content, then the visible text), as a build does before it weighs \
        the declaration, and scored against the declaration (its primary subtag: en-US is en). \
        Declarations are not gold (templates declare a default), so the accuracy is a floor. \
        Pages without a declaration are counted, not scored. Speed: pages identified per second \
        on one thread, and the identification's time as a share of the time to parse and clean \
        the same pages.\n\nExample: indexer eval languages ../shared/data/real-warc ../shared/data/scrapinghub-aeb/html")]
    Languages(languages::EvalLanguagesArgs),
    /// Page types (topic, hub, image) against page types labelled by people, on the training sets.
    #[command(long_about = "Measures the page types of the default cleaner on the cleaning \
        training sets ([[training_sets]] of eval/cleaning.toml), never on a test set: a confusion \
        matrix of our type against the WCXB page type of each wcxb-train page (listing and \
        collection pages are hubs, the others topic pages; dragnet-train and page-signal are news \
        articles), for the rules of §4.1 and for the hub-page model (fitted on every training set, \
        or on --fit-set), by nested cross-validation by site (--folds): each fold typed by the \
        model fitted on the others, at the threshold chosen by cross-validation inside them. Also \
        counts, per set, the pages whose topic content is under 200 characters where the gold has \
        over 500, and the pages with no topic content that are not typed empty. --write-model \
        writes the model fitted on every page of the fit sets, at the threshold chosen by \
        cross-validation over every fold.\n\nExample: indexer eval page-types --config eval/cleaning.toml --report \
        eval/reports/page-types")]
    PageTypes(page_types::EvalPageTypesArgs),
}

pub fn run(command: EvalCommand) -> Result<ExitCode> {
    match command {
        EvalCommand::Run(args) => run::run(args),
        EvalCommand::Score(args) => score::run(args),
        EvalCommand::Report(args) => report::run(args),
        EvalCommand::Tune(args) => tune::run(args),
        EvalCommand::Disk(args) => disk::run(args),
        EvalCommand::Stats(args) => stats::run(args),
        EvalCommand::Clean(args) => clean::run(args),
        EvalCommand::TrainMountain(args) => train_mountain::run(args),
        EvalCommand::TrainBlocks(args) => train_blocks::run(args),
        EvalCommand::TuneCleaner(args) => tune_cleaner::run(args),
        EvalCommand::Replicas(args) => replicas::run(args),
        EvalCommand::Languages(args) => languages::run(args),
        EvalCommand::PageTypes(args) => page_types::run(args),
    }
}
