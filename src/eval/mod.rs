//! Evaluation (§7.3): TREC topics and runs over a build, trec_eval-compatible scoring, index
//! statistics (Table 3), disk access (Figure 6), and the report that puts them together.

pub mod clean;
pub mod clean_report;
pub mod clean_table;
pub mod disk;
pub mod languages;
pub mod page_types;
pub mod replicas;
pub mod report;
pub mod run;
pub mod score;
pub mod stats;
pub mod train_blocks;
pub mod train_mountain;
pub mod tune;
pub mod tune_cleaner;

/// Makes the relative `paths` of an evaluation config relative to the config file itself,
/// so a config works from any working directory.
fn resolve_relative_to<'a>(config_file: &std::path::Path, paths: impl IntoIterator<Item = &'a mut std::path::PathBuf>) {
    let base = config_file.parent().unwrap_or(std::path::Path::new("."));
    for path in paths {
        if path.is_relative() {
            *path = base.join(&*path);
        }
    }
}
