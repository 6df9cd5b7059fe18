//! Optimization time against function size (generic target): `cargo bench -p agxc-egraph
//! --bench opt_scaling`. Prints, per size, the fastest and median wall time of `optimize` over
//! several runs (the fastest is the least disturbed by other work on the machine), the time per
//! instruction, the e-graph's size and why saturation stopped, then the growth ratios of the
//! fastest times between sizes (near-linear growth means ratios close to the size ratios).

use agxc_egraph::opt::{optimize, synth, GenericTarget, OptOptions};
use std::time::Instant;

fn main() {
    let target = GenericTarget::new();
    let sizes = [100usize, 300, 1_000, 5_000, 10_000];
    let runs = 7;
    let mut medians = Vec::new();
    println!(
        "{:>7} {:>8} {:>10} {:>8} {:>8} {:>8}  stop",
        "insts", "min ms", "median ms", "us/inst", "e-nodes", "classes"
    );
    for &n in &sizes {
        let f = synth::shader_like(n, 42);
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let start = Instant::now();
            let out = optimize(&f, &target, &OptOptions::default()).expect("optimizes");
            times.push(start.elapsed().as_secs_f64());
            last = Some(out.report);
        }
        times.sort_by(f64::total_cmp);
        let (min, median) = (times[0], times[runs / 2]);
        let r = last.expect("ran");
        println!(
            "{:>7} {:>8.2} {:>10.2} {:>8.2} {:>8} {:>8}  {} ({} iterations; saturation {:.1} ms, extraction {:.1} ms, elaboration {:.1} ms)",
            f.inst_count(),
            min * 1e3,
            median * 1e3,
            min * 1e6 / f.inst_count() as f64,
            r.nodes,
            r.classes,
            r.stop_reason,
            r.iterations,
            r.saturation_time * 1e3,
            r.extraction_time * 1e3,
            r.elaboration_time * 1e3,
        );
        medians.push((f.inst_count(), min));
    }
    let (n0, t0) = medians[2];
    for &(n, t) in &medians[3..] {
        println!(
            "{n} vs {n0} instructions: size x{:.2}, time x{:.2}",
            n as f64 / n0 as f64,
            t / t0
        );
    }
}
