//! Machine strings written in a text: web addresses and clock times. Their pieces are words
//! to the tokenizer (`http`, `www.clir.org`, `2fmetadata` from `%2Fmetadata`, `21pm` from
//! `12:21pm`) but name no topic, so they are no keyword candidates (§6 keywords, §5
//! fingerprints); the indexes still hold them, as a reader may search for an address.

use std::ops::Range;

/// The byte spans of `text` that are machine strings. A span is a run of printable ASCII
/// without spaces (what an address is written in, RFC 3986; the Chinese sentence around an
/// address is not part of it) that holds `://` (a URL with its scheme), a `%` escape (`%2F`),
/// an `@` between letters or digits (an e-mail address), `www.` at its start or after
/// punctuation (a host written without its scheme), or a digit, `:` and two digits (a clock
/// time, `12:21pm`).
pub fn machine_strings(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| matches!(b, b':' | b'%' | b'@' | b'.')) {
        return Vec::new();
    }
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_graphic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_graphic() {
            i += 1;
        }
        if is_machine_string(&bytes[start..i]) {
            spans.push(start..i);
        }
    }
    spans
}

fn is_machine_string(run: &[u8]) -> bool {
    let at = |k: usize, test: fn(&u8) -> bool| run.get(k).is_some_and(test);
    let after_punctuation = |k: usize| k == 0 || !run[k - 1].is_ascii_alphanumeric();
    (0..run.len()).any(|k| match run[k] {
        b':' => {
            run[k..].starts_with(b"://")
                || (k > 0
                    && run[k - 1].is_ascii_digit()
                    && at(k + 1, u8::is_ascii_digit)
                    && at(k + 2, u8::is_ascii_digit))
        }
        b'%' => at(k + 1, u8::is_ascii_hexdigit) && at(k + 2, u8::is_ascii_hexdigit),
        b'@' => k > 0 && run[k - 1].is_ascii_alphanumeric() && at(k + 1, u8::is_ascii_alphanumeric),
        b'w' | b'W' => run.len() >= k + 4 && run[k..k + 4].eq_ignore_ascii_case(b"www.") && after_punctuation(k),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<&str> {
        machine_strings(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn addresses_escapes_and_times_are_machine_strings() {
        assert_eq!(
            spans("See (http://tides.example/a?q=x%3Ay) or www.tides.example, mail ann@tides.example at 10:45am."),
            ["(http://tides.example/a?q=x%3Ay)", "www.tides.example,", "ann@tides.example", "10:45am."]
        );
        assert_eq!(spans("详见https://tides.example/表页面"), ["https://tides.example/"]);
    }

    #[test]
    fn prose_is_no_machine_string() {
        for text in [
            "TCP/IP and 3D printing in the 1940s: a 50% cut, Node.js, e.g. the @handle",
            "Psalm 23:4 and a 2:1 win; awww. No.",
            "",
        ] {
            assert!(spans(text).is_empty(), "{text:?}: {:?}", spans(text));
        }
    }
}
