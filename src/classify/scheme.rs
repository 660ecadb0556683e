//! Category schemes: the codes a classifier assigns and their names.
//!
//! A scheme is a text file of `code<TAB>name` lines (`#` starts a comment line). The default
//! is the paper's 12 top categories (Table 1, §7.1), codes 01–12, compiled into the binary
//! from `src/classify/data/categories.tsv`; a user can supply their own file.

use serde::{Deserialize, Serialize};

use super::ClassifyError;

/// The default scheme file: Table 1 of the paper.
pub const DEFAULT_SCHEME: &str = include_str!("data/categories.tsv");

/// One category of a scheme.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Category {
    pub code: String,
    pub name: String,
}

/// An ordered list of categories with distinct codes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryScheme {
    pub categories: Vec<Category>,
}

impl CategoryScheme {
    /// The paper's 12 top categories.
    pub fn table1() -> CategoryScheme {
        // The shipped file is checked by a test; an error here would be a broken build.
        Self::parse(DEFAULT_SCHEME, "built-in categories").unwrap_or(CategoryScheme { categories: Vec::new() })
    }

    /// Parses a scheme file's text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<CategoryScheme, ClassifyError> {
        let invalid =
            |line: usize, message: String| ClassifyError::Scheme { origin: format!("{origin}:{line}"), message };
        let mut categories: Vec<Category> = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let Some((code, name)) = line.split_once('\t') else {
                return Err(invalid(number + 1, format!("expected code<TAB>name, got {line:?}")));
            };
            let (code, name) = (code.trim(), name.trim());
            if code.is_empty() || code.chars().any(char::is_whitespace) {
                return Err(invalid(number + 1, format!("a code must be one non-empty word, got {code:?}")));
            }
            if categories.iter().any(|c| c.code == code) {
                return Err(invalid(number + 1, format!("code {code} appears twice")));
            }
            categories.push(Category { code: code.to_string(), name: name.to_string() });
        }
        if categories.len() < 2 {
            return Err(ClassifyError::Scheme {
                origin: origin.to_string(),
                message: format!("a scheme needs at least two categories, found {}", categories.len()),
            });
        }
        Ok(CategoryScheme { categories })
    }

    /// Reads a scheme file.
    pub fn from_file(path: &std::path::Path) -> Result<CategoryScheme, ClassifyError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ClassifyError::Io { path: path.display().to_string(), source })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The position of a code in the scheme.
    pub fn index_of(&self, code: &str) -> Option<usize> {
        self.categories.iter().position(|c| c.code == code)
    }

    pub fn len(&self) -> usize {
        self.categories.len()
    }

    pub fn is_empty(&self) -> bool {
        self.categories.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_scheme_is_table_1() {
        let scheme = CategoryScheme::table1();
        assert_eq!(scheme.len(), 12);
        assert_eq!(scheme.categories[0], Category { code: "01".into(), name: "Art".into() });
        assert_eq!(scheme.categories[4].name, "Computer and Internet");
        assert_eq!(scheme.categories[11].code, "12");
        assert_eq!(scheme.index_of("05"), Some(4));
        assert_eq!(scheme.index_of("13"), None);
    }

    #[test]
    fn user_schemes_parse_and_bad_ones_say_why() {
        let scheme = CategoryScheme::parse("# mine\nsport\tSport\r\n\nnews\tNews\n", "mine.tsv").unwrap();
        assert_eq!(scheme.categories.iter().map(|c| c.code.as_str()).collect::<Vec<_>>(), ["sport", "news"]);
        let twice = CategoryScheme::parse("a\tA\na\tB\n", "x.tsv").unwrap_err().to_string();
        assert!(twice.contains("x.tsv:2") && twice.contains("twice"), "{twice}");
        assert!(CategoryScheme::parse("a A\nb\tB\n", "x").unwrap_err().to_string().contains("code<TAB>name"));
        assert!(CategoryScheme::parse("a\tA\n", "x").unwrap_err().to_string().contains("at least two"));
    }
}
