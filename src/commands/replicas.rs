use crate::commands::prelude::*;

#[derive(Subcommand)]
pub enum ReplicasCommand {
    /// Join replicas across shard builds; later copies are removed from their shards.
    #[command(long_about = "Join replicas across shard builds (built separately with `indexer \
        build`, for example one per machine). Every DocView record is looked up among the pages \
        of the shards before it: the same URL, the same exact-copy MD5 (title and topic \
        content), or the same 16-byte keyword fingerprint (§5, topic pages). The first shard \
        given keeps a page; a later copy is deleted from both indexes of its shard and from its \
        docview.jsonl, and listed in its replicas-global.tsv (removed<TAB>kept<TAB>url|exact|\
        near<TAB>kept shard). A changed shard gets a new build, published atomically once every \
        changed shard is ready: a merge that fails leaves every shard searchable as it was.\n\n\
        Prints one line per removed page (removed, kept, kind, removed shard, kept shard), or \
        JSON Lines with --json.\n\n\
        Example:\n  indexer replicas merge --dir shards/a --dir shards/b\n  \
        indexer search \"sodium battery\" --dir shards/a --dir shards/b")]
    Merge(ReplicasMergeArgs),
    /// Remove the pages a global replica join chose from one shard build.
    #[command(long_about = "Remove from a shard build (made with `indexer build --shard`) the \
        pages a global replica join chose, such as the Spark job in spark/. LIST has one line \
        per page: removed URL<TAB>kept URL<TAB>url|exact|near<TAB>kept shard. The pages are \
        deleted from both indexes and docview.jsonl, the token totals recounted, the list \
        appended to the shard's replicas-global.tsv, and the new build published atomically.\n\n\
        Safe to repeat: pages the shard no longer holds are reported as already removed, and \
        a list with nothing left to remove changes nothing.\n\n\
        Example: indexer replicas apply --dir out/shard-00001 --list out/removals/shard-00001.tsv")]
    Apply(ReplicasApplyArgs),
}

#[derive(Args)]
pub struct ReplicasApplyArgs {
    /// The shard's build folder.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// The pages to remove: removed<TAB>kept<TAB>url|exact|near<TAB>kept shard.
    #[arg(long, value_name = "FILE")]
    pub list: PathBuf,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ReplicasMergeArgs {
    /// A shard's build folder; give one per shard, earlier shards keep their pages.
    #[arg(long, required = true, value_name = "DIR")]
    pub dir: Vec<PathBuf>,
    /// List the replicas without removing them.
    #[arg(long)]
    pub dry_run: bool,
    /// One JSON object per removed page (JSON Lines), then one per shard.
    #[arg(long)]
    pub json: bool,
}

fn apply(args: ReplicasApplyArgs) -> Result<ExitCode> {
    let report = indexer::shards::apply_removals(&args.dir, &args.list)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        let published = report.published.as_deref().map(|p| format!(", new build {p}")).unwrap_or_default();
        outln!(
            "{}: {} pages, {} removed, {} already removed{published}",
            report.shard,
            report.pages,
            report.removed,
            report.already_removed
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(args: ReplicasMergeArgs) -> Result<ExitCode> {
    if args.dir.len() < 2 {
        eprintln!("indexer: replicas merge needs at least two shards: --dir A --dir B");
        return Ok(ExitCode::from(2));
    }
    let report = indexer::shards::merge_replicas(&args.dir, args.dry_run)?;
    for r in &report.replicas {
        if args.json {
            outln!("{}", serde_json::to_string(r)?);
        } else {
            outln!("{}\t{}\t{}\t{}\t{}", r.removed, r.kept, r.kind.as_str(), r.removed_shard, r.kept_shard);
        }
    }
    for shard in &report.shards {
        if args.json {
            outln!("{}", serde_json::to_string(shard)?);
        } else {
            let action = match (&shard.published, args.dry_run) {
                (Some(build), _) => format!("removed, new build {build}"),
                (None, true) if shard.removed > 0 => "to remove (dry run)".to_string(),
                _ => "removed".to_string(),
            };
            eprintln!("indexer: {}: {} pages, {} {action}", shard.shard, shard.pages, shard.removed);
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(command: ReplicasCommand) -> Result<ExitCode> {
    match command {
        ReplicasCommand::Apply(args) => apply(args),
        ReplicasCommand::Merge(args) => merge(args),
    }
}
