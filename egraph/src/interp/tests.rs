//! Properties of the executor on random well-formed programs (`ir::arbitrary`): every program
//! runs without error, and lockstep execution with divergent lanes computes exactly what
//! running each invocation alone (one lane per workgroup, never divergent) computes.

use super::{run_compute, Limits, Resources};
use crate::ir::arbitrary::{Config, Recipe, INPUT, INPUT_BYTES, INVOCATION_BYTES, OUTPUT};
use crate::ir::Function;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// Invocations per run.
const INVOCATIONS: u32 = 8;

#[derive(Clone, Debug)]
struct Case {
    recipe: Recipe,
    input: Vec<u8>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let config = Config {
            i64: true,
            ..Config::default()
        };
        Case {
            recipe: Recipe::generate(g, &config),
            input: (0..INPUT_BYTES).map(|_| u8::arbitrary(g)).collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let input = self.input.clone();
        Box::new(self.recipe.shrink().map(move |recipe| Case {
            recipe,
            input: input.clone(),
        }))
    }
}

/// Runs `func` over `INVOCATIONS` invocations in workgroups of its declared size and returns
/// the output buffer.
fn output(func: &Function, input: &[u8]) -> Result<Vec<u8>, String> {
    let local = func.modes.local_size[0];
    let mut res = Resources::new();
    res.bind_storage(INPUT, input.to_vec())
        .bind_uniform(crate::ir::arbitrary::UNIFORM, input.to_vec())
        .bind_storage(OUTPUT, vec![0; (INVOCATIONS * INVOCATION_BYTES) as usize]);
    run_compute(
        func,
        &mut res,
        [INVOCATIONS / local, 1, 1],
        &Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    Ok(res.buffer_data(OUTPUT).unwrap_or(&[]).to_vec())
}

fn lockstep_equals_one_lane_at_a_time(case: Case) -> TestResult {
    let simd = case.recipe.lower();
    let mut scalar = simd.clone();
    scalar.modes.local_size = [1, 1, 1];
    match (output(&simd, &case.input), output(&scalar, &case.input)) {
        (Ok(a), Ok(b)) if a == b => TestResult::passed(),
        (Ok(_), Ok(_)) => TestResult::error("lockstep and one-lane runs differ"),
        (Err(e), _) | (_, Err(e)) => TestResult::error(e),
    }
}

#[test]
fn random_programs_run_and_lockstep_equals_one_lane_at_a_time() {
    QuickCheck::new()
        .tests(300)
        .quickcheck(lockstep_equals_one_lane_at_a_time as fn(Case) -> TestResult);
}
