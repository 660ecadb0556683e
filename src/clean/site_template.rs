//! Site evidence for the default cleaner: the blocks a host's pages share are its template.
//!
//! The DocView cleaner judges each page alone. In a crawl, the pages of one host are made
//! from one template, and on a short page (a title and a few lines) most of the topic content
//! the cleaner finds is that template: distinct pages then look alike to replica detection.
//! Yi, Liu & Li (the Site Style Tree paper, §1) state the observation this module rests on:
//! "those parts of a page whose layouts and actual contents (i.e., texts, images, links, etc)
//! also appear in many other pages in the site are more likely to be noises". The `sst`
//! cleaner implements their whole method; here the default cleaner keeps its own frame (tag
//! tree, block weights, topic root) and takes only that evidence, in its simplest form:
//!
//! - a *block* is a container of the tag tree with text or images of its own, identified by
//!   its element (tag, and class and id with digits removed: the paper's element node `(TAG,
//!   Attr)` of §3.2, as in `site_style_tree`) and by its actual contents (its own terms and
//!   image sources). Two
//!   blocks are the same when both agree, so a page's title standing in its `<h1>` is not
//!   the same block as the same title in another page's list of related links;
//! - for each host with at least `site_min_pages` pages in the input, the first
//!   `site_sample_pages` pages (input order) are sampled; a page whose blocks are all those of
//!   a page sampled before (an exact copy) is not counted again, so that copies of one
//!   article do not make it template;
//! - a block found on at least `site_template_share` of the host's sampled pages (and on two
//!   at least) is template: in [`crate::clean::Cleaner::clean`] it is noise, outside the
//!   page's central area, with block weight 0, never a paragraph, never the title heading
//!   (so never the topic root), never in the topic content.
//!
//! Learning is a pass before cleaning ([`crate::clean::Cleaner`]'s protocol): [`count_page`]
//! for every page (URLs only), then [`take`] and [`observe`] for the pages sampled (only
//! those are parsed), then [`finish`]. What is learned is written to a file
//! ([`SiteTemplates::to_text`], `indexer site-templates`) so that shard builds share the
//! templates of the whole input, as they share its stop words.
//!
//! Block identities are 64-bit FNV-1a hashes (deterministic across runs and platforms; a
//! collision between a template block and another block of the same host would drop one
//! block).
//!
//! [`count_page`]: SiteTemplates::count_page
//! [`take`]: SiteTemplates::take
//! [`observe`]: SiteTemplates::observe
//! [`finish`]: SiteTemplates::finish

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;

use crate::config::CleaningConfig;
use crate::tagtree::{NodeId, TagTree};

/// The first line of a site-templates file.
const HEADER: &str = "# indexer site templates v1: host<TAB>template block hashes (hex, comma-separated)";

/// A site-templates file that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SiteTemplatesError {
    pub line: usize,
    pub message: String,
}

/// What is known of one host while learning.
#[derive(Debug, Clone, Default)]
struct SiteSample {
    /// Pages handed to [`SiteTemplates::take`] (the sample's bound).
    taken: usize,
    /// Distinct pages observed (the share's denominator), by the digest of their blocks.
    pages: BTreeSet<u64>,
    /// On how many distinct pages each block was found.
    blocks: BTreeMap<u64, u32>,
}

/// The template blocks of every host with enough pages. The default is empty and finished:
/// no evidence, nothing to learn.
#[derive(Debug, Clone)]
pub struct SiteTemplates {
    min_pages: usize,
    share: f64,
    sample_pages: usize,
    /// Whether the learning pass is over (or the templates were read from a file).
    finished: bool,
    /// Pages per host in the input (the first pass).
    counted: BTreeMap<String, usize>,
    learning: BTreeMap<String, SiteSample>,
    /// Hosts whose template was made before the end of learning ([`SiteTemplates::finish_site`]).
    done: BTreeSet<String>,
    templates: BTreeMap<String, BTreeSet<u64>>,
}

impl Default for SiteTemplates {
    fn default() -> Self {
        SiteTemplates {
            min_pages: 0,
            share: 1.0,
            sample_pages: 0,
            finished: true,
            counted: BTreeMap::new(),
            learning: BTreeMap::new(),
            done: BTreeSet::new(),
            templates: BTreeMap::new(),
        }
    }
}

impl SiteTemplates {
    /// An empty memory that learns with the `[cleaning]` settings; with `site_min_pages` 0
    /// site evidence is off: nothing to learn, no page changed.
    pub fn new(config: &CleaningConfig) -> SiteTemplates {
        SiteTemplates {
            min_pages: config.site_min_pages,
            share: config.site_template_share,
            sample_pages: config.site_sample_pages,
            finished: config.site_min_pages == 0,
            counted: BTreeMap::new(),
            learning: BTreeMap::new(),
            done: BTreeSet::new(),
            templates: BTreeMap::new(),
        }
    }

    /// Whether a learning pass is still wanted.
    pub fn is_learning(&self) -> bool {
        !self.finished
    }

    /// First pass: one page of `site` in the input.
    pub fn count_page(&mut self, site: &str) {
        if self.finished {
            return;
        }
        match self.counted.get_mut(site) {
            Some(n) => *n += 1,
            None => {
                self.counted.insert(site.to_string(), 1);
            }
        }
    }

    /// Second pass, in input order: whether this page of `site` is sampled (its tree must
    /// then go to [`SiteTemplates::observe`]). Hosts with fewer than `site_min_pages` pages
    /// and pages past the sample are not: they need no parsing.
    pub fn take(&mut self, site: &str) -> bool {
        if self.finished
            || self.counted.get(site).copied().unwrap_or(0) < self.min_pages.max(1)
            || self.done.contains(site)
        {
            return false;
        }
        let sample = self.learning.entry(site.to_string()).or_default();
        if sample.taken >= self.sample_pages {
            return false;
        }
        sample.taken += 1;
        true
    }

    /// A sampled page's blocks.
    pub fn observe(&mut self, site: &str, tree: &TagTree) {
        if self.finished {
            return;
        }
        let hashes: BTreeSet<u64> = block_hashes(tree).into_iter().flatten().collect();
        let digest = {
            let mut hasher = fnv::FnvHasher::default();
            for hash in &hashes {
                hasher.write_u64(*hash);
            }
            hasher.finish()
        };
        let sample = self.learning.entry(site.to_string()).or_default();
        if !sample.pages.insert(digest) {
            return;
        }
        for hash in hashes {
            *sample.blocks.entry(hash).or_default() += 1;
        }
    }

    /// Ends learning: each host's template is the blocks found on at least
    /// `site_template_share` of its distinct sampled pages, and on two at least.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        for (site, sample) in std::mem::take(&mut self.learning) {
            self.make_template(site, sample);
        }
        self.counted.clear();
        self.done.clear();
        self.finished = true;
    }

    /// Whether every page of `site` that [`SiteTemplates::take`] samples has been taken: its
    /// template can be made ([`SiteTemplates::finish_site`]). True of a host too small to
    /// learn from and when learning is over.
    pub fn sample_complete(&self, site: &str) -> bool {
        if self.finished || self.done.contains(site) {
            return true;
        }
        let count = self.counted.get(site).copied().unwrap_or(0);
        count < self.min_pages.max(1)
            || self.learning.get(site).map_or(0, |sample| sample.taken) >= count.min(self.sample_pages)
    }

    /// Makes the template of `site` before learning is over, once its sample is complete
    /// and observed: the same template [`SiteTemplates::finish`] would make, since each host's
    /// is made from its own sample only. Its pages can then be cleaned while the pages of
    /// other hosts are still being sampled.
    pub fn finish_site(&mut self, site: &str) {
        if self.finished || !self.done.insert(site.to_string()) {
            return;
        }
        if let Some(sample) = self.learning.remove(site) {
            self.make_template(site.to_string(), sample);
        }
    }

    /// A host's template from its sample: the blocks found on at least `site_template_share`
    /// of its distinct sampled pages, and on two at least.
    fn make_template(&mut self, site: String, sample: SiteSample) {
        let pages = sample.pages.len();
        if pages < self.min_pages.max(2) {
            return;
        }
        let needed = ((self.share * pages as f64).ceil() as u32).max(2);
        let template: BTreeSet<u64> =
            sample.blocks.into_iter().filter(|&(_, n)| n >= needed).map(|(hash, _)| hash).collect();
        if !template.is_empty() {
            self.templates.insert(site, template);
        }
    }

    /// The nodes of `tree` that are template blocks of `site`, by node id; `None` when the
    /// site has no template or the page none of its blocks.
    pub fn template_nodes(&self, site: &str, tree: &TagTree) -> Option<Vec<bool>> {
        let template = self.templates.get(site)?;
        let marked: Vec<bool> =
            block_hashes(tree).into_iter().map(|hash| hash.is_some_and(|h| template.contains(&h))).collect();
        marked.contains(&true).then_some(marked)
    }

    /// Hosts with a template.
    pub fn hosts(&self) -> usize {
        self.templates.len()
    }

    /// Template blocks over all hosts.
    pub fn blocks(&self) -> usize {
        self.templates.values().map(BTreeSet::len).sum()
    }

    /// The learned templates as the text of a site-templates file: a header line, then one
    /// line per host in sorted order, its block hashes sorted. Same input, same bytes.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(64 + self.blocks() * 17);
        out.push_str(HEADER);
        out.push('\n');
        for (site, template) in &self.templates {
            out.push_str(site);
            out.push('\t');
            let hashes: Vec<String> = template.iter().map(|h| format!("{h:016x}")).collect();
            out.push_str(&hashes.join(","));
            out.push('\n');
        }
        out
    }

    /// Templates read from the text of a site-templates file ([`SiteTemplates::to_text`]):
    /// finished, nothing more to learn.
    pub fn from_text(text: &str) -> Result<SiteTemplates, SiteTemplatesError> {
        let mut templates = BTreeMap::new();
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.trim_end() == HEADER => {}
            _ => {
                return Err(SiteTemplatesError {
                    line: 1,
                    message: "not a site-templates file (write one with `indexer site-templates`)".into(),
                });
            }
        }
        for (index, line) in lines {
            let error = |message: String| SiteTemplatesError { line: index + 1, message };
            if line.trim().is_empty() {
                continue;
            }
            let (site, hashes) = line.split_once('\t').ok_or_else(|| error("expected host<TAB>hashes".to_string()))?;
            let template = hashes
                .split(',')
                .map(|h| u64::from_str_radix(h.trim(), 16).map_err(|e| error(format!("bad block hash {h:?}: {e}"))))
                .collect::<Result<BTreeSet<u64>, _>>()?;
            templates.insert(site.to_string(), template);
        }
        Ok(SiteTemplates { templates, ..SiteTemplates::default() })
    }
}

/// Each node's block identity (`None` for a node with no text and no image of its own): its
/// tag, its class and id without digits (generated ids such as `post-4711` differ on every
/// page), and its actual contents (§3.2: texts and images): its own terms in order and the
/// sources of its own images. A logo or a banner is template as much as a menu is.
fn block_hashes(tree: &TagTree) -> Vec<Option<u64>> {
    let mut images: Vec<Vec<&str>> = vec![Vec::new(); tree.nodes.len()];
    for image in &tree.images {
        images[image.node].push(image.src.as_str());
    }
    tree.nodes
        .iter()
        .zip(&images)
        .map(|(node, images)| {
            if node.terms.is_empty() && images.is_empty() {
                return None;
            }
            let mut hasher = fnv::FnvHasher::default();
            hasher.write(node.tag.as_bytes());
            hasher.write_u8(0);
            for byte in node.hint.bytes().filter(|b| !b.is_ascii_digit()) {
                hasher.write_u8(byte);
            }
            hasher.write_u8(0);
            for term in &node.terms {
                hasher.write(term.as_bytes());
                hasher.write_u8(b' ');
            }
            hasher.write_u8(0);
            for src in images {
                hasher.write(src.as_bytes());
                hasher.write_u8(b' ');
            }
            Some(hasher.finish())
        })
        .collect()
}

/// Node ids of `tree` marked in `marked`.
pub(crate) fn marked_ids(marked: &[bool]) -> impl Iterator<Item = NodeId> + '_ {
    marked.iter().enumerate().filter(|(_, m)| **m).map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::{Cleaner, block_weights};
    use crate::config::Config;

    /// Papers of a made-up journal site: each page a title and one short abstract in the
    /// site's frame (a menu, a box about the journal, a subscription box, a footer).
    const ARTICLES: [(&str, &str); 5] = [
        ("Sorting on tapes", "A merge method for four tape units that needs no rewinding between passes."),
        ("A compiler for loops", "Nested loops are translated into a single pass over the index registers."),
        ("Random numbers", "Tests of the multiplicative generator show no pattern in the low bits."),
        ("Matrix inversion", "Gaussian elimination with pivoting inverts a matrix of order forty in minutes."),
        ("Text editing", "A line editor for teletypes keeps the file on a drum and edits it in place."),
    ];

    fn page(title: &str, text: &str) -> String {
        format!(
            "<title>{title}</title><body><div class=menu><a href=/>Home</a> <a href=/issues>Issues</a> \
            <a href=/about>About</a></div><div class=page><div class=article><h1>{title}</h1><p>{text}</p></div>\
            <div class=about><p>The Journal of Computing Practice publishes short papers on programming, \
            numerical methods and the design of computing systems, four times a year since 1958.</p></div>\
            <div class=subscribe><p>Subscribe to the journal and get every new issue delivered to your \
            department library on the day it is printed.</p></div></div>\
            <div class=footer>Copyright the Society for Computing Practice, all rights reserved.</div></body>"
        )
    }

    fn config() -> Config {
        let mut config = Config::default();
        config.cleaning.site_min_pages = 3;
        config.cleaning.site_template_share = 0.7;
        config
    }

    fn learned(config: &Config, pages: &[String], site: &str) -> Cleaner {
        let mut cleaner = Cleaner::from_config(config).unwrap();
        assert!(cleaner.learns_from_sites());
        for _ in pages {
            cleaner.count_page(site);
        }
        for html in pages {
            if cleaner.take(site) {
                cleaner.observe(site, &TagTree::with_default_config(html));
            }
        }
        cleaner.finish_learning();
        cleaner
    }

    fn clean(cleaner: &Cleaner, config: &Config, site: &str, html: &str) -> String {
        let tree = TagTree::with_default_config(html);
        let weights = block_weights(&tree, &config.block_weight);
        cleaner.clean(site, &tree, &weights, config).text(&tree)
    }

    /// Each of `pages` (the pages of `ARTICLES`) keeps its title and text and none of the
    /// journal's frame.
    fn assert_every_article_without_its_template(cleaner: &Cleaner, config: &Config, site: &str, pages: &[String]) {
        for (html, (title, text)) in pages.iter().zip(ARTICLES) {
            let topic = clean(cleaner, config, site, html);
            assert!(topic.contains(title) && topic.contains(text), "{topic}");
            for template in ["four times a year", "Subscribe", "Copyright", "Issues"] {
                assert!(!topic.contains(template), "{template} in {topic}");
            }
        }
    }

    #[test]
    fn the_template_of_five_pages_is_never_topic_content_and_the_article_is() {
        let config = config();
        let pages: Vec<String> = ARTICLES.iter().map(|(t, x)| page(t, x)).collect();
        let site = "journal.example.org";
        // Alone, a short paper's page is mostly its frame: the box about the journal is the
        // longest paragraph.
        let alone =
            clean(&Cleaner::new(crate::clean::CleanerKind::DocView, &config).unwrap(), &config, site, &pages[0]);
        assert!(alone.contains("four times a year"), "{alone}");
        let cleaner = learned(&config, &pages, site);
        assert_eq!(cleaner.site_templates().hosts(), 1);
        assert_every_article_without_its_template(&cleaner, &config, site, &pages);
        // A page of another host is cleaned alone, as before.
        assert_eq!(clean(&cleaner, &config, "other.example.org", &pages[0]), alone);
    }

    #[test]
    fn the_block_classifier_never_takes_the_template_back() {
        use crate::clean::CleanerKind;
        use crate::clean::block_classifier::{BlockModel, Tree, feature_names};
        // A block model that keeps every block with terms: the template's too, as a model
        // trained on pages alone may on a short page.
        let features = feature_names(&[], false);
        let log_terms = features.iter().position(|n| n == "log_terms").unwrap();
        let keep_all = BlockModel {
            protocol: "test".into(),
            vocabulary: Vec::new(),
            features,
            base_score: 0.0,
            trees: vec![Tree::one_split(log_terms, 0.1, -5.0, 5.0)],
            threshold: 0.5,
            examples: 0,
            positives: 0,
            stage2: None,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keep-all.json");
        std::fs::write(&path, keep_all.to_json()).unwrap();
        let mut config = config();
        config.cleaning.cleaner = CleanerKind::Blocks;
        config.blocks.model = path.to_string_lossy().into_owned();
        config.blocks.min_page_terms = 0;
        let pages: Vec<String> = ARTICLES.iter().map(|(t, x)| page(t, x)).collect();
        let site = "journal.example.org";
        let cleaner = learned(&config, &pages, site);
        assert_eq!(cleaner.site_templates().hosts(), 1);
        assert_every_article_without_its_template(&cleaner, &config, site, &pages);
        // Without the host's evidence the model keeps the frame: the rule above is what drops it.
        let alone = clean(&cleaner, &config, "other.example.org", &pages[0]);
        assert!(alone.contains("four times a year") && alone.contains("Subscribe"), "{alone}");
    }

    #[test]
    fn hosts_with_too_few_pages_get_no_evidence() {
        let config = config();
        let pages: Vec<String> = ARTICLES[..2].iter().map(|(t, x)| page(t, x)).collect();
        let site = "journal.example.org";
        let cleaner = learned(&config, &pages, site);
        assert_eq!(cleaner.site_templates().hosts(), 0);
        let alone =
            clean(&Cleaner::new(crate::clean::CleanerKind::DocView, &config).unwrap(), &config, site, &pages[0]);
        assert_eq!(clean(&cleaner, &config, site, &pages[0]), alone);
        // Site evidence off: no learning pass at all.
        let mut off = config.clone();
        off.cleaning.site_min_pages = 0;
        assert!(!Cleaner::from_config(&off).unwrap().learns_from_sites());
    }

    #[test]
    fn copies_of_one_page_do_not_make_their_article_template() {
        let config = config();
        let site = "journal.example.org";
        // Five copies of one paper and two other papers: counted page by page, the copied
        // paper would be on 5 of 7 pages (template at a share of 0.7); the copies count once
        // (three distinct pages), and the paper's text is on one of them only.
        let mut pages = vec![page(ARTICLES[0].0, ARTICLES[0].1); 5];
        pages.push(page(ARTICLES[1].0, ARTICLES[1].1));
        pages.push(page(ARTICLES[2].0, ARTICLES[2].1));
        let cleaner = learned(&config, &pages, site);
        let topic = clean(&cleaner, &config, site, &pages[0]);
        assert!(topic.contains(ARTICLES[0].1), "{topic}");
        assert!(!topic.contains("four times a year"), "{topic}");
    }

    #[test]
    fn the_same_title_as_a_related_link_elsewhere_is_not_the_same_block() {
        let a = TagTree::with_default_config("<body><h1>Sorting on tapes</h1></body>");
        let b = TagTree::with_default_config("<body><ul><li><a href=/s>Sorting on tapes</a></li></ul></body>");
        let hashes = |t: &TagTree| block_hashes(t).into_iter().flatten().collect::<BTreeSet<u64>>();
        assert!(hashes(&a).is_disjoint(&hashes(&b)));
        // Digits of generated ids do not count; the words do.
        let c = TagTree::with_default_config("<body><div class=post-17>Share this page</div></body>");
        let d = TagTree::with_default_config("<body><div class=post-4711>Share this page</div></body>");
        let e = TagTree::with_default_config("<body><div class=post-4711>Share this post</div></body>");
        assert_eq!(hashes(&c), hashes(&d));
        assert!(hashes(&d).is_disjoint(&hashes(&e)));
    }

    #[test]
    fn learning_is_deterministic_and_the_file_round_trips() {
        let config = config();
        let pages: Vec<String> = ARTICLES.iter().map(|(t, x)| page(t, x)).collect();
        let one = learned(&config, &pages, "journal.example.org");
        let two = learned(&config, &pages, "journal.example.org");
        let text = one.site_templates().to_text();
        assert_eq!(text, two.site_templates().to_text());
        assert!(text.starts_with(HEADER) && text.contains("journal.example.org\t"), "{text}");
        let read = SiteTemplates::from_text(&text).unwrap();
        assert!(!read.is_learning());
        assert_eq!(read.to_text(), text);
        assert_eq!(read.blocks(), one.site_templates().blocks());
        // Bad files are errors naming the line.
        assert_eq!(SiteTemplates::from_text("host\tabc").unwrap_err().line, 1);
        let bad = format!("{HEADER}\nhost\tnot-hex\n");
        let error = SiteTemplates::from_text(&bad).unwrap_err();
        assert_eq!(error.line, 2, "{error}");
        assert!(SiteTemplates::from_text(&format!("{HEADER}\nno tab\n")).is_err());
    }
}
