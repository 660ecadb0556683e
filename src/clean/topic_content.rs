//! The topic content of a page (§4.2): which blocks of the tag tree hold it.

use crate::clean::{BlockWeights, CleanerKind, Layout, TitleHeading, block_weights, page_type, type_of_area};
use crate::config::{CleaningConfig, Config};
use crate::tagtree::{BlockType, NodeId, TagTree, hint_words};

/// The result of cleaning one page.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicContent {
    /// The page type (§4.1); `Empty` when the page has no content at all.
    pub page_type: BlockType,
    /// The blocks whose own content is topic content, in document order.
    pub nodes: Vec<NodeId>,
    /// `keep[id]`: node `id` is in `nodes`.
    pub keep: Vec<bool>,
    /// The topic root (§6): the lowest common ancestor of `nodes`.
    pub root: Option<NodeId>,
    /// The page's title heading ([`Layout::title_heading`]), whether kept or not.
    pub(crate) title_heading: Option<TitleHeading>,
}

impl TopicContent {
    pub(crate) fn new(tree: &TagTree, layout: &Layout, page_type: BlockType, mut nodes: Vec<NodeId>) -> TopicContent {
        nodes.sort_unstable();
        nodes.dedup();
        let mut keep = vec![false; tree.nodes.len()];
        for &id in &nodes {
            keep[id] = true;
        }
        let root = tree.lowest_common_ancestor(&nodes);
        TopicContent { page_type, nodes, keep, root, title_heading: layout.title_heading() }
    }

    /// The topic content as text, one line per block.
    pub fn text(&self, tree: &TagTree) -> String {
        tree.render_text(|id| self.keep[id])
    }

    /// The topic content as text, with its headline where `headline` says: the text
    /// `indexer extract` writes and `indexer eval clean` scores.
    pub fn text_with(&self, tree: &TagTree, headline: HeadlinePlacement) -> String {
        match (headline, self.headline_tag(tree)) {
            (HeadlinePlacement::Apart, Some((node, tag))) => {
                tree.render_text_without(|id| self.keep[id], node, tag.items.clone())
            }
            _ => self.text(tree),
        }
    }

    /// The headline, when the topic content holds it: the text of the page's title heading
    /// (the h1–h3 matching `<title>`, see [`Layout::title_heading`]).
    pub fn headline(&self, tree: &TagTree) -> Option<String> {
        self.headline_tag(tree).map(|(_, tag)| crate::tagtree::collapse_whitespace(&tag.text)).filter(|t| !t.is_empty())
    }

    fn headline_tag<'t>(&self, tree: &'t TagTree) -> Option<(NodeId, &'t crate::tagtree::WeightyTag)> {
        self.title_heading.map(|h| (h.node, &tree.nodes[h.node].weighty[h.tag])).filter(|&(node, _)| self.keep[node])
    }

    /// The purified page (§4.2's "topic content page").
    pub fn html(&self, tree: &TagTree, title: &str, base: Option<&url::Url>) -> String {
        tree.render_html(title, base, |id| self.keep[id])
    }

    /// Number of terms in the topic content.
    pub fn terms(&self, tree: &TagTree) -> usize {
        self.nodes.iter().map(|&id| tree.nodes[id].own.terms).sum()
    }
}

/// Where extracted text puts the page's headline.
///
/// The DocView record holds the title apart from the topic content, and so do article
/// extractors: trafilatura's text output (the reference of the cleaning table) and the
/// `articleBody` of schema.org leave the headline out. `Apart` writes the body only, the
/// headline going to `extract`'s manifest; `Inline` keeps it as the first line. Build and
/// index keep it in the topic content either way: its terms are the page's first keywords
/// and part of its fingerprint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HeadlinePlacement {
    #[default]
    Apart,
    Inline,
}

/// Cleans a page (§4): its type, then its topic content.
///
/// `docview-paper` types the page by its central area (§4.1) and cleans it by type (§4.2).
/// `docview` searches the topic root first (`find_topic_root`) and types the page by the
/// root's region, because the paper's central area (the whole page minus its margins) drowns
/// a headline-only article in its template's link lists: a bare headline makes a topic page.
/// The area one level up (margins left out) decides whether the page is a gallery, whose
/// pictures stand beside the intro text the root search finds. With no root at all (no
/// running text, no headline) the paper's rule decides. Known gap: a story list whose
/// teasers are sentences is typed topic (its teasers become the topic content).
///
/// A page whose content so found has almost no running text of its own (fewer than
/// `climb_min_text` terms outside links: a listing, a headline over entries that are linked
/// titles with linked summaries) is read again with its teaser links as text
/// ([`TagTree::with_teasers_as_text`]) and cleaned again: the entries are its content. Only
/// such pages are read again: on an article page, teasers are the template's "more
/// stories" boxes. Deviation from the paper, whose hub rule (§3.1) counts every anchor term
/// alike.
pub fn clean_page(
    tree: &TagTree,
    layout: &Layout,
    weights: &BlockWeights,
    kind: CleanerKind,
    config: &Config,
) -> TopicContent {
    let content = clean_by_type(tree, layout, weights, kind, config);
    let running = |tree: &TagTree, content: &TopicContent| {
        content.nodes.iter().map(|&id| tree.nodes[id].own.text_terms()).sum::<usize>()
    };
    let own_text = running(tree, &content);
    if kind != CleanerKind::DocView
        || tree.nodes[TagTree::ROOT].subtree.teaser_terms == 0
        || content.page_type == BlockType::Image
        || own_text as f64 >= config.cleaning.climb_min_text
    {
        return content;
    }
    let reread = tree.with_teasers_as_text(&config.tag_tree);
    let weights = block_weights(&reread, &config.block_weight);
    let listing = clean_by_type(&reread, layout, &weights, kind, config);
    // The entries extend the page's own content (its headline, its standfirst): a topic page
    // still, in entries that repeat their markup (a template's box of teasers is one block).
    let extends = content.nodes.iter().all(|&id| listing.keep[id]);
    if listing.page_type == BlockType::Topic
        && extends
        && listing.root.is_some_and(|root| has_teaser_entries(tree, root, config.cleaning.listing_min_entries))
        && running(&reread, &listing) > own_text
    {
        listing
    } else {
        content
    }
}

/// One cleaning pass over `tree` as it reads: the page type, then the blocks of that type.
fn clean_by_type(
    tree: &TagTree,
    layout: &Layout,
    weights: &BlockWeights,
    kind: CleanerKind,
    config: &Config,
) -> TopicContent {
    let global = page_type(tree, layout, &config.page_type);
    if global == BlockType::Empty {
        return TopicContent::new(tree, layout, global, Vec::new());
    }
    // Only the DocView kinds come here: `Cleaner::clean` dispatches the other papers' cleaners
    // to their own modules.
    let search = match kind {
        CleanerKind::DocView => find_topic_root(tree, layout, weights, &config.cleaning),
        _ => None,
    };
    let page_type = match &search {
        None => global,
        Some(search) => {
            // The root's area without its margins, as the paper's central area (§4.1): a
            // story's own tag list, share bar or comment links do not make it a hub page.
            let roots: Vec<NodeId> =
                search.roots.iter().flat_map(|&r| tree.descendants(r)).filter(|&id| !layout.is_margin(id)).collect();
            let top = tree.nodes[search.root].parent.unwrap_or(search.root);
            let around: Vec<NodeId> = tree.descendants(top).into_iter().filter(|&id| !layout.is_margin(id)).collect();
            // An article illustrated with many photos is no gallery: a paragraph of substance
            // (`climb_min_text` terms of running text; captions are shorter) under the root
            // makes it an article, however many pictures stand between its paragraphs.
            let longest = roots
                .iter()
                .filter(|&&id| RootSearch::is_text_block(tree, layout, id))
                .map(|&id| RootSearch::running_terms(tree, layout, id))
                .max()
                .unwrap_or(0);
            let article = longest as f64 >= config.cleaning.climb_min_text;
            let gallery = !article && type_of_area(tree, layout, &around, &config.page_type) == BlockType::Image;
            match type_of_area(tree, layout, &roots, &config.page_type) {
                _ if gallery => BlockType::Image,
                _ if !search.has_paragraphs && global == BlockType::Image => BlockType::Image,
                _ if !search.has_paragraphs => BlockType::Topic,
                BlockType::Empty => global,
                BlockType::Image if article => BlockType::Topic,
                local => local,
            }
        }
    };
    let nodes = match (page_type, &search) {
        (BlockType::Empty, _) => Vec::new(),
        (BlockType::Hub, _) => hub_blocks(tree, layout, kind),
        (BlockType::Image, _) => image_blocks(tree, layout, kind, &config.cleaning),
        (BlockType::Topic, Some(search)) => {
            let found = search.topic_blocks(tree, layout, &config.cleaning);
            let central = content_region_blocks(tree, layout, search.root, &config.cleaning);
            let terms = |ids: &[NodeId]| ids.iter().map(|&id| tree.nodes[id].own.terms).sum::<usize>() as f64;
            // A bare headline stays the answer on its own (see above): the text around a
            // stub is its template's. A headline block holding a paragraph in the page's
            // <main> (a hero section's standfirst over the sections of a service page) is
            // no bare headline: the text around it in <main> is content (HTML5).
            let holds_paragraph = |root: NodeId| {
                tree.descendants(root)
                    .into_iter()
                    .any(|id| id != root && RootSearch::is_paragraph(tree, layout, id, &config.cleaning))
            };
            let bare_headline = search.heading == Some(search.root)
                && search.roots.len() == 1
                && !(enclosing_main(tree, search.root).is_some() && holds_paragraph(search.root));
            if search.has_paragraphs
                && !bare_headline
                && terms(&found) < config.cleaning.min_root_coverage * terms(&central)
            {
                central
            } else {
                found
            }
        }
        (BlockType::Topic, None) => match kind {
            CleanerKind::DocView => pruned_topic_blocks(tree).into_iter().filter(|&id| !layout.is_margin(id)).collect(),
            _ => pruned_topic_blocks(tree),
        },
    };
    TopicContent::new(tree, layout, page_type, nodes)
}

/// The topic blocks of the content region around the topic root: the paper's pruned topic
/// tree (§4.2) without the margins, within the highest ancestor of the root whose text is
/// still mostly running text (link density at most `climb_max_link_density`).
///
/// Deviation from the paper, the other way round: when the root holds less than
/// `min_root_coverage` of this text, the page is not one article but many sections of
/// content (a service page, a listing, documentation), and the root search found only one
/// of them; these blocks are the topic content then. The region stops where navigation and
/// sidebars join in, so the template stays out.
fn content_region_blocks(tree: &TagTree, layout: &Layout, root: NodeId, config: &CleaningConfig) -> Vec<NodeId> {
    let mut region = root;
    while let Some(parent) = tree.nodes[region].parent {
        let node = &tree.nodes[parent];
        if matches!(node.tag.as_str(), "body" | "#root") || node.subtree.link_density() > config.climb_max_link_density
        {
            break;
        }
        region = parent;
    }
    // Ids in a subtree are contiguous, from the region's own id on.
    let end = tree.descendants(region).into_iter().max().unwrap_or(region);
    let blocks: Vec<(NodeId, NodeId)> = pruned_topic_blocks(tree)
        .into_iter()
        .filter(|&id| id >= region && id <= end && !layout.is_margin(id))
        .map(|id| (region, id))
        .collect();
    without_captions(tree, &blocks, config)
}

/// §4.2 topic page cleaning as published: prune every hub and image block (with its
/// subtree); the remaining blocks with topic text of their own are the topic content tree.
fn pruned_topic_blocks(tree: &TagTree) -> Vec<NodeId> {
    let mut pruned = vec![false; tree.nodes.len()];
    let mut out = Vec::new();
    for id in 0..tree.nodes.len() {
        let node = &tree.nodes[id];
        pruned[id] =
            node.parent.is_some_and(|p| pruned[p]) || matches!(node.block_type, BlockType::Hub | BlockType::Image);
        if !pruned[id] && node.own_type == BlockType::Topic && node.own.terms > 0 {
            out.push(id);
        }
    }
    out
}

/// Where the default cleaner found the article.
#[derive(Debug, Clone, PartialEq)]
pub struct RootSearch {
    /// The topic root.
    pub root: NodeId,
    /// The root and the siblings kept with it.
    pub roots: Vec<NodeId>,
    /// The heading matching the page title, if any.
    pub heading: Option<NodeId>,
    /// The title heading when it stands apart from the root (kept in addition).
    pub extra_heading: Vec<NodeId>,
    /// Whether any paragraph of running text was found (not just a headline).
    pub has_paragraphs: bool,
}

impl RootSearch {
    /// A paragraph of the root search: a text block with at least `min_paragraph_terms`
    /// terms of running text.
    fn is_paragraph(tree: &TagTree, layout: &Layout, id: NodeId, config: &CleaningConfig) -> bool {
        Self::is_text_block(tree, layout, id) && Self::running_terms(tree, layout, id) >= config.min_paragraph_terms
    }

    fn is_text_block(tree: &TagTree, layout: &Layout, id: NodeId) -> bool {
        let node = &tree.nodes[id];
        !layout.is_margin(id) && node.own_type == BlockType::Topic && node.own.terms > 0
    }

    /// A block's own running text, in terms: its text outside links, and outside the
    /// headings of the title heading's block. A long headline is not a paragraph: it scores
    /// as the title heading, so that twelve words of h1, weighed as an h1, do not outweigh
    /// the article under it. Other headings stay text (product names, questions of a FAQ).
    fn running_terms(tree: &TagTree, layout: &Layout, id: NodeId) -> usize {
        let node = &tree.nodes[id];
        let headings: usize = match layout.title_heading().is_some_and(|h| h.node == id) {
            true => node
                .weighty
                .iter()
                .filter(|w| matches!(w.tag.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
                .map(|w| w.terms.saturating_sub(w.anchor_terms))
                .sum(),
            false => 0,
        };
        node.own.text_terms().saturating_sub(headings)
    }

    /// The central topic blocks under the roots, minus link lists and captions nested in them.
    fn topic_blocks(&self, tree: &TagTree, layout: &Layout, config: &CleaningConfig) -> Vec<NodeId> {
        let blocks: Vec<(NodeId, NodeId)> = self
            .roots
            .iter()
            .flat_map(|&r| tree.descendants(r).into_iter().map(move |id| (r, id)))
            .filter(|&(r, id)| {
                (Self::is_text_block(tree, layout, id) || Some(id) == self.heading) && !under_hub_or_image(tree, id, r)
            })
            .collect();
        without_captions(tree, &blocks, config).into_iter().chain(self.extra_heading.iter().copied()).collect()
    }
}

/// The topic root search of the default cleaner. Pruning alone keeps all the template's
/// text blocks, so: every central topic block with at least `min_paragraph_terms` terms is
/// a paragraph, scored by its non-anchor terms times its block weight; the score goes to the
/// block itself, to its parent in full and to its grandparent in half (the container that
/// holds the most paragraph text wins, not the page body that holds everything). The heading
/// that matches the page title scores like a paragraph of `title_heading_score`, and the root
/// must contain it unless a region elsewhere scores far higher. Siblings of the root scoring
/// at least `sibling_score_share` of it are kept with it.
///
/// Deviation from the paper: the title heading. A page with a headline and no running text
/// (a stub, a short notice) would otherwise take its largest template text (a cookie notice)
/// as topic content, and every such page of a site would look alike to replica detection.
pub fn find_topic_root(
    tree: &TagTree,
    layout: &Layout,
    weights: &BlockWeights,
    config: &CleaningConfig,
) -> Option<RootSearch> {
    let n = tree.nodes.len();
    // Paragraph scores, and the same plus the title heading's.
    let mut paragraph_score = vec![0.0f64; n];
    let spread = |score: &mut Vec<f64>, id: NodeId, value: f64| {
        score[id] += value;
        if let Some(parent) = tree.nodes[id].parent {
            score[parent] += value;
            if let Some(grandparent) = tree.nodes[parent].parent {
                score[grandparent] += value / 2.0;
            }
        }
    };
    let heading = layout.title_heading().map(|h| h.node);
    // Each paragraph's value: its running text times its block weight (`None`: no paragraph).
    let paragraph: Vec<Option<f64>> = (0..n)
        .map(|id| {
            let is_paragraph = RootSearch::is_paragraph(tree, layout, id, config);
            is_paragraph.then(|| RootSearch::running_terms(tree, layout, id) as f64 * weights.get(id))
        })
        .collect();
    let mut has_paragraphs = false;
    for (id, value) in paragraph.iter().enumerate() {
        if let Some(value) = *value {
            has_paragraphs = true;
            spread(&mut paragraph_score, id, value);
        }
    }
    let mut score = paragraph_score.clone();
    if let Some(h) = heading {
        // The headline's own container holds it: full score there, half to the parent.
        let value = config.title_heading_score * weights.get(h);
        score[h] += value;
        if let Some(parent) = tree.nodes[h].parent {
            score[parent] += value / 2.0;
        }
    }
    if !has_paragraphs && heading.is_none() {
        return None;
    }
    let best = |candidates: &mut dyn Iterator<Item = NodeId>| {
        candidates.max_by(|&a, &b| score[a].total_cmp(&score[b]).then(b.cmp(&a)))
    };
    // Paragraph text per subtree (the climb below weighs regions by it).
    let mut mass = vec![0.0f64; n];
    for id in (0..n).rev() {
        mass[id] += paragraph[id].unwrap_or(0.0);
        if let Some(parent) = tree.nodes[id].parent {
            mass[parent] += mass[id];
        }
    }
    // Ties go to the container (the smaller id): the whole of the text it holds.
    let mut root = best(&mut (0..n)).unwrap_or(TagTree::ROOT);
    // A headline alone (no running text of its own) won the search: its block weight (h1
    // counts several times) can outscore a short article body. Then the best running text
    // apart from it is the candidate, weighed against the headline below as a body apart
    // from its title. (Running text around the headline is not: a bare headline stays the
    // answer over the text its template wraps it in.) The best text is weighed whole, as
    // the region it climbs to: a listing's entries are small one by one, and the best single
    // paragraph is often a box of the template; the few best paragraphs are the candidates.
    if has_paragraphs && paragraph_score[root] == 0.0 {
        // The nodes holding the headline: the headline and its ancestors.
        let mut holds_heading = vec![false; n];
        for id in heading.into_iter().flat_map(|h| std::iter::once(h).chain(tree.ancestors(h))) {
            holds_heading[id] = true;
        }
        let mut candidates: Vec<NodeId> =
            (0..n).filter(|&id| paragraph_score[id] > 0.0 && !holds_heading[id]).collect();
        candidates.sort_by(|&a, &b| paragraph_score[b].total_cmp(&paragraph_score[a]).then(a.cmp(&b)));
        candidates.truncate(config.body_candidates);
        let text = candidates
            .into_iter()
            .map(|id| (id, mass[climb(tree, layout, id, &mass, config)]))
            .max_by(|&(a, whole_a), &(b, whole_b)| whole_a.total_cmp(&whole_b).then(b.cmp(&a)));
        root = text.map_or(root, |(id, _)| id);
    }
    // The article is where its headline is, unless far more running text stands elsewhere
    // (then the headline sits in a title bar apart from the body: keep both).
    let mut extra_heading = Vec::new();
    if let Some(h) = heading.filter(|&h| !tree.contains(root, h)) {
        let around = best(&mut std::iter::once(h).chain(tree.ancestors(h))).unwrap_or(h);
        // A region around the headline with running text of its own wins unless far
        // outscored. A bare headline loses to a body that follows it in document order (a
        // title bar above the article) or that outscores it many times over; template text
        // elsewhere never takes its place.
        // The body is the region its best paragraph climbs to.
        let region = climb(tree, layout, root, &mass, config);
        let body_mass = if config.climb_share > 0.0 { mass[region] } else { 0.0 };
        let mut joint = None;
        let keep_around = if paragraph_score[around] >= config.climb_min_text {
            score[around] >= config.title_root_min_share * score[root]
        } else if paragraph_score[around] > 0.0 {
            // A headline with a standfirst (a summary line, a byline) is a headline: the
            // article body that follows it in document order and outweighs it goes with it.
            let after = root > tree.descendants(around).into_iter().max().unwrap_or(around);
            let body_follows = after && score[root].max(body_mass) > score[around];
            !body_follows && score[around] >= config.title_root_min_share * score[root]
        } else {
            // Template text (a cookie notice, an "about us" box) outscores a bare headline
            // by a small factor at most; an article body by far more. The body is weighed
            // whole: the region its best container climbs to (an article split into
            // sections, each smaller than the headline's weight times the ratio).
            // A body of substantial text that starts right after the headline is its article,
            // whatever the weights (an h1 weighs several times); a short box after it (an
            // author's bio under a headline-only page) is not. Within the headline's own
            // <article> (HTML5: one composition) a short text after it is its body (a short
            // post), unless it holds a form: a newsletter sign-up box in the article of a
            // headline-only page is the template's.
            let strength = score[root].max(body_mass);
            let body = strength >= config.title_override_ratio * score[around];
            // The gap ends where the body's first paragraph starts, not at its best one.
            let follows = follows(tree, h, region, config.max_heading_gap_terms);
            let in_story = || {
                tree.ancestors(h).any(|a| is_the_story(tree, layout, a) && tree.contains(a, region))
                    && !tree.descendants(region).into_iter().any(|d| tree.nodes[d].tag == "form")
            };
            let article_follows =
                follows && (paragraph_score[root].max(body_mass) >= config.climb_min_text || in_story());
            let headline_alone = !article_follows && (score[around] >= strength || !(body || follows));
            // Text in the page's <main> with the headline, weighed whole, outweighing it as a
            // body must (a landing page of short sections under its headline): no template
            // text (HTML5: the main content of the page). The root is then the container of
            // both. A newsletter box in <main> beside a bare headline weighs far less.
            if headline_alone && enclosing_main(tree, h).is_some_and(|main| tree.contains(main, root)) {
                joint = tree
                    .ancestors(h)
                    .find(|&a| tree.contains(a, root))
                    .filter(|&a| mass[a] >= config.title_override_ratio * score[around]);
            }
            headline_alone
        };
        if let Some(joint) = joint {
            root = joint;
        } else if keep_around {
            root = around;
        } else {
            extra_heading.push(h);
        }
    }
    root = climb(tree, layout, root, &mass, config);
    // Siblings join on running text alone: a headline must not pull in the banner beside it.
    let mut roots = vec![root];
    if let Some(parent) = tree.nodes[root].parent.filter(|_| !is_the_story(tree, layout, root)) {
        let own = paragraph_score[root];
        for &sibling in &tree.nodes[parent].children {
            if sibling != root && own > 0.0 && paragraph_score[sibling] >= config.sibling_score_share * own {
                roots.push(sibling);
            }
        }
    }
    let has_paragraphs = roots.iter().flat_map(|&r| tree.descendants(r)).any(|id| {
        RootSearch::is_text_block(tree, layout, id) && tree.nodes[id].own.terms >= config.min_paragraph_terms
    });
    Some(RootSearch { root, roots, heading, extra_heading, has_paragraphs })
}

/// Running text spread over several containers (forum posts, listing entries, sections) lies
/// below a common ancestor the paragraph scores do not reach: climb from `root` while the
/// parent holds at least `climb_share` as much paragraph text (`mass`) outside the root as
/// inside it, in containers shaped like the root's (posts, entries, sections repeat their
/// markup; a template's boxes do not) or beside a root with substantial text of its own (an
/// article split around figures and ads; a short text would climb into boxes of its size), and
/// is mostly running text. A root inside a block marked
/// `itemprop="articleBody"` climbs to that block and no further. The page body is never a
/// root this way: it holds everything. A `climb_share` of 0 turns climbing off.
fn climb(tree: &TagTree, layout: &Layout, mut root: NodeId, mass: &[f64], config: &CleaningConfig) -> NodeId {
    if config.climb_share <= 0.0 {
        return root;
    }
    // The site's own mark of the article's text: the whole of it, parts named however the
    // site's components are (schema.org microdata, as on most news sites).
    if let Some(body) = std::iter::once(root).chain(tree.ancestors(root)).find(|&a| tree.nodes[a].article_body) {
        return body;
    }
    // `branch` walks up from the root; wrappers that add no text are passed through.
    let mut branch = root;
    while let Some(parent) = tree.nodes[branch].parent {
        if matches!(tree.nodes[parent].tag.as_str(), "body" | "#root") || mass[branch] == 0.0 {
            break;
        }
        if is_the_story(tree, layout, branch) {
            break;
        }
        let outside = mass[parent] - mass[branch];
        if outside <= 0.0 {
            branch = parent;
            continue;
        }
        let region = &tree.nodes[parent].subtree;
        // Repeated structure: other children of the parent shaped like the root's branch hold
        // text too. HTML5 `<section>`s are parts of one document whatever their classes.
        let is_section = tree.nodes[branch].tag == "section";
        let branch_shape = shape(tree, branch);
        let alike: Vec<NodeId> = tree.nodes[parent]
            .children
            .iter()
            .copied()
            .filter(|&c| {
                c != branch && (shape(tree, c) == branch_shape || (is_section && tree.nodes[c].tag == "section"))
            })
            .collect();
        let repeated = alike.iter().any(|&c| mass[c] > 0.0);
        if (repeated || mass[branch] >= config.climb_min_text)
            && outside >= config.climb_share * mass[branch]
            && region.link_density() <= config.climb_max_link_density
        {
            root = parent;
            branch = parent;
        } else {
            break;
        }
    }
    root
}

/// A container's markup shape: its tag and its classes but for numbers (`post_2` and
/// `post_4` are alike). Posts, entries and sections repeat their shape; a template's boxes
/// do not.
pub(crate) fn shape(tree: &TagTree, id: NodeId) -> (&str, String) {
    let node = &tree.nodes[id];
    (node.tag.as_str(), node.hint.chars().filter(|c| !c.is_ascii_digit()).collect())
}

/// Whether `root` holds a listing of teasers: at least `min_entries` sibling containers of
/// one shape (`cleaning.listing_min_entries`), each with teaser text.
fn has_teaser_entries(tree: &TagTree, root: NodeId, min_entries: usize) -> bool {
    tree.descendants(root).into_iter().any(|parent| {
        let mut entries: Vec<(&str, String)> = tree.nodes[parent]
            .children
            .iter()
            .filter(|&&c| tree.nodes[c].subtree.teaser_terms > 0)
            .map(|&c| shape(tree, c))
            .collect();
        entries.sort_unstable();
        entries.chunk_by(|a, b| a == b).any(|group| group.len() >= min_entries)
    })
}

/// Whether `id` is an <article> holding the page's headline: the page's story (HTML5: a
/// self-contained composition), so that the text beside it is other stories: the root
/// neither climbs past it nor takes its sibling articles in.
fn is_the_story(tree: &TagTree, layout: &Layout, id: NodeId) -> bool {
    tree.nodes[id].tag == "article" && layout.title_heading().is_some_and(|h| tree.contains(id, h.node))
}

/// The `<main>` element holding `id`, if any: the page's main content (HTML5).
fn enclosing_main(tree: &TagTree, id: NodeId) -> Option<NodeId> {
    tree.ancestors(id).find(|&a| tree.nodes[a].tag == "main")
}

/// Whether the text of `root` starts right after the heading node `heading` in document
/// order, with at most `max_gap` terms of other blocks between them. A picture and its
/// caption do not count: a lead photo between headline and body is the news layout.
fn follows(tree: &TagTree, heading: NodeId, root: NodeId, max_gap: usize) -> bool {
    // Ids are in document order; a subtree's ids are contiguous (so no id before `root` is
    // in its subtree).
    let heading_end = tree.descendants(heading).into_iter().max().unwrap_or(heading);
    let root_start = root;
    if root_start <= heading_end {
        return false;
    }
    // A picture is an image block (§3.1) lying wholly in the gap: a gallery's slides with
    // their "open media 3" labels are pictures too.
    let holds_root: Vec<NodeId> = tree.ancestors(root).collect();
    let in_figure = |id: NodeId| {
        std::iter::once(id).chain(tree.ancestors(id)).take_while(|&a| a > heading_end && !holds_root.contains(&a)).any(
            |a| {
                let node = &tree.nodes[a];
                node.own_type == BlockType::Image
                    || node.block_type == BlockType::Image
                    || matches!(node.tag.as_str(), "figure" | "figcaption")
            },
        )
    };
    let gap: usize =
        (heading_end + 1..root_start).filter(|&id| !in_figure(id)).map(|id| tree.nodes[id].own.terms).sum();
    gap <= max_gap
}

/// The blocks (each with the top of its region) without the pictures' captions and credits
/// ([`in_caption`]), unless the captions hold more terms than the rest: a photo story told in
/// its captions. Captions describe the pictures, not the story (the photographer, the place,
/// the date). Deviation from the paper, which keeps every topic block of the topic tree.
fn without_captions(tree: &TagTree, blocks: &[(NodeId, NodeId)], config: &CleaningConfig) -> Vec<NodeId> {
    let (captions, story): (Vec<_>, Vec<_>) = blocks.iter().partition(|&&(top, id)| in_caption(tree, id, top, config));
    let terms = |ids: &[&(NodeId, NodeId)]| ids.iter().map(|&&(_, id)| tree.nodes[id].own.terms).sum::<usize>();
    if terms(&captions) > terms(&story) {
        blocks.iter().map(|&(_, id)| id).collect()
    } else {
        story.into_iter().map(|&(_, id)| id).collect()
    }
}

/// Whether a block is, or lies in, a picture's caption or credit below `top`: a `<figure>`,
/// a `<figcaption>`, or a container whose classes name a caption or credit, with fewer than
/// `climb_min_text` terms (a container named so that holds a paragraph of substance is a
/// slide's text).
fn in_caption(tree: &TagTree, id: NodeId, top: NodeId, config: &CleaningConfig) -> bool {
    std::iter::once(id).chain(tree.ancestors(id)).take_while(|&a| a != top).any(|a| {
        let node = &tree.nodes[a];
        let caption = matches!(node.tag.as_str(), "figure" | "figcaption")
            || hint_words(&node.hint).any(|word| config.caption_words.iter().any(|w| w == word));
        caption && (node.subtree.terms as f64) < config.climb_min_text
    })
}

/// Whether a block sits inside a hub or image block below the topic root (a link list
/// nested in the article: "related stories").
fn under_hub_or_image(tree: &TagTree, id: NodeId, root: NodeId) -> bool {
    std::iter::once(id)
        .chain(tree.ancestors(id))
        .take_while(|&a| a != root)
        .any(|a| matches!(tree.nodes[a].block_type, BlockType::Hub | BlockType::Image))
}

/// §4.2 hub page cleaning: the hub blocks of the central area carry the main links.
fn hub_blocks(tree: &TagTree, layout: &Layout, kind: CleanerKind) -> Vec<NodeId> {
    let central = |id: NodeId| kind == CleanerKind::DocViewPaper || !layout.is_margin(id);
    let hubs: Vec<NodeId> =
        (0..tree.nodes.len()).filter(|&id| tree.nodes[id].own_type == BlockType::Hub && central(id)).collect();
    if hubs.is_empty() {
        (0..tree.nodes.len()).filter(|&id| tree.nodes[id].own_type == BlockType::Hub).collect()
    } else {
        hubs
    }
}

/// §4.2 image page cleaning: the images and the text around them, i.e. the central blocks
/// holding images, their descendants, and the text blocks beside them (captions).
///
/// The default cleaner counts content images only ([`Layout::content_images`]: no linked
/// thumbnails) and keeps the margins out of the descendants and captions too: a tracking
/// pixel or a logo in `<body>` would otherwise make the whole page body one picture's block,
/// its navigation included. A caption is a topic block beside the picture of at most
/// `image_caption_max_terms` terms.
fn image_blocks(tree: &TagTree, layout: &Layout, kind: CleanerKind, config: &CleaningConfig) -> Vec<NodeId> {
    let paper = kind == CleanerKind::DocViewPaper;
    let central = |id: NodeId| paper || !layout.is_margin(id);
    let all_images: Vec<usize>;
    let pictures: &[usize] = if paper {
        all_images = tree.nodes.iter().map(|node| node.own.images).collect();
        &all_images
    } else {
        layout.content_images()
    };
    let mut out = Vec::new();
    for (id, &count) in pictures.iter().enumerate() {
        let node = &tree.nodes[id];
        if count == 0 || !central(id) {
            continue;
        }
        out.push(id);
        out.extend(
            tree.descendants(id).into_iter().filter(|&d| tree.nodes[d].own_type == BlockType::Topic && central(d)),
        );
        if let Some(parent) = node.parent {
            out.extend(tree.nodes[parent].children.iter().copied().filter(|&s| {
                tree.nodes[s].own_type == BlockType::Topic
                    && tree.nodes[s].subtree.terms <= config.image_caption_max_terms
                    && central(s)
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::block_weights;
    use crate::tagtree::build_tag_tree;

    fn clean(html: &str, kind: CleanerKind) -> (TagTree, TopicContent) {
        let config = Config::default();
        let weighty = config.block_weight.forces.keys().cloned().collect();
        let tree = build_tag_tree(html, &config.tag_tree, &weighty);
        let weights = block_weights(&tree, &config.block_weight);
        let layout = Layout::of(&tree, &config.layout);
        let content = clean_page(&tree, &layout, &weights, kind, &config);
        (tree, content)
    }

    const PAGE: &str = "<body><div class=top><a href=/>Home</a> <a href=/n>News</a> <a href=/s>Sport</a></div>\
        <div id=wrap><div id=story><h1>Sodium batteries arrive</h1>\
        <p>Engineers have built a sodium battery that stores as much energy as lithium cells at half the cost.</p>\
        <p>The new cells use a hard carbon anode and survive thousands of charging cycles in the lab tests.</p>\
        <ul class=more><li><a href=/x>Other story one here</a></li><li><a href=/y>Other story two here</a></li></ul></div>\
        <div id=side><p>Subscribe to our weekly letter for the best stories of the week delivered to you.</p></div></div>\
        <div id=legal>Copyright 2024 Example Media Group. All rights reserved worldwide by the company.</div></body>";

    /// Entries of a listing: a card per course, its summary one link of 20 terms or more.
    fn course_cards(n: usize) -> String {
        (0..n)
            .map(|i| {
                format!(
                    "<div class=\"card item-{i}\"><a href=/c{i}><h3>Course {i}</h3><p>Learn how to lead teams \
                    through the technical trends of the year {i}, with faculty who built them and peers from \
                    every industry in the world</p></a></div>"
                )
            })
            .collect()
    }

    #[test]
    fn extracted_text_puts_the_headline_apart_or_inline() {
        // The headline shares its container with a dateline and the first paragraph, and is
        // split over a nested container: only the heading's own items go.
        let page = "<title>Tidal power comes of age | Example News</title><body><nav><a href=/>Home</a></nav>\
            <div class=story><h1>Tidal power <div class=kicker>comes of age</div></h1>Published March 3\
            <p>Turbines under the strait now feed the grid as steadily as the tides turn, twice a day, every day.</p>\
            <p>Engineers expect the second array to double the output of the first by the end of next year.</p>\
            </div></body>";
        let (tree, content) = clean(page, CleanerKind::DocView);
        let inline = content.text_with(&tree, HeadlinePlacement::Inline);
        assert_eq!(inline, content.text(&tree));
        assert!(inline.starts_with("Tidal power\ncomes of age\nPublished March 3\nTurbines"), "{inline}");
        let apart = content.text_with(&tree, HeadlinePlacement::Apart);
        assert!(apart.starts_with("Published March 3\nTurbines under the strait"), "{apart}");
        assert!(apart.ends_with("by the end of next year."), "{apart}");
        assert_eq!(content.headline(&tree).as_deref(), Some("Tidal power comes of age"));
        // No title heading: nothing to put apart.
        let (tree, content) =
            clean(&page.replace("<title>Tidal power comes of age", "<title>Home"), CleanerKind::DocView);
        assert_eq!(content.headline(&tree), None);
        assert_eq!(content.text_with(&tree, HeadlinePlacement::Apart), content.text(&tree));
    }

    #[test]
    fn a_listing_of_linked_teasers_is_the_content_under_its_headline() {
        let menu: String = (0..20).map(|i| format!("<li><a href=/m{i}>Menu {i}</a></li>")).collect();
        let page = format!(
            "<title>Certificate programs | Example Institute</title><body><nav><ul>{menu}</ul></nav>\
            <div class=title-bar><h1>Certificate programs</h1></div><main><div class=cards>{}</div></main>\
            <footer><a href=/privacy>Privacy</a></footer></body>",
            course_cards(5)
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Certificate programs"), "{text}");
        assert!(text.contains("Course 0") && text.contains("Course 4"), "{text}");
        assert!(text.contains("peers from every industry"), "{text}");
        assert!(!text.contains("Menu") && !text.contains("Privacy"), "{text}");
    }

    #[test]
    fn a_headline_only_page_keeps_a_box_of_teasers_out() {
        // The template's box of teasers is one block: the headline stays the content.
        let citations: String = (0..4)
            .map(|i| {
                format!(
                    "<a href=/q{i}>The New York Times named this blog the idea of the year {i} in its annual \
                    issue of ideas on the economy and markets</a><br>"
                )
            })
            .collect();
        let page = format!(
            "<title>Bisection routine</title><body><div class=post><h2>Bisection routine</h2></div>\
            <div class=right><div class=citations>{citations}</div></div></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        assert_eq!(content.text(&tree), "Bisection routine");
    }

    /// A paragraph of an article's running text (33 terms).
    const RAIL_YARD: &str = "The council voted on Tuesday to turn the old rail yard into a park with a pond, a \
        playground and paths along the river, after three years of hearings and two failed plans.";

    #[test]
    fn an_article_keeps_the_teaser_entries_beside_it_out() {
        let page = format!(
            "<title>Rail yard becomes a park</title><body><div class=story><h1>Rail yard becomes a park</h1>\
            <p>{RAIL_YARD}</p><p>{RAIL_YARD}</p></div><div class=more>{}</div></body>",
            course_cards(4)
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.contains("rail yard into a park"), "{text}");
        assert!(!text.contains("Course"), "{text}");
    }

    #[test]
    fn a_table_of_contents_around_the_only_text_stays_with_it() {
        // A tie between the text and its container goes to the container, links and all: a
        // report's contents.
        let contents: String = (0..40)
            .map(|i| format!("<a href=#t{i}>Title {i} of the appropriations for rural programs</a><br>"))
            .collect();
        let page = format!(
            "<title>Annual budget report</title><body><div class=crumb><a href=/>Home</a></div>\
            <div class=content><center>{RAIL_YARD}</center>{contents}</div></body>"
        );
        let (tree, _) = clean(&page, CleanerKind::DocView);
        let config = Config::default();
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let search = find_topic_root(&tree, &layout, &weights, &config.cleaning).unwrap();
        assert_eq!(tree.nodes[search.root].hint, "content");
    }

    #[test]
    fn an_article_body_marked_as_such_is_kept_whole() {
        // Two parts of the body around an embedded player, named by different components of
        // the site; the second part is too short to join by its text alone (a sixth of the
        // first: no sibling root, no climb).
        let page = format!(
            "<title>Rail yard becomes a park</title><body><div class=headline><h1>Rail yard becomes a park</h1>\
            </div><article itemprop=articleBody><div class=\"body-text version-2\">{}</div>\
            <div class=embed><iframe src=/player></iframe></div><div class=body-text>\
            <p>The park opens in spring with a festival on the river banks, and the city will plant a \
            thousand trees along the paths over the next two years.</p></div></article>\
            <div class=more><p>{}</p></div></body>",
            format!("<p>{RAIL_YARD}</p>").repeat(5),
            "Subscribe to our weekly letter for the best stories of the week delivered to you."
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.contains("festival on the river banks"), "{text}");
        assert!(!text.contains("Subscribe"), "{text}");
    }

    #[test]
    fn captions_and_credits_stay_out_unless_they_tell_the_story() {
        let para = RAIL_YARD;
        let page = format!(
            "<title>Rail yard becomes a park</title><body><div class=story><h1>Rail yard becomes a park</h1>\
            <p>{para}</p><figure><img src=a.jpg><figcaption>The old rail yard seen from the bridge at dawn \
            on Monday</figcaption></figure><div class=wp-caption><img src=b.jpg><p class=wp-caption-text>Photo: \
            Jane Doe, City Press</p></div><p>{para}</p></div></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.contains("three years of hearings"), "{text}");
        assert!(!text.contains("from the bridge") && !text.contains("Jane Doe"), "{text}");
        // A photo story: each picture's text is a caption, and together they outweigh the
        // introduction (an article's paragraph, so no gallery page): they are the story.
        let slides: String = (0..5)
            .map(|i| {
                format!(
                    "<div class=caption-image><img src={i}.jpg><p>Slide {i}: the festival stage on the square, \
                    where the dancers of the troupe opened the night before a crowd of thousands.</p></div>"
                )
            })
            .collect();
        let page = format!(
            "<title>Festival night</title><body><div class=post><h1>Festival night</h1><p>{para} {para}</p>\
            {slides}</div></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Topic);
        let text = content.text(&tree);
        assert!(text.contains("Slide 0") && text.contains("Slide 4"), "{text}");
    }

    #[test]
    fn a_sibling_root_keeps_its_text_on_a_page_of_link_lists() {
        // A blog entry: headline and byline in one box, the body in the box beside it, and so
        // many menus around them that the page as a whole is of hub type. The body joins as a
        // sibling root; its paragraphs are not "inside a hub" because the page body is one.
        let menu: String = (0..60).map(|i| format!("<li><a href=/t{i}>Topic number {i}</a></li>")).collect();
        let page = format!(
            "<title>The harbour master retires</title><body><div class=container><ul class=localnav>{menu}</ul>\
            <div class=entry><div class=asset-header><h2>The harbour master retires</h2>\
            <p>By Ona Petrie on May 3, 2019 at 5:40 in the afternoon</p></div>\
            <div class=asset-content><p>So the harbour master who ran the port for twenty years is leaving the \
            office this week, and her deputy will take the watch for now.</p>\
            <p>Could this departure be the first of many? The season is almost over, and most of the \
            pilots on short contracts will be looking for work come winter if the ferry line closes.</p>\
            </div></div></div></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        assert_eq!(tree.nodes[TagTree::ROOT].block_type, BlockType::Hub);
        let text = content.text(&tree);
        assert!(text.starts_with("The harbour master retires"), "{text}");
        assert!(text.contains("her deputy") && text.contains("come winter"), "{text}");
        assert!(!text.contains("Topic number"), "{text}");
    }

    #[test]
    fn a_weighty_headline_with_its_byline_does_not_outweigh_the_body_below_it() {
        // A blog template: the h1 and byline in a header box of their own (h1 weighs several
        // times), a body of two paragraphs in the box after it, a sidebar of excerpts.
        let page = "<title>Trail closures – Ridge Walkers</title><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
            <div id=main><article>\
            <header><div class=mask><h1>Trail closures</h1><ul class=meta><li>March 2, 2021</li>\
            <li>Posted by the trail team</li></ul></div></header><div class=entry>\
            <p>Several trails on the north ridge are closed this month, and some of them will stay closed until \
            the snow has melted and the rangers have checked every bridge.</p>\
            <p>So if you planned a walk on the ridge, read the list below before you leave and pick one of the open \
            routes in the valley instead. Every closure is marked on the map at the visitor centre, and the rangers \
            update the list each morning after their first round of the paths along the river.</p></div></article>\
            <aside><div class=excerpt>Our spring guide lists ten walks for families with small children.</div>\
            <div class=excerpt>How the volunteer day went and who planted the most trees this year.</div></aside>\
            </div></body>";
        let (tree, content) = clean(page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Trail closures"), "{text}");
        assert!(text.contains("Several trails") && text.contains("open routes"), "{text}");
        assert!(!text.contains("tournament"), "{text}");
    }

    #[test]
    fn a_gallery_keeps_its_pictures_and_captions_not_the_page_around_them() {
        // A logo straight in <body> is a picture of the body's own: the paper's rule takes the
        // block holding a picture with all its descendants, here the whole page.
        let photos: String = (0..4)
            .map(|i| format!("<div class=photo><img src=p{i}.jpg><p>The harbour at dawn, view {i}</p></div>"))
            .collect();
        let page = format!(
            "<title>Harbour photos</title><body><img src=logo.png><nav><a href=/>Home</a> <a href=/p>Photos</a> \
            <a href=/n>News</a></nav><div class=gallery><h1>Harbour photos</h1>{photos}</div>\
            <footer><p>Copyright Example Media, all rights reserved.</p></footer></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Image);
        let text = content.text(&tree);
        assert!(text.contains("view 0") && text.contains("view 3"), "{text}");
        assert!(!text.contains("Home") && !text.contains("Copyright"), "{text}");
    }

    #[test]
    fn an_article_with_many_photos_is_no_gallery() {
        // Two long paragraphs and twelve photos between and after them: fewer than 20 terms per
        // picture, the paper's image rule, but the paragraphs are the content.
        let para = "The loft keeps the old beams and brick walls of the warehouse it was built in, and the \
            owners added white floors, plain furniture and a long kitchen table that seats twelve guests for \
            dinner. Light comes from tall windows on two sides, so the rooms stay bright through the short \
            winter days, and plants stand on every sill. The bedrooms are small but each has a window seat \
            and a wall of shelves for books.";
        let photos = (0..6).map(|i| format!("<p><img src=/p/{i}.jpg width=600 height=400></p>")).collect::<String>();
        let page = format!(
            "<title>A loft in Stockholm</title><body><div class=post><h1>A loft in Stockholm</h1>\
             <div class=entry><p>{para}</p>{photos}<p>{para}</p>{photos}</div></div></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Topic);
        assert!(content.text(&tree).contains("tall windows"), "{}", content.text(&tree));
    }

    #[test]
    fn a_short_box_after_a_bare_headline_is_not_its_body() {
        // A headline-only page (a title with no text), then the template's author box: one
        // sentence of bio is not the article, however close it follows.
        let page = "<title>Bisection Routine (Algorithm 4)</title><body><nav><a href=/>Home</a> <a href=/a>All</a></nav>\
            <div class=post><div class=title><h1>Bisection Routine (Algorithm 4)</h1></div></div>\
            <div class=author><div class=bio>Pamela Wilson is an online educator, author and keynote speaker, and the \
            founder of a brand studio; learn how you can build your own online business.</div></div></body>";
        let (tree, content) = clean(page, CleanerKind::DocView);
        assert_eq!(content.text(&tree), "Bisection Routine (Algorithm 4)");
    }

    #[test]
    fn a_short_post_in_the_headlines_article_is_its_body_but_not_a_signup_box() {
        let post = "<title>Recap from the conference</title><body><nav><a href=/>Home</a> <a href=/a>All</a></nav>\
            <article><header><h1>Recap from the conference</h1><div class=meta>Posted on July 28</div></header>\
            <div class=content><p>Here is a quick recap video from the conference:</p><p>They launched a tablet, \
            a media player, a browser for phones and a new release, and they activate a million devices a day.</p>\
            </div></article></body>";
        let (tree, content) = clean(post, CleanerKind::DocView);
        assert!(content.text(&tree).contains("a million devices a day"), "{}", content.text(&tree));
        let signup = "<title>Discrete Convolution</title><body><nav><a href=/>Home</a> <a href=/a>All</a></nav>\
            <article><div class=story><h1>Discrete Convolution</h1></div><div class=newsletter>\
            <h2>Subscribe to the Morning Review newsletter</h2><p>Get the top headlines of the day in your \
            inbox every morning.</p><form><input type=email></form></div>\
            </article></body>";
        let (tree, content) = clean(signup, CleanerKind::DocView);
        assert_eq!(content.text(&tree), "Discrete Convolution");
    }

    #[test]
    fn a_storys_own_link_lists_do_not_make_it_a_hub_page() {
        let tags: String = (0..30).map(|i| format!("<li><a href=/t{i}>Topic tag number {i}</a></li>")).collect();
        let page = format!(
            "<title>Rail yard becomes a park</title><body><nav><a href=/>Home</a></nav><article>\
            <header><h1>Rail yard becomes a park</h1></header><div class=body><p>{RAIL_YARD}</p>\
            <div class=menu><ul>{tags}</ul></div></div></article></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Topic);
        assert!(content.text(&tree).contains("rail yard into a park"), "{}", content.text(&tree));
        assert!(!content.text(&tree).contains("Topic tag"), "{}", content.text(&tree));
    }

    #[test]
    fn a_listing_under_a_headline_keeps_its_entries() {
        // A news index: the headline, then entries of a linked title and a one-sentence
        // teaser each (link density 0.4: a listing, not navigation), a newsletter box after
        // them whose one paragraph is longer than any teaser, a sidebar of links.
        let entry = |i: usize| {
            format!(
                "<div class=entry><div class=title><a href=/n{i}>Story number {i} about the river works on the \
                 east bank</a></div><div class=text><p class=excerpt>The council says the works will finish before \
                 the spring floods in May {i}.</p></div></div>"
            )
        };
        let page = format!(
            "<title>River News | Town Paper</title><body><nav><a href=/>Home</a> <a href=/n>News</a></nav>\
             <div class=hero><h1>River News</h1></div><div class=list>{}</div>\
             <div class=signup><p>Sign up for our newsletter and get the best stories of the week from the \
             town and the county, the weather for the weekend and the events calendar in your inbox every \
             Friday morning before breakfast, free of charge.</p></div><aside>{}</aside></body>",
            (0..10).map(entry).collect::<String>(),
            (0..8).map(|i| format!("<a href=/t{i}>Popular topic {i}</a> ")).collect::<String>()
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("River News\n"), "{text}");
        assert_eq!(text.matches("before the spring floods").count(), 10, "{text}");
        assert!(!text.contains("Popular topic") && !text.contains("newsletter"), "{text}");
    }

    #[test]
    fn a_lead_photo_between_headline_and_body_does_not_part_them() {
        // Headline, byline, then a photo with a long caption, then a body that outweighs the
        // headline but not by the override ratio: without the caption the body follows.
        let caption = "A worker on the east bank of the river checks the new flood wall before the \
            water rises in the spring, seen from the old bridge in the early morning light of a cold day.";
        let para = "<p>The council approved the flood wall after two wet winters in which the east bank \
            flooded twice and the shops along the quay were closed for weeks.</p>";
        let page = format!(
            "<title>Flood wall finished on the east bank | Town Paper</title><body>\
             <div class=head><h1>Flood wall finished on the east bank</h1></div>\
             <div class=byline><a href=/a>Ann Smith</a> 12 May</div>\
             <div class=photo><img src=/wall.jpg width=800 height=500><div class=caption>{caption}</div></div>\
             <div class=body>{}</div><footer><a href=/c>Contact</a> <a href=/p>Privacy</a></footer></body>",
            para.repeat(3)
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Flood wall finished on the east bank\n"), "{text}");
        assert!(text.contains("two wet winters"), "{text}");
    }

    #[test]
    fn a_product_gallery_between_title_and_description_does_not_part_them() {
        // A shop's product page: the title, a gallery of slides each labelled for screen
        // readers ("Open media 3 in modal", more than the heading gap in all), then the
        // description, which outweighs the title but not by the override ratio.
        let slides: String = (1..=8)
            .map(|i| format!("<li><div class=media><span>Open media {i} in modal</span><div class=frame><img src=/p{i}.jpg width=600 height=600></div></div></li>"))
            .collect();
        let page = format!(
            "<title>Loose Leaf Green Tea | Tea House</title><body><nav><a href=/>Shop</a> <a href=/t>Tea</a></nav>\
             <div class=product><div class=title><h1>Loose Leaf Green Tea</h1></div><ul class=gallery>{slides}</ul>\
             <div class=info><div class=description><p>Our loose leaf green tea comes from one garden on a misty \
             hillside, picked by hand in early spring for a fresh and grassy flavour. It is steamed and dried in small \
             batches the same week, packed in tins that keep the leaves fresh for months, and shipped the day you \
             order, so every pot you brew tastes like the first one you made with it.</p><p>Join the tea club of \
             our house to save on your first order and on every delivery after it.</p></div></div></div>\
             <footer><a href=/c>Contact</a> <a href=/p>Privacy</a></footer></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Loose Leaf Green Tea\n"), "{text}");
        assert!(text.contains("picked by hand in early spring") && text.contains("every delivery after it"), "{text}");
        assert!(!text.contains("Open media"), "{text}");
    }

    #[test]
    fn a_landing_page_in_main_keeps_its_sections_with_its_headline() {
        // Short sections far apart from the headline would lose to it (template text, as
        // far as the weights go), but they stand in the page's <main> and together outweigh
        // it: they are its content. A newsletter box in <main> beside a bare headline is not.
        // Each section built by another block of the page builder: no repeated markup.
        let section = |title: &str, text: &str| {
            let kind = title.to_lowercase().replace(' ', "-");
            format!("<section class={kind}><div class={kind}-inner><h3>{title}</h3><div>{text}</div></div></section>")
        };
        let page = |sections: &str| {
            format!(
                "<title>Cable Entertainment Plans | Cable Co</title><body><nav><a href=/>Home</a> <a href=/tv>TV</a></nav>\
                 <main><div class=hero><div class=grow><h1>Cable Entertainment Plans</h1></div></div>\
                 <div class=slides>{sections}</div></main>\
                 <footer><p>Copyright Cable Co, all rights reserved in every country of the world where we sell.</p></footer></body>"
            )
        };
        let sections = [
            ("Live TV", "Tune in, sit back, relax. Browse channels, bundles and extras with our television plans now."),
            (
                "Stream store",
                "Every streaming service you follow gathered on one screen with one simple monthly billing.",
            ),
            ("Equipment", "Our set-top boxes let you combine television with broadband and phone lines for less."),
            ("Sports", "Follow the clubs you cheer for through every match of the season from your own sofa."),
            ("Apps", "The popular apps side by side, with a voice remote that finds the show you are after."),
            ("Packages", "Add film bundles, premium stations and foreign stations at any time of the month."),
            ("Internet", "Combine your plan with quick home broadband and pay less for both all year round."),
            ("Mobile", "Move your phone to our network and keep watching your shows wherever you travel."),
        ];
        let landing: String = sections
            .iter()
            .map(|(title, text)| section(title, &format!("{text} Ask us about the offers near you, call or chat.")))
            .collect();
        let (tree, content) = clean(&page(&landing), CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Cable Entertainment Plans\n"), "{text}");
        assert!(
            text.contains("Browse channels")
                && text.contains("simple monthly billing")
                && text.contains("voice remote"),
            "{text}"
        );
        assert!(!text.contains("Copyright"), "{text}");
        let newsletter = section("Newsletter", "Get the top headlines delivered to your inbox every morning.");
        let (tree, content) = clean(&page(&newsletter), CleanerKind::DocView);
        assert_eq!(content.text(&tree), "Cable Entertainment Plans");
    }

    #[test]
    fn a_service_page_in_main_keeps_its_sections_beside_the_hero() {
        // The headline, a subtitle and a standfirst in a hero block (weighty: its headings
        // lend it their weight) win the root search, and the form beside them keeps the
        // root from climbing; the sections of the page below, in the same <main>, are its
        // content too.
        let standfirst = "Writing clear headings and giving every picture a description are small steps that \
            matter for every visitor of your website, and the checker lists what to fix first on each page \
            so that your site reads well for people and programs alike.";
        let sections: String = ["Overview", "Meta information", "Page quality", "Link structure", "Server"]
            .iter()
            .map(|title| {
                let kind = title.to_lowercase().replace(' ', "-");
                format!(
                    "<div class={kind}><div class={kind}-content><h2>{title}</h2><div class={kind}-text>\
                     <p>Check any page of your site for broken markup and slow parts that could keep \
                     visitors away, as the {title} part of the report shows.</p><p>Get your score as well \
                     as a list of the problems found, and fix them one after the other.</p></div></div></div>"
                )
            })
            .collect();
        let page = format!(
            "<title>Free Website Checker | Checker Co</title><body><header><nav><a href=/>Home</a> \
             <a href=/f>Features</a> <a href=/p>Pricing</a></nav></header><main><section class=hero>\
             <div class=hero-text><div class=text-wrapper><h1>Free <strong>Website Checker</strong></h1>\
             <h2>Test your site with our checker!</h2><p>{standfirst}</p></div><div class=tool-form>\
             <p>Enter the address of any page to check it now.</p></div></div></section>\
             <div class=sections>{sections}</div></main><footer><a href=/c>Contact</a></footer></body>"
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Free Website Checker\n"), "{text}");
        assert!(text.contains("Meta information part of the report") && text.contains("Server part"), "{text}");
        assert!(!text.contains("Pricing") && !text.contains("Contact"), "{text}");
        // Without <main>, the text around a headline block is not known to be content: the
        // hero stays the answer (boxes beside a short article are its template's).
        let (tree, content) =
            clean(&page.replace("<main>", "<div>").replace("</main>", "</div>"), CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Free Website Checker\n") && !text.contains("Server part"), "{text}");
    }

    #[test]
    fn a_body_in_cards_follows_its_headline_from_its_first_card() {
        // A story published as cards, one paragraph each, the first the shortest; between headline
        // and body a byline and a <figure> whose caption is no image block of its own. The
        // body scores less than twice the headline: it must follow it to win.
        let card = |text: &str| format!("<div class=card><div class=card-article><p>{text}</p></div></div>");
        let page = format!(
            "<title>Water vapour found on a distant moon | Hawaii News</title><body><article>\
             <div class=head><h1>Water vapour found on a distant moon</h1></div>\
             <div class=byline>By Anna Smith, Ben Jones, Carla Diaz and David Ng of the science desk, with \
             reporting from Hilo, Waimea, Kona and the summit observatories, Tuesday 19 November</div>\
             <figure><div class=img><img src=/m.jpg width=800 height=400></div><div class=cap><figcaption>The \
             telescope on the summit of the mountain at night, with the moon rising over the domes of the \
             observatory.</figcaption></div></figure><div class=body>{}{}{}{}</div></article>\
             <footer><a href=/c>Contact</a></footer></body>",
            card("Scientists have confirmed that there is water vapour on the surface of the moon."),
            card(
                "The find supports the idea of a deep ocean of salt water under the ice crust of the moon, which \
                  is one of the places in the solar system where life could exist today, the team said in its paper."
            ),
            card(
                "The team measured the vapour on seventeen nights over two years, and found it on one of them only, \
                  which suggests that the water escapes in rare plumes from cracks in the ice rather than all the \
                  time, as earlier measurements from space had suggested."
            ),
            card(
                "A probe that will orbit the planet and fly past the moon dozens of times is due to launch within \
                  the next two years, and it carries instruments that can sample the plumes and look for the \
                  chemistry that life would need."
            )
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Water vapour found on a distant moon\n"), "{text}");
        assert!(text.contains("water vapour on the surface") && text.contains("rare plumes"), "{text}");
    }

    #[test]
    fn the_article_holding_the_headline_takes_no_other_articles_in() {
        // A blog post in an <article>, then the blog's other posts, each an <article> with a
        // paragraph as long as the post's: other stories, not more of this one.
        let post = |title: &str, text: &str| {
            format!("<article class=post><h2><a href=/p>{title}</a></h2><p>{}</p></article>", text.repeat(4))
        };
        let page = format!(
            "<title>Only those who love themselves | Reflections</title><body><div class=primary>\
             <article class=post><h1>Only those who love themselves</h1><p>{}</p></article>\
             <article class=more>{}{}{}</article></div></body>",
            "Living a true experience of love is one of the great pleasures of life, and it starts at home. ".repeat(4),
            post("Optimism", "Life asks us for optimism and courage to expect the best and to make it happen. "),
            post("Family", "What holds a family together is love, care and wishing each other well every day. "),
            post("Gratitude", "Gratitude for life is in the details, in the smile given right on waking up. ")
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Only those who love themselves\n") && text.contains("true experience"), "{text}");
        assert!(!text.contains("optimism") && !text.contains("family") && !text.contains("smile"), "{text}");
    }

    #[test]
    fn a_bare_headline_does_not_take_the_template_text_around_it() {
        // A headline of ten words and no text, in a column whose other boxes (a bio, an offer)
        // hold more text than it: the region around a bare headline is its template's.
        let page = "<title>Evaluating Numbers Expressed as Strings of English Words | Brand</title><body>\
            <div class=col><div class=offer><p>Check out my free workshops on branding. Pick your topic and \
            start watching now, <a href=/w>join here</a>.</p></div>\
            <div class=head><h1>Evaluating Numbers Expressed as Strings of English Words</h1></div>\
            <div class=bio><p>Pamela Wilson is an online educator, author and keynote speaker, and the founder of \
            a brand studio. <a href=/about>Learn how you can build your own online business</a>.</p></div></div>\
            <footer><a href=/c>Contact</a></footer></body>";
        let (tree, content) = clean(page, CleanerKind::DocView);
        assert_eq!(content.text(&tree), "Evaluating Numbers Expressed as Strings of English Words");
    }

    #[test]
    fn a_body_apart_from_its_headline_wins_at_twice_its_weight() {
        // The headline in a title bar, a promotion box of some forty words under it (too long
        // a gap for the body to "follow" the headline), then the body: ten paragraphs, about
        // three times the headline's score. Template boxes score a fraction of a headline.
        let para = "<p>The survey counted nesting terns on every island of the archipelago this spring, \
            and the volunteers found more birds on the outer islands than in any year before.</p>";
        let page = format!(
            "<title>Tern colonies grow | Bird News</title><body><div class=bar><h1>Tern colonies grow</h1></div>\
             <div class=promo><p>Become a member of the bird society this year and get the quarterly magazine, \
             free entry to all the reserves of the society, a guide to the birds of the coast and an invitation \
             to the spring meeting of members on the island of the society, with a boat trip and lunch.</p></div>\
             <div class=main><div class=story>{}</div></div></body>",
            para.repeat(10)
        );
        let (tree, content) = clean(&page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Tern colonies grow\n"), "{text}");
        assert_eq!(text.matches("nesting terns").count(), 10, "{text}");
        assert!(!text.contains("Become a member"), "{text}");
    }

    #[test]
    fn a_long_headline_is_not_a_paragraph() {
        // Twelve words of h1 in a title box (the h1 weighs several times), the story's body
        // in the box after it, a teaser link below.
        let page = "<title>Rowing Podcast: Harbour Regatta opens in Bergen and rowers are divided</title><body>\
            <div class=top><div class=title><h1>Rowing Podcast: Harbour Regatta opens in Bergen and rowers are \
            divided</h1></div></div><div class=main><div class=body><p>The Harbour Regatta started on Friday with the first heats of the new course by the \
            old fish market.</p><p>Afterwards the podcast team discussed the empty seats, the late finishes and \
            what the crews said about the weekend. They also looked ahead to next year, when the regatta moves to a \
            new harbour, and asked whether the coaches will pick the same boats again.</p></div></div>\
            <div class=more><a href=/cup>Read our preview of the junior cup races in Stavanger</a></div></body>";
        let (tree, content) = clean(page, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Rowing Podcast") && text.contains("empty seats"), "{text}");
        assert!(!text.contains("Stavanger"), "{text}");
    }

    #[test]
    fn default_cleaner_keeps_the_story_only() {
        let (tree, content) = clean(PAGE, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Topic);
        let text = content.text(&tree);
        assert!(text.starts_with("Sodium batteries arrive\nEngineers have built"), "{text}");
        assert!(text.contains("thousands of charging cycles"));
        assert!(!text.contains("Subscribe") && !text.contains("Copyright") && !text.contains("Other story"), "{text}");
        assert_eq!(content.root, tree.node_with_hint("story"));
    }

    #[test]
    fn the_title_heading_finds_a_headline_only_article() {
        let html = "<head><title>Ice shelf cracks | Polar News</title></head><body>\
            <div id=cookie><p>We use cookies and other tracking technologies to improve your browsing experience on our site and to show ads.</p></div>\
            <div id=post><h1>Ice shelf cracks</h1></div><div id=nav><a href=/a>Home</a> <a href=/b>Archive of all stories</a></div></body>";
        let (tree, content) = clean(html, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Topic);
        assert_eq!(content.text(&tree), "Ice shelf cracks");
    }

    #[test]
    fn a_headline_in_a_title_bar_apart_from_a_long_body_is_kept_with_it() {
        let para = "<p>The survey counted nesting terns on every island of the archipelago this spring and found more birds than ever.</p>";
        let html = format!(
            "<head><title>Tern colonies grow | Bird News</title></head><body><div id=top><div id=bar><h1>Tern colonies grow</h1></div></div>\
             <div id=content><div id=text>{}</div></div><div id=legal><p>Copyright Bird News, all rights reserved by the owners.</p></div></body>",
            para.repeat(8)
        );
        let (tree, content) = clean(&html, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.starts_with("Tern colonies grow\nThe survey counted"), "{text}");
        assert!(!text.contains("Copyright"));
    }

    #[test]
    fn a_page_of_many_sections_keeps_them_all_but_not_its_navigation() {
        let words = |topic: &str, n: usize| format!("{topic} {}", "and our team helps you plan it well ".repeat(n));
        let html = format!(
            "<body><nav>{}</nav><main><div class=top><div class=hero><p>{}</p></div></div>\
             <div class=features><div class=f1><p>{}</p></div><div class=f2><p>{}</p></div><div class=f3><p>{}</p></div></div>\
             <div class=faq><div class=q><p>{}</p></div></div></main></body>",
            (0..12).map(|i| format!("<a href=/s{i}>Service number {i}</a> ")).collect::<String>(),
            words("Garden design for small city yards.", 5),
            words("Planting plans.", 3),
            words("Lawn care.", 3),
            words("Tree surgery.", 3),
            words("Do you work in winter?", 3)
        );
        let (tree, content) = clean(&html, CleanerKind::DocView);
        let text = content.text(&tree);
        for needle in ["Garden design", "Planting plans", "Lawn care", "Tree surgery", "work in winter"] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
        assert!(!text.contains("Service number"), "{text}");
        // With the coverage rule and climbing off, the root search keeps one section only.
        let mut config = Config::default();
        config.cleaning.min_root_coverage = 0.0;
        config.cleaning.climb_share = 0.0;
        let weights = block_weights(&tree, &config.block_weight);
        let layout = Layout::of(&tree, &config.layout);
        let root_only = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config).text(&tree);
        assert!(root_only.contains("Garden design") && !root_only.contains("Tree surgery"), "{root_only}");
    }

    #[test]
    fn a_short_body_does_not_take_in_an_authors_bio_in_a_like_named_wrapper() {
        // Every box of this template is a `div.elastic-container`: the abstract and the
        // author's bio are no sections of one article.
        let html = "<head><title>Amyloid goitre</title></head><body><article class=post-content>\
             <div class=elastic-container><div class=post-body><h1>Amyloid goitre</h1><p>A case of amyloid goitre in \
             a female aged 27 years, occurring as a sequela to pulmonary tuberculosis, is reported here.</p></div></div>\
             <div class=elastic-container><div class=author-bio><p>Our editor writes about health and medicine and \
             reviews the latest gear every week for the site.</p></div></div></article></body>";
        let (tree, content) = clean(html, CleanerKind::DocView);
        let text = content.text(&tree);
        assert!(text.contains("pulmonary tuberculosis"), "{text}");
        assert!(!text.contains("latest gear"), "{text}");
    }

    #[test]
    fn text_spread_over_repeated_containers_is_kept_whole() {
        let post = |n: usize, words: &str| {
            let sentence = format!("{words} and here is what else I noticed about it. ");
            format!(
                "<div class='post_{n} topic-body'><div class=post><p>{}</p></div><div class=meta><a href=/u{n}>user{n}</a></div></div>",
                sentence.repeat(6)
            )
        };
        // No heading matches the title here; a matching headline still outweighs posts of a
        // hundred words each (a known limit of the root search).
        let html = format!(
            "<head><title>Model Railway Forums</title></head><body><nav><a href=/>Home</a></nav><div class=thread>\
             <div class=title><h1>Point motor question</h1></div><div class=posts>{}{}{}</div></div>\
             <footer>Forum software, all rights reserved.</footer></body>",
            post(1, "the point motor ignores my second switch"),
            post(2, "try the wiring diagram in the manual"),
            post(3, "that fixed it after a rewiring of the panel")
        );
        let (tree, content) = clean(&html, CleanerKind::DocView);
        let text = content.text(&tree);
        for needle in ["ignores my second switch", "wiring diagram", "rewiring of the panel"] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
        assert!(!text.contains("all rights reserved"));
    }

    #[test]
    fn paper_cleaner_prunes_hubs_but_keeps_template_text() {
        let (tree, content) = clean(PAGE, CleanerKind::DocViewPaper);
        let text = content.text(&tree);
        assert!(text.contains("Engineers have built") && text.contains("Copyright 2024"));
        assert!(!text.contains("Other story") && !text.contains("Home"));
    }

    #[test]
    fn hub_page_keeps_its_central_links() {
        let links: String = (0..12).map(|i| format!("<li><a href=/a{i}>Report {i} on rivers</a></li>")).collect();
        let html = format!("<body><nav><a href=/>Home</a></nav><main><ul id=list>{links}</ul></main></body>");
        let (tree, content) = clean(&html, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Hub);
        let text = content.text(&tree);
        assert!(text.contains("Report 0 on rivers") && !text.contains("Home"));
    }

    #[test]
    fn image_page_keeps_images_and_captions() {
        let figures: String = (0..5).map(|i| format!("<figure><img src=p{i}.jpg alt='lake {i}'><figcaption>Dawn at the lake, part {i}</figcaption></figure>")).collect();
        let html = format!("<body><nav><a href=/>Home</a></nav><main>{figures}</main></body>");
        let (tree, content) = clean(&html, CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Image);
        assert!(content.text(&tree).contains("Dawn at the lake, part 4"));
        assert!(content.html(&tree, "t", None).contains("<img src=\"p4.jpg\""));
    }

    #[test]
    fn empty_page_has_no_topic_content() {
        let (_, content) = clean("<body></body>", CleanerKind::DocView);
        assert_eq!(content.page_type, BlockType::Empty);
        assert!(content.nodes.is_empty() && content.root.is_none());
    }
}
