use indexer::clean::site_template::SiteTemplates;

use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Learn the site templates a build of INPUT would learn and write \
        them (one line per host: the host, then the hashes of its template blocks).\n\n\
        A block (a container with text or images of its own: its tag, classes and contents) found \
        on at least cleaning.site_template_share of the first cleaning.site_sample_pages pages of \
        a host is that host's template, and the default cleaner treats it as noise on every page \
        of the host. Hosts with fewer than cleaning.site_min_pages pages get none (0 turns site \
        evidence off).\n\n\
        Shard builds of one collection each see only their own pages. Learn the templates once \
        over all the inputs, in build order, and give them to every shard with `indexer build \
        --site-templates FILE`. Every input is read; only the sampled pages are parsed.\n\n\
        Example:\n  indexer site-templates crawl-00.warc.gz crawl-01.warc.gz -o site-templates.tsv\n  \
        indexer build crawl-01.warc.gz --shard --site-templates site-templates.tsv --dir shard-01";

#[derive(Args)]
pub struct SiteTemplatesArgs {
    /// Folders of pages, WARC files, or JSON Lines files, in the order a build takes them.
    #[arg(required_unless_present = "input_list", value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// A file naming more inputs, one path a line (as for `indexer build`).
    #[arg(long, value_name = "FILE")]
    pub input_list: Option<PathBuf>,
    /// A TOML file overriding any parameter (see `indexer config`): [cleaning] site_* set the
    /// sample and the share.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Write the templates here instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: SiteTemplatesArgs) -> Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let observer = CliObserver::new(None, false);
    let mut inputs = args.inputs;
    if let Some(list) = &args.input_list {
        inputs.extend(indexer::input::read_input_list(list)?);
    }
    let templates = indexer::pipeline::site_templates_of(&inputs, &config, &observer)?;
    let text = templates.to_text();
    match &args.output {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?,
        None => out!("{text}"),
    }
    eprintln!(
        "indexer: {} template blocks on {} hosts (hosts of at least {} pages, blocks on {} of their first {} pages)",
        templates.blocks(),
        templates.hosts(),
        config.cleaning.site_min_pages,
        config.cleaning.site_template_share,
        config.cleaning.site_sample_pages
    );
    Ok(ExitCode::SUCCESS)
}

/// A site-templates file, as `indexer site-templates` writes it.
pub fn read_site_templates_file(path: &Path) -> Result<SiteTemplates> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("cannot read the site templates {}; write them with `indexer site-templates`", path.display())
    })?;
    SiteTemplates::from_text(&text).with_context(|| format!("{} is not a site-templates file", path.display()))
}
