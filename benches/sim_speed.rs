//! Simulator speed against lavapipe on large dispatches.
//!
//! `cargo bench --bench sim_speed` takes every fragment case of the SPIR-V corpus
//! (`tests/corpus/spirv/*/case.toml` with `stage = "fragment"`), enlarges its render target to
//! `AGXC_SIM_BENCH_SIZE` pixels square (default 1024, so about a million fragments) and shades
//! it twice:
//!
//! - in the G13 simulator: the `-O2` binary is compiled once, outside the timing; the time is
//!   that of `sim::run_fragment` (resources bound, every SIMD-group run, targets read back);
//! - in lavapipe (Mesa's Vulkan driver on the CPU, LLVM-compiled, threaded over the machine's
//!   cores): one `Lavapipe::run` creates the pipeline, uploads the inputs, draws and reads back.
//!   Pipeline creation and LLVM compilation are a fixed cost that a large dispatch amortises, so
//!   the bench also runs the case at its own small size and reports the *marginal* time
//!   `t(large) - t(small)`: what lavapipe spends per extra fragment.
//!
//! Both report fragments per second (median of `AGXC_BENCH_REPS` runs, default 3, wall clock),
//! the simulator also thread-instructions per second. The summary gives the median ratio of
//! simulator to lavapipe throughput. The simulator runs on one thread; lavapipe uses all cores
//! (its thread count is printed), so the per-core ratio is also given.
//!
//! `AGXC_BENCH_FILTER=substring` restricts the cases. Compute cases, and fragment cases that
//! write a storage buffer, are not scaled: their buffers and indexing are sized for the
//! recorded dispatch.

use std::time::Instant;

use agxc::backend_agx::sim;
use agxc::backend_agx::target::G13Target;
use agxc::backend_agx::CompileOptions;
use agxc::egraph::opt::{optimize, OptOptions};
use agxc_tests::corpus::{corpus_dir, load_corpus, Case};
use agxc_tests::lavapipe::Lavapipe;
use agxc_tests::run::{prepare, Language, LaunchStage};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Seconds per run and thread-instructions of one run of the case in the simulator.
fn time_sim(case: &Case, reps: usize) -> Result<(f64, u64), String> {
    let prepared = prepare(case, Language::Spirv).map_err(|e| e.to_string())?;
    let optimized = optimize(&prepared.func, &G13Target::new(), &OptOptions::default())
        .map_err(|e| e.to_string())?;
    let binary = agxc::backend_agx::compile(&optimized.func, &CompileOptions::default())
        .map_err(|e| e.to_string())?;
    let LaunchStage::Fragment(grid) = &prepared.launch.stage else {
        return Err("not a fragment launch".into());
    };
    let mut times = Vec::new();
    let mut thread_instructions = 0;
    for _ in 0..reps.max(1) {
        let mut res = prepared.launch.resources();
        let t0 = Instant::now();
        let run = sim::run_fragment(&binary, &mut res, grid).map_err(|e| e.to_string())?;
        times.push(t0.elapsed().as_secs_f64());
        thread_instructions = run.stats.thread_instructions;
    }
    Ok((median(times), thread_instructions))
}

/// Seconds per lavapipe run of the case (pipeline creation included).
fn time_lavapipe(lvp: &Lavapipe, case: &Case, reps: usize) -> Result<f64, String> {
    let inputs = case.inputs();
    let mut times = Vec::new();
    for _ in 0..reps.max(1) {
        let t0 = Instant::now();
        lvp.run(case, &inputs).map_err(|e| e.to_string())?;
        times.push(t0.elapsed().as_secs_f64());
    }
    Ok(median(times))
}

fn enlarged(case: &Case, side: u32) -> Case {
    let mut big = case.clone();
    big.manifest.size = Some([side, side]);
    big
}

fn pixels(case: &Case) -> f64 {
    case.manifest
        .size
        .map_or(0.0, |[w, h]| f64::from(w) * f64::from(h))
}

fn main() {
    // `cargo bench` passes `--bench`; this harness has no options of its own.
    let side = env_usize("AGXC_SIM_BENCH_SIZE", 1024).clamp(16, 4096) as u32;
    let reps = env_usize("AGXC_BENCH_REPS", 3);
    let filter = std::env::var("AGXC_BENCH_FILTER").ok();
    let cases = match load_corpus(&corpus_dir("spirv")) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sim_speed: cannot load the SPIR-V corpus: {e}");
            std::process::exit(1);
        }
    };
    let lvp = match Lavapipe::new() {
        Ok(l) => Some(l),
        Err(e) => {
            eprintln!("sim_speed: lavapipe unavailable ({e}); simulator figures only");
            None
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let lp_threads = std::env::var("LP_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(cores);
    println!(
        "fragments: {side}x{side} per case; simulator 1 thread, lavapipe {lp_threads} thread(s); \
         median of {reps} run(s), wall clock"
    );
    println!(
        "{:<28} {:>10} {:>12} {:>12} {:>12} {:>8}",
        "case", "sim Mfr/s", "sim Mthr-i/s", "lvp Mfr/s", "lvp fixed ms", "sim/lvp"
    );
    let mut ratios = Vec::new();
    let mut sim_rates = Vec::new();
    // A fragment shader that writes a storage buffer indexes it by pixel: its buffer is sized
    // for the recorded target, so enlarging the target would run off its end.
    for case in cases.iter().filter(|c| {
        c.manifest.size.is_some()
            && !c.manifest.buffers.iter().any(|b| b.output)
            && filter.as_deref().is_none_or(|f| c.name.contains(f))
    }) {
        let big = enlarged(case, side);
        let n = pixels(&big);
        let (sim_s, thread_instr) = match time_sim(&big, reps) {
            Ok(r) => r,
            Err(e) => {
                println!("{:<28} simulator failed: {e}", case.name);
                continue;
            }
        };
        let sim_rate = n / sim_s / 1e6;
        sim_rates.push(sim_rate);
        let lvp_cols = lvp.as_ref().map(|lvp| {
            let small = time_lavapipe(lvp, case, reps)?;
            let large = time_lavapipe(lvp, &big, reps)?;
            let marginal = (large - small).max(1e-9);
            Ok::<_, String>(((n - pixels(case)) / marginal / 1e6, small * 1e3))
        });
        match lvp_cols {
            Some(Ok((lvp_rate, fixed_ms))) => {
                let ratio = sim_rate / lvp_rate;
                ratios.push(ratio);
                println!(
                    "{:<28} {:>10.2} {:>12.1} {:>12.2} {:>12.1} {:>8.3}",
                    case.name,
                    sim_rate,
                    thread_instr as f64 / sim_s / 1e6,
                    lvp_rate,
                    fixed_ms,
                    ratio
                );
            }
            Some(Err(e)) => println!("{:<28} lavapipe failed: {e}", case.name),
            None => println!(
                "{:<28} {:>10.2} {:>12.1}",
                case.name,
                sim_rate,
                thread_instr as f64 / sim_s / 1e6
            ),
        }
    }
    println!(
        "median simulator throughput: {:.2} M fragments/s over {} cases",
        median(sim_rates.clone()),
        sim_rates.len()
    );
    if !ratios.is_empty() {
        let m = median(ratios.clone());
        println!(
            "median simulator/lavapipe throughput: {m:.3} ({:.3} per core of lavapipe's {lp_threads}) over {} cases",
            m * lp_threads as f64,
            ratios.len()
        );
    }
}
