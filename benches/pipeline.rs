//! `cargo bench`: each per-page stage, the whole per-page pipeline, the floor reference's
//! parse-and-extract, and indexing, on the sample corpus (in the repository) and on the first
//! pages of the cacm WARC when ../shared/data is present (skipped with a reason otherwise).
//!
//! Throughput is in bytes of HTML. Sample sizes and measurement times are small so that a
//! whole run takes a few minutes; `indexer bench` is the end-to-end measurement.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

use indexer::bench::floor::visible_text;
use indexer::clean::{block_weights, site_of};
use indexer::config::Config;
use indexer::decode::decode;
use indexer::docview::{IntegrationInput, integrate};
use indexer::index::{IndexSet, PageDocument};
use indexer::input::{ByteCounter, InputEvent, RawPage, Source};
use indexer::page::{PageContext, process_page};
use indexer::tagtree::{parse_html, tag_tree_of};
use indexer::text::StopWords;

/// Pages of cacm measured: enough for stable figures, few enough for a quick run.
const CACM_PAGES: usize = 400;

fn read_pages(path: &Path, limit: usize) -> Vec<RawPage> {
    let mut pages = Vec::new();
    let Ok(source) = Source::from_path(path) else { return pages };
    let _ = source.visit(8 << 20, &ByteCounter::default(), &mut |event| {
        if let InputEvent::Page(page) = event {
            pages.push(page);
        }
        pages.len() < limit
    });
    pages
}

fn corpora() -> Vec<(&'static str, Vec<RawPage>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut corpora = vec![("sample", read_pages(&root.join("eval/sample-corpus/pages"), usize::MAX))];
    let cacm = root.join("../shared/data/ir-web/cacm/pages.warc.gz");
    if cacm.exists() {
        corpora.push(("cacm", read_pages(&cacm, CACM_PAGES)));
    } else {
        eprintln!("skipping the cacm benchmarks: {} is absent", cacm.display());
    }
    corpora
}

fn stages(c: &mut Criterion) {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    for (name, pages) in corpora() {
        let bytes: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
        let mut group = c.benchmark_group(name);
        group.sample_size(10).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
        group.throughput(Throughput::Bytes(bytes));

        let decoded: Vec<String> =
            pages.iter().map(|p| decode(&p.bytes, p.http_charset.as_deref(), &p.url).text).collect();
        let trees: Vec<_> = pages.iter().map(|p| ctx.tag_tree(p).0).collect();
        let weights: Vec<_> = trees.iter().map(|t| block_weights(t, &config.block_weight)).collect();
        let contents: Vec<_> = pages
            .iter()
            .zip(&trees)
            .zip(&weights)
            .map(|((p, t), w)| ctx.cleaner().clean(&site_of(&p.url), t, w, &config))
            .collect();

        group.bench_function("decode", |b| {
            b.iter(|| {
                for p in &pages {
                    black_box(decode(&p.bytes, p.http_charset.as_deref(), &p.url));
                }
            })
        });
        group.bench_function("parse", |b| {
            b.iter(|| {
                for html in &decoded {
                    black_box(parse_html(html, &config.tag_tree));
                }
            })
        });
        group.bench_function("parse + tag tree", |b| {
            b.iter(|| {
                for html in &decoded {
                    let parsed = parse_html(html, &config.tag_tree);
                    black_box(tag_tree_of(&parsed, &config.tag_tree, ctx.weighty_tags()));
                }
            })
        });
        group.bench_function("clean", |b| {
            b.iter(|| {
                for (p, t) in pages.iter().zip(&trees) {
                    let w = block_weights(t, &config.block_weight);
                    black_box(ctx.cleaner().clean(&site_of(&p.url), t, &w, &config));
                }
            })
        });
        group.bench_function("docview", |b| {
            b.iter(|| {
                for (((p, t), w), content) in pages.iter().zip(&trees).zip(&weights).zip(&contents) {
                    let input = IntegrationInput {
                        url: &p.url,
                        tree: t,
                        content,
                        weights: w,
                        stop_words: &stop_words,
                        http_language: None,
                    };
                    black_box(integrate(&input, &config.docview));
                }
            })
        });
        group.bench_function("process_page (all per-page stages)", |b| {
            b.iter(|| {
                for p in &pages {
                    let _ = black_box(process_page(p.clone(), &ctx));
                }
            })
        });
        group.bench_function("floor: parse + visible text", |b| {
            b.iter(|| {
                for p in &pages {
                    black_box(visible_text(&p.bytes));
                }
            })
        });
        let documents: Vec<PageDocument> = pages
            .iter()
            .filter_map(|p| process_page(p.clone(), &ctx).ok())
            .map(|page| PageDocument::of_record(page.record, &page.visible_text))
            .collect();
        group.bench_function("index (both indexes, commit)", |b| {
            b.iter_batched(
                || tempfile::tempdir().expect("a temporary folder"),
                |dir| {
                    let mut indexes = IndexSet::create(dir.path(), config.index.writer_memory_mib, 1).expect("indexes");
                    for doc in &documents {
                        indexes.add(doc).expect("add");
                    }
                    indexes.commit().expect("commit");
                },
                BatchSize::PerIteration,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, stages);
criterion_main!(benches);
