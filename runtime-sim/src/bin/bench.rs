//! Simulator throughput benchmark: thread-instructions per second on an ALU-heavy loop and on a
//! memory-heavy kernel, for each engine on one host thread and for the fast engine on all.
//!
//! Run with `cargo run --release -p agxc-runtime-sim --bin agxc-sim-bench [-- ITERATIONS]`.
//! The kernels are hand-encoded (bytes worked out from the ISA document's diagrams, each listed
//! with its disassembly); the benchmark checks that the simulator's disassembly matches the
//! listing and that the results are right before reporting any figure.

use std::process::ExitCode;
use std::time::Instant;

use agxc_runtime_sim::disasm::disassemble_one;
use agxc_runtime_sim::program::{Program, ProgramMetadata};
use agxc_runtime_sim::runtime::{Config, Engine, Simulator};
use agxc_runtime_sim::stats::Stats;

/// `out[gid] = f(iterations)` with five float/integer ALU operations per iteration.
const ALU_KERNEL: &[(&str, &str)] = &[
    ("62000000", "mov_imm r0l, 0"),
    ("620900000000", "mov_imm r2, 0"),
    ("620d0000803f", "mov_imm r3, 0x3f800000"),
    ("62110000003f", "mov_imm r4, 0x3f000000"),
    ("621500000000", "mov_imm r5, 0"),
    ("621d00000000", "mov_imm r7, 0"),
    ("3a8d468224480200", "fmadd32 r3, r3, r4, r4"),
    ("2a954a622400", "fadd32 r5, r5, r3"),
    ("1a9946822400", "fmul32 r6, r3, r4"),
    ("0e1d4e1200000000", "iadd r7, r7, 1"),
    ("3aa14c82244a0200", "fmadd32 r8, r6, r4, r5"),
    ("0e09441200000000", "iadd r2, r2, 1"),
    ("522c44821800", "while_icmp r0l, ult, r2, u4, 1"),
    ("00c0ceffffff", "jmp_exec_any -50"),
    ("520e00000000", "pop_exec r0l, 1"),
    ("72251004", "get_sr r9, thread_position_in_grid.x"),
    (
        "4541200801801200",
        "device_store r8, u0_u1, r9.sx, i32, 0b0001, slot 0",
    ),
    ("8800", "stop"),
];

/// `out[gid] = sum over k of in[gid + k * threads]`: one device load, a wait and four ALU
/// instructions per iteration.
const MEMORY_KERNEL: &[(&str, &str)] = &[
    ("62000000", "mov_imm r0l, 0"),
    ("620900000000", "mov_imm r2, 0"),
    ("72251004", "get_sr r9, thread_position_in_grid.x"),
    ("0e29520200000000", "iadd r10, r9, 0"),
    ("623500000000", "mov_imm r13, 0"),
    (
        "0561440801801200",
        "device_load r12, u2_u3, r10.sx, i32, 0b0001, slot 0",
    ),
    ("3800", "wait 0"),
    ("0e355a8225000000", "iadd r13, r13, r12"),
    ("0e2954a218000000", "iadd r10, r10, u5"),
    ("0e09441200000000", "iadd r2, r2, 1"),
    ("522c44821800", "while_icmp r0l, ult, r2, u4, 1"),
    ("00c0d8ffffff", "jmp_exec_any -40"),
    ("520e00000000", "pop_exec r0l, 1"),
    (
        "4569200801801200",
        "device_store r13, u0_u1, r9.sx, i32, 0b0001, slot 0",
    ),
    ("8800", "stop"),
];

fn assemble(listing: &[(&str, &str)]) -> Result<Vec<u8>, String> {
    let mut code = Vec::new();
    for (hex, text) in listing {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{hex}: {e}"))?;
        let got = disassemble_one(&bytes).map_err(|e| format!("{hex}: {e}"))?;
        if got != *text {
            return Err(format!("{hex} disassembles to `{got}`, listed as `{text}`"));
        }
        code.extend(bytes);
    }
    Ok(code)
}

/// This thread's CPU time in seconds, from Linux's `/proc/thread-self/schedstat` (nanoseconds
/// on the CPU); `None` elsewhere. The machine the figures were taken on is shared, so CPU time
/// is the meaningful measure of single-threaded speed; wall time is reported beside it.
fn cpu_seconds() -> Option<f64> {
    // Process CPU time, finished worker threads included: utime and stime of
    // `/proc/self/stat` (fields 14 and 15, after the parenthesised command name), in clock
    // ticks of 10 ms.
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Timings of one kernel: the best of several runs.
struct Timing {
    wall: f64,
    cpu: Option<f64>,
}

/// Runs `f` `REPEATS` times and returns the last statistics and the shortest wall and CPU
/// times: the minimum is the least disturbed measurement.
fn best_of<F: FnMut() -> Result<Stats, String>>(mut f: F) -> Result<(Stats, Timing), String> {
    const REPEATS: usize = 5;
    let mut wall = f64::INFINITY;
    let mut cpu: Option<f64> = None;
    let mut stats = Stats::default();
    for _ in 0..REPEATS {
        let cpu_start = cpu_seconds();
        let start = Instant::now();
        stats = f()?;
        wall = wall.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
            cpu = Some(cpu.map_or(b - a, |c: f64| c.min(b - a)));
        }
    }
    Ok((stats, Timing { wall, cpu }))
}

fn report(name: &str, stats: &Stats, t: &Timing) {
    let per_second = |s: f64| stats.thread_instructions as f64 / s / 1e6;
    let cpu = t.cpu.map_or(String::from("n/a"), |c| {
        format!("{:.1} M/s ({c:.3} s)", per_second(c))
    });
    println!(
        "{name}: {} SIMD-group instructions, {} thread-instructions; CPU time {cpu}; \
         wall time {:.1} M/s ({:.3} s)",
        stats.instructions,
        stats.thread_instructions,
        per_second(t.wall),
        t.wall
    );
}

/// The configurations measured: each engine on one thread, the fast one on every core.
fn configs() -> Vec<(String, Config)> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one = |engine| Config {
        engine,
        threads: 1,
        ..Config::default()
    };
    vec![
        ("reference, 1 thread".into(), one(Engine::Reference)),
        ("fast, 1 thread".into(), one(Engine::Fast)),
        (
            format!("fast, {cores} threads"),
            Config {
                threads: cores,
                ..Config::default()
            },
        ),
    ]
}

fn run(iterations: u32) -> Result<(), String> {
    // `AGXC_SIM_BENCH_ONLY=substring` measures the matching configurations only.
    let only = std::env::var("AGXC_SIM_BENCH_ONLY").ok();
    for (name, config) in configs() {
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        println!("{name}:");
        run_with(iterations, config)?;
    }
    Ok(())
}

fn run_with(iterations: u32, config: Config) -> Result<(), String> {
    const GROUPS: u32 = 64;
    const WORKGROUP: u32 = 256;
    let threads = GROUPS * WORKGROUP;

    let alu = Program::load(&assemble(ALU_KERNEL)?, ProgramMetadata::compute(20))
        .map_err(|e| e.to_string())?;
    let mut sim = Simulator::with_config(config);
    let out = sim
        .alloc(4 * u64::from(threads), 16)
        .map_err(|e| e.to_string())?;
    sim.set_uniform64(0, out).map_err(|e| e.to_string())?;
    sim.set_uniform32(4, iterations)
        .map_err(|e| e.to_string())?;
    let (stats, seconds) = best_of(|| {
        sim.dispatch_compute(&alu, [GROUPS, 1, 1], [WORKGROUP, 1, 1])
            .map_err(|e| e.to_string())
    })?;
    // Check the result against the same recurrence in f32 (fmadd is exact here: r3 stays 1.0).
    let mut r3 = 1.0f32;
    let mut r5 = 0.0f32;
    let mut r8 = 0.0f32;
    for _ in 0..iterations {
        r3 = r3.mul_add(0.5, 0.5);
        r5 += r3;
        let r6 = r3 * 0.5;
        r8 = r6.mul_add(0.5, r5);
    }
    let words = sim
        .read_f32s(out, threads as usize)
        .map_err(|e| e.to_string())?;
    if words.iter().any(|&w| w != r8) {
        return Err(format!(
            "ALU kernel result {} differs from the expected {r8}",
            words[0]
        ));
    }
    report("  ALU loop", &stats, &seconds);

    let mem = Program::load(&assemble(MEMORY_KERNEL)?, ProgramMetadata::compute(28))
        .map_err(|e| e.to_string())?;
    let mem_iterations = iterations.min(64);
    let words = u64::from(threads) * u64::from(mem_iterations);
    let input: Vec<u8> = (0..words).flat_map(|i| (i as u32).to_le_bytes()).collect();
    let input_addr = sim.alloc_bytes(&input).map_err(|e| e.to_string())?;
    sim.set_uniform64(2, input_addr)
        .map_err(|e| e.to_string())?;
    sim.set_uniform32(4, mem_iterations)
        .map_err(|e| e.to_string())?;
    sim.set_uniform32(5, threads).map_err(|e| e.to_string())?;
    let (stats, seconds) = best_of(|| {
        sim.dispatch_compute(&mem, [GROUPS, 1, 1], [WORKGROUP, 1, 1])
            .map_err(|e| e.to_string())
    })?;
    let sums = sim
        .read_u32s(out, threads as usize)
        .map_err(|e| e.to_string())?;
    for (gid, &sum) in sums.iter().enumerate() {
        let expect =
            (0..mem_iterations).fold(0u32, |acc, k| acc.wrapping_add(gid as u32 + k * threads));
        if sum != expect {
            return Err(format!("memory kernel thread {gid}: {sum} != {expect}"));
        }
    }
    report("  memory kernel", &stats, &seconds);
    Ok(())
}

fn main() -> ExitCode {
    let iterations = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    match run(iterations) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agxc-sim-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
