//! Optimization time against function size (generic target): `cargo bench -p agxc-egraph
//! --bench opt_scaling`. Prints, per size, the least thread CPU time and the median wall time of
//! `optimize` over several runs (CPU time of the optimizing thread is the measure least disturbed
//! by other work on the machine), the CPU time per instruction, the e-graph's size and why
//! saturation stopped, then the growth ratios of the CPU times between sizes (near-linear growth
//! means ratios close to the size ratios).

use agxc_egraph::opt::{optimize, synth, GenericTarget, OptOptions};
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

fn main() {
    let target = GenericTarget::new();
    let sizes = [100usize, 300, 1_000, 5_000, 10_000];
    let runs = 7;
    let mut cpu_mins = Vec::new();
    println!(
        "{:>7} {:>10} {:>12} {:>11} {:>8} {:>8}  stop",
        "insts", "cpu min ms", "wall med ms", "cpu us/inst", "e-nodes", "classes"
    );
    for &n in &sizes {
        let f = synth::shader_like(n, 42);
        let mut cpu = Vec::new();
        let mut wall = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let (c0, w0) = (thread_cpu_time(), Instant::now());
            let out = optimize(&f, &target, &OptOptions::default()).expect("optimizes");
            cpu.push(thread_cpu_time() - c0);
            wall.push(w0.elapsed().as_secs_f64());
            last = Some(out.report);
        }
        cpu.sort_by(f64::total_cmp);
        wall.sort_by(f64::total_cmp);
        let (cpu_min, wall_median) = (cpu[0], wall[runs / 2]);
        let r = last.expect("ran");
        println!(
            "{:>7} {:>10.2} {:>12.2} {:>11.2} {:>8} {:>8}  {} ({} iterations)",
            f.inst_count(),
            cpu_min * 1e3,
            wall_median * 1e3,
            cpu_min * 1e6 / f.inst_count() as f64,
            r.nodes,
            r.classes,
            r.stop_reason,
            r.iterations,
        );
        cpu_mins.push((f.inst_count(), cpu_min));
    }
    let (n0, t0) = cpu_mins[2];
    for &(n, t) in &cpu_mins[3..] {
        println!(
            "{n} vs {n0} instructions: size x{:.2}, CPU time x{:.2}",
            n as f64 / n0 as f64,
            t / t0
        );
    }
}
