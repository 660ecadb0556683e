use indexer::clean::CleanerKind;

use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Show what the pipeline makes of one page, as a build would make it: \
        the DocView record (type, title, keywords, abstract, topic content, relevant links, \
        charset, lang) as pretty-printed JSON on stdout, and with --tree the tag tree outline \
        before it (block types, counts, weighty tags and the cleaner's margins).\n\n\
        The page is cleaned alone: a build also uses what it learns from the other pages of \
        the page's host (site templates) and the collection's stop words, so a record in a \
        build's docview.jsonl may differ. A page the build would skip (binary, empty) is an \
        error naming the reason (exit 2). FILE may be gzipped (page.html.gz).\n\n\
        Example: indexer inspect page.html --url https://news.example/story --tree";

#[derive(Args)]
pub struct InspectArgs {
    /// An HTML file (also gzipped).
    pub file: PathBuf,
    /// The page's URL (resolves its links) [default: the file's file:// URL].
    #[arg(long)]
    pub url: Option<String>,
    /// A TOML file overriding any parameter (see `indexer config`), as given to the build.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The page cleaner [default: blocks, or `cleaning.cleaner` of --config]. See README,
    /// "Cleaning quality".
    #[arg(long, value_parser = cleaner_parser())]
    pub cleaner: Option<CleanerKind>,
    /// Print the tag tree outline too (with the cleaner's margins).
    #[arg(long)]
    pub tree: bool,
}

pub fn run(args: InspectArgs) -> Result<ExitCode> {
    use indexer::input::RawPage;
    use indexer::page::{PageContext, process_page};
    use indexer::text::StopWords;

    let mut config = load_config(args.config.as_deref())?;
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    let bytes = match indexer::input::page_bytes(&args.file, config.input.max_page_bytes, &Default::default()) {
        Ok(bytes) => bytes,
        Err(skipped) => bail!("{skipped}"),
    };
    let url = args.url.unwrap_or_else(|| indexer::input::file_url(&args.file));
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words)?;
    let raw = RawPage { url, origin: args.file.display().to_string(), bytes, http_charset: None, http_language: None };
    if args.tree {
        let (tree, _) = ctx.tag_tree(&raw);
        outln!("{}", indexer::clean::Layout::of(&tree, &config.layout).outline(&tree));
    }
    match process_page(raw, &ctx) {
        Ok(page) => outln!("{}", serde_json::to_string_pretty(&page.record)?),
        Err(skipped) => bail!("{skipped}"),
    }
    Ok(ExitCode::SUCCESS)
}
