//! Optimization time against function size (generic target): `cargo bench -p agxc-egraph
//! --bench opt_scaling`. Prints, per size, the least thread CPU time and the median wall time of
//! `optimize` over several runs (CPU time of the optimizing thread is the measure least disturbed
//! by other work on the machine), the CPU time per instruction, the e-graph's size, why
//! saturation stopped and how the time of the fastest run split between the phases; then the
//! growth ratios of the CPU times between sizes (near-linear growth means ratios close to the
//! size ratios); then saturation alone with incremental and with full rule search, the
//! difference the incremental search makes.

use agxc_egraph::ir::Function;
use agxc_egraph::opt::analysis::EGraph;
use agxc_egraph::opt::runner::{saturate_with, Search};
use agxc_egraph::opt::{optimize, synth, to_egraph, GenericTarget, Limits, OptOptions, Target};
use std::time::Instant;

/// CPU time consumed by the calling thread, in seconds.
fn thread_cpu_time() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and the clock id is a constant the C library
    // defines; clock_gettime only writes through the pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

const RUNS: usize = 7;

/// The least thread CPU time of saturating `f` with `search`, over [`RUNS`] runs.
fn saturation_cpu(f: &Function, target: &dyn Target, search: Search) -> f64 {
    (0..RUNS)
        .map(|_| {
            let mut eg = EGraph::default();
            to_egraph::lower(f, &mut eg).expect("synthetic functions lower");
            eg.rebuild();
            let c0 = thread_cpu_time();
            let _ = saturate_with(eg, target.rules(), &Limits::default(), search);
            thread_cpu_time() - c0
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let target = GenericTarget::new();
    let sizes = [100usize, 300, 1_000, 5_000, 10_000];
    println!(
        "{:>7} {:>10} {:>12} {:>11} {:>8} {:>8}  stop; phases of the fastest run (wall ms)",
        "insts", "cpu min ms", "wall med ms", "cpu us/inst", "e-nodes", "classes"
    );
    let mut cpu_mins = Vec::new();
    let mut functions = Vec::new();
    for &n in &sizes {
        let f = synth::shader_like(n, 42);
        let mut runs = Vec::new();
        for _ in 0..RUNS {
            let (c0, w0) = (thread_cpu_time(), Instant::now());
            let out = optimize(&f, &target, &OptOptions::default()).expect("optimizes");
            runs.push((
                thread_cpu_time() - c0,
                w0.elapsed().as_secs_f64(),
                out.report,
            ));
        }
        let mut wall: Vec<f64> = runs.iter().map(|r| r.1).collect();
        wall.sort_by(f64::total_cmp);
        let Some((cpu_min, _, r)) = runs.into_iter().min_by(|a, b| a.0.total_cmp(&b.0)) else {
            continue;
        };
        println!(
            "{:>7} {:>10.2} {:>12.2} {:>11.2} {:>8} {:>8}  {} ({} iterations, {} full and {} \
             incremental searches); search {:.2}, apply {:.2}, rebuild {:.2}, extract {:.2}, \
             elaborate {:.2}",
            f.inst_count(),
            cpu_min * 1e3,
            wall[RUNS / 2] * 1e3,
            cpu_min * 1e6 / f.inst_count() as f64,
            r.nodes,
            r.classes,
            r.stop_reason,
            r.iterations,
            r.full_searches,
            r.incremental_searches,
            r.search_time * 1e3,
            r.apply_time * 1e3,
            r.rebuild_time * 1e3,
            r.extraction_time * 1e3,
            r.elaboration_time * 1e3,
        );
        cpu_mins.push((f.inst_count(), cpu_min));
        functions.push(f);
    }
    let (n0, t0) = cpu_mins[2];
    for &(n, t) in &cpu_mins[3..] {
        println!(
            "{n} vs {n0} instructions: size x{:.2}, CPU time x{:.2}",
            n as f64 / n0 as f64,
            t / t0
        );
    }
    println!("saturation alone, least CPU ms: incremental search vs full search");
    for f in &functions[2..] {
        let inc = saturation_cpu(f, &target, Search::Incremental);
        let full = saturation_cpu(f, &target, Search::Full);
        println!(
            "{:>7} {:>10.2} {:>10.2}  (x{:.2})",
            f.inst_count(),
            inc * 1e3,
            full * 1e3,
            full / inc
        );
    }
}
