use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Export the documents of one index of a build as JSON Lines, one \
        object per page with the fields of index-schema/<index>.json under the same names: for \
        ingestion by Quickwit with the index configs index-schema/quickwit/<index>.json.\n\n\
        The full-text index's body (the raw pages' visible text) is not kept by a build: give \
        the build's inputs with --input to export it; they are read again and each page the \
        build kept is written with its visible text.\n\n\
        Example:\n  indexer export --dir /tmp/sample --format jsonl > abstract.jsonl\n  \
        quickwit index create --index-config index-schema/quickwit/abstract.json\n  \
        quickwit index ingest --index docview-abstract --input-path abstract.jsonl";

#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub dir: DirArg,
    /// The output format.
    #[arg(long, default_value = "jsonl", value_parser = clap::builder::PossibleValuesParser::new(["jsonl"]))]
    pub format: String,
    /// Which index's documents.
    #[arg(long, default_value = "abstract", value_parser = index_kind_parser())]
    pub index: indexer::index::IndexKind,
    /// The build's inputs (needed for --index fulltext); repeatable.
    #[arg(long, value_name = "INPUT")]
    pub input: Vec<PathBuf>,
    /// Write to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `--index NAME`, parsed once: clap lists and checks the names, then gives the index.
fn index_kind_parser() -> impl clap::builder::TypedValueParser<Value = indexer::index::IndexKind> {
    use clap::builder::TypedValueParser;
    use indexer::index::IndexKind;
    clap::builder::PossibleValuesParser::new(IndexKind::ALL.map(IndexKind::name)).try_map(|name| {
        IndexKind::ALL.into_iter().find(|kind| kind.name() == name).ok_or_else(|| format!("unknown index {name:?}"))
    })
}

pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let kind = args.index;
    let summary = match &args.out {
        Some(path) => {
            let file = std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
            let mut writer = std::io::BufWriter::new(file);
            let summary = indexer::export::export_jsonl(&args.dir.dir, kind, &args.input, &mut writer)?;
            writer.flush().with_context(|| format!("cannot write {}", path.display()))?;
            summary
        }
        None => {
            let stdout = std::io::stdout();
            let mut writer = std::io::BufWriter::new(stdout.lock());
            let summary = indexer::export::export_jsonl(&args.dir.dir, kind, &args.input, &mut writer)?;
            writer.flush()?;
            summary
        }
    };
    eprintln!("indexer: {} {} documents exported", summary.documents, kind.name());
    if summary.missing > 0 {
        eprintln!(
            "indexer: warning: {} pages of the build were not found in the inputs; give the inputs it was built from",
            summary.missing
        );
    }
    Ok(ExitCode::SUCCESS)
}
