//! Spreading a dispatch over host threads, with results, statistics and errors identical to a
//! one-thread run.
//!
//! A dispatch is a sequence of work items run in order: the workgroups of a compute dispatch
//! (linearised x fastest) or the SIMD-groups of a fragment grid. One thread runs them in order,
//! and after each item adds its SIMD-group instructions to the dispatch's total: past
//! [`Config::max_instructions`] the dispatch fails with [`RuntimeError::InstructionBudget`]
//! naming the item; the first item that fails ends the dispatch with its error.
//!
//! Several threads claim fixed-size chunks of consecutive items from a shared counter, in
//! order, and run each chunk's items in order, keeping per chunk its statistics, its items'
//! instruction counts and its error. Afterwards the chunks are walked in order, exactly as the
//! one-thread run walks its items: the same budget check after each item, the same first error,
//! the statistics merged in item order ([`Stats::merge`] sums counters and concatenates the
//! per-SIMD-group cycles). Workers stop claiming once a chunk has failed below the next one or
//! the running total has passed the budget; every chunk claimed is run to its end, so the
//! chunks the walk needs are always complete (the claimed ones are a prefix of the dispatch).
//!
//! Results are byte-identical to a one-thread run whenever no two items race on the same bytes
//! of device memory (the workers share one [`DeviceMemory`]; see `crate::memory`). Two kinds of
//! program are always run on one thread, because their items talk to each other on purpose:
//! programs with `uniform_store` (the uniforms are shared by the whole dispatch) and, unless
//! [`Config::parallel_atomics`] is set, programs with device `atomic`s, whose results depend on
//! the order in which items run (`crate::exec` defines that order as the dispatch order).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use crate::error::{Error, RuntimeError};
use crate::exec::{FragmentState, Machine, Scratch};
use crate::memory::DeviceMemory;
use crate::program::Program;
use crate::stats::Stats;
use crate::texture::{SamplerDescriptor, TextureDescriptor};

use super::Config;

/// Everything the workers of a dispatch share.
pub(crate) struct Shared<'a> {
    pub program: &'a Program,
    pub config: &'a Config,
    pub memory: &'a DeviceMemory,
    pub textures: &'a std::collections::BTreeMap<u32, TextureDescriptor>,
    pub samplers: &'a std::collections::BTreeMap<u32, SamplerDescriptor>,
    pub fragment: Option<&'a FragmentState>,
}

/// One worker's own state: its copy of the uniforms, threadgroup memory, statistics of the
/// chunk it is running and the executor's scratch space.
pub(crate) struct Worker<'a> {
    pub shared: &'a Shared<'a>,
    pub uniforms: [u32; 256],
    pub tg: Vec<u8>,
    pub stats: Stats,
    pub scratch: Scratch,
    /// SIMD-groups kept between work items (see `SimdGroup::reset`).
    pub pool: Vec<crate::exec::SimdGroup>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, uniforms: [u32; 256]) -> Self {
        Worker {
            shared,
            uniforms,
            tg: vec![0; shared.program.metadata().threadgroup_memory as usize],
            stats: Stats::default(),
            scratch: Scratch::new(shared.program),
            pool: Vec::new(),
        }
    }

    /// The executor over this worker's state, with its threadgroup memory.
    pub fn machine(&mut self) -> (Machine<'_>, &mut Vec<u8>, &mut Scratch) {
        let s = self.shared;
        (
            Machine {
                program: s.program,
                config: s.config,
                uniforms: &mut self.uniforms,
                memory: s.memory,
                textures: s.textures,
                samplers: s.samplers,
                stats: &mut self.stats,
                fragment: s.fragment,
            },
            &mut self.tg,
            &mut self.scratch,
        )
    }

    /// Folds what the executor counted per instruction into the statistics (whose
    /// `instructions` and `thread_instructions` are always up to date).
    fn flush(&mut self) {
        self.scratch.flush(self.shared.program, &mut self.stats);
    }
}

/// Runs one work item on a worker.
pub(crate) type RunItem<'f> = dyn Fn(&mut Worker<'_>, u64) -> Result<(), Error> + Sync + 'f;

/// What a chunk of items left behind.
struct Chunk {
    index: u64,
    stats: Stats,
    /// SIMD-group instructions of each item that finished.
    counts: Vec<u64>,
    /// The error of the item after the last one counted.
    error: Option<Error>,
}

/// How many threads run a dispatch of `items` work items of `program`.
pub(crate) fn workers(config: &Config, program: &Program, items: u64) -> usize {
    let serial =
        program.has_uniform_store() || (program.has_device_atomics() && !config.parallel_atomics);
    if serial || items < 2 {
        return 1;
    }
    match config.threads {
        // Automatic: all cores, but only when the dispatch is large enough to repay starting
        // threads (tens of microseconds each).
        0 if items < 64 => 1,
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(usize::try_from(items).unwrap_or(usize::MAX))
}

/// Runs items `0..items` with `run_item` on `threads` threads; `uniforms` are the dispatch's
/// (updated by a one-thread run, which is the only kind that may change them). `what` names
/// an item in the budget error. Returns the merged statistics.
pub(crate) fn run(
    shared: &Shared<'_>,
    uniforms: &mut [u32; 256],
    items: u64,
    threads: usize,
    what: &'static str,
    run_item: &RunItem<'_>,
) -> Result<Stats, Error> {
    let budget = shared.config.max_instructions;
    let over_budget = |item: u64| RuntimeError::InstructionBudget {
        limit: budget,
        item,
        what,
    };
    if threads <= 1 {
        let mut worker = Worker::new(shared, *uniforms);
        let mut total = 0u64;
        let mut result = Ok(());
        for item in 0..items {
            let before = worker.stats.instructions;
            if let Err(e) = run_item(&mut worker, item) {
                result = Err(e);
                break;
            }
            total = total.saturating_add(worker.stats.instructions - before);
            if total > budget {
                result = Err(over_budget(item).into());
                break;
            }
        }
        *uniforms = worker.uniforms;
        worker.flush();
        return result.map(|()| worker.stats);
    }

    let chunk_size = (items / (threads as u64 * 32)).clamp(1, 64);
    let chunk_count = items.div_ceil(chunk_size);
    let next = AtomicU64::new(0);
    let failed_chunk = AtomicU64::new(u64::MAX);
    let total = AtomicU64::new(0);
    let chunks = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut worker = Worker::new(shared, *uniforms);
                let mut done = Vec::new();
                loop {
                    if total.load(Relaxed) > budget {
                        break;
                    }
                    let c = next.fetch_add(1, Relaxed);
                    if c >= chunk_count || c > failed_chunk.load(Relaxed) {
                        break;
                    }
                    let first = c * chunk_size;
                    let mut chunk = Chunk {
                        index: c,
                        stats: Stats::default(),
                        counts: Vec::new(),
                        error: None,
                    };
                    for item in first..(first + chunk_size).min(items) {
                        let before = worker.stats.instructions;
                        if let Err(e) = run_item(&mut worker, item) {
                            chunk.error = Some(e);
                            failed_chunk.fetch_min(c, Relaxed);
                            break;
                        }
                        let count = worker.stats.instructions - before;
                        chunk.counts.push(count);
                        total.fetch_add(count, Relaxed);
                    }
                    worker.flush();
                    chunk.stats = std::mem::take(&mut worker.stats);
                    done.push(chunk);
                }
                // A poisoned lock means another worker panicked, which the scope re-raises.
                if let Ok(mut all) = chunks.lock() {
                    all.extend(done);
                }
            });
        }
    });
    let mut chunks = chunks.into_inner().unwrap_or_default();
    chunks.sort_by_key(|c| c.index);
    let mut stats = Stats::default();
    let mut total = 0u64;
    for (expected, chunk) in chunks.into_iter().enumerate() {
        debug_assert_eq!(chunk.index, expected as u64, "claimed chunks form a prefix");
        for (i, &count) in chunk.counts.iter().enumerate() {
            total = total.saturating_add(count);
            if total > budget {
                return Err(over_budget(chunk.index * chunk_size + i as u64).into());
            }
        }
        if let Some(e) = chunk.error {
            return Err(e);
        }
        stats.merge(&chunk.stats);
    }
    Ok(stats)
}
