use super::*;
use crate::clean::{Cleaner, CleanerKind, block_weights};

fn tree(html: &str) -> TagTree {
    TagTree::with_default_config(html)
}

const TOPICS: [&str; 6] = [
    "Sodium batteries store as much energy as lithium cells at half the cost of the metal",
    "Glaciers in the northern valleys retreated faster this summer than any year on record",
    "The city council approved a new tram line running from the harbour to the university",
    "Researchers decoded the genome of a rare orchid that flowers only once every decade",
    "A chess engine trained without opening books beat the reigning champion in ten games",
    "Farmers report that early frost damaged most of the apple harvest in the hill country",
];

/// A page of the synthetic site: the same navigation, sidebar and footer around an article
/// whose headline, length and words change from page to page.
fn page(n: usize) -> String {
    let topic = TOPICS[n % TOPICS.len()];
    let paragraphs: String = (0..=n % 3)
        .map(|i| {
            format!(
                "<p>{topic}, paragraph {i} explains the details with words of its own: {}.</p>",
                topic.to_uppercase()
            )
        })
        .collect();
    format!(
        "<html><head><title>Story {n} | Daily Example</title></head><body>\
         <div id=nav><a href=/>Home</a> <a href=/news>News</a> <a href=/sport>Sport</a> <a href=/weather>Weather</a></div>\
         <div id=main><div class=story-{n}><h1>Headline {n}: {topic}</h1>{paragraphs}</div>\
         <div id=side><p>Subscribe to our weekly letter for the best stories of the week delivered to your inbox.</p></div></div>\
         <div id=footer><p>Copyright Daily Example Media Group. All rights reserved worldwide.</p></div></body></html>"
    )
}

fn learned(pages: usize) -> Cleaner {
    let config = Config::default();
    let mut cleaner = Cleaner::new(CleanerKind::SiteStyleTree, &config).unwrap();
    assert!(cleaner.learns_from_sites());
    for n in 0..pages {
        cleaner.observe("daily.example", &tree(&page(n)));
    }
    cleaner.finish_learning();
    cleaner
}

fn clean_text(cleaner: &Cleaner, site: &str, html: &str) -> String {
    let config = Config::default();
    let tree = tree(html);
    let weights = block_weights(&tree, &config.block_weight);
    cleaner.clean(site, &tree, &weights, &config).text(&tree)
}

#[test]
fn template_blocks_are_noisy_and_articles_kept() {
    let cleaner = learned(6);
    let sst = cleaner.site_style_trees().site("daily.example").expect("six pages make a learned site");
    assert_eq!(sst.pages, 6);
    // The footer's text leaf is the same on every page: importance 0, noisy.
    let noisy_leaves = sst.elements.iter().filter(|e| e.text && e.mark == Mark::Noisy).count();
    assert!(noisy_leaves >= 3, "nav, sidebar and footer text leaves should be noisy");
    assert_eq!(sst.elements[ROOT_ELEMENT].mark, Mark::Mixed);
    for n in 0..6 {
        let text = clean_text(&cleaner, "daily.example", &page(n));
        assert!(text.contains(&format!("Headline {n}")), "{text}");
        assert!(text.contains("paragraph 0 explains"), "{text}");
        for noise in ["Home", "Subscribe", "Copyright"] {
            assert!(!text.contains(noise), "{noise} kept in page {n}: {text}");
        }
    }
}

#[test]
fn importance_follows_the_formulas() {
    let cleaner = learned(6);
    let sst = cleaner.site_style_trees().site("daily.example").unwrap();
    // Formula (1): BODY has one style over six pages, NodeImp 0; with CompImp from Formula
    // (2) it is γ × the mean of its children.
    for element in &sst.elements {
        assert!((0.0..=1.0 + 1e-9).contains(&element.importance), "{}", element.importance);
    }
    // A text leaf whose features appear once per page on all pages has H = 1 (Formula 5).
    let counts = FeatureCounts { total: 6, sum_c_ln_c: 0.0 };
    assert!((counts.entropy(6) - 1.0).abs() < 1e-12);
    let single = FeatureCounts { total: 3, sum_c_ln_c: 3.0 * 3f64.ln() };
    assert!(single.entropy(6).abs() < 1e-12);
}

#[test]
fn a_site_with_too_few_pages_falls_back_to_docview() {
    let config = Config::default();
    let cleaner = learned(1);
    assert!(cleaner.site_style_trees().site("daily.example").is_none());
    let html = page(2);
    let tree = tree(&html);
    let weights = block_weights(&tree, &config.block_weight);
    let layout = crate::clean::Layout::of(&tree, &config.layout);
    let expected = crate::clean::clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
    assert_eq!(cleaner.clean("daily.example", &tree, &weights, &config), expected);
}

#[test]
fn cleaning_without_a_learning_pass_falls_back_too() {
    let config = Config::default();
    let cleaner = Cleaner::new(CleanerKind::SiteStyleTree, &config).unwrap();
    let text = clean_text(&cleaner, "daily.example", &page(3));
    assert!(text.contains("Headline 3"), "{text}");
}

#[test]
fn a_page_of_an_unseen_style_is_kept_where_the_style_differs() {
    let cleaner = learned(6);
    // Same template, but the article container holds a table the site never used: the
    // article part is "possibly meaningful" and kept; the template still goes.
    let html = page(1).replace("<h1>", "<table><tr><td>Extra cell of figures</td></tr></table><h1>");
    let text = clean_text(&cleaner, "daily.example", &html);
    assert!(text.contains("Extra cell of figures") && text.contains("Headline 1"), "{text}");
    assert!(!text.contains("Copyright"), "{text}");
}

#[test]
fn sampling_stops_at_the_page_cap() {
    let mut config = Config::default();
    config.sst.max_pages_per_site = 4;
    let mut cleaner = Cleaner::new(CleanerKind::SiteStyleTree, &config).unwrap();
    for n in 0..6 {
        cleaner.observe("daily.example", &tree(&page(n)));
    }
    cleaner.finish_learning();
    assert_eq!(cleaner.site_style_trees().learned(), (0, 0), "4 pages are below min_site_pages = 5");
    assert_eq!(cleaner.site_style_trees().pages_not_sampled, 2);
}

#[test]
fn hostile_pages_do_not_panic() {
    let cleaner = learned(6);
    for html in ["", "<body></body>", "<p>", &"<div>".repeat(3000), "\u{0}\u{1}<<<>>>"] {
        let _ = clean_text(&cleaner, "daily.example", html);
    }
}

#[test]
fn per_page_link_lists_are_kept_as_the_paper_says_unless_link_blocks_are_dropped() {
    // Each page links to the two next stories: diverse content, so meaningful to the SST.
    let with_related = |n: usize| {
        let related: String = (1..=2)
            .map(|k| {
                let other = (n + k) % TOPICS.len();
                format!("<li><a href=/story/{other}>Read also: {}</a></li>", TOPICS[other])
            })
            .collect();
        page(n).replace("<div id=side>", &format!("<div id=side><ul class=related>{related}</ul>"))
    };
    let learn = |config: &Config| {
        let mut cleaner = Cleaner::new(CleanerKind::SiteStyleTree, config).unwrap();
        for n in 0..6 {
            cleaner.observe("daily.example", &tree(&with_related(n)));
        }
        cleaner.finish_learning();
        cleaner
    };
    let mut config = Config::default();
    let faithful = clean_text(&learn(&config), "daily.example", &with_related(0));
    assert!(faithful.contains("Read also") && faithful.contains("Headline 0"), "{faithful}");
    config.sst.drop_link_blocks = true;
    let cleaner = learn(&config);
    let tree = tree(&with_related(0));
    let weights = block_weights(&tree, &config.block_weight);
    let dropped = cleaner.clean("daily.example", &tree, &weights, &config).text(&tree);
    assert!(!dropped.contains("Read also") && dropped.contains("Headline 0"), "{dropped}");
}

#[test]
fn a_spent_memory_budget_stops_new_sites_only() {
    let mut config = Config::default();
    config.sst.max_memory_mib = 0;
    let mut cleaner = Cleaner::new(CleanerKind::SiteStyleTree, &config).unwrap();
    for n in 0..6 {
        cleaner.observe("daily.example", &tree(&page(n)));
    }
    cleaner.finish_learning();
    // With no budget no site is learned; its pages fall back to docview, which still finds the story.
    assert_eq!(cleaner.site_style_trees().learned(), (0, 0));
    assert_eq!(cleaner.site_style_trees().pages_not_sampled, 6);
    assert!(clean_text(&cleaner, "daily.example", &page(2)).contains("Headline 2"));
}
