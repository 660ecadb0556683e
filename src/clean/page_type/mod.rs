//! The type of a page from its central area (§4.1), and the learned hub-page model that
//! corrects it ([`HubModel`]).

mod features;
mod model;

pub use features::PageFeatures;
pub use model::{BoostedTrees, HubModel, HubModelError, Learned, LearnerSettings, typing_cleaner};

use crate::clean::Layout;
use crate::config::PageTypeConfig;
use crate::tagtree::{BlockType, TagTree};

/// The page type a cleaner reports when the hub-page model is on (`model_says_hub`: the
/// model's verdict, which weighs §4.1's own): a page the model calls a hub is a hub page; one
/// §4.1 typed hub that the model does not is a topic page, unless its central hub share
/// reaches [`PageTypeConfig::certain_hub_share`]; image and empty pages stay as the rules typed
/// them (the model knows hubs from the rest, no more).
pub fn retype(
    rule_type: BlockType,
    features: &PageFeatures,
    model_says_hub: bool,
    config: &PageTypeConfig,
) -> BlockType {
    match rule_type {
        BlockType::Empty => BlockType::Empty,
        BlockType::Hub if features.central_hub_share >= config.certain_hub_share => BlockType::Hub,
        _ if model_says_hub => BlockType::Hub,
        BlockType::Hub => BlockType::Topic,
        other => other,
    }
}

/// Classifies a page as topic, hub or image from the blocks of its central area: the blocks
/// outside headers, footers, navigation and sidebars (the margins of the [`Layout`]). A page
/// whose every block is marginal is judged on all its blocks.
///
/// Hub: terms in hub blocks / terms in all central blocks > `hub_page_ratio` (the paper's
/// rule). Image: see [`PageTypeConfig::max_terms_per_image`]; only content images count
/// ([`Layout::content_images`]): linked thumbnails of other posts do not make an article an
/// image page.
pub fn page_type(tree: &TagTree, layout: &Layout, config: &PageTypeConfig) -> BlockType {
    let has_content = |id: usize| {
        let own = &tree.nodes[id].own;
        own.terms > 0 || own.images > 0
    };
    let mut central: Vec<usize> =
        (0..tree.nodes.len()).filter(|&id| has_content(id) && !layout.is_margin(id)).collect();
    if central.is_empty() {
        central = (0..tree.nodes.len()).filter(|&id| has_content(id)).collect();
    }
    type_of_area(tree, layout, &central, config)
}

/// The type of the area made of the blocks `area` by the rules of §4.1.
pub fn type_of_area(tree: &TagTree, layout: &Layout, area: &[usize], config: &PageTypeConfig) -> BlockType {
    let central = area;
    let content_images = layout.content_images();
    let (mut terms, mut hub_terms, mut text_terms, mut images) = (0usize, 0usize, 0usize, 0usize);
    for &id in central {
        let node = &tree.nodes[id];
        terms += node.own.terms;
        text_terms += node.own.text_terms();
        images += content_images[id];
        if node.own_type == BlockType::Hub {
            hub_terms += node.own.terms;
        }
    }
    if terms > 0 && hub_terms as f64 / terms as f64 > config.hub_page_ratio {
        BlockType::Hub
    } else if images >= config.min_images && text_terms as f64 <= config.max_terms_per_image * images as f64 {
        BlockType::Image
    } else if terms == 0 && images == 0 {
        BlockType::Empty
    } else {
        BlockType::Topic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::logistic::{LogisticRegression, ModelFileError};
    use crate::config::{CleanerKind, Config};
    use crate::tagtree::build_tag_tree;

    fn classify(html: &str) -> BlockType {
        let config = Config::default();
        let weighty = config.block_weight.forces.keys().cloned().collect();
        let tree = build_tag_tree(html, &config.tag_tree, &weighty);
        page_type(&tree, &Layout::of(&tree, &config.layout), &config.page_type)
    }

    const NAV: &str =
        "<nav><a href=/1>Home</a> <a href=/2>World news</a> <a href=/3>Sport results</a> <a href=/4>Culture</a></nav>";

    #[test]
    fn article_with_navigation_is_a_topic_page() {
        let html = format!(
            "<body>{NAV}<article><h1>Rain</h1><p>It rained all day over the city and the rivers rose quickly.</p></article></body>"
        );
        assert_eq!(classify(&html), BlockType::Topic);
    }

    #[test]
    fn link_list_in_the_centre_is_a_hub_page() {
        let links: String = (0..20).map(|i| format!("<li><a href=/a{i}>Story number {i} headline</a></li>")).collect();
        let html = format!("<body>{NAV}<main><h1>Archive</h1><ul>{links}</ul></main></body>");
        assert_eq!(classify(&html), BlockType::Hub);
    }

    #[test]
    fn gallery_is_an_image_page_even_without_captions() {
        let figures: String = (0..6)
            .map(|i| format!("<figure><img src=p{i}.jpg><figcaption>Photo {i} of the lake</figcaption></figure>"))
            .collect();
        assert_eq!(classify(&format!("<body>{NAV}<main>{figures}</main></body>")), BlockType::Image);
        let bare: String = (0..6).map(|i| format!("<img src=p{i}.jpg>")).collect();
        assert_eq!(classify(&format!("<body><div>{bare}</div></body>")), BlockType::Image);
    }

    #[test]
    fn the_built_in_hub_model_reads_and_a_model_of_other_output_or_shape_is_refused() {
        for kind in [CleanerKind::DocView, CleanerKind::Blocks] {
            let model = HubModel::load(None, kind).unwrap();
            assert_eq!(model.cleaner, "docview");
            assert_eq!(HubModel::from_json(&model.to_json()).unwrap(), model);
        }
        let shipped = model::DEFAULT_MODEL_JSON;
        assert_eq!(
            HubModel::from_json(shipped).unwrap().to_json(),
            shipped,
            "the shipped file is as to_json writes it"
        );
        let unknown = shipped.replacen("\"bias\"", "\"intercept\": 0.0,\n  \"bias\"", 1);
        assert!(matches!(HubModel::from_json(&unknown), Err(HubModelError::File(ModelFileError::Parse { .. }))));
        let model = HubModel::load(None, CleanerKind::Blocks).unwrap();
        let other = HubModel { cleaner: "blocks".into(), ..model.clone() };
        let path = std::env::temp_dir().join(format!("indexer-hub-model-{}.json", std::process::id()));
        std::fs::write(&path, other.to_json()).unwrap();
        let refused = HubModel::load(Some(&path), CleanerKind::Blocks);
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(refused, Err(HubModelError::OtherCleaner { .. })), "{refused:?}");
        assert!(matches!(HubModel::load(None, CleanerKind::Pab), Err(HubModelError::NoModel { .. })));
        let mut broken = model.clone();
        let Learned::Logistic(regression) = &mut broken.learned else { panic!("the shipped model's learner") };
        regression.weights.pop();
        let refused = HubModel::from_json(&broken.to_json());
        assert!(matches!(refused, Err(HubModelError::File(ModelFileError::Shape { .. }))), "{refused:?}");
    }

    #[test]
    fn the_model_keeps_empty_pages_empty_and_turns_hubs_it_rejects_into_topic_pages() {
        let features = zero_features();
        let n = PageFeatures::NAMES.len();
        let regression = LogisticRegression {
            features: PageFeatures::NAMES.iter().map(|s| s.to_string()).collect(),
            mean: vec![0.0; n],
            scale: vec![1.0; n],
            weights: vec![0.0; n],
            bias: -5.0,
        };
        let never = HubModel {
            cleaner: "docview".into(),
            protocol: String::new(),
            learned: Learned::Logistic(regression.clone()),
            threshold: 0.5,
            examples: 0,
            positives: 0,
        };
        let config = PageTypeConfig::default();
        assert_eq!(retype(BlockType::Hub, &features, never.is_hub(&features), &config), BlockType::Topic);
        let all_links = PageFeatures { central_hub_share: 1.0, ..features };
        assert_eq!(retype(BlockType::Hub, &all_links, never.is_hub(&all_links), &config), BlockType::Hub);
        assert_eq!(retype(BlockType::Image, &features, never.is_hub(&features), &config), BlockType::Image);
        assert_eq!(retype(BlockType::Empty, &features, never.is_hub(&features), &config), BlockType::Empty);
        let always = HubModel { learned: Learned::Logistic(LogisticRegression { bias: 5.0, ..regression }), ..never };
        assert_eq!(retype(BlockType::Topic, &features, always.is_hub(&features), &config), BlockType::Hub);
        assert_eq!(retype(BlockType::Empty, &features, always.is_hub(&features), &config), BlockType::Empty);
    }

    /// A page whose every feature is 0.
    fn zero_features() -> PageFeatures {
        PageFeatures {
            central_hub_share: 0.0,
            page_link_density: 0.0,
            central_link_density: 0.0,
            content_share: 0.0,
            content_link_density: 0.0,
            content_text_terms: 0.0,
            longest_block: 0.0,
            repeated_entries: 0.0,
            content_links: 0.0,
            teaser_share: 0.0,
            entry_share: 0.0,
            linked_headings: 0.0,
            linked_heading_share: 0.0,
            entry_text_share: 0.0,
            entry_terms: 0.0,
            links_per_block: 0.0,
            longest_block_share: 0.0,
            rules_hub: 0.0,
            entry_longest_block: 0.0,
            entry_anchor_share: 0.0,
            entry_image_share: 0.0,
            body_share: 0.0,
        }
    }

    #[test]
    fn a_boosted_model_is_not_fitted_on_examples_of_one_class() {
        use crate::clean::block_classifier::BoostSettings;
        // forust-ml starts from the log-odds of the examples: infinite on one class, and JSON
        // writes an infinite base score as null, so the written file would not load.
        let settings = BoostSettings { trees: 5, learning_rate: 0.1, max_depth: 2, l2: 1.0, min_leaf_weight: 0.1 };
        for hub in [false, true] {
            let examples: Vec<(PageFeatures, bool)> =
                (0..20).map(|i| (PageFeatures { longest_block: i as f64, ..zero_features() }, hub)).collect();
            let fitted =
                HubModel::fit(&examples, &LearnerSettings::Boosted(settings), 0.5, CleanerKind::DocView, String::new());
            let hubs = if hub { 20 } else { 0 };
            assert!(
                matches!(fitted, Err(HubModelError::OneClass { examples: 20, hubs: h }) if h == hubs),
                "{fitted:?}"
            );
        }
    }

    #[test]
    fn a_boosted_model_fits_records_its_learner_and_a_mismatched_file_is_refused() {
        use crate::clean::block_classifier::BoostSettings;
        // Hubs: link-dense central areas with many entries; the rest: long running text.
        let examples: Vec<(PageFeatures, bool)> = (0..200)
            .map(|i| {
                let hub = i % 4 == 0;
                let jitter = (i % 7) as f64 / 100.0;
                let features = PageFeatures {
                    central_link_density: if hub { 0.6 } else { 0.1 } + jitter,
                    repeated_entries: if hub { 3.0 } else { 0.7 } + jitter,
                    longest_block: if hub { 2.0 } else { 4.5 } - jitter,
                    ..zero_features()
                };
                (features, hub)
            })
            .collect();
        let settings = BoostSettings { trees: 20, learning_rate: 0.1, max_depth: 2, l2: 1.0, min_leaf_weight: 0.1 };
        let model =
            HubModel::fit(&examples, &LearnerSettings::Boosted(settings), 0.5, CleanerKind::DocView, String::new())
                .unwrap();
        assert_eq!(model.learned.learner(), crate::config::HubLearner::Boosted);
        for (features, hub) in &examples {
            assert_eq!(model.is_hub(features), *hub, "{features:?}");
        }
        let json = model.to_json();
        assert!(json.contains("\"learner\": \"boosted\""), "{json}");
        assert_eq!(HubModel::from_json(&json).unwrap(), model);
        // The fields of the other learner, or a learner named otherwise, are refused.
        let mixed = json.replacen("\"threshold\"", "\"bias\": 0.0,\n  \"threshold\"", 1);
        assert!(matches!(HubModel::from_json(&mixed), Err(HubModelError::File(ModelFileError::Parse { .. }))));
        let renamed = json.replacen("\"learner\": \"boosted\"", "\"learner\": \"logistic\"", 1);
        assert!(matches!(HubModel::from_json(&renamed), Err(HubModelError::File(ModelFileError::Parse { .. }))));
        let unknown = json.replacen("\"learner\": \"boosted\"", "\"learner\": \"forest\"", 1);
        assert!(matches!(HubModel::from_json(&unknown), Err(HubModelError::File(ModelFileError::Parse { .. }))));
        let mut other = model.clone();
        let Learned::Boosted(boosted) = &mut other.learned else { unreachable!() };
        boosted.features.pop();
        let refused = HubModel::from_json(&other.to_json());
        assert!(matches!(refused, Err(HubModelError::File(ModelFileError::Shape { .. }))), "{refused:?}");
        let mut other = model.clone();
        let Learned::Boosted(boosted) = &mut other.learned else { unreachable!() };
        boosted.trees[0].left[0] = 1000;
        assert!(matches!(HubModel::from_json(&other.to_json()), Err(HubModelError::Tree(0))));
    }

    #[test]
    fn nothing_is_empty() {
        assert_eq!(classify("<body><script>x()</script></body>"), BlockType::Empty);
    }
}
