use indexer::clean::CleanerKind;

use crate::commands::prelude::*;

#[derive(Args)]
pub struct InspectArgs {
    /// An HTML file.
    pub file: PathBuf,
    /// The page's URL (resolves its links).
    #[arg(long)]
    pub url: Option<String>,
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

    let mut config = Config::default();
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
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
