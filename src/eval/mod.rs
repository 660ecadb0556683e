//! Evaluation: TREC topics and runs over a build, and trec_eval-compatible scoring.

pub mod run;
pub mod score;
