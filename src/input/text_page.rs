//! Plain text as a page: a text body (a `text/plain` crawl record, a WET conversion record, a
//! JSON Lines record's `text`) becomes markup the tag tree reads like any page.
//!
//! Given to the HTML parser as it is, a text loses what looks like markup (`a<b`, `<stdio.h>`,
//! `&copy`) and becomes one text node, so the page has one block and its abstract one
//! paragraph. Here `&`, `<` and `>` are escaped and the text is cut into paragraphs: at blank
//! lines when it has any (prose, whose lines may be wrapped), otherwise at every line break
//! (Common Crawl's WET writes one line per block of the page).
//!
//! The work is on bytes, so a body of unknown charset keeps its bytes: in every
//! ASCII-compatible charset (UTF-8, the GB and Big5 families, Shift_JIS, EUC, the ISO 8859 and
//! Windows code pages) `&`, `<`, `>` and line breaks are those ASCII bytes and never the second
//! byte of a character. A UTF-16 body (it starts with a byte-order mark) is left as it is.

/// The markup of a text page: a `<title>` when one is given, then one `<p>` per paragraph.
pub fn text_page(text: &[u8], title: Option<&str>) -> Vec<u8> {
    if text.starts_with(b"\xff\xfe") || text.starts_with(b"\xfe\xff") {
        return text.to_vec();
    }
    let mut html = Vec::with_capacity(text.len() + text.len() / 8 + 64);
    if let Some(title) = title.map(str::trim).filter(|t| !t.is_empty()) {
        html.extend_from_slice(b"<title>");
        escape_into(title.as_bytes(), &mut html);
        html.extend_from_slice(b"</title>\n");
    }
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect();
    let blank = |line: &&[u8]| line.iter().all(u8::is_ascii_whitespace);
    // Blank lines before the first line of text or after the last cut nothing.
    let first = lines.iter().position(|l| !blank(l)).unwrap_or(0);
    let last = lines.iter().rposition(|l| !blank(l)).unwrap_or(0);
    let by_blank_lines = lines[first..=last.max(first)].iter().any(blank);
    let mut paragraph: Vec<&[u8]> = Vec::new();
    let flush = |paragraph: &mut Vec<&[u8]>, html: &mut Vec<u8>| {
        if paragraph.is_empty() {
            return;
        }
        html.extend_from_slice(b"<p>");
        for (i, line) in paragraph.iter().enumerate() {
            if i > 0 {
                html.push(b'\n');
            }
            escape_into(line, html);
        }
        html.extend_from_slice(b"</p>\n");
        paragraph.clear();
    };
    for line in &lines {
        if blank(line) {
            flush(&mut paragraph, &mut html);
        } else {
            paragraph.push(line);
            if !by_blank_lines {
                flush(&mut paragraph, &mut html);
            }
        }
    }
    flush(&mut paragraph, &mut html);
    html
}

fn escape_into(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        match b {
            b'&' => out.extend_from_slice(b"&amp;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            _ => out.push(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str, title: Option<&str>) -> String {
        String::from_utf8(text_page(text.as_bytes(), title)).unwrap()
    }

    #[test]
    fn markup_characters_are_text_and_blank_lines_cut_paragraphs() {
        assert_eq!(
            page("Use <stdio.h> & a<b.\nStill the first\r\n\n\nSecond.", Some("Notes on C & <C++>")),
            "<title>Notes on C &amp; &lt;C++&gt;</title>\n<p>Use &lt;stdio.h&gt; &amp; a&lt;b.\nStill the first</p>\n\
             <p>Second.</p>\n"
        );
    }

    #[test]
    fn without_blank_lines_every_line_is_a_paragraph() {
        assert_eq!(page("\nHeadline\nFirst block.\n  \n", None), "<p>Headline</p>\n<p>First block.</p>\n");
        assert_eq!(page("Headline\nFirst block.", Some("  ")), "<p>Headline</p>\n<p>First block.</p>\n");
    }

    #[test]
    fn bytes_of_other_charsets_pass_through_and_utf16_is_left_alone() {
        // GBK 中文 then `<`: the escape never touches a multibyte character.
        let gbk = [0xd6, 0xd0, 0xce, 0xc4, b'<'];
        assert_eq!(text_page(&gbk, None), [&b"<p>"[..], &[0xd6, 0xd0, 0xce, 0xc4], b"&lt;</p>\n"].concat());
        let utf16 = [0xff, 0xfe, b'<', 0];
        assert_eq!(text_page(&utf16, None), utf16);
    }
}
