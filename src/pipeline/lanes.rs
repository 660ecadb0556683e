//! Reading many inputs at once, in an order that does not depend on timing.
//!
//! Up to `input.parallel_files` inputs are open at a time, each read by a thread of its own
//! into a small bounded channel of batches. The build takes one batch from each open input in
//! turn, in input order; when an input is exhausted its turn goes to the next input not yet
//! opened, at the end of the round. Batches are cut every `input.batch_size` records and at
//! the end of each input, so the sequence of pages the build sees depends only on the inputs,
//! `batch_size` and `parallel_files` — never on which thread is faster, nor on
//! `input.reader_threads`, which only caps how many of the open inputs are being read
//! (gunzipped, split into records) at the same moment. Memory stays bounded: at most
//! `parallel_files × LANE_BATCHES` batches wait in the channels.

use std::collections::VecDeque;

use crossbeam_channel::{Receiver, Sender};

use crate::config::InputConfig;
use crate::input::{ByteCounter, Inflation, InputError, InputEvent, ReadOptions, SkipReason, Skipped, SlotUse, Source};

/// Batches an input's reader may have ready before it waits for the build to take one.
const LANE_BATCHES: usize = 2;

/// Reads `sources` and hands their records to `sink` in batches, in the deterministic order
/// described in the module documentation, each with the index of its source in `sources`.
/// Stops at the first error of `sink`, and returns it.
/// A source that cannot be read becomes a [`SkipReason::Unreadable`] record in its place.
pub fn read_batches<E>(
    sources: &[Source],
    input: &InputConfig,
    counter: &ByteCounter,
    sink: &mut dyn FnMut(usize, Vec<InputEvent>) -> Result<(), E>,
) -> Result<(), E> {
    read_batches_inflated(sources, None, input, counter, sink)
}

/// [`read_batches`] with the inputs' inflated copies (`input::Inflation`): a gzipped crawl
/// file whose copy is ready is read from it; with `make`, a read makes the copies a later read
/// will use.
pub(super) fn read_batches_inflated<E>(
    sources: &[Source],
    inflation: Option<(&Inflation, bool)>,
    input: &InputConfig,
    counter: &ByteCounter,
    sink: &mut dyn FnMut(usize, Vec<InputEvent>) -> Result<(), E>,
) -> Result<(), E> {
    let reading_permits = input.reader_threads.max(1);
    std::thread::scope(|scope| {
        // A reader holds a permit while it reads, and gives it back while it waits for the
        // build: at most `reader_threads` inputs are read at once.
        let (permit_return, permits) = crossbeam_channel::bounded::<()>(reading_permits);
        for _ in 0..reading_permits {
            let _ = permit_return.send(());
        }
        let open = |(index, source): (usize, &Source)| -> (usize, Receiver<Vec<InputEvent>>) {
            let (sender, receiver) = crossbeam_channel::bounded(LANE_BATCHES);
            let (source, counter) = (source.clone(), counter.clone());
            let (permits, permit_return) = (permits.clone(), permit_return.clone());
            let (batch_size, options) = (input.batch_size.max(1), input.read_options());
            let slot = inflation.map(|(inflation, make)| SlotUse::new(inflation, index, make));
            scope.spawn(move || {
                read_one(&source, slot, batch_size, &options, &counter, &sender, &permits, &permit_return)
            });
            (index, receiver)
        };
        let mut waiting = sources.iter().enumerate();
        let mut open_inputs: VecDeque<(usize, Receiver<Vec<InputEvent>>)> =
            waiting.by_ref().take(input.parallel_files.max(1)).map(open).collect();
        while let Some(lane) = open_inputs.pop_front() {
            match lane.1.recv() {
                Ok(batch) => {
                    // On an error the open inputs are dropped with this frame: their readers'
                    // next send fails and they stop, and the scope joins them.
                    sink(lane.0, batch)?;
                    open_inputs.push_back(lane);
                }
                Err(_) => {
                    if let Some(source) = waiting.next() {
                        open_inputs.push_back(open(source));
                    }
                }
            }
        }
        Ok(())
    })
}

/// One input's reader thread: batches of `batch_size` events, the last one possibly shorter.
#[allow(clippy::too_many_arguments)]
fn read_one(
    source: &Source,
    slot: Option<SlotUse<'_>>,
    batch_size: usize,
    options: &ReadOptions,
    counter: &ByteCounter,
    sender: &Sender<Vec<InputEvent>>,
    permits: &Receiver<()>,
    permit_return: &Sender<()>,
) {
    // The permit channels live as long as the scope, so these never fail while it runs.
    let acquire = || {
        let _ = permits.recv();
    };
    let release = || {
        let _ = permit_return.send(());
    };
    let mut batch = Vec::with_capacity(batch_size);
    acquire();
    let mut sink = |event| {
        batch.push(event);
        if batch.len() < batch_size {
            return true;
        }
        release();
        let taken = sender.send(std::mem::replace(&mut batch, Vec::with_capacity(batch_size))).is_ok();
        acquire();
        taken
    };
    let result = match slot {
        Some(slot) => source.visit_inflated(options, counter, &mut sink, slot),
        None => source.visit_with(options, counter, &mut sink),
    };
    release();
    if let Err(e) = result {
        batch.push(InputEvent::Skipped(unreadable_source(e)));
    }
    if !batch.is_empty() {
        let _ = sender.send(batch);
    }
}

/// The record that stands for a source that could not be read.
pub(super) fn unreadable_source(error: InputError) -> Skipped {
    let origin = match &error {
        InputError::NotFound { path } | InputError::Io { path, .. } | InputError::Format { path, .. } => path.clone(),
    };
    Skipped { origin, reason: SkipReason::Unreadable, detail: error.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Folders of `pages` pages each, named so their records can be told apart.
    fn folders(dir: &std::path::Path, pages: &[usize]) -> Vec<Source> {
        pages
            .iter()
            .enumerate()
            .map(|(f, &n)| {
                let folder = dir.join(format!("input{f}"));
                std::fs::create_dir_all(&folder).unwrap();
                for p in 0..n {
                    std::fs::write(folder.join(format!("p{p:03}.html")), format!("<p>input {f} page {p}</p>")).unwrap();
                }
                Source::Folder(folder)
            })
            .collect()
    }

    fn order(sources: &[Source], parallel_files: usize, reader_threads: usize) -> Vec<Vec<String>> {
        let config = InputConfig { batch_size: 3, parallel_files, reader_threads, ..InputConfig::default() };
        let mut batches = Vec::new();
        read_batches::<()>(sources, &config, &ByteCounter::default(), &mut |_, batch| {
            batches.push(
                batch
                    .iter()
                    .map(|e| match e {
                        InputEvent::Page(p) => p.origin.rsplit(['/', '\\']).take(2).collect::<Vec<_>>().join("<"),
                        InputEvent::Skipped(s) => s.reason.to_string(),
                    })
                    .collect(),
            );
            Ok(())
        })
        .unwrap();
        batches
    }

    #[test]
    fn inputs_take_turns_by_batch_and_the_next_input_takes_a_finished_ones_turn() {
        let dir = tempfile::tempdir().unwrap();
        let sources = folders(dir.path(), &[4, 2, 5]);
        let batches = order(&sources, 2, 2);
        let firsts: Vec<&str> = batches.iter().map(|b| b[0].as_str()).collect();
        // input0: [0..3] [3]; input1: [0..2]; input2 opens when input1 ends: [0..3] [3..5].
        assert_eq!(
            firsts,
            ["p000.html<input0", "p000.html<input1", "p003.html<input0", "p000.html<input2", "p003.html<input2"]
        );
        assert_eq!(batches.iter().map(Vec::len).sum::<usize>(), 11);
    }

    #[test]
    fn the_order_does_not_depend_on_reader_threads() {
        let dir = tempfile::tempdir().unwrap();
        let sources = folders(dir.path(), &[7, 1, 9, 4]);
        let one = order(&sources, 3, 1);
        for _ in 0..5 {
            assert_eq!(order(&sources, 3, 3), one);
        }
        // One open file at a time is plain input order.
        let flat: Vec<String> = order(&sources, 1, 2).concat();
        let mut sorted = flat.clone();
        sorted.sort_by_key(|name| name.rsplit('<').next().map(str::to_string));
        assert_eq!(flat, sorted);
    }

    #[test]
    fn an_unreadable_input_is_a_record_and_an_error_of_the_sink_stops_reading() {
        let dir = tempfile::tempdir().unwrap();
        let mut sources = folders(dir.path(), &[2]);
        sources.push(Source::Warc(dir.path().join("missing.warc")));
        let batches = order(&sources, 2, 1);
        assert!(batches.concat().contains(&"unreadable".to_string()));

        let many = folders(dir.path(), &[50, 50]);
        let mut seen = 0;
        let result = read_batches(
            &many,
            &InputConfig { batch_size: 2, ..InputConfig::default() },
            &ByteCounter::default(),
            &mut |_, _| {
                seen += 1;
                if seen == 3 { Err("stop") } else { Ok(()) }
            },
        );
        assert_eq!(result, Err("stop"));
        assert_eq!(seen, 3);
    }
}
