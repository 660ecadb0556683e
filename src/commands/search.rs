use indexer::search::{Collection, IndexChoice, Ranker, SearchHit, SearchRequest, SearchSettings, Shards};

use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Search a build and print ranked results: rank, score, URL, title \
        and a snippet of the abstract.\n\n\
        Any text is a valid query: it is segmented like the pages (Chinese by jieba), \
        stemmed, and matched as a bag of words with BM25. --index abstract searches titles, \
        keywords and abstracts (precise); fulltext searches the pages' titles and topic \
        content (their text without the site's template); tiered (the default) fuses the two \
        indexes' rankings and expands the query by pseudo-relevance feedback (RM3; \
        --no-feedback turns it off), the held-out best (README \"Search settings\").\n\n\
        Shards: give --dir several times to search shard builds as one collection. Every \
        shard is scored with the document counts, document frequencies and field lengths \
        summed over all shards, so the ranking is that of one build over all their pages \
        (run `indexer replicas merge` first to drop replicas across shards). Each result \
        names its shard.\n\n\
        Example: indexer search \"sodium battery\" --dir shards/a --dir shards/b\n\n\
        Exit code 1 when nothing matched.";

#[derive(Args)]
pub struct SearchArgs {
    /// The query.
    pub query: String,
    /// The build folder; give --dir several times to search shard builds together, scored
    /// with their summed collection statistics and merged by score.
    #[arg(long, default_value = DEFAULT_DIR, value_name = "DIR")]
    pub dir: Vec<PathBuf>,
    /// Which index answers: tiered fuses the abstract and the full-text index's hits (the
    /// best of the three in the held-out evaluation, README "Search settings").
    #[arg(long, default_value = "tiered", value_parser = index_parser())]
    pub index: IndexChoice,
    /// Number of results (at least 1).
    #[arg(short = 'n', long, default_value_t = 10, value_parser = parse_limit)]
    pub limit: usize,
    /// Only pages of this content category (a code of the build's classifier, e.g. 05).
    #[arg(long, value_name = "CODE")]
    pub category: Option<String>,
    #[command(flatten)]
    pub tuning: SearchTuning,
    /// One JSON object per result (JSON Lines).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct SearchTuning {
    /// Expand the query by pseudo-relevance feedback (RM3): the words of the top pages'
    /// DocView records (title, keywords, abstract), or of their whole topic content
    /// (`feedback.words_from`), join the query, weighted by a relevance model; the number of
    /// pages and terms and the original query's weight are settings,
    /// and so is whether the expanded ranking is kept only when its top pages are as clear as
    /// the original's. The tiered search (the default) does unless --no-feedback; this asks
    /// it of --index abstract or fulltext too.
    #[arg(long, conflicts_with = "no_feedback")]
    pub feedback: bool,
    /// Search without feedback, also the tiered search.
    #[arg(long)]
    pub no_feedback: bool,
    /// Search settings (BM25 k1 and b per index, field boosts, the tiered search's fusion,
    /// feedback) from this file instead of the shipped ones (src/search/settings.toml, which
    /// says how each was chosen; `indexer eval tune` chooses them).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
}

impl SearchTuning {
    /// Whether the search expands the query: the tiered search does unless --no-feedback
    /// (the held-out best, README "Search settings"), the single indexes only with --feedback.
    pub fn feedback(&self, choice: IndexChoice) -> bool {
        self.feedback || (choice == IndexChoice::Tiered && !self.no_feedback)
    }

    pub fn settings(&self) -> Result<Option<SearchSettings>> {
        Ok(self.settings.as_deref().map(SearchSettings::from_file).transpose()?)
    }
}

/// `--index NAME`, parsed once: clap lists and checks the names, then gives the choice.
pub fn index_parser() -> impl clap::builder::TypedValueParser<Value = IndexChoice> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(IndexChoice::NAMES)
        .try_map(|name| IndexChoice::from_name(&name).ok_or_else(|| format!("unknown index {name:?}")))
}

/// `-n N`: a number of results, at least one.
pub fn parse_limit(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("the number of results must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is not a number of results")),
    }
}

/// `--category CODE` must be a code of the scheme the build's classifier assigns (its
/// `config.toml` names the classifier), so that a typo is an error, not "no results".
fn check_category(dir: &Path, code: &str) -> Result<()> {
    use indexer::config::ClassifierChoice;

    let build = indexer::index::current_build(dir)?;
    let Ok(config) = Config::from_toml_file(&build.join("config.toml")) else {
        // A build from an older indexer: nothing to check against.
        return Ok(());
    };
    let scheme = match &config.classify.model {
        ClassifierChoice::Off => {
            bail!("--category {code}: the build in {} has no categories (built with --classifier off)", dir.display())
        }
        ClassifierChoice::BuiltIn => indexer::classify::default_model()?.scheme().clone(),
        ClassifierChoice::File(path) => match indexer::classify::Model::from_file(path) {
            Ok(model) => model.scheme().clone(),
            // The model file has moved since the build: its codes are in the records anyway.
            Err(_) => return Ok(()),
        },
    };
    if scheme.index_of(code).is_none() {
        let codes: Vec<String> = scheme.categories.iter().map(|c| format!("{} {}", c.code, c.name)).collect();
        bail!(
            "--category {code}: not a category of the build in {}; its categories are: {}",
            dir.display(),
            codes.join(", ")
        );
    }
    Ok(())
}

pub fn run(args: SearchArgs) -> Result<ExitCode> {
    let choice = args.index;
    let request = SearchRequest {
        choice,
        limit: args.limit,
        category: args.category.as_deref(),
        feedback: args.tuning.feedback(choice),
    };
    let settings = args.tuning.settings()?;
    if let Some(code) = &args.category {
        for dir in &args.dir {
            check_category(dir, code)?;
        }
    }
    let hits = match args.dir.as_slice() {
        [dir] => {
            let mut collection = Collection::open(dir)?;
            if let Some(stale) = collection.stale_analysis() {
                eprintln!("indexer: warning: {} was {stale}", dir.display());
            }
            if let Some(settings) = settings {
                collection.set_settings(settings)?;
            }
            search(&collection, &args.query, &request)?
        }
        dirs => {
            let mut shards = Shards::open(dirs)?;
            for (dir, stale) in shards.stale_analyses() {
                eprintln!("indexer: warning: {dir} was {stale}");
            }
            if let Some(settings) = settings {
                shards.set_settings(settings)?;
            }
            search(&shards, &args.query, &request)?
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for hit in &hits {
        if args.json {
            writeln!(out, "{}", serde_json::to_string(hit)?)?;
        } else {
            match &hit.category {
                Some(code) => write!(out, "{:>3}. {:<8} {}  [{code}]", hit.rank, score_text(hit.score), hit.url)?,
                None => write!(out, "{:>3}. {:<8} {}", hit.rank, score_text(hit.score), hit.url)?,
            }
            // Which index's record is shown: a tiered hit shows the abstract index's when
            // that index found the page.
            let from = if request.choice == IndexChoice::Tiered { format!("  <{}>", hit.index) } else { String::new() };
            match &hit.shard {
                Some(shard) => writeln!(out, "{from}  ({shard})")?,
                None => writeln!(out, "{from}")?,
            }
            if !hit.title.is_empty() {
                writeln!(out, "     {}", hit.title)?;
            }
            if !hit.snippet.is_empty() {
                writeln!(out, "     {}", hit.snippet)?;
            }
        }
    }
    if hits.is_empty() {
        if !args.json {
            match &args.category {
                Some(code) => {
                    eprintln!(
                        "indexer: no results for {:?} in category {code} of the {} index",
                        args.query,
                        args.index.name()
                    )
                }
                None => eprintln!("indexer: no results for {:?} in the {} index", args.query, args.index.name()),
            }
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The hits of a search of one build or of shards; an error when the query has no searchable
/// word.
fn search(ranker: &impl Ranker, query: &str, request: &SearchRequest) -> Result<Vec<SearchHit>> {
    if ranker.query_terms(query)?.is_empty() {
        bail!(
            "nothing to search for: {query:?} has no word the indexes hold (it is empty, or only stop words \
             and punctuation); search with content words"
        );
    }
    Ok(ranker.search_request(query, request)?)
}

/// A hit's score for people: three decimals, or four significant digits below 1, so that
/// fused scores (reciprocal ranks such as 1/61, 1/62, …) still tell the hits apart.
fn score_text(score: f32) -> String {
    let magnitude = score.abs();
    if magnitude >= 1.0 || magnitude == 0.0 || !magnitude.is_finite() {
        return format!("{score:.3}");
    }
    let decimals = (3 - magnitude.log10().floor() as i32).clamp(3, 9) as usize;
    format!("{score:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::score_text;

    #[test]
    fn fused_scores_keep_four_significant_digits_and_bm25_scores_three_decimals() {
        assert_eq!(score_text(1.0 / 61.0), "0.01639");
        assert_eq!(score_text(1.0 / 62.0), "0.01613");
        assert_eq!(score_text(0.5), "0.5000");
        assert_eq!(score_text(10.366), "10.366");
        assert_eq!(score_text(0.0), "0.000");
        assert_eq!(score_text(-0.25), "-0.2500");
    }
}
