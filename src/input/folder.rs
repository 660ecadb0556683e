//! A folder of pages, walked recursively in sorted path order (so builds are reproducible and
//! "the first page of a replica group" is well defined).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{ByteCounter, InputError, InputEvent, RawPage, SkipReason, Skipped, open_maybe_gzip, read_capped};

/// The optional manifest mapping a page's path (relative to the folder) to its URL.
pub const MANIFEST: &str = "urls.tsv";

fn is_page(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    [".html", ".htm", ".xhtml", ".shtml"].iter().any(|ext| name.ends_with(ext))
}

/// A crawl file by its name: WARC and ARC files (Common Crawl's `.warc.wet` and `.warc.wat`
/// too) and JSON Lines, each optionally gzipped. Only names that say so: a folder holds
/// other files (`.json` settings, logs) that are no input.
fn is_crawl_file(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    [".warc", ".arc", ".warc.wet", ".warc.wat", ".jsonl", ".ndjson"].iter().any(|ext| name.ends_with(ext))
}

/// The crawl files in `dir` at any depth, in sorted path order.
pub fn crawl_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_crawl_file(e.path()))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// Whether reading `dir` as a folder of pages yields anything: a page, or a part of it that
/// cannot be listed (which the folder's reading then reports as an unreadable record, so a
/// folder of crawl files with an unreadable subfolder says so).
pub fn yields_pages(dir: &Path) -> bool {
    pages(dir).next().is_some()
}

fn pages(dir: &Path) -> impl Iterator<Item = walkdir::Result<walkdir::DirEntry>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter(|e| e.as_ref().map_or(true, |e| e.file_type().is_file() && is_page(e.path())))
}

pub fn size_on_disk(dir: &Path) -> u64 {
    pages(dir).filter_map(Result::ok).filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum()
}

/// A line of the manifest: the URL it gives a page, its line number and the path as written.
struct ManifestEntry {
    url: String,
    line: usize,
    written: String,
}

/// What the manifest says: URLs by the page's path as [`relative_path`] names it, the lines
/// that are not `<path><TAB><url>` (each one bad record, reported, counted and listed in
/// `skipped.tsv`, never the loss of the folder; a page such a line meant to name keeps its
/// `file://` URL), and the lines whose path leads out of the folder (no page of it: a warning).
#[derive(Default)]
struct Manifest {
    urls: HashMap<String, ManifestEntry>,
    bad: Vec<Skipped>,
    outside: Vec<ManifestEntry>,
}

/// A manifest path as the folder's walk names the page: `/` between names, `.` and empty names
/// dropped, `..` taking back the name before it, so `./a.html` and `sub/../a.html` are
/// `a.html`. An absolute path inside `dir` is taken relative to it. `None` when the path leads
/// out of the folder. Lexical, as the walk is (it follows no symbolic link).
fn manifest_path(dir: &Path, written: &str) -> Option<String> {
    let written = written.replace('\\', "/");
    let relative = if written.starts_with('/') {
        let absolute = Path::new(&written);
        let inside = |root: &Path| absolute.strip_prefix(root).ok().map(|p| p.to_string_lossy().into_owned());
        inside(dir)
            .or_else(|| std::fs::canonicalize(dir).ok().and_then(|root| inside(&root)))
            .or_else(|| std::path::absolute(dir).ok().and_then(|root| inside(&root)))?
    } else {
        written
    };
    let mut names: Vec<&str> = Vec::new();
    for name in relative.split('/') {
        match name {
            "" | "." => {}
            ".." => {
                names.pop()?;
            }
            name => names.push(name),
        }
    }
    Some(names.join("/"))
}

fn read_manifest(dir: &Path) -> Result<Manifest, InputError> {
    let path = dir.join(MANIFEST);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Manifest::default()),
        Err(source) => {
            return Err(InputError::Io { path: path.display().to_string(), source });
        }
    };
    let mut manifest = Manifest::default();
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let origin = format!("{}:{}", path.display(), n + 1);
        let Ok(line) = std::str::from_utf8(line) else {
            manifest.bad.push(Skipped {
                origin,
                reason: SkipReason::BadRecord,
                detail: "not UTF-8 text; write the manifest in UTF-8 (its page keeps its file:// URL)".into(),
            });
            continue;
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once('\t') {
            Some((rel, url)) if !rel.trim().is_empty() && !url.trim().is_empty() => {
                // The URL becomes the record's identifier and resolves the page's links: one
                // that is not absolute would do neither.
                if let Err(e) = url::Url::parse(url.trim()) {
                    manifest.bad.push(Skipped {
                        origin,
                        reason: SkipReason::BadRecord,
                        detail: format!(
                            "{:?} is not an absolute URL ({e}); the line is ignored (its page keeps its file:// URL)",
                            url.trim()
                        ),
                    });
                    continue;
                }
                let written = rel.trim().to_string();
                let relative = manifest_path(dir, &written);
                let entry = ManifestEntry { url: url.trim().to_string(), line: n + 1, written };
                match relative {
                    Some(relative) => {
                        manifest.urls.insert(relative, entry);
                    }
                    None => manifest.outside.push(entry),
                }
            }
            _ => manifest.bad.push(Skipped {
                origin,
                reason: SkipReason::BadRecord,
                detail: "expected <path><TAB><url>; the line is ignored (its page keeps its file:// URL)".into(),
            }),
        }
    }
    Ok(manifest)
}

/// Warnings about the lines of `dir`'s manifest that name no page of the folder (a file that
/// does not exist, or one a folder's reading does not take as a page): such a line gives no
/// page its URL, so the page the user meant keeps its `file://` URL. Told once per build, before
/// the folder is read (each pass over the inputs reads the manifest again).
pub fn manifest_warnings(dir: &Path) -> Vec<String> {
    let Ok(manifest) = read_manifest(dir) else {
        return Vec::new();
    };
    if manifest.urls.is_empty() && manifest.outside.is_empty() {
        return Vec::new();
    }
    let pages: std::collections::HashSet<String> =
        pages(dir).filter_map(Result::ok).map(|e| relative_path(dir, e.path())).collect();
    let mut unmatched: Vec<(usize, String)> = manifest
        .urls
        .iter()
        .filter(|(rel, _)| !pages.contains(*rel))
        .map(|(rel, entry)| {
            let written = &entry.written;
            let what = if dir.join(rel).is_file() {
                format!("{written} is not read as a page (a page is .html, .htm, .xhtml or .shtml, also .gz)")
            } else {
                format!("no file {written} in {} (paths are relative to the folder, as sub/page.html)", dir.display())
            };
            (entry.line, what)
        })
        .chain(manifest.outside.iter().map(|entry| {
            let what = format!(
                "{} is outside {} (paths are relative to the folder, as sub/page.html)",
                entry.written,
                dir.display()
            );
            (entry.line, what)
        }))
        .collect();
    unmatched.sort_unstable();
    let path = dir.join(MANIFEST);
    unmatched
        .into_iter()
        .map(|(line, what)| format!("{}:{line}: {what}; the line gives no page its URL", path.display()))
        .collect()
}

/// A page's path relative to its folder, with `/` between names, as the manifest writes it.
fn relative_path(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default()
}

/// The `file://` URL of a local file: absolute, percent-encoded (a relative path would make
/// `file://../x.html`, whose host is `..`).
pub fn file_url(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    url::Url::from_file_path(&absolute)
        .map(|u| u.to_string())
        .unwrap_or_else(|_| format!("file://{}", absolute.display()))
}

pub fn visit(
    dir: &Path,
    max_page_bytes: u64,
    progress: &ByteCounter,
    sink: &mut dyn FnMut(InputEvent) -> bool,
) -> Result<(), InputError> {
    let Manifest { urls: manifest, bad, .. } = read_manifest(dir)?;
    for skipped in bad {
        if !sink(InputEvent::Skipped(skipped)) {
            return Ok(());
        }
    }
    for entry in pages(dir) {
        let event = match entry {
            Err(e) => InputEvent::Skipped(Skipped {
                origin: e.path().map_or_else(|| dir.display().to_string(), |p| p.display().to_string()),
                reason: SkipReason::Unreadable,
                detail: format!("cannot list: {e}"),
            }),
            Ok(entry) => read_page(dir, entry.path(), &manifest, max_page_bytes, progress),
        };
        if !sink(event) {
            break;
        }
    }
    Ok(())
}

fn read_page(
    dir: &Path,
    path: &Path,
    manifest: &HashMap<String, ManifestEntry>,
    max_page_bytes: u64,
    progress: &ByteCounter,
) -> InputEvent {
    let bytes = match page_bytes(path, max_page_bytes, progress) {
        Ok(bytes) => bytes,
        Err(skipped) => return InputEvent::Skipped(skipped),
    };
    let url = manifest.get(&relative_path(dir, path)).map_or_else(|| file_url(path), |entry| entry.url.clone());
    InputEvent::Page(RawPage {
        url,
        origin: path.display().to_string(),
        bytes,
        http_charset: None,
        http_language: None,
    })
}

/// A page file's bytes as a folder's reading takes them: gunzipped when the file is gzip
/// (`page.html.gz`), at most `max_page_bytes`; or why the page is skipped. `indexer inspect`
/// reads its page with it, so it sees what a build sees.
pub fn page_bytes(path: &Path, max_page_bytes: u64, progress: &ByteCounter) -> Result<Vec<u8>, Skipped> {
    let skipped = |reason, detail: String| Skipped { origin: path.display().to_string(), reason, detail };
    match open_maybe_gzip(path, progress).and_then(|mut r| read_capped(&mut r, max_page_bytes)) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(skipped(SkipReason::TooLarge, super::too_large(max_page_bytes))),
        Err(e) => Err(skipped(SkipReason::Unreadable, format!("cannot read: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn collect(dir: &Path, max: u64) -> Vec<InputEvent> {
        let mut events = Vec::new();
        visit(dir, max, &ByteCounter::default(), &mut |e| {
            events.push(e);
            true
        })
        .unwrap();
        events
    }

    #[test]
    fn pages_are_read_in_path_order_with_manifest_urls() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("b.html"), "<p>b").unwrap();
        std::fs::write(dir.path().join("sub/a.htm"), "<p>a").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a page").unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"<p>zipped").unwrap();
        std::fs::write(dir.path().join("c.html.gz"), gz.finish().unwrap()).unwrap();
        std::fs::write(dir.path().join(MANIFEST), "sub/a.htm\thttps://x.example/a\n").unwrap();

        let pages: Vec<RawPage> = collect(dir.path(), 1000)
            .into_iter()
            .map(|e| match e {
                InputEvent::Page(p) => p,
                InputEvent::Skipped(s) => panic!("{s}"),
            })
            .collect();
        assert_eq!(pages.len(), 3);
        assert!(pages[0].url.starts_with("file://") && pages[0].url.ends_with("b.html"));
        assert_eq!(pages[1].bytes, b"<p>zipped");
        assert_eq!(pages[2].url, "https://x.example/a");
    }

    #[test]
    fn a_bad_manifest_line_is_one_bad_record_and_the_folder_is_still_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.html"), "<p>a").unwrap();
        std::fs::write(dir.path().join("b.html"), "<p>b").unwrap();
        std::fs::write(dir.path().join("c.html"), "<p>c").unwrap();
        let mut manifest = b"a.html\thttps://x.example/a\r\n".to_vec();
        manifest.extend_from_slice(b"b.html https://x.example/b\n");
        manifest.extend_from_slice(b"c.html\t\n");
        manifest.extend_from_slice(b"caf\xe9.html\thttps://x.example/e\n");
        manifest.extend_from_slice(b"\n# a comment\n");
        std::fs::write(dir.path().join(MANIFEST), manifest).unwrap();

        let events = collect(dir.path(), 1000);
        let mut bad = Vec::new();
        let mut urls = Vec::new();
        for event in events {
            match event {
                InputEvent::Skipped(s) => {
                    assert_eq!(s.reason, SkipReason::BadRecord, "{s}");
                    bad.push(s.origin.rsplit(':').next().unwrap().to_string());
                }
                InputEvent::Page(p) => urls.push(p.url),
            }
        }
        assert_eq!(bad, ["2", "3", "4"]);
        assert_eq!(urls.len(), 3);
        assert_eq!(urls[0], "https://x.example/a");
        assert!(urls[1].starts_with("file://") && urls[1].ends_with("b.html"), "{}", urls[1]);
        assert!(urls[2].starts_with("file://") && urls[2].ends_with("c.html"), "{}", urls[2]);
    }

    #[test]
    fn a_manifest_line_with_no_url_or_no_page_is_told() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.html"), "<p>a").unwrap();
        std::fs::write(dir.path().join("b.html"), "<p>b").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a page").unwrap();
        let manifest = "a.html\tnot a url\nb.html\thttps://x.example/b\ngone.html\thttps://x.example/g\nnotes.txt\thttps://x.example/n\n";
        std::fs::write(dir.path().join(MANIFEST), manifest).unwrap();

        let mut urls = Vec::new();
        for event in collect(dir.path(), 1000) {
            match event {
                InputEvent::Skipped(s) => {
                    assert!(s.reason == SkipReason::BadRecord && s.origin.ends_with("urls.tsv:1"), "{s}");
                    assert!(s.detail.contains("not an absolute URL"), "{s}");
                }
                InputEvent::Page(p) => urls.push(p.url),
            }
        }
        assert!(urls[0].starts_with("file://") && urls[0].ends_with("a.html"), "{}", urls[0]);
        assert_eq!(urls[1], "https://x.example/b");
        let warnings = manifest_warnings(dir.path());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("urls.tsv:3: no file gone.html"), "{}", warnings[0]);
        assert!(warnings[1].contains("urls.tsv:4: notes.txt is not read as a page"), "{}", warnings[1]);
    }

    #[test]
    fn manifest_paths_are_named_as_the_walk_names_pages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub/deep")).unwrap();
        for page in ["a.html", "b.html", "c.html", "sub/deep/d.html", "e.html"] {
            std::fs::write(dir.path().join(page), "<p>page").unwrap();
        }
        let absolute = dir.path().join("e.html");
        let manifest = format!(
            "./a.html\thttps://x.example/a\nsub/../b.html\thttps://x.example/b\n.//c.html\thttps://x.example/c\n\
             sub/./deep//d.html\thttps://x.example/d\n{}\thttps://x.example/e\n\
             ../a.html\thttps://x.example/out\nsub/../../b.html\thttps://x.example/out2\n",
            absolute.display()
        );
        std::fs::write(dir.path().join(MANIFEST), manifest).unwrap();

        let urls: Vec<String> = collect(dir.path(), 1000)
            .into_iter()
            .map(|e| match e {
                InputEvent::Page(p) => p.url,
                InputEvent::Skipped(s) => panic!("{s}"),
            })
            .collect();
        assert_eq!(
            urls,
            [
                "https://x.example/a",
                "https://x.example/b",
                "https://x.example/c",
                "https://x.example/e",
                "https://x.example/d"
            ]
        );
        let warnings = manifest_warnings(dir.path());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("urls.tsv:6: ../a.html is outside"), "{}", warnings[0]);
        assert!(warnings[1].contains("urls.tsv:7: sub/../../b.html is outside"), "{}", warnings[1]);
    }

    #[test]
    fn oversized_and_corrupt_gzip_pages_are_skipped_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big.html"), vec![b'x'; 100]).unwrap();
        std::fs::write(dir.path().join("broken.html.gz"), [0x1f, 0x8b, 8, 0, 1, 2, 3]).unwrap();
        let reasons: Vec<SkipReason> = collect(dir.path(), 50)
            .into_iter()
            .map(|e| match e {
                InputEvent::Skipped(s) => s.reason,
                InputEvent::Page(p) => panic!("unexpected page {}", p.url),
            })
            .collect();
        assert_eq!(reasons, [SkipReason::TooLarge, SkipReason::Unreadable]);
    }
}
