//! TREC topics in, TREC run files out.

use std::fmt::Write as _;
use std::path::Path;

use crate::search::{Candidate, Collection, SearchError, SearchRequest};

/// One topic: its id and query text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub qid: String,
    pub query: String,
}

/// A topic file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TopicError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}:{line}: expected <qid><TAB><query>")]
    Malformed { path: String, line: usize },
    #[error("{path}: no topics found")]
    Empty { path: String },
}

/// Reads topics: `qid<TAB>query` lines, or TREC `<top>` blocks (`<num>` and `<title>`).
pub fn read_topics(path: &Path) -> Result<Vec<Topic>, TopicError> {
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| TopicError::Io { path: display.clone(), source })?;
    let topics = parse_topics(&text).map_err(|line| TopicError::Malformed { path: display.clone(), line })?;
    if topics.is_empty() {
        return Err(TopicError::Empty { path: display });
    }
    Ok(topics)
}

/// Parses topic text; `Err(line)` names the first malformed line.
pub fn parse_topics(text: &str) -> Result<Vec<Topic>, usize> {
    if text.contains("<top>") {
        return Ok(parse_trec_topics(text));
    }
    let mut topics = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (qid, query) = line.split_once('\t').ok_or(i + 1)?;
        topics.push(Topic { qid: qid.trim().to_string(), query: query.trim().to_string() });
    }
    Ok(topics)
}

fn parse_trec_topics(text: &str) -> Vec<Topic> {
    text.split("<top>")
        .skip(1)
        .filter_map(|block| {
            let field = |tag: &str| -> Option<String> {
                let start = block.find(tag)? + tag.len();
                let rest = &block[start..];
                let end = rest.find('<').unwrap_or(rest.len());
                Some(rest[..end].split_whitespace().collect::<Vec<_>>().join(" "))
            };
            let qid = field("<num>")?.trim_start_matches("Number:").trim().to_string();
            let query = field("<title>")?.trim_start_matches("Topic:").trim().to_string();
            (!qid.is_empty()).then_some(Topic { qid, query })
        })
        .collect()
}

/// Runs every topic against a collection and returns the run in TREC format
/// (`qid Q0 docno rank score tag`, docno = page URL).
pub fn run_topics(
    collection: &Collection,
    topics: &[Topic],
    request: &SearchRequest,
    tag: &str,
) -> Result<String, SearchError> {
    let mut out = String::new();
    for topic in topics {
        let ranking = collection.ranking(&topic.query, request)?;
        write_run(&mut out, &topic.qid, &ranking, tag);
    }
    Ok(out)
}

/// Appends one topic's ranking to a TREC run. The scores written fall with the rank: trec_eval
/// re-sorts by score and breaks ties by docno, which would reorder pages a search ranked
/// apart (fused scores tie often).
pub fn write_run(out: &mut String, qid: &str, ranking: &[Candidate], tag: &str) {
    let count = ranking.len();
    for (i, candidate) in ranking.iter().enumerate() {
        let _ = writeln!(out, "{} Q0 {} {} {} {}", qid, candidate.url, i + 1, count - i, tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_separated_topics() {
        let topics = parse_topics("1\tsodium batteries\n\n# comment\n2\t熊猫 保护\n").unwrap();
        assert_eq!(topics.len(), 2);
        assert_eq!(topics[1], Topic { qid: "2".into(), query: "熊猫 保护".into() });
        assert_eq!(parse_topics("1 no tab\n"), Err(1));
    }

    #[test]
    fn trec_topic_blocks() {
        let text = "<top>\n<num> Number: 301\n<title> International Organized Crime\n<desc> Description:\nx\n</top>\n<top>\n<num> 302\n<title> Poliomyelitis\n</top>";
        let topics = parse_topics(text).unwrap();
        assert_eq!(
            topics,
            [
                Topic { qid: "301".into(), query: "International Organized Crime".into() },
                Topic { qid: "302".into(), query: "Poliomyelitis".into() }
            ]
        );
    }
}
