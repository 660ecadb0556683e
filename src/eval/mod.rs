//! Evaluation (§7.3): TREC topics and runs over a build, trec_eval-compatible scoring, index
//! statistics (Table 3), disk access (Figure 6), and the report that puts them together.

pub mod clean;
pub mod disk;
pub mod replicas;
pub mod report;
pub mod run;
pub mod score;
pub mod stats;
