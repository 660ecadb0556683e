//! The configuration as a TOML document that explains itself: every section and every key
//! preceded by the doc comment of its field in `config.rs`, so `indexer config` prints a
//! file a user can read and edit without the source at hand.
//!
//! The comments come from the one place they are written, the doc comments of the config
//! structs, by way of their JSON schema (schemars collects doc comments as descriptions); the
//! values come from serde, as in [`Config::to_toml`]. A field without a doc comment has no
//! comment here, and a test requires every field to have one.

use schemars::schema_for;
use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table};

use super::Config;

/// Width of the comment lines, `# ` included.
const COMMENT_WIDTH: usize = 96;

impl Config {
    /// This configuration as TOML with each section's and key's documentation as comments
    /// (what `indexer config` prints). It parses back to the same configuration.
    pub fn to_commented_toml(&self) -> String {
        let plain = self.to_toml();
        let Ok(mut document) = plain.parse::<DocumentMut>() else {
            return plain;
        };
        let schema = schema_for!(Config);
        let root = schema.as_value();
        document.decor_mut().set_prefix(comment(
            "The configuration of `indexer build` and the evaluations: every parameter with its \
             default. Pass a file holding any subset of it with `--config FILE`.",
        ));
        annotate(document.as_table_mut(), root, root);
        document.to_string()
    }
}

/// Puts the descriptions of `schema`'s properties before the keys and sub-tables of `table`.
fn annotate(table: &mut Table, schema: &Value, root: &Value) {
    let schema = resolve(schema, root);
    let properties = schema.get("properties");
    for (mut key, item) in table.iter_mut() {
        let Some(property) = properties.and_then(|properties| properties.get(key.get())) else {
            continue;
        };
        let target = resolve(property, root);
        let text = description(property).or_else(|| description(target));
        match item {
            Item::Table(sub_table) => {
                if let Some(text) = text {
                    sub_table.decor_mut().set_prefix(format!("\n{}", comment(text)));
                }
                annotate(sub_table, target, root);
            }
            _ => {
                if let Some(text) = text {
                    key.leaf_decor_mut().set_prefix(comment(text));
                }
            }
        }
    }
}

/// The schema a `$ref` points to (`#/$defs/Name`), or `schema` itself.
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str).and_then(|reference| reference.strip_prefix("#/")) {
        Some(path) => path.split('/').try_fold(root, |value, part| value.get(part)).unwrap_or(schema),
        None => schema,
    }
}

fn description(schema: &Value) -> Option<&str> {
    schema.get("description").and_then(Value::as_str).filter(|text| !text.trim().is_empty())
}

/// `text` as `# ` lines of at most [`COMMENT_WIDTH`] characters, paragraphs kept apart.
fn comment(text: &str) -> String {
    let mut lines = String::new();
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            lines.push_str("#\n");
        }
        let paragraph = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
        for line in textwrap::wrap(&paragraph, COMMENT_WIDTH - 2) {
            lines.push_str("# ");
            lines.push_str(&line);
            lines.push('\n');
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commented_toml_parses_back_to_the_same_configuration() {
        let config = Config::default();
        let text = config.to_commented_toml();
        let parsed: Config = toml::from_str(&text).expect("the commented TOML parses");
        assert_eq!(parsed, config);
    }

    /// Every field of every section has a doc comment, so every key of the printed file has
    /// its explanation: a new field without one fails here.
    #[test]
    fn every_field_is_explained() {
        let schema = schema_for!(Config);
        let root = schema.as_value();
        let mut missing = Vec::new();
        for (section, property) in root["properties"].as_object().expect("sections") {
            let target = resolve(property, root);
            if description(property).or_else(|| description(target)).is_none() {
                missing.push(section.clone());
            }
            for (key, field) in target["properties"].as_object().expect("fields") {
                if description(field).or_else(|| description(resolve(field, root))).is_none() {
                    missing.push(format!("{section}.{key}"));
                }
            }
        }
        assert!(missing.is_empty(), "fields without a doc comment: {missing:?}");
    }

    #[test]
    fn keys_and_sections_carry_their_comment() {
        let text = Config::default().to_commented_toml();
        let before = |line: &str| {
            let lines: Vec<&str> = text.lines().collect();
            let i = lines.iter().position(|l| l.starts_with(line)).expect("line printed");
            lines[i - 1]
        };
        assert!(before("max_page_bytes = ").starts_with("# Pages larger than this"));
        assert!(before("[tag_tree]").starts_with("# The markup tag tree"));
        assert!(before("[block_weight.forces]").starts_with("# "));
    }

    #[test]
    fn long_descriptions_wrap_and_keep_paragraphs() {
        let text = comment(&"word ".repeat(60));
        assert!(text.lines().all(|line| line.len() <= COMMENT_WIDTH && line.starts_with("# ")));
        assert_eq!(comment("one\n\ntwo"), "# one\n#\n# two\n");
    }
}
