//! Input list files (`indexer build --input-list FILE`): one input a line.

use std::path::{Path, PathBuf};

use super::InputError;

/// The inputs a list file names: one path a line; blank lines and lines starting with `#` are
/// ignored, as is white space around a path. A relative path is relative to the list file's
/// folder, so a list can sit beside the files it names.
pub fn read_input_list(path: &Path) -> Result<Vec<PathBuf>, InputError> {
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| InputError::Io { path: display.clone(), source })?;
    let base = path.parent().unwrap_or(Path::new(""));
    let inputs: Vec<PathBuf> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| base.join(line))
        .collect();
    if inputs.is_empty() {
        return Err(InputError::Format {
            path: display,
            message: "the input list names no input; write one path a line".into(),
        });
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_are_skipped_and_paths_are_relative_to_the_list() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("inputs.txt");
        std::fs::write(&list, "# crawl of May\na.warc.gz\n\n  /data/b.warc.gz  \n#c.warc.gz\n").unwrap();
        let inputs = read_input_list(&list).unwrap();
        assert_eq!(inputs, vec![dir.path().join("a.warc.gz"), PathBuf::from("/data/b.warc.gz")]);
        std::fs::write(&list, "# nothing\n").unwrap();
        assert!(read_input_list(&list).unwrap_err().to_string().contains("names no input"));
        assert!(matches!(read_input_list(&dir.path().join("missing.txt")), Err(InputError::Io { .. })));
    }
}
