//! Runs a binary in several simulator modes and requires byte-identical results: the fast
//! engine on the default threads (what users run), the reference engine on one host thread
//! (the specification), and the fast engine with every straight run compiled to host code on
//! three threads (forcing the compiled code and the parallel dispatch even for small grids). The corpus and equivalence tests run every compiled shader this way,
//! so the fast engine and the parallel dispatch are checked on everything the compiler emits.

use agxc_egraph::interp::{FragmentGrid, Resources};
use agxc_runtime_sim::runtime::Engine;
use agxc_runtime_sim::stats::Stats;

use super::{run_compute_with, run_fragment_with, FragmentResult, SimError, SimOptions};
use agxc_backend_agx::Binary;

/// The modes compared, the first being the one whose result is returned.
pub const MODES: [(Engine, usize); 3] = [
    (Engine::Fast, 0),
    (Engine::Reference, 1),
    (Engine::FastCompiled, 3),
];

fn options(base: &SimOptions, (engine, threads): (Engine, usize)) -> SimOptions {
    SimOptions {
        engine,
        threads,
        ..*base
    }
}

/// Everything a run leaves behind, as text (statistics or the error) and bytes (buffers,
/// textures, render targets: floats by their bits, NaN payloads included).
fn outcome(
    binary: &Binary,
    res: &Resources,
    result: Result<(&Stats, Vec<u8>), &SimError>,
) -> (String, Vec<Vec<u8>>) {
    let mut bytes: Vec<Vec<u8>> = res.buffers().map(|(_, b)| b.data.clone()).collect();
    for (b, _) in &binary.metadata.abi.textures {
        if let Some(t) = res.texture(*b) {
            bytes.push(t.data().to_vec());
        }
    }
    let text = match result {
        Ok((stats, targets)) => {
            bytes.push(targets);
            format!("{stats:?}")
        }
        Err(e) => format!("error: {e}"),
    };
    (text, bytes)
}

fn target_bytes(r: &FragmentResult) -> Vec<u8> {
    let floats = r
        .targets
        .values()
        .flat_map(|t| t.iter().flatten())
        .chain(r.depth.iter().flatten());
    floats.flat_map(|v| v.to_bits().to_le_bytes()).collect()
}

fn disagree(mode: (Engine, usize), first: &str, other: &str) -> SimError {
    let cut = |s: &str| s.chars().take(300).collect::<String>();
    SimError::Disagree(format!(
        "{:?} engine on {} thread(s) gives {}, the fast engine on the default threads {}",
        mode.0,
        mode.1,
        cut(other),
        cut(first)
    ))
}

/// [`run_compute_with`] in every mode of [`MODES`]; results, statistics and errors must agree.
pub fn run_compute_cross_checked(
    binary: &Binary,
    res: &mut Resources,
    groups: [u32; 3],
    opts: &SimOptions,
) -> Result<Stats, SimError> {
    let initial = res.clone();
    let first = run_compute_with(binary, res, groups, &options(opts, MODES[0]));
    let expected = outcome(binary, res, first.as_ref().map(|s| (s, Vec::new())));
    for mode in &MODES[1..] {
        let mut copy = initial.clone();
        let r = run_compute_with(binary, &mut copy, groups, &options(opts, *mode));
        let got = outcome(binary, &copy, r.as_ref().map(|s| (s, Vec::new())));
        if got != expected {
            return Err(disagree(*mode, &expected.0, &got.0));
        }
    }
    first
}

/// [`run_fragment_with`] in every mode of [`MODES`]; targets, results, statistics and errors
/// must agree.
pub fn run_fragment_cross_checked(
    binary: &Binary,
    res: &mut Resources,
    grid: &FragmentGrid,
    opts: &SimOptions,
) -> Result<FragmentResult, SimError> {
    let initial = res.clone();
    let first = run_fragment_with(binary, res, grid, &options(opts, MODES[0]));
    let expected = outcome(
        binary,
        res,
        first.as_ref().map(|r| (&r.stats, target_bytes(r))),
    );
    for mode in &MODES[1..] {
        let mut copy = initial.clone();
        let r = run_fragment_with(binary, &mut copy, grid, &options(opts, *mode));
        let got = outcome(
            binary,
            &copy,
            r.as_ref().map(|r| (&r.stats, target_bytes(r))),
        );
        if got != expected {
            return Err(disagree(*mode, &expected.0, &got.0));
        }
    }
    first
}
