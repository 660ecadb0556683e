//! The HTTP response inside a WARC `response` record: status, headers, and the body with
//! transfer and content encodings undone.

use std::io::Read;

/// A parsed HTTP response.
#[derive(Debug)]
pub struct HttpResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The `charset` parameter of the Content-Type header.
    pub fn charset(&self) -> Option<String> {
        charset_of_content_type(self.content_type.as_deref()?)
    }

    /// Whether the Content-Type says HTML (a missing one is given the benefit of the doubt).
    pub fn is_html(&self) -> bool {
        match &self.content_type {
            None => true,
            Some(ct) => {
                let mime = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
                mime.is_empty() || mime == "text/html" || mime == "application/xhtml+xml" || mime == "text/plain"
            }
        }
    }
}

/// The charset parameter of a Content-Type value.
pub fn charset_of_content_type(value: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|param| {
        let (key, val) = param.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| val.trim().trim_matches(|c| c == '"' || c == '\'').to_string())
            .filter(|v| !v.is_empty())
    })
}

/// Parses a raw HTTP response; `max_body` caps the decoded body.
pub fn parse_response(raw: &[u8], max_body: u64) -> Result<HttpResponse, String> {
    let head_end = find(raw, b"\r\n\r\n")
        .map(|i| (i, i + 4))
        .or_else(|| find(raw, b"\n\n").map(|i| (i, i + 2)))
        .ok_or("no end of HTTP headers")?;
    let head = String::from_utf8_lossy(&raw[..head_end.0]);
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("");
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| format!("bad HTTP status line {:?}", truncate(status_line, 60)))?;
    let mut content_type = None;
    let mut chunked = false;
    let mut content_encoding = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-type" => content_type = Some(value.to_string()),
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "content-encoding" => content_encoding = Some(value.to_ascii_lowercase()),
            _ => {}
        }
    }
    let mut body = raw[head_end.1..].to_vec();
    if chunked {
        // Crawlers often store the body already de-chunked while keeping the header; only
        // de-chunk when the body really is chunked.
        if let Some(dechunked) = dechunk(&body) {
            body = dechunked;
        }
    }
    match content_encoding.as_deref() {
        Some("gzip") | Some("x-gzip") => body = inflate(flate2::read::MultiGzDecoder::new(&body[..]), max_body)?,
        Some("deflate") => body = inflate(flate2::read::ZlibDecoder::new(&body[..]), max_body)?,
        _ => {}
    }
    Ok(HttpResponse { status, content_type, body })
}

fn inflate(reader: impl Read, max_body: u64) -> Result<Vec<u8>, String> {
    match super::read_capped(&mut { reader }, max_body) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(format!("body larger than {max_body} bytes after decompression")),
        Err(e) => Err(format!("corrupt compressed body: {e}")),
    }
}

fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    loop {
        let line_end = find(rest, b"\r\n")?;
        let size_text = std::str::from_utf8(&rest[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size..)?;
        rest = rest.strip_prefix(b"\r\n").unwrap_or(rest);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn truncate(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_content_type_and_body() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=GBK\r\n\r\n<p>hi", 100).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.charset().as_deref(), Some("GBK"));
        assert!(r.is_html());
        assert_eq!(r.body, b"<p>hi");
    }

    #[test]
    fn chunked_bodies_are_joined_and_plain_ones_left_alone() {
        let r = parse_response(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
            100,
        )
        .unwrap();
        assert_eq!(r.body, b"abcde");
        let r = parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<html>", 100).unwrap();
        assert_eq!(r.body, b"<html>");
    }

    #[test]
    fn non_html_and_garbage() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n..", 100).unwrap();
        assert!(!r.is_html());
        assert!(parse_response(b"garbage", 100).is_err());
        assert!(parse_response(b"HTTP/1.1 abc\r\n\r\n", 100).is_err());
    }
}
