//! Every parameter of the algorithms, in one place.
//!
//! Defaults follow the DocView paper where it gives a value (δ = θ = 15, Percentage = 0.4,
//! Interval = 5) and are documented where the paper leaves the value open (the thresholds of
//! §3.1 and §4.1, the forces of the weighty tags, β). A TOML file passed with `--config`
//! overrides any subset of them; `indexer config` prints the full default file.

use std::collections::BTreeMap;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod choices;
mod commented;
pub use choices::{
    Algorithm, BlockLabels, ClassifierChoice, CleanerKind, DetectorKind, ExampleWeight, HubLearner, PageFormat,
    RepeatScope,
};

/// The whole configuration of a build.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub input: InputConfig,
    pub tag_tree: TagTreeConfig,
    pub block_weight: BlockWeightConfig,
    pub page_type: PageTypeConfig,
    pub layout: LayoutConfig,
    pub cleaning: CleaningConfig,
    pub satisfiable: SatisfiableConfig,
    pub pab: PabConfig,
    pub sst: SstConfig,
    pub mountain: MountainConfig,
    pub blocks: BlocksConfig,
    pub stop_words: StopWordConfig,
    pub replicas: ReplicaConfig,
    pub docview: DocViewConfig,
    pub classify: ClassifyConfig,
    pub index: IndexConfig,
}

/// Limits on what one page may cost.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct InputConfig {
    /// Pages larger than this (bytes, after decompression) are skipped with a warning.
    pub max_page_bytes: u64,
    /// Pages handed to the worker threads at once; bounds memory together with the channel depth.
    pub batch_size: usize,
    /// Input files open at the same time. The build takes one batch from each in turn, in
    /// input order, and a finished file's turn goes to the next input: the order of the pages,
    /// and so which copy of a replica is kept, depends on this and `batch_size`, never on
    /// thread timing. 1 reads the inputs one after the other.
    pub parallel_files: usize,
    /// Of the open files, at most this many are read (gunzipped, parsed into records) at the
    /// same moment. Does not change the result, only the speed.
    pub reader_threads: usize,
    /// What a WARC or ARC record's body may be to be indexed as a page: `html`, `xhtml`,
    /// `text` (`--accept`). Other records are skipped as `not-html` or `not-a-page`.
    pub accept: Vec<PageFormat>,
}

impl Default for InputConfig {
    fn default() -> Self {
        InputConfig {
            max_page_bytes: 8 * 1024 * 1024,
            batch_size: 64,
            parallel_files: 4,
            reader_threads: 2,
            accept: PageFormat::DEFAULT.to_vec(),
        }
    }
}

/// The markup tag tree of §3.1.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TagTreeConfig {
    /// A block is of hub type when anchor terms / terms exceeds this (§3.1).
    pub hub_anchor_ratio: f64,
    /// A block is of image type when images / terms exceeds this (§3.1); a block with images
    /// and no terms at all is of image type too.
    pub image_term_ratio: f64,
    /// Container nesting deeper than this is flattened into the deepest allowed container,
    /// so hostile markup cannot make the tree (or any walk over it) unbounded.
    pub max_depth: usize,
    /// Markup nested deeper than this has its deeper tags removed before parsing (the text
    /// stays): the HTML parser is quadratic in nesting depth.
    pub max_markup_depth: usize,
    /// A heading's text is kept (`WeightyTag::text`, what the title heading is matched on)
    /// until it reaches this many bytes: a bound on memory for headings that wrap a whole
    /// page, far above any headline.
    pub max_heading_text_bytes: usize,
    /// A link whose anchor text has at least this many terms is a teaser (a linked sentence
    /// or paragraph: a listing's entry), not navigation; its terms are counted in
    /// `teaser_terms` as well as in `anchor_terms`. Navigation anchors run one to a few
    /// words; linked titles (headlines, book titles, citations) up to about 17. First chosen
    /// on the five gold sets and the cacm crawl (test data, not held out); re-checked on the
    /// training sets, where 10 to 30 are within about one page of each other, so the value
    /// stands for its structural reason: below 20, sidebar lists of linked titles read as
    /// listings on headline-only pages (README, "Cleaning quality").
    pub teaser_anchor_terms: usize,
}

impl Default for TagTreeConfig {
    fn default() -> Self {
        TagTreeConfig {
            hub_anchor_ratio: 0.5,
            image_term_ratio: 0.1,
            max_depth: 256,
            max_markup_depth: 1000,
            max_heading_text_bytes: 1024,
            teaser_anchor_terms: 20,
        }
    }
}

/// Block weights (Algorithm 1) and the feature vector (Formula 2).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BlockWeightConfig {
    /// The force of each weighty tag (§3.2). The paper gives no values, only that H1 > H3.
    pub forces: BTreeMap<String, f64>,
    /// Share of a leaf's extra force passed to its parent and siblings: the paper's `pforce`,
    /// which it leaves undefined. pforce = 1 + (force − 1) × share.
    pub propagation_share: f64,
    /// Upper bound of a block's force (the sum over its weighty tags), so that a block of
    /// fifty bold words does not dwarf the page.
    pub max_force: f64,
    /// Pseudo-weighty filter (§3.2): a weighty tag whose text is at least this share anchor
    /// text (logos, banners, "read more" links) carries no force.
    pub pseudo_weighty_anchor_ratio: f64,
    /// Pseudo-weighty filter: a weighty tag with more terms than this is layout, not emphasis
    /// (e.g. `<font>` wrapping a whole table).
    pub pseudo_weighty_max_terms: usize,
    /// Pseudo-weighty filter: inline emphasis covering at least this share of its block's
    /// terms is styling (old pages wrap every paragraph in `<font>`); headings are exempt.
    pub pseudo_weighty_coverage: f64,
}

impl Default for BlockWeightConfig {
    fn default() -> Self {
        let forces = [
            ("h1", 3.0),
            ("h2", 2.5),
            ("h3", 2.0),
            ("h4", 1.6),
            ("h5", 1.3),
            ("h6", 1.2),
            ("b", 1.5),
            ("strong", 1.5),
            ("em", 1.3),
            ("i", 1.2),
            ("u", 1.2),
            ("big", 1.3),
            ("mark", 1.3),
            ("font", 1.1),
        ]
        .into_iter()
        .map(|(tag, force)| (tag.to_string(), force))
        .collect();
        BlockWeightConfig {
            forces,
            propagation_share: 0.5,
            max_force: 6.0,
            pseudo_weighty_anchor_ratio: 0.5,
            pseudo_weighty_max_terms: 40,
            pseudo_weighty_coverage: 0.8,
        }
    }
}

/// Page type from the central area (§4.1).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PageTypeConfig {
    /// Hub page when terms in hub blocks / terms of all central blocks exceeds this (§4.1).
    pub hub_page_ratio: f64,
    /// Image page when the central area has at least `min_images` images and at most this
    /// many non-anchor terms per image. The paper applies "the same rule" as for hubs (terms
    /// in image blocks), but a gallery without captions has no terms to take a share of, and
    /// an image's caption is usually a block of its own; counting terms per image covers both.
    pub max_terms_per_image: f64,
    /// The least number of content images in the central area for an image page (see
    /// `max_terms_per_image`): one or two pictures illustrate an article.
    pub min_images: usize,
    /// The hub-page model that types the pages of the `docview` and `blocks` cleaners after
    /// the rules above (`clean::HubModel`, trained by `indexer eval page-types
    /// --write-model`): empty for the built-in model (the default: fitted on the features of
    /// docview's result, on which both cleaners type pages; by nested cross-validation by site
    /// on the cleaning training sets it types more listings hub and fewer articles than the
    /// rules), `off` for the rules of §4.1 alone, or a model file's path (a model fitted on
    /// another cleaner's output is refused).
    #[schemars(with = "String")]
    pub hub_model: ClassifierChoice,
    /// A page whose central area has at least this share of its terms in hub blocks stays a
    /// hub page whatever the hub-page model says: the model has seen few such pages (on the
    /// cleaning training sets every page §4.1 types hub above 0.9 is a listing), and a page of
    /// nothing but links is a hub.
    pub certain_hub_share: f64,
    /// Training (`indexer eval page-types`): the learner of the hub-page model, `logistic` or
    /// `boosted`. A model file records its own learner; this does not change how one is read.
    pub learner: HubLearner,
}

impl Default for PageTypeConfig {
    fn default() -> Self {
        PageTypeConfig {
            hub_page_ratio: 0.5,
            max_terms_per_image: 20.0,
            min_images: 3,
            hub_model: ClassifierChoice::BuiltIn,
            certain_hub_share: 0.9,
            learner: HubLearner::Logistic,
        }
    }
}

/// The cleaner's reading of a page's layout (`clean::layout`): its margins (the blocks
/// outside the central area of §4.1), its title heading, its content images. The paper
/// names the margins (header, footer, navigation, sidebars) but not how to find them; these
/// word lists and bounds were written by hand with their rules, not tuned on any set.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LayoutConfig {
    /// Words of an id or class that mark a block as margin (`<div class="site-nav">` gives
    /// `site`, `nav`): the names sites give their navigation, sidebars, ads, share bars and
    /// link boxes.
    pub margin_words: Vec<String>,
    /// Of the margin words, those naming readers' comments: a block so named is margin
    /// however much running text it holds (comments often outweigh the post they follow)…
    pub comment_words: Vec<String>,
    /// …as long as the central area outside it holds at least this many terms of running
    /// text (terms outside links): a post for the comments to follow. A thread page whose
    /// posts all sit in a container named `comments` (forum software does this) has none,
    /// and its comments are its content.
    pub comment_min_post_terms: usize,
    /// Any other margin word marks a block only while its running text (terms outside
    /// links) is less than this share of the page's: a layout class (`page has-sidebar`) on
    /// the column that holds the article must not hide it. 0.5: "most of the page's text".
    pub margin_word_max_text_share: f64,
    /// Separators between a title's headline and the site's name ("Headline | Site"): the
    /// headings are matched against the title without its last segment first, because the
    /// site's name is often a heading too.
    pub title_separators: Vec<String>,
    /// A heading (h1–h3) needs at least this many terms to be the title heading: a
    /// one-word heading ("News") matches too many titles.
    pub title_heading_min_terms: usize,
    /// …and at least this share of its terms in the title (headlines are shortened or
    /// reworded a little in `<title>`, and the best match wins).
    pub title_heading_min_overlap: f64,
    /// An image inside a link is content only when the link leads to a file with one of
    /// these extensions (a gallery links its pictures to their full size); otherwise it is a
    /// linked thumbnail of another page.
    pub full_size_image_extensions: Vec<String>,
}

impl Default for LayoutConfig {
    fn default() -> Self {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<String>>();
        LayoutConfig {
            margin_words: words(&[
                "nav",
                "navbar",
                "navigation",
                "menu",
                "header",
                "footer",
                "sidebar",
                "aside",
                "banner",
                "breadcrumb",
                "breadcrumbs",
                "copyright",
                "cookie",
                "cookies",
                "social",
                "share",
                "sharing",
                "ad",
                "ads",
                "advert",
                "advertisement",
                "sponsor",
                "sponsored",
                "promo",
                "related",
                "masthead",
                "toolbar",
                "topbar",
                "subscribe",
                "newsletter",
                "login",
                "comments",
                "comment",
                "popular",
                "trending",
                "tags",
                "pagination",
            ]),
            comment_words: words(&["comment", "comments"]),
            comment_min_post_terms: 30,
            margin_word_max_text_share: 0.5,
            title_separators: words(&[" | ", " - ", " – ", " — ", " :: ", " » ", " · ", "｜", "_"]),
            title_heading_min_terms: 2,
            title_heading_min_overlap: 0.8,
            full_size_image_extensions: words(&[".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"]),
        }
    }
}

/// Which cleaner runs, and the parameters of the default one.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CleaningConfig {
    /// `blocks` (default: the learned block classifier over `docview`'s result; see `[blocks]`),
    /// `docview` (the paper plus a topic-root search), `docview-paper`, or a cleaner of another
    /// paper: `sst` (the Site Style Tree of Yi, Liu & Li; see `[sst]`),
    /// `satisfiable` (see `[satisfiable]`), `pab` (see `[pab]`).
    pub cleaner: CleanerKind,
    // Every setting below was chosen by `indexer eval tune-cleaner` on the training sets
    // (../shared/data/clean-train: dragnet-train, wcxb-train, page-signal), never on a test
    // set: coordinate descent over a grid per setting, 5 folds by site; the report with the
    // cross-validated F1 and each setting's curve is eval/reports/cleaning/training/.
    /// A block needs at least this many own terms to count as a paragraph of running text
    /// when the default cleaner searches the topic root.
    pub min_paragraph_terms: usize,
    /// Siblings of the topic root whose score reaches this share of the root's are kept too
    /// (articles split over sibling containers).
    pub sibling_score_share: f64,
    /// Score of the heading that matches the page title, in terms, times its block weight
    /// (like a paragraph's): it pulls the topic root towards the article's headline, and is
    /// the topic content of a page that has nothing but a headline.
    pub title_heading_score: f64,
    /// The topic root must contain the title heading unless the best root elsewhere scores
    /// more than 1 / this share times the best root around the heading.
    pub title_root_min_share: f64,
    /// A headline with no running text around it is kept apart from the body found
    /// elsewhere only if at most this many terms stand between them (a title bar right
    /// above the article); otherwise the headline is the topic content.
    pub max_heading_gap_terms: usize,
    /// …unless the body scores at least this many times the headline (an article with a
    /// byline, info boxes and a table of contents between its headline and its text).
    /// Template boxes beside a headline-only page (an author's bio, a workshop offer) score
    /// a fraction of a headline.
    pub title_override_ratio: f64,
    /// The topic root climbs to its parent while the parent holds at least this share of
    /// the root's paragraph text outside it (text spread over sibling containers); 0 turns
    /// climbing off.
    pub climb_share: f64,
    /// …and while the parent's link density (anchor terms / terms) is at most this. A
    /// listing's entries (a linked title and a teaser each) run at 0.3 to 0.5; navigation
    /// and link lists near 1.
    pub climb_max_link_density: f64,
    /// …where the parent's other text need not repeat the root's markup if the root already
    /// holds at least this much paragraph text (terms times block weight).
    pub climb_min_text: f64,
    /// When the topic root's text is less than this share of the topic text of its content
    /// region (§4.2's pruned tree without the margins, up to where links dominate), the page
    /// is not one article (a service page, a listing, documentation in many sections) and
    /// the region's topic blocks are kept; 0 always keeps the root.
    pub min_root_coverage: f64,
    /// Site evidence (`clean::site_template`): a host needs at least this many pages in the
    /// input for its template to be learned; 0 turns site evidence off (each page alone).
    pub site_min_pages: usize,
    /// A block (element and own text) found on at least this share of a host's sampled pages
    /// (and on two at least) is the host's template: noise on every page of the host.
    pub site_template_share: f64,
    /// At most this many pages of each host (the first in input order) are sampled: a bound
    /// on the learning pass's work, not a tuned setting.
    pub site_sample_pages: usize,
    // The settings below were set by hand with their rule, not tuned.
    /// When a bare headline wins the root search, this many of the best paragraphs apart
    /// from it are weighed as candidate bodies, each climbing once: a bound on the work.
    pub body_candidates: usize,
    /// A page read again with its teaser links as text keeps that reading only if at least
    /// this many sibling containers of one shape hold teaser text: entries repeat their
    /// markup, a template's single box of teasers does not.
    pub listing_min_entries: usize,
    /// On an image page, a topic block beside a picture is kept as its caption when its
    /// subtree has at most this many terms (a caption is a line or two, the text beside a
    /// gallery may be a whole article).
    pub image_caption_max_terms: usize,
    /// Words of an id or class that name a picture's caption or credit: such blocks (and
    /// `<figure>`, `<figcaption>`) under the topic root are left out of an article's text
    /// unless they hold most of it, or `climb_min_text` terms or more themselves.
    pub caption_words: Vec<String>,
}

impl Default for CleaningConfig {
    fn default() -> Self {
        CleaningConfig {
            cleaner: CleanerKind::Blocks,
            min_paragraph_terms: 10,
            sibling_score_share: 0.35,
            title_heading_score: 20.0,
            title_root_min_share: 0.25,
            max_heading_gap_terms: 120,
            title_override_ratio: 1.0,
            climb_share: 4.0,
            climb_max_link_density: 0.7,
            climb_min_text: 30.0,
            min_root_coverage: 0.5,
            site_min_pages: 3,
            site_template_share: 0.7,
            site_sample_pages: 100,
            body_candidates: 8,
            listing_min_entries: 3,
            image_caption_max_terms: 60,
            caption_words: ["caption", "credit", "credits"].map(String::from).to_vec(),
        }
    }
}

/// The `satisfiable` cleaner: Qi & Sun's satisfiable sub-tree heuristics (§3.2 of
/// "Eliminating Noisy Information in Webpage through Heuristic Rules"). The defaults are the
/// values the paper found best: G, α, β, γ = 2, 40, 100, 0.3 (§4).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SatisfiableConfig {
    /// G: a candidate sub-tree is the "G-generation parent node" of a text node, and "in
    /// G-generation child node of st_i, at least one child node is a text node" of length ≥ α.
    /// Generations are counted in containers of the tag tree (a text's first generation is its
    /// container); 0 acts as 1.
    pub generations: usize,
    /// α: "LENGTH(TNode_k) ≥ α", the length in characters of that one long text node.
    pub min_text_node_chars: usize,
    /// β: "SL_text ≥ β", the sum of the lengths of all text nodes of the sub-tree, in characters.
    pub min_subtree_text_chars: usize,
    /// γ: "SL_anchor ≤ γ × SL_text (0 ≤ γ ≤ 1)", the largest share of the sub-tree's text that
    /// may be anchor text.
    pub max_anchor_share: f64,
}

impl Default for SatisfiableConfig {
    fn default() -> Self {
        SatisfiableConfig {
            generations: 2,
            min_text_node_chars: 40,
            min_subtree_text_chars: 100,
            max_anchor_share: 0.3,
        }
    }
}

/// The `pab` cleaner: Kabir, Kabir & Amin's HTML tag priority assignment (PAB, §3 of
/// "Isolating Informative Blocks from Large Web Pages Using HTML Tag Priority Assignment Based
/// Approach").
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PabConfig {
    /// The html tags priority table (PT, Table 3.1): a block's priority is the sum of the
    /// priorities of all its tags (Eq. 1); a tag not listed counts 0. `img` counts only an
    /// "image with alternative text" (non-empty `alt`). Inline tags (h1–h6, b, strong, i) are
    /// seen through the tag tree's weighty tags, so they must also be keys of
    /// `block_weight.forces` (they are by default). `title` is part of the table, but the
    /// title block is not part of the tag tree (the records keep the title on its own).
    pub priorities: BTreeMap<String, f64>,
    /// The "medium level" container tags, Table and List (§3.1.1), plus Paragraph: a
    /// container with one of these tags, not inside another block, is one block from its
    /// opening to its closing tag, with everything inside as its inner tags.
    pub block_containers: Vec<String>,
    /// "Remove all contents between the tags `<script>`, `<style>`, `<iframe>`, `<object>` and
    /// `<form>`" (Algorithm 3.2.1, step 2a). The tag tree already drops the first four; these
    /// containers are dropped with their whole content.
    pub irrelevant_containers: Vec<String>,
    /// "If the outer links is more than 50% of the total links, then the block is consider
    /// as a noisy block and its priority value is set to 0.0" (Algorithm 3.2.2, step 3).
    pub max_outer_link_share: f64,
}

impl Default for PabConfig {
    fn default() -> Self {
        let priorities = [
            ("title", 1.0),
            ("h1", 1.0),
            ("h2", 0.9),
            ("h3", 0.8),
            ("h4", 0.7),
            ("h5", 0.6),
            ("h6", 0.5),
            ("b", 0.4),
            ("strong", 0.4),
            ("img", 0.3),
            ("a", 0.2),
            ("i", 0.2),
            ("p", 0.1),
        ]
        .into_iter()
        .map(|(tag, priority)| (tag.to_string(), priority))
        .collect();
        PabConfig {
            priorities,
            block_containers: ["p", "table", "ul", "ol", "dl"].map(String::from).to_vec(),
            irrelevant_containers: vec!["form".to_string()],
            max_outer_link_share: 0.5,
        }
    }
}

/// The `sst` cleaner: the Site Style Tree of Yi, Liu & Li (KDD 2003), §3.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SstConfig {
    /// The noise threshold `t` of §3.4: an element node is noisy when its composite
    /// importance and that of all its descendants are at most this. The paper picks it per
    /// site by looking at 20 cleaned pages and gives no value; 0.5 is the middle of the
    /// normalised 0..1 range.
    pub noise_threshold: f64,
    /// The attenuating factor γ of Formula (2); the paper sets 0.9.
    pub attenuation: f64,
    /// ε of §3.6 (enhancement 3): inside a meaningful element node, a block is dropped when
    /// every feature of it is locally noisy, i.e. has importance 1 − H(a) (Formula 5) below
    /// this; the paper's default 0.01.
    pub local_noise_epsilon: f64,
    /// Pages of one site merged into its style tree; the paper samples 500 at random. Here
    /// the first pages of the site in input order are merged; later pages are only cleaned.
    pub max_pages_per_site: usize,
    /// A site with fewer sampled pages than this carries too little cross-page evidence for
    /// the entropies of §3.3 (with one page every node has importance 1): its pages are
    /// cleaned by the default `docview` cleaner instead.
    pub min_site_pages: usize,
    /// Rough memory budget of all site style trees together, in MiB. Once reached, sites
    /// not seen yet are not learned (their pages get the `docview` fallback); sites already
    /// learning go on up to `max_pages_per_site`.
    pub max_memory_mib: usize,
    /// Not in the paper: drop kept blocks that are mostly anchor text (hub blocks). The
    /// paper keeps any content that varies across the site's pages, which includes
    /// per-page link lists such as "related articles".
    pub drop_link_blocks: bool,
}

impl Default for SstConfig {
    fn default() -> Self {
        SstConfig {
            noise_threshold: 0.5,
            attenuation: 0.9,
            local_noise_epsilon: 0.01,
            max_pages_per_site: 500,
            min_site_pages: 5,
            max_memory_mib: 1024,
            drop_link_blocks: false,
        }
    }
}

/// The Mountain Model cleaner (`cleaning.cleaner = "mountain"`; Bing et al., "Primary Content
/// Extraction with Mountain Model"). Defaults are the paper's values where it gives one (§3.1,
/// §4); the rest is ours and documented as such.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MountainConfig {
    /// The ridge classifier (JSON, as written by `indexer eval train-mountain`); empty: the
    /// built-in model `src/clean/mountain_model/ridge-model.json`.
    pub model: String,
    /// α of Formula 1: a full-stopped cell's score is raised by this share (paper: 0.5).
    pub alpha: f64,
    /// β of Formula 1: an anchor-text cell's score changes by this share (paper: −0.5).
    pub beta: f64,
    /// γ of Formula 1 for pages in a Latin-script language: characters of an average sentence
    /// (paper: 15 words × 5 letters = 75).
    pub gamma_latin: f64,
    /// γ of Formula 1 for Chinese/Japanese pages: characters of an average sentence (paper: 12).
    pub gamma_cjk: f64,
    /// A page is CJK (γ = `gamma_cjk`) when at least this share of its visible non-space
    /// characters are CJK ideographs or kana. Ours: the paper assumes the language is known.
    pub cjk_share: f64,
    /// Sentence-segmentation punctuation counted as P in Formula 1.
    pub punctuation: String,
    /// Marks that make a cell "full stopped" (S in Formula 1) when its text ends with one.
    pub full_stops: String,
    /// The smoothing window sw of Formula 2, in cells (paper: 5).
    pub smoothing_window: usize,
    /// One blank cell is inserted per this many characters of source code between two cells
    /// (§3.2, the "Cell added threshold"; paper: 200).
    pub blank_cell_code: f64,
    /// The span window (Definition 3): a ridge never holds a run of more than this many
    /// cells below the primary threshold (paper: 5).
    pub span_window: usize,
    /// Peak threshold = this × primary threshold (Definition 3, the peak factor; paper: 3).
    pub peak_factor: f64,
    /// A ridge is primary content when the classifier's probability reaches this. Chosen on
    /// the training half of the gold sets (mean token F1 of the five sets: 0.5 → 0.856,
    /// 0.6 → 0.859, 0.7 → 0.853; 0 = keep every ridge → 0.855).
    pub min_probability: f64,
    /// When no ridge reaches `min_probability`, keep the most probable one, and when a page has
    /// no ridge at all (no cell above the peak threshold), take the stretch from its first to
    /// its last cell scoring at least the mean as its ridge: by Definition 1 every page has a
    /// primary content. Ours; the paper does not say.
    pub keep_best_ridge: bool,
    /// Training labels (`indexer eval train-mountain`): a ridge is primary when at least this
    /// share of its tokens are in the page's gold text (bag intersection).
    pub label_min_gold_share: f64,
    /// Training: L2 penalty of the logistic regression (on standardised features).
    pub l2: f64,
    /// Training: passes of full-batch gradient descent.
    pub epochs: usize,
    /// Training: the gradient-descent step.
    pub learning_rate: f64,
}

impl Default for MountainConfig {
    fn default() -> Self {
        MountainConfig {
            model: String::new(),
            alpha: 0.5,
            beta: -0.5,
            gamma_latin: 75.0,
            gamma_cjk: 12.0,
            cjk_share: 0.3,
            punctuation: ".,;:!?。，；：！？、".to_string(),
            full_stops: ".!?。！？".to_string(),
            smoothing_window: 5,
            blank_cell_code: 200.0,
            span_window: 5,
            peak_factor: 3.0,
            min_probability: 0.6,
            keep_best_ridge: true,
            label_min_gold_share: 0.5,
            l2: 0.001,
            epochs: 2000,
            learning_rate: 0.5,
        }
    }
}

/// The learned block classifier (`cleaning.cleaner = "blocks"`, `clean::block_classifier`):
/// gradient-boosted trees over the content blocks, trained by `indexer eval train-blocks` on
/// the cleaning training sets. The training settings were not searched: they are common
/// values for boosted trees on a few hundred thousand examples (the learner's defaults but
/// for the depth, kept small so the model file stays small and fast).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BlocksConfig {
    /// The model (JSON, as written by `indexer eval train-blocks`); empty: the built-in model
    /// `src/clean/block_classifier/block-model.json`.
    pub model: String,
    /// Keep a block when its probability reaches this; absent: the model's threshold, chosen
    /// on the training folds by `eval train-blocks`.
    pub min_probability: Option<f64>,
    /// Pages with fewer terms than this are left as the `docview` cleaner judges them: the
    /// model has no support there (the training pages are longer but for a handful).
    pub min_page_terms: usize,
    /// A kept block of at least this many terms is dropped when an earlier kept block of the
    /// page has the same text (a page that renders its text twice: a copy for narrow screens,
    /// a tab or print version); 0: the rule off. Chosen on the training folds
    /// (`eval train-blocks --grid`).
    pub repeat_min_terms: usize,
    /// Which earlier kept copy makes the repeated-text rule drop a block: any on the page, or
    /// only one in another region of the page than the block (a page's second rendering of
    /// its text, where an author's repeat inside the text stays). Set before its
    /// cross-validation (README, *Cleaning quality*).
    pub repeat_scope: RepeatScope,
    /// Training: the block features include the item-run share (the share of the page's terms
    /// in the run of alike, byline-led items a block lies in: comments, reviews, replies,
    /// cards). A model reads the features it was trained with, whatever this says when
    /// cleaning.
    pub item_runs: bool,
    /// Training labels: a block is content when at least this share of its tokens are in the
    /// page's gold text (bag intersection, the tokens of `eval clean`).
    pub label_min_gold_share: f64,
    /// Training: the class and id words kept as features (the most frequent on the training
    /// pages, counted once per page); at most 64.
    pub vocabulary_size: usize,
    /// Training: boosting rounds (trees).
    pub trees: usize,
    /// Training: the shrinkage of each tree.
    pub learning_rate: f64,
    /// Training: the depth of each tree.
    pub max_depth: usize,
    /// Training: L2 penalty on leaf values.
    pub l2: f64,
    /// Training: the least hessian weight in a leaf.
    pub min_leaf_weight: f64,
    /// Training: folds by site for the cross-validated F1 and the threshold's choice.
    pub folds: usize,
    /// Training: mixed into the hash that puts each site in a fold, so that a variant chosen
    /// on one partition can be confirmed on another that chose nothing; 0: the partition of
    /// `eval tune-cleaner` and of every earlier report.
    pub fold_seed: u64,
    /// Training: how a block's label is read from the gold text.
    pub labels: BlockLabels,
    /// Training: how a block weighs among its page's examples.
    pub example_weight: ExampleWeight,
}

impl Default for BlocksConfig {
    fn default() -> Self {
        BlocksConfig {
            model: String::new(),
            min_probability: None,
            min_page_terms: 100,
            repeat_min_terms: 0,
            repeat_scope: RepeatScope::Page,
            item_runs: false,
            label_min_gold_share: 0.5,
            vocabulary_size: 48,
            trees: 150,
            learning_rate: 0.1,
            max_depth: 5,
            l2: 1.0,
            min_leaf_weight: 1.0,
            folds: 5,
            fold_seed: 0,
            labels: BlockLabels::Trigrams,
            example_weight: ExampleWeight::Tokens,
        }
    }
}

/// The aggressive stop-word list learned from document frequency (§3.2).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StopWordConfig {
    /// Pages read from the start of the input to learn document frequencies (a first pass over
    /// a sample: the corpus is never held in memory).
    pub sample_pages: usize,
    /// A term in more than this share of the sampled pages becomes a stop word.
    pub max_document_frequency: f64,
    /// No list is learned from fewer sampled pages than this (too little evidence).
    pub min_sample_pages: usize,
}

impl Default for StopWordConfig {
    fn default() -> Self {
        StopWordConfig { sample_pages: 500, max_document_frequency: 0.3, min_sample_pages: 50 }
    }
}

/// Replica removal (§5).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ReplicaConfig {
    /// The near-replica detector: `minhash` (default), `docview` (the keyword MD5
    /// fingerprint of §5), `simhash`, or `off` (exact copies only).
    pub detector: DetectorKind,
    /// Share of the feature words that go into the keyword fingerprint (paper: 0.4).
    pub percentage: f64,
    /// The number of words fingerprinted is a multiple of this (paper: 5).
    pub interval: usize,
    /// Words per shingle for MinHash and SimHash.
    pub shingle_words: usize,
    /// Hash functions of a MinHash signature.
    pub minhash_hashes: usize,
    /// MinHash, two pages of one site (host): replicas when their estimated Jaccard
    /// resemblance of shingles reaches this ...
    pub minhash_threshold: f64,
    /// ... or when this share of the smaller page's shingles is in the larger one (Broder's
    /// containment, estimated from the resemblance and the two shingle counts), which an added
    /// box or a trimmed paragraph lowers far less than the resemblance ...
    pub containment_threshold: f64,
    /// ... provided the smaller page has at least this share of the larger's shingles: a
    /// short text inside a long page (a teaser on a hub) is not a copy of that page.
    pub containment_min_ratio: f64,
    /// `minhash_threshold` for two pages of different sites. Pages of one site share template
    /// text that cleaning may leave in (a byline, a related-links list), which raises their
    /// overlap; across sites shared text is the article itself, so a lower resemblance
    /// already means a copy.
    pub cross_site_minhash_threshold: f64,
    /// `containment_threshold` for two pages of different sites (1: containment alone never
    /// makes a cross-site replica).
    pub cross_site_containment_threshold: f64,
    /// `containment_min_ratio` for two pages of different sites.
    pub cross_site_containment_min_ratio: f64,
    /// SimHash: pages whose 64-bit sketches differ in at most this many bits are replicas
    /// (3, as in Manku et al. 2007).
    pub simhash_max_distance: usize,
    /// Pages with fewer terms of topic content get no near-replica signature, only the
    /// exact-copy check: a headline or a notice of a few words resembles too many others.
    pub near_min_terms: usize,
}

impl Default for ReplicaConfig {
    fn default() -> Self {
        ReplicaConfig {
            // MinHash finds as many near replicas as the keyword fingerprint on the replica
            // set (94.4%, no errors) and far more of the judged copycat pairs at a lower
            // false-positive rate (eval/reports/replicas/).
            detector: DetectorKind::MinHash,
            percentage: 0.4,
            interval: 5,
            // The cross-site rule: chosen on the replica benchmark built from training data
            // (eval/replica-benchmark/); within a site, shingles and threshold stay as they were
            // (README, "Replica detection").
            shingle_words: 3,
            minhash_hashes: 128,
            minhash_threshold: 0.85,
            containment_threshold: 1.0,
            containment_min_ratio: 1.0,
            cross_site_minhash_threshold: 0.40,
            cross_site_containment_threshold: 1.0,
            cross_site_containment_min_ratio: 1.0,
            simhash_max_distance: 3,
            near_min_terms: 30,
        }
    }
}

/// Web page integration (§6).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DocViewConfig {
    /// λ: number of keywords.
    pub keywords: usize,
    /// δ: number of sentences in the abstract.
    pub abstract_sentences: usize,
    /// θ: number of keywords that weigh the sentences.
    pub abstract_keywords: usize,
    /// The abstract's share of the topic content's sentences (rounded up), capped by δ: an
    /// abstract bounded relative to its page (§6 fixes δ alone, which on pages of 10 to 20
    /// sentences keeps nearly all of them).
    pub abstract_share: f64,
    /// The fewest sentences an abstract has (short texts keep up to this many).
    pub abstract_min_sentences: usize,
    /// β: cosine threshold above which a hub block's links are relevant hyperlinks.
    pub link_similarity: f64,
    /// Titles (compared case-insensitively, digits ignored) that editing tools generate;
    /// they are replaced by the top keywords.
    pub generated_titles: Vec<String>,
    /// Keywords that replace a generated title.
    pub title_keywords: usize,
}

impl Default for DocViewConfig {
    fn default() -> Self {
        let generated_titles = [
            "untitled document",
            "untitled",
            "untitled page",
            "new page",
            "new document",
            "document",
            "home",
            "index",
            "无标题文档",
            "无标题页",
            "无标题",
            "新建网页",
            "新网页",
        ]
        .into_iter()
        .map(str::to_string)
        .collect();
        DocViewConfig {
            keywords: 10,
            abstract_sentences: 15,
            abstract_keywords: 15,
            abstract_share: 0.3,
            abstract_min_sentences: 3,
            link_similarity: 0.2,
            generated_titles,
            title_keywords: 2,
        }
    }
}

/// Content classification (§6 "Content category"): the model a build uses, and the
/// parameters `indexer classify train` and `indexer classify eval` train with.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ClassifyConfig {
    /// The model file a build classifies with (`indexer build --classifier`); empty: the
    /// built-in default model (Table 1's 12 categories). `off`: no classification.
    #[schemars(with = "String")]
    pub model: ClassifierChoice,
    /// `nb-svm+nb` (NB-SVM and Naive Bayes, their calibrated probabilities averaged), `nb-svm`
    /// (the SVM over Naive Bayes log-count ratios, Wang & Manning 2012), `linear-svm`
    /// (one-vs-rest, squared hinge, on sublinear tf-idf) or `naive-bayes` (multinomial, on
    /// counts). The pair is the best on THUCNews dev (5-fold, `classify eval --tuning`: 85.5%
    /// against NB-SVM's 85.0%) and on AG News (README, "Content classification").
    pub algorithm: Algorithm,
    /// Features are hashed into 2^hash_bits buckets: bounds model size and training memory.
    /// 2^20 buckets keep collisions rare for the vocabularies of tens of thousands of
    /// documents.
    pub hash_bits: u32,
    /// Pairs of consecutive terms are features too.
    pub word_bigrams: bool,
    /// Character n-grams of Chinese (CJK) runs, n = 1..=this; 0 for none.
    pub cjk_char_ngrams: usize,
    /// Leave out the terms of the generic stop-word lists (`src/text/stopwords/`), as the
    /// paper's feature vector does (§3.2). Function words carry a site's writing style more
    /// than its topic: without them the default model recipe gets 45 instead of 37 of 193
    /// sample pages right with each site held out (`eval/classify/leave-one-site-out.sh`);
    /// the public sets are unchanged (README).
    pub skip_stop_words: bool,
    /// A feature must occur in at least this many training documents to enter the model
    /// (1 keeps all; 2 drops the singletons that make most of a small model's size).
    pub min_document_frequency: usize,
    /// Naive Bayes additive smoothing α (also of NB-SVM's log-count ratios).
    pub nb_alpha: f64,
    /// SVM cost C of the squared hinge loss (LIBLINEAR's and scikit-learn's `C`; smaller
    /// regularises more).
    pub svm_c: f64,
    /// Most passes of the SVM's coordinate descent over the training set (it stops earlier
    /// once converged).
    pub svm_epochs: usize,
    /// Folds of the cross-validation on the training set that calibrates the confidence
    /// (temperature scaling); 0 or 1: no calibration.
    pub calibration_folds: usize,
    /// Seed of the SVM's visiting order and of the cross-validation folds.
    pub seed: u64,
    /// A record whose best category has a lower confidence gets no code (its
    /// `classification_code` is empty; `classification_confidence` still says how sure the
    /// model was): a wrong code misleads a reader and a `--category` filter, an empty one
    /// only says "unknown". 0 codes every record. Chosen by `indexer classify cv` on the
    /// default model's training set, where it maximises right minus wrong codes (README,
    /// "Content classification").
    pub min_confidence: f32,
}

impl Default for ClassifyConfig {
    fn default() -> Self {
        ClassifyConfig {
            model: ClassifierChoice::BuiltIn,
            algorithm: Algorithm::NbSvmPlusNb,
            hash_bits: 20,
            word_bigrams: true,
            cjk_char_ngrams: 2,
            skip_stop_words: true,
            min_document_frequency: 1,
            nb_alpha: 0.1,
            svm_c: 0.3,
            svm_epochs: 20,
            calibration_folds: 5,
            seed: 2004,
            min_confidence: 0.55,
        }
    }
}

/// Tantivy writer resources.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexConfig {
    /// Memory budget of each of the two index writers, in MiB (at least 15 per writer thread).
    pub writer_memory_mib: usize,
    /// Indexing threads of each writer.
    pub writer_threads: usize,
}

impl Default for IndexConfig {
    fn default() -> Self {
        IndexConfig { writer_memory_mib: 64, writer_threads: 1 }
    }
}

/// A configuration file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {source}")]
    Read { path: String, source: std::io::Error },
    /// Not TOML, an unknown key, or an unknown name (the message lists the allowed ones).
    #[error("config {path} is not valid: line {line}: {message}")]
    Parse { path: String, line: usize, message: String },
    #[error("config {path}: {message}")]
    Invalid { path: String, message: String },
}

impl Config {
    /// Loads a TOML file over the defaults: keys absent from the file keep their default.
    pub fn from_toml_file(path: &Path) -> Result<Config, ConfigError> {
        let display = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: display.clone(), source })?;
        let config: Config = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: display.clone(),
            line: e.span().map_or(0, |span| {
                text.as_bytes()[..span.start.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
            }),
            message: e.message().trim_end().to_string(),
        })?;
        config.validate().map_err(|message| ConfigError::Invalid { path: display, message })?;
        Ok(config)
    }

    /// The defaults as a TOML document (what `indexer config` prints).
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks ranges that would otherwise fail deep inside a stage.
    pub fn validate(&self) -> Result<(), String> {
        let share = |name: &str, value: f64| {
            if (0.0..=1.0).contains(&value) { Ok(()) } else { Err(format!("{name} must be in 0..=1, got {value}")) }
        };
        let non_negative = |name: &str, value: f64| {
            if value >= 0.0 && value.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} must be a number of 0 or more, got {value}"))
            }
        };
        let c = &self.cleaning;
        share("cleaning.sibling_score_share", c.sibling_score_share)?;
        share("cleaning.title_root_min_share", c.title_root_min_share)?;
        share("cleaning.climb_max_link_density", c.climb_max_link_density)?;
        share("cleaning.min_root_coverage", c.min_root_coverage)?;
        share("cleaning.site_template_share", c.site_template_share)?;
        non_negative("cleaning.title_heading_score", c.title_heading_score)?;
        non_negative("cleaning.title_override_ratio", c.title_override_ratio)?;
        non_negative("cleaning.climb_share", c.climb_share)?;
        non_negative("cleaning.climb_min_text", c.climb_min_text)?;
        share("layout.margin_word_max_text_share", self.layout.margin_word_max_text_share)?;
        share("layout.title_heading_min_overlap", self.layout.title_heading_min_overlap)?;
        share("page_type.hub_page_ratio", self.page_type.hub_page_ratio)?;
        share("page_type.certain_hub_share", self.page_type.certain_hub_share)?;
        non_negative("page_type.max_terms_per_image", self.page_type.max_terms_per_image)?;
        share("tag_tree.hub_anchor_ratio", self.tag_tree.hub_anchor_ratio)?;
        share("tag_tree.image_term_ratio", self.tag_tree.image_term_ratio)?;
        let w = &self.block_weight;
        share("block_weight.propagation_share", w.propagation_share)?;
        share("block_weight.pseudo_weighty_anchor_ratio", w.pseudo_weighty_anchor_ratio)?;
        share("block_weight.pseudo_weighty_coverage", w.pseudo_weighty_coverage)?;
        non_negative("block_weight.max_force", w.max_force)?;
        for (tag, force) in &w.forces {
            non_negative(&format!("block_weight.forces.{tag}"), *force)?;
        }
        share("stop_words.max_document_frequency", self.stop_words.max_document_frequency)?;
        share("docview.link_similarity", self.docview.link_similarity)?;
        let r = &self.replicas;
        if !(0.0..=1.0).contains(&r.percentage) {
            return Err(format!("replicas.percentage must be in 0..=1, got {}", r.percentage));
        }
        if r.interval == 0 {
            return Err("replicas.interval must be at least 1".into());
        }
        if ![
            r.minhash_threshold,
            r.containment_threshold,
            r.containment_min_ratio,
            r.cross_site_minhash_threshold,
            r.cross_site_containment_threshold,
            r.cross_site_containment_min_ratio,
        ]
        .iter()
        .all(|t| (0.0..=1.0).contains(t))
            || r.minhash_hashes == 0
            || r.simhash_max_distance >= 32
        {
            return Err(
                "replicas: the minhash and containment thresholds and ratios must be in 0..=1, minhash_hashes ≥ 1, simhash_max_distance < 32".into()
            );
        }
        if !(0.0..=1.0).contains(&self.satisfiable.max_anchor_share) {
            return Err(format!(
                "satisfiable.max_anchor_share (γ) must be in 0..=1, got {}",
                self.satisfiable.max_anchor_share
            ));
        }
        if !(0.0..=1.0).contains(&self.pab.max_outer_link_share) {
            return Err(format!("pab.max_outer_link_share must be in 0..=1, got {}", self.pab.max_outer_link_share));
        }
        let m = &self.mountain;
        if m.smoothing_window == 0 || m.gamma_latin <= 0.0 || m.gamma_cjk <= 0.0 || m.blank_cell_code <= 0.0 {
            return Err("mountain: smoothing_window must be at least 1; gammas and blank_cell_code positive".into());
        }
        if !(0.0..=1.0).contains(&m.min_probability) || !(0.0..=1.0).contains(&m.label_min_gold_share) {
            return Err("mountain: min_probability and label_min_gold_share must be in 0..=1".into());
        }
        let b = &self.blocks;
        if b.min_probability.is_some_and(|p| !(0.0..=1.0).contains(&p))
            || !(0.0..=1.0).contains(&b.label_min_gold_share)
        {
            return Err("blocks: min_probability and label_min_gold_share must be in 0..=1".into());
        }
        if b.vocabulary_size > 64 || b.trees == 0 || b.max_depth == 0 || b.folds < 2 || b.learning_rate <= 0.0 {
            return Err("blocks: vocabulary_size at most 64, trees and max_depth at least 1, folds at least 2, \
                        learning_rate positive"
                .into());
        }
        let c = &self.classify;
        if !(1..=31).contains(&c.hash_bits) {
            return Err(format!("classify.hash_bits must be in 1..=31, got {}", c.hash_bits));
        }
        if !(0.0..=1.0).contains(&c.min_confidence) {
            return Err(format!("classify.min_confidence must be in 0..=1, got {}", c.min_confidence));
        }
        if c.nb_alpha <= 0.0 || c.svm_c <= 0.0 || c.svm_epochs == 0 {
            return Err("classify.nb_alpha and classify.svm_c must be positive, svm_epochs at least 1".into());
        }
        let sst = &self.sst;
        if !(0.0..=1.0).contains(&sst.noise_threshold) || !(0.0..1.0).contains(&sst.attenuation) {
            return Err("sst.noise_threshold must be in 0..=1 and sst.attenuation in 0..1".into());
        }
        if !(0.0..=1.0).contains(&self.docview.abstract_share) {
            return Err(format!("docview.abstract_share must be in 0..=1, got {}", self.docview.abstract_share));
        }
        if self.input.batch_size == 0 {
            return Err("input.batch_size must be at least 1".into());
        }
        if self.input.parallel_files == 0 || self.input.reader_threads == 0 {
            return Err("input.parallel_files and input.reader_threads must be at least 1".into());
        }
        if self.index.writer_threads == 0 {
            return Err("index.writer_threads must be at least 1".into());
        }
        // Tantivy splits the budget between its threads and wants 15 MB (< 15 MiB) each.
        if self.index.writer_memory_mib < 15 * self.index.writer_threads {
            return Err(format!(
                "index.writer_memory_mib must be at least 15 per writer thread (Tantivy's minimum): {} threads need {}",
                self.index.writer_threads,
                15 * self.index.writer_threads
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_round_trips_through_toml() {
        let text = Config::default().to_toml();
        let back: Config = toml::from_str(&text).unwrap();
        assert_eq!(back, Config::default());
    }

    #[test]
    fn partial_file_overrides_only_its_keys() {
        let config: Config = toml::from_str("[replicas]\npercentage = 0.5\n").unwrap();
        assert_eq!(config.replicas.percentage, 0.5);
        assert_eq!(config.replicas.interval, 5);
        assert_eq!(config.docview.abstract_sentences, 15);
    }

    #[test]
    fn unknown_keys_are_rejected() {
        assert!(toml::from_str::<Config>("[replicas]\npercentag = 0.5\n").is_err());
    }

    #[test]
    fn out_of_range_values_are_rejected() {
        let mut config = Config::default();
        config.replicas.interval = 0;
        assert!(config.validate().is_err());
        let mut config = Config::default();
        config.satisfiable.max_anchor_share = 1.5;
        assert!(config.validate().is_err(), "γ is a share");
        let mut config = Config::default();
        config.pab.max_outer_link_share = -0.1;
        assert!(config.validate().is_err());
        let mut config = Config::default();
        config.classify.min_confidence = 1.5;
        assert!(config.validate().unwrap_err().contains("classify.min_confidence"), "a confidence is a probability");
        let mut config = Config::default();
        config.index.writer_threads = 2;
        config.index.writer_memory_mib = 16;
        assert!(config.validate().unwrap_err().contains("2 threads need 30"));
        config.index.writer_memory_mib = 30;
        assert!(config.validate().is_ok());
    }

    #[test]
    fn cleaning_shares_and_scores_are_checked() {
        let mut config = Config::default();
        config.cleaning.min_root_coverage = -0.5;
        assert!(config.validate().unwrap_err().contains("cleaning.min_root_coverage must be in 0..=1, got -0.5"));
        let mut config = Config::default();
        config.cleaning.climb_share = f64::NAN;
        assert!(config.validate().unwrap_err().contains("cleaning.climb_share"));
        let mut config = Config::default();
        config.block_weight.forces.insert("h1".into(), -1.0);
        assert!(config.validate().unwrap_err().contains("block_weight.forces.h1"));
        let mut config = Config::default();
        config.layout.title_heading_min_overlap = 1.2;
        assert!(config.validate().unwrap_err().contains("layout.title_heading_min_overlap"));
        let mut config = Config::default();
        config.mountain.beta = -0.5;
        assert!(config.validate().is_ok(), "the mountain model's β is signed");
    }
}
