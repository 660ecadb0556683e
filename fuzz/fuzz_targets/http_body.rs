//! Fuzz target: any bytes as the body of an HTTP response with each `Content-Encoding`, parsed
//! by the parser the WARC and ARC readers use (`indexer::input::crawl::parse_response`), so
//! the body decoders (gzip, zlib and raw deflate, Brotli, zstd) see the fuzzer's bytes
//! directly instead of through a crawl file's framing.
//!
//! An input is two bytes that say how the response is made, then the body:
//! - bits 0-2 of the first byte: the `Content-Encoding` (one of `ENCODINGS`, or none);
//! - bit 3: the response also says `Transfer-Encoding: chunked`;
//! - bits 4-5: the cap on the decoded body (`MAX_BODIES`), small ones so the too-large path is
//!   reached by small inputs;
//! - the second byte: where the body is clipped for the second parse (its share of 256).
//!
//! The checks are what the readers promise:
//! - no panic (libFuzzer reports one as a crash);
//! - a body is never larger than the cap once decoded (a body left as it is, or only
//!   de-chunked, is at most as large as the bytes given);
//! - a body clipped short keeps what was decoded before the cut: parsed again clipped, it is
//!   an error, a start of the whole body's decoding (or that and the one byte a damaged whole
//!   body loses in the decoder's failing call), or the clipped bytes left as they are (a
//!   clipped body may no longer look compressed).

#![no_main]

use indexer::input::crawl::parse_response;
use libfuzzer_sys::fuzz_target;

/// The encodings the parser tells apart, in the spellings servers send, and one it does not know.
const ENCODINGS: [Option<&str>; 8] =
    [None, Some("gzip"), Some("x-gzip"), Some("deflate"), Some("br"), Some("zstd"), Some("compress"), Some("identity")];

/// Caps on the decoded body.
const MAX_BODIES: [u64; 4] = [16, 256, 4096, 1 << 20];

fn response(encoding: Option<&str>, chunked: bool, body: &[u8]) -> Vec<u8> {
    let mut raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n".to_vec();
    if let Some(encoding) = encoding {
        raw.extend_from_slice(format!("Content-Encoding: {encoding}\r\n").as_bytes());
    }
    if chunked {
        raw.extend_from_slice(b"Transfer-Encoding: chunked\r\n");
    }
    raw.extend_from_slice(b"\r\n");
    raw.extend_from_slice(body);
    raw
}

fuzz_target!(|data: &[u8]| {
    let [how, clip, body @ ..] = data else { return };
    let encoding = ENCODINGS[usize::from(how & 7)];
    let chunked = how & 8 != 0;
    let max_body = MAX_BODIES[usize::from(how >> 4 & 3)];

    let whole = parse_response(&response(encoding, chunked, body), max_body);
    let bound = max_body.max(body.len() as u64);
    if let Ok(whole) = &whole {
        assert_eq!(whole.status, 200);
        assert!(
            whole.body.len() as u64 <= bound,
            "a body of {} bytes from {} under a cap of {max_body}",
            whole.body.len(),
            body.len()
        );
    }

    // De-chunking a clipped body may succeed where the whole one was not chunked; the clipped
    // parse is compared on bodies sent as they are.
    let Ok(whole) = whole else { return };
    if chunked {
        return;
    }
    let clipped = &body[..body.len() * usize::from(*clip) / 256];
    if let Ok(part) = parse_response(&response(encoding, false, clipped), max_body) {
        // A damaged body keeps all but the byte of the decoder's failing call, which the same
        // body clipped before the damage may keep.
        let common = part.body.len().min(whole.body.len());
        let starts_whole = whole.body.starts_with(&part.body[..common]) && part.body.len() <= whole.body.len() + 1;
        assert!(
            starts_whole || part.body == clipped,
            "a body clipped to {} of {} bytes decodes to {} bytes that do not start the whole body's {}",
            clipped.len(),
            body.len(),
            part.body.len(),
            whole.body.len()
        );
    }
});
