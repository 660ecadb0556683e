//! Sentence splitting for the abstract (§6), with Chinese punctuation.

/// Splits `text` into trimmed, non-empty sentences.
///
/// A sentence ends at a line break, after `。！？；…` (Chinese full-width marks end a sentence
/// wherever they stand), and after `. ! ? ;` when followed by white space or the end of the
/// text (so "3.14" and "example.com" are not split). Closing quotes and brackets that follow a
/// mark stay with the sentence.
pub fn split_sentences(text: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = match c {
            '\n' | '\r' => Some(i),
            '。' | '！' | '？' | '；' | '…' | '.' | '!' | '?' | ';' => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, next)) = chars.peek() {
                    if matches!(next, '"' | '\'' | '”' | '’' | ')' | '）' | '」' | '』' | '》') {
                        end = j + next.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                let ascii_mark = c.is_ascii();
                match chars.peek() {
                    None => Some(end),
                    Some(&(_, next)) if !ascii_mark || next.is_whitespace() => Some(end),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(end) = end {
            push_trimmed(&mut sentences, &text[start..end]);
            start = if matches!(c, '\n' | '\r') { end + 1 } else { end };
        }
    }
    if start < text.len() {
        push_trimmed(&mut sentences, &text[start..]);
    }
    sentences
}

fn push_trimmed<'a>(out: &mut Vec<&'a str>, sentence: &'a str) {
    let trimmed = sentence.trim();
    if trimmed.chars().any(char::is_alphanumeric) {
        out.push(trimmed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_sentences() {
        assert_eq!(
            split_sentences("Pi is 3.14. See example.com! Really? Yes"),
            ["Pi is 3.14.", "See example.com!", "Really?", "Yes"]
        );
    }

    #[test]
    fn chinese_sentences_split_without_spaces() {
        assert_eq!(
            split_sentences("今天天气很好。我们去公园吧！你来吗？"),
            ["今天天气很好。", "我们去公园吧！", "你来吗？"]
        );
    }

    #[test]
    fn quotes_stay_with_their_sentence_and_lines_split() {
        assert_eq!(
            split_sentences("He said \"no.\" Then left\nNext line"),
            ["He said \"no.\"", "Then left", "Next line"]
        );
    }

    #[test]
    fn punctuation_only_pieces_are_dropped() {
        assert!(split_sentences("... !!! 。。").is_empty());
    }
}
