//! The HTTP response inside a WARC `response` or ARC record: status, headers, and the body
//! with its transfer and content encodings undone.
//!
//! Real crawls store what servers sent and what crawlers made of it, so every rule here is
//! lenient: headers may end in bare LF, a body announced as chunked may already be joined, and
//! a `Content-Encoding` may describe a body the crawler already decoded. Each encoding is
//! undone only when the body's own bytes show it is there.

use std::io::Read;

/// A parsed HTTP response.
#[derive(Debug)]
pub struct HttpResponse {
    pub status: u16,
    pub content_type: Option<String>,
    /// The `Content-Language` header, as sent.
    pub content_language: Option<String>,
    pub body: Vec<u8>,
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

/// The media type of a Content-Type value, lowercase and without parameters.
pub fn media_type(value: &str) -> String {
    value.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// Where the header block of `raw` ends: the first empty line, ended by CRLF or by a bare LF
/// (servers and crawlers write both, sometimes mixed in one header).
fn header_end(raw: &[u8]) -> Option<(usize, usize)> {
    let mut line_start = 0;
    while let Some(lf) = memchr::memchr(b'\n', &raw[line_start..]) {
        let lf = line_start + lf;
        let line = &raw[line_start..lf];
        if line.is_empty() || line == b"\r" {
            return Some((line_start, lf + 1));
        }
        line_start = lf + 1;
    }
    None
}

/// Parses a raw HTTP response; `max_body` caps the decoded body.
pub fn parse_response(raw: &[u8], max_body: u64) -> Result<HttpResponse, String> {
    let (head_len, body_start) = header_end(raw).ok_or("no end of HTTP headers (the record is cut short?)")?;
    let head = String::from_utf8_lossy(&raw[..head_len]);
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("").trim();
    let status =
        status_of(status_line).ok_or_else(|| format!("bad HTTP status line {:?}", truncate(status_line, 60)))?;
    let mut content_type = None;
    let mut content_language = None;
    let mut chunked = false;
    let mut content_encoding = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-type" if content_type.is_none() && !value.is_empty() => content_type = Some(value.to_string()),
            "content-language" if !value.is_empty() => content_language = Some(value.to_string()),
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "content-encoding" => content_encoding = Some(value.to_ascii_lowercase()),
            _ => {}
        }
    }
    let mut body = raw[body_start..].to_vec();
    if chunked {
        // Crawlers often store the body already de-chunked while keeping the header; only
        // de-chunk when the body really is chunked.
        if let Some(dechunked) = dechunk(&body) {
            body = dechunked;
        }
    }
    if let Some(encoding) = content_encoding.as_deref() {
        body = decode_content(body, encoding, max_body)?;
    }
    Ok(HttpResponse { status, content_type, content_language, body })
}

/// The status code of `HTTP/1.1 200 OK`, `HTTP/1.0 200`, `HTTP/1.1 200OK`.
fn status_of(line: &str) -> Option<u16> {
    if !line.get(..5)?.eq_ignore_ascii_case("HTTP/") {
        return None;
    }
    let code = line.split_whitespace().nth(1)?;
    let digits = code.get(..3)?;
    digits.bytes().all(|b| b.is_ascii_digit()).then(|| digits.parse().ok())?
}

/// Undoes a content encoding when the body's magic bytes show it. A stale header over a body
/// the crawler already decoded (plain markup) leaves the body as it is.
fn decode_content(body: Vec<u8>, encoding: &str, max_body: u64) -> Result<Vec<u8>, String> {
    let compressed = body.as_slice();
    match encoding {
        "gzip" | "x-gzip" if compressed.starts_with(&[0x1f, 0x8b]) => {
            inflate(|| Ok(flate2::read::MultiGzDecoder::new(compressed)), max_body)
        }
        "deflate" if looks_like_zlib(compressed) => {
            inflate(|| Ok(flate2::read::ZlibDecoder::new(compressed)), max_body)
        }
        // Some servers send raw deflate under the name; a body that is already text is not.
        "deflate" if !looks_like_text(compressed) => {
            inflate(|| Ok(flate2::read::DeflateDecoder::new(compressed)), max_body)
        }
        // Brotli streams have no magic bytes: a body that is not text is taken for one.
        "br" if !looks_like_text(compressed) => {
            inflate(|| Ok(brotli_decompressor::Decompressor::new(compressed, 4096)), max_body)
        }
        "zstd" if compressed.starts_with(&ZSTD_MAGIC) => {
            let open = || {
                let corrupt = |e| format!("corrupt compressed body: {e}");
                let mut decoder = zstd::stream::read::Decoder::with_buffer(compressed).map_err(corrupt)?;
                // HTTP's zstd coding limits a frame's window to 8 MiB (RFC 9659, §3), which
                // browsers enforce; a frame asking for more (the decoder's own bound is 128 MiB,
                // allocated per body) is refused as they refuse it.
                decoder.window_log_max(ZSTD_HTTP_WINDOW_LOG).map_err(corrupt)?;
                Ok(decoder)
            };
            inflate(open, max_body)
        }
        "zstd" | "compress" if !looks_like_text(compressed) => {
            Err(format!("the body is {encoding}-compressed, which this reader does not decode"))
        }
        _ => Ok(body),
    }
}

/// The first bytes of a Zstandard frame (RFC 8878, §3.1.1).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The base-2 logarithm of the largest window of a zstd body in HTTP, 8 MiB (RFC 9659, §3).
const ZSTD_HTTP_WINDOW_LOG: u32 = 23;

/// A zlib stream: CMF says deflate with a window up to 32 KiB and the header checksum holds.
fn looks_like_zlib(body: &[u8]) -> bool {
    matches!(body, [cmf, flg, ..] if cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0)
}

/// Text, not compressed bytes: no control bytes but whitespace in the first 512 bytes.
fn looks_like_text(body: &[u8]) -> bool {
    body[..body.len().min(512)].iter().all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r' | 0x0c))
}

/// Inflates up to `max_body` bytes with the decoder `open` makes. A stream cut short or
/// damaged past its start keeps what was decoded before the fault (a clipped page is still a
/// page); a stream corrupt from the start is an error.
fn inflate<R: Read>(open: impl Fn() -> Result<R, String>, max_body: u64) -> Result<Vec<u8>, String> {
    let limit = max_body.saturating_add(1);
    let mut bytes = Vec::new();
    let mut chunk = vec![0; INFLATE_CHUNK];
    let mut decoder = open()?.take(limit);
    let mut fault = loop {
        match decoder.read(&mut chunk) {
            Ok(0) => break None,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Some(e),
        }
    };
    if fault.is_some() {
        // A decoder returns the error instead of the bytes it decoded in the read that meets
        // the fault (up to a chunk). Decoding again, past the bytes kept, one byte per read up
        // to the fault recovers all but the byte of the failing read; only damaged bodies take
        // this path, for one chunk at most.
        let mut again = open()?.take(limit);
        let skipped = std::io::copy(&mut (&mut again).take(bytes.len() as u64), &mut std::io::sink());
        if matches!(skipped, Ok(n) if n == bytes.len() as u64) {
            let mut byte = [0u8];
            for _ in 0..INFLATE_CHUNK {
                match again.read(&mut byte) {
                    Ok(0) => break,
                    Ok(_) => bytes.push(byte[0]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        fault = Some(e);
                        break;
                    }
                }
            }
        }
    }
    if bytes.len() as u64 > max_body {
        return Err(format!("body larger than {max_body} bytes after decompression"));
    }
    match fault {
        Some(e) if bytes.is_empty() => Err(format!("corrupt compressed body: {e}")),
        _ => Ok(bytes),
    }
}

/// The most a decoder is asked for per read when inflating a body, and so the most a read
/// that meets a fault can lose before [`inflate`] decodes it again byte by byte.
const INFLATE_CHUNK: usize = 16 * 1024;

/// Joins a chunked body; `None` when the body is not chunked. A body cut short inside its
/// chunks keeps the chunks read.
fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    let mut chunks = 0usize;
    loop {
        let Some(line_end) = memchr::memchr(b'\n', rest) else {
            return (chunks > 0).then_some(out);
        };
        let size_text = std::str::from_utf8(&rest[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[line_end + 1..];
        if size == 0 {
            return Some(out);
        }
        chunks += 1;
        if rest.len() < size {
            out.extend_from_slice(rest);
            return Some(out);
        }
        out.extend_from_slice(&rest[..size]);
        rest = &rest[size..];
        rest = rest.strip_prefix(b"\r").unwrap_or(rest);
        rest = rest.strip_prefix(b"\n").unwrap_or(rest);
    }
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
    use std::io::Write;

    #[test]
    fn status_content_type_and_body() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=GBK\r\n\r\n<p>hi", 100).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(charset_of_content_type(r.content_type.as_deref().unwrap()).as_deref(), Some("GBK"));
        assert_eq!(media_type(r.content_type.as_deref().unwrap()), "text/html");
        assert_eq!(r.body, b"<p>hi");
    }

    #[test]
    fn headers_ending_in_bare_lf_end_at_their_own_blank_line() {
        let raw = b"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<title>T</title><p>a\r\n\r\nb";
        let r = parse_response(raw, 100).unwrap();
        assert_eq!(r.body, b"<title>T</title><p>a\r\n\r\nb");
        let mixed = b"HTTP/1.0 200\r\nServer: x\n\r\n<p>body";
        assert_eq!(parse_response(mixed, 100).unwrap().body, b"<p>body");
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
        let cut = parse_response(b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n10\nde", 100).unwrap();
        assert_eq!(cut.body, b"abcde");
    }

    #[test]
    fn a_stale_content_encoding_over_plain_markup_is_ignored() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n<p>plain", 100).unwrap();
        assert_eq!(r.body, b"<p>plain");
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n<p>plain", 100).unwrap();
        assert_eq!(r.body, b"<p>plain");
    }

    #[test]
    fn real_compressed_bodies_are_inflated_and_clipped_ones_keep_their_start() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        let page = format!("<p>compressed page {}", crate::input::crawl::gzip::tests::varied_text(300));
        gz.write_all(page.as_bytes()).unwrap();
        let compressed = gz.finish().unwrap();
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        raw.extend_from_slice(&compressed);
        assert_eq!(parse_response(&raw, 10_000).unwrap().body, page.as_bytes());
        raw.truncate(raw.len() - compressed.len() / 3);
        let clipped = parse_response(&raw, 10_000).unwrap().body;
        assert!(page.as_bytes().starts_with(&clipped) && clipped.len() > 100, "{}", clipped.len());
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(b"<p>deflated").unwrap();
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n".to_vec();
        raw.extend_from_slice(&zlib.finish().unwrap());
        assert_eq!(parse_response(&raw, 100).unwrap().body, b"<p>deflated");
    }

    #[test]
    fn brotli_and_zstd_bodies_are_decoded_and_clipped_ones_keep_their_start() {
        // Words of little redundancy, long enough for several zstd blocks (at most 128 KiB of
        // text each), so a frame clipped in its last third still holds whole blocks.
        let mut state = 1u64;
        let mut word = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            format!("w{:x} ", state >> 44)
        };
        let page =
            format!("<p>a page a browser-based crawler stored {}", (0..40_000).map(|_| word()).collect::<String>());
        let mut brotli = Vec::new();
        let params = brotli::enc::BrotliEncoderParams { quality: 5, ..Default::default() };
        brotli::BrotliCompress(&mut page.as_bytes(), &mut brotli, &params).unwrap();
        let zstd = zstd::encode_all(page.as_bytes(), 3).unwrap();
        for (encoding, compressed) in [("br", brotli), ("zstd", zstd)] {
            let mut raw = format!("HTTP/1.1 200 OK\r\nContent-Encoding: {encoding}\r\n\r\n").into_bytes();
            raw.extend_from_slice(&compressed);
            assert_eq!(parse_response(&raw, 1 << 20).unwrap().body, page.as_bytes(), "{encoding}");
            assert!(parse_response(&raw, 100).unwrap_err().contains("larger than 100 bytes"), "{encoding}");
            raw.truncate(raw.len() - compressed.len() / 3);
            let clipped = parse_response(&raw, 1 << 20).unwrap().body;
            assert!(page.as_bytes().starts_with(&clipped) && clipped.len() > 10_000, "{encoding}: {}", clipped.len());
        }
        // A frame whose window is above HTTP's 8 MiB (here 16 MiB: Window_Descriptor exponent
        // 14, no content size) is refused, one at the limit decoded: a raw last block "<p>ok".
        for (exponent, decoded) in [(14u8, false), (13, true)] {
            let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n".to_vec();
            raw.extend_from_slice(&ZSTD_MAGIC);
            raw.extend_from_slice(&[0x00, exponent << 3]);
            raw.extend_from_slice(&(1u32 | 5 << 3).to_le_bytes()[..3]);
            raw.extend_from_slice(b"<p>ok");
            let result = parse_response(&raw, 100);
            assert_eq!(result.as_ref().map(|r| r.body.as_slice()).ok(), decoded.then_some(&b"<p>ok"[..]), "{result:?}");
        }
        // A zstd body without the frame's magic is not taken for one.
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n<p>plain", 100).unwrap();
        assert_eq!(r.body, b"<p>plain");
        let not_zstd = b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n\x8b\x02\x80";
        assert!(parse_response(not_zstd, 100).is_err());
    }

    #[test]
    fn a_body_damaged_past_its_start_keeps_all_it_decoded_before_the_damage() {
        // A whole page, flushed to a byte boundary, then a deflate block of the reserved type
        // (BFINAL 1, BTYPE 11: the byte 0x07), which every decoder refuses: the page was
        // decoded before the fault and is kept but for the byte of the decoder's last call
        // (the read that met the fault used to drop all it had decoded, up to half the page).
        let page = format!("<p>a page {}", crate::input::crawl::gzip::tests::varied_text(20_000));
        let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        deflate.write_all(page.as_bytes()).unwrap();
        deflate.flush().unwrap();
        let mut raw_deflate = deflate.get_ref().clone();
        raw_deflate.push(0x07);
        let gzip = [&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff][..], &raw_deflate].concat();
        let zlib = [&[0x78, 0x9c][..], &raw_deflate].concat();
        for (encoding, body) in [("gzip", gzip), ("deflate", zlib), ("deflate", raw_deflate)] {
            let mut raw = format!("HTTP/1.1 200 OK\r\nContent-Encoding: {encoding}\r\n\r\n").into_bytes();
            raw.extend_from_slice(&body);
            let kept = parse_response(&raw, 1 << 22).unwrap().body;
            assert!(page.as_bytes().starts_with(&kept), "{encoding}");
            assert!(kept.len() + 1 >= page.len(), "{encoding}: kept {} of the page's {} bytes", kept.len(), page.len());
        }
        // A stream corrupt from its first byte is still an error.
        let raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n\x07\x07\x07";
        assert!(parse_response(raw, 100).unwrap_err().contains("corrupt compressed body"));
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse_response(b"garbage", 100).is_err());
        assert!(parse_response(b"HTTP/1.1 abc\r\n\r\n", 100).is_err());
        assert!(parse_response(b"GET / HTTP/1.1\r\n\r\n", 100).is_err());
        let binary = b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\x8b\x02\x80";
        assert!(parse_response(binary, 100).is_err());
    }
}
