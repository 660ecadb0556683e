//! Atomic publication of builds.
//!
//! A build folder (`--dir DIR`) holds `builds/<id>/` folders and a symbolic link
//! `current -> builds/<id>`. A build writes into `builds/.tmp-<id>/`, renames it to
//! `builds/<id>/` when complete, then replaces `current` by renaming a fresh link over it —
//! an atomic step on POSIX file systems. Readers resolve `current` once, so a build that
//! fails or is killed at any point leaves the previous build in place and searchable.
//! Older builds are removed after the switch.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::IndexError;

/// The link to the published build inside a build folder.
pub const CURRENT_LINK: &str = "current";
/// The summary every finished build holds: a folder holding it is a build itself (the
/// `DIR/current` or `DIR/builds/<id>` a build prints), not a build folder.
pub const SUMMARY_FILE: &str = "summary.json";
const BUILDS: &str = "builds";
const TMP_PREFIX: &str = ".tmp-";

/// A build being written.
#[derive(Debug)]
pub struct BuildOutput {
    /// The build folder (`--dir`).
    pub dir: PathBuf,
    /// Where this build writes until it is published.
    pub staging: PathBuf,
    id: String,
    /// Which of the build folder and its `builds` folder this build created (removed again
    /// by [`abandon_build`] when they stay empty).
    created: [bool; 2],
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> IndexError + '_ {
    move |source| IndexError::Io { path: path.display().to_string(), source }
}

impl BuildOutput {
    /// The folder this build becomes when it is published (`DIR/builds/<id>`).
    pub fn published_path(&self) -> PathBuf {
        self.dir.join(BUILDS).join(&self.id)
    }
}

/// Gives up a build that failed: its staging folder goes, and so do the `builds` folder and
/// the build folder if this build created them and they are empty again (a first build
/// of an empty input leaves nothing behind). A published build is never touched.
pub fn abandon_build(build: BuildOutput) {
    let _ = std::fs::remove_dir_all(&build.staging);
    // `remove_dir` removes only empty folders.
    if build.created[1] {
        let _ = std::fs::remove_dir(build.dir.join(BUILDS));
    }
    if build.created[0] {
        let _ = std::fs::remove_dir(&build.dir);
    }
}

/// Whether `dir` is a build itself rather than a build folder: it holds a build's summary.
fn is_build(dir: &Path) -> bool {
    dir.join(SUMMARY_FILE).is_file()
}

/// Refuses `dir` as the folder of a new build when it is a build itself, or the `builds`
/// folder of a build folder: a build written there would sit inside the published build (or
/// beside it, under a second `current`) and no reader would find it.
pub fn check_build_folder(dir: &Path) -> Result<(), IndexError> {
    let hint = |holder: Option<PathBuf>| match holder {
        Some(folder) if folder.as_os_str().is_empty() => "use --dir .".to_string(),
        Some(folder) => format!("use --dir {}", folder.display()),
        None => "give --dir the build folder it was published in, or a new folder".to_string(),
    };
    let shown = dir.display().to_string();
    if is_build(dir) {
        return Err(IndexError::InsideBuild { dir: shown, hint: hint(holding_folder(dir)) });
    }
    if dir.file_name().is_some_and(|name| name == BUILDS) && dir.join("..").join(CURRENT_LINK).exists() {
        let holder = dir.parent().map_or_else(|| PathBuf::from(".."), Path::to_path_buf);
        return Err(IndexError::BuildsOfFolder { dir: shown, hint: hint(Some(holder)) });
    }
    Ok(())
}

/// The build folder that holds the build `dir`: the parent of `DIR/current`, or `DIR` of
/// `DIR/builds/<id>` (as typed, else as the link resolves).
fn holding_folder(dir: &Path) -> Option<PathBuf> {
    let of = |dir: &Path| -> Option<PathBuf> {
        if dir.file_name()? == CURRENT_LINK {
            return dir.parent().map(Path::to_path_buf);
        }
        let builds = dir.parent()?;
        (builds.file_name()? == BUILDS).then(|| builds.parent().map(Path::to_path_buf)).flatten()
    };
    of(dir).or_else(|| of(&std::fs::canonicalize(dir).ok()?))
}

/// Starts a build in `dir`: creates the staging folder, and removes staging folders that
/// earlier interrupted builds left behind.
pub fn start_build(dir: &Path) -> Result<BuildOutput, IndexError> {
    check_build_folder(dir)?;
    let builds = dir.join(BUILDS);
    let created = [!dir.exists(), !builds.exists()];
    std::fs::create_dir_all(&builds).map_err(io_error(&builds))?;
    if let Ok(entries) = std::fs::read_dir(&builds) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(TMP_PREFIX) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let id = format!("{}-{:09}-{}", now.as_secs(), now.subsec_nanos(), std::process::id());
    let staging = builds.join(format!("{TMP_PREFIX}{id}"));
    std::fs::create_dir_all(&staging).map_err(io_error(&staging))?;
    Ok(BuildOutput { dir: dir.to_path_buf(), staging, id, created })
}

/// Starts a build that adds pages to the published build of `dir`: a new staging folder
/// holding a copy of it. The index segments, which Tantivy never changes once written, are
/// hard links (a copy where the file system has none); every other file is copied, so
/// appending to the copy leaves the published build as it was. Returns the staging build and
/// `published` is the folder `current` pointed to when the caller read it (its stop words,
/// its summary): the copy is of that build.
pub fn start_append(dir: &Path, published: &Path) -> Result<BuildOutput, IndexError> {
    let output = start_build(dir)?;
    if let Err(e) = copy_build(published, &output.staging) {
        let _ = std::fs::remove_dir_all(&output.staging);
        return Err(e);
    }
    Ok(output)
}

fn copy_build(from: &Path, to: &Path) -> Result<(), IndexError> {
    let entries = std::fs::read_dir(from).map_err(io_error(from))?;
    for entry in entries {
        let entry = entry.map_err(io_error(from))?;
        let source = entry.path();
        let target = to.join(entry.file_name());
        let name = entry.file_name().to_string_lossy().to_string();
        if source.is_dir() {
            std::fs::create_dir_all(&target).map_err(io_error(&target))?;
            copy_index(&source, &target)?;
        } else if !name.starts_with(TMP_PREFIX) {
            std::fs::copy(&source, &target).map_err(io_error(&target))?;
        }
    }
    Ok(())
}

/// Tantivy's lock files are left out: the writer creates its own, and a hard link would share
/// the published build's lock.
fn copy_index(from: &Path, to: &Path) -> Result<(), IndexError> {
    let entries = std::fs::read_dir(from).map_err(io_error(from))?;
    for entry in entries {
        let entry = entry.map_err(io_error(from))?;
        let name = entry.file_name().to_string_lossy().to_string();
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if name.ends_with(".lock") || !source.is_file() {
            continue;
        }
        let linked = !name.ends_with(".json") && std::fs::hard_link(&source, &target).is_ok();
        if !linked {
            std::fs::copy(&source, &target).map_err(io_error(&target))?;
        }
    }
    Ok(())
}

/// Publishes a finished build: it becomes `current`, and the builds before it are removed.
/// Returns the published folder.
pub fn publish_build(build: BuildOutput) -> Result<PathBuf, IndexError> {
    let builds = build.dir.join(BUILDS);
    let final_path = build.published_path();
    std::fs::rename(&build.staging, &final_path).map_err(io_error(&final_path))?;
    switch_current(&build.dir, &build.id)?;
    if let Ok(entries) = std::fs::read_dir(&builds) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name != build.id && !name.starts_with(TMP_PREFIX) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(final_path)
}

#[cfg(unix)]
fn switch_current(dir: &Path, id: &str) -> Result<(), IndexError> {
    let link = dir.join(CURRENT_LINK);
    let fresh = dir.join(format!("{TMP_PREFIX}{CURRENT_LINK}-{id}"));
    let _ = std::fs::remove_file(&fresh);
    std::os::unix::fs::symlink(Path::new(BUILDS).join(id), &fresh).map_err(io_error(&fresh))?;
    std::fs::rename(&fresh, &link).map_err(io_error(&link))
}

#[cfg(not(unix))]
fn switch_current(dir: &Path, id: &str) -> Result<(), IndexError> {
    // Without symbolic links the pointer is a one-line file, replaced by rename.
    let link = dir.join(CURRENT_LINK);
    let fresh = dir.join(format!("{TMP_PREFIX}{CURRENT_LINK}-{id}"));
    std::fs::write(&fresh, format!("{BUILDS}/{id}")).map_err(io_error(&fresh))?;
    std::fs::rename(&fresh, &link).map_err(io_error(&link))
}

/// The published build of a build folder. A build itself (the `DIR/current` or
/// `DIR/builds/<id>` a build prints as its output) is read as it is: a user who passes the
/// folder the summary names means that build. `DIR/builds`, the folder the printed build
/// sits in, is read as `DIR`: its published build (the others there are unfinished or about
/// to be removed).
pub fn current_build(dir: &Path) -> Result<PathBuf, IndexError> {
    if let Some(build) = published_build(dir) {
        return Ok(build);
    }
    if is_build(dir) {
        return Ok(dir.to_path_buf());
    }
    let holder = dir.parent().filter(|holder| {
        dir.file_name().is_some_and(|name| name == BUILDS) && holder.join(CURRENT_LINK).symlink_metadata().is_ok()
    });
    match holder {
        Some(holder) => published_build(holder).ok_or_else(|| IndexError::NoBuild { dir: shown(holder) }),
        None => Err(IndexError::NoBuild { dir: dir.display().to_string() }),
    }
}

/// The build `dir`'s `current` link names, if it names one.
fn published_build(dir: &Path) -> Option<PathBuf> {
    let link = dir.join(CURRENT_LINK);
    let target = if cfg!(unix) {
        std::fs::read_link(&link).ok()
    } else {
        std::fs::read_to_string(&link).ok().map(|s| PathBuf::from(s.trim()))
    };
    target.map(|target| dir.join(target)).filter(|build| build.is_dir())
}

/// A folder as a message names it: `.` for the empty parent of a relative name.
fn shown(dir: &Path) -> String {
    if dir.as_os_str().is_empty() { ".".to_string() } else { dir.display().to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishing_switches_current_and_removes_older_builds() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(current_build(dir.path()), Err(IndexError::NoBuild { .. })));
        let first = start_build(dir.path()).unwrap();
        std::fs::write(first.staging.join("marker"), "1").unwrap();
        let first_path = publish_build(first).unwrap();
        assert_eq!(current_build(dir.path()).unwrap(), first_path);

        // An interrupted build leaves current alone…
        let interrupted = start_build(dir.path()).unwrap();
        std::fs::write(interrupted.staging.join("marker"), "2").unwrap();
        drop(interrupted);
        assert_eq!(std::fs::read_to_string(current_build(dir.path()).unwrap().join("marker")).unwrap(), "1");

        // …and the next build cleans its staging folder up and replaces the first.
        let second = start_build(dir.path()).unwrap();
        std::fs::write(second.staging.join("marker"), "3").unwrap();
        let second_path = publish_build(second).unwrap();
        assert_eq!(std::fs::read_to_string(current_build(dir.path()).unwrap().join("marker")).unwrap(), "3");
        assert!(!first_path.exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join(BUILDS)).unwrap().flatten().collect();
        assert_eq!(leftovers.len(), 1);
        assert_eq!(leftovers[0].path(), second_path);
    }

    #[test]
    fn an_append_starts_from_a_copy_that_leaves_the_published_build_alone() {
        let dir = tempfile::tempdir().unwrap();
        let first = start_build(dir.path()).unwrap();
        std::fs::write(first.staging.join("docview.jsonl"), "old\n").unwrap();
        let index = first.staging.join("abstract");
        std::fs::create_dir_all(&index).unwrap();
        for name in ["segment.idx", "meta.json", ".tantivy-writer.lock"] {
            std::fs::write(index.join(name), name).unwrap();
        }
        let published = publish_build(first).unwrap();

        let append = start_append(dir.path(), &published).unwrap();
        let copy = append.staging.clone();
        let mut docview = std::fs::OpenOptions::new().append(true).open(copy.join("docview.jsonl")).unwrap();
        std::io::Write::write_all(&mut docview, b"new\n").unwrap();
        std::fs::write(copy.join("abstract/meta.json"), "changed").unwrap();
        assert_eq!(std::fs::read_to_string(published.join("docview.jsonl")).unwrap(), "old\n");
        assert_eq!(std::fs::read_to_string(published.join("abstract/meta.json")).unwrap(), "meta.json");
        assert!(!copy.join("abstract/.tantivy-writer.lock").exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let inode = |p: &Path| std::fs::metadata(p).unwrap().ino();
            assert_eq!(inode(&copy.join("abstract/segment.idx")), inode(&published.join("abstract/segment.idx")));
        }
        assert_eq!(current_build(dir.path()).unwrap(), published);
        let appended = publish_build(append).unwrap();
        assert_eq!(std::fs::read_to_string(appended.join("docview.jsonl")).unwrap(), "old\nnew\n");
        assert_eq!(std::fs::read_to_string(appended.join("abstract/segment.idx")).unwrap(), "segment.idx");
    }
}
