//! Test cases: a random program and its input buffer, drawn reproducibly from a seed.

use agxc_egraph::interp::{run_compute, InterpError, Limits, Resources};
use agxc_egraph::ir::arbitrary::{bind_resources, Config, InputBuffer, Recipe, OUTPUT};
use agxc_egraph::ir::Function;
use quickcheck::Gen;

/// Workgroups each case dispatches (along x): two, so that workgroup ids and the second
/// group's output regions are exercised.
pub const GROUPS: u32 = 2;

/// quickcheck's size parameter for the generator (it scales the random integers the picks and
/// constants are drawn from; program size is [`Config::max_stmts`]).
pub const GEN_SIZE: usize = 100;

/// Statements per program in the property tests (before shrinking). Measured on this 2-core
/// machine in the test profile: about 130 IR instructions per program, 2 ms per program for
/// the optimizer property and 3 to 4 ms for the backend's (compile and simulate), so that a
/// CI run of 13,000 programs takes well under a minute per core while programs stay large
/// enough to nest loops in branches in loops and mix every type.
pub const MAX_STMTS: usize = 64;

/// Nesting depth of `if`s and loops in the property tests.
pub const MAX_DEPTH: usize = 4;

/// The generator configuration of the property tests: everything the generator has (all
/// operation families, f16, i16, nested divergent control flow, early exits, loads, stores,
/// the texture), `i64` only if `i64` is set (the G13 backend does not compile 64-bit bitfield
/// operations yet, which would fail as unsupported rather than test anything).
pub fn config(i64: bool) -> Config {
    Config {
        max_stmts: MAX_STMTS,
        max_depth: MAX_DEPTH,
        textures: true,
        i64,
        ..Config::default()
    }
}

/// A program and its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The program.
    pub recipe: Recipe,
    /// The input buffer.
    pub input: InputBuffer,
}

impl Case {
    /// The case for `seed` under `config` (the same seed always gives the same case).
    pub fn generate(seed: u64, config: &Config) -> Case {
        let mut g = Gen::from_size_and_seed(GEN_SIZE, seed);
        let recipe = Recipe::generate(&mut g, config);
        let input = InputBuffer::generate(&mut g, config);
        Case { recipe, input }
    }

    /// Invocations dispatched.
    pub fn invocations(&self) -> u32 {
        GROUPS * self.recipe.local_size.iter().product::<u32>()
    }

    /// The dispatch's workgroup counts.
    pub fn groups(&self) -> [u32; 3] {
        [GROUPS, 1, 1]
    }

    /// The resources of a run: the input buffer, a zeroed output buffer, the texture.
    pub fn resources(&self) -> Resources {
        bind_resources(&self.input, self.invocations())
    }

    /// Runs `func` in the reference interpreter on this case's resources; the output buffer.
    pub fn interpret(&self, func: &Function) -> Result<Vec<u8>, InterpError> {
        let mut res = self.resources();
        run_compute(func, &mut res, self.groups(), &Limits::default())?;
        Ok(res.buffer_data(OUTPUT).unwrap_or(&[]).to_vec())
    }

    /// Smaller cases: smaller programs first, then simpler inputs.
    pub fn shrink(&self) -> impl Iterator<Item = Case> {
        let input = self.input.clone();
        let recipe = self.recipe.clone();
        let programs = self.recipe.shrink().map(move |recipe| Case {
            recipe,
            input: input.clone(),
        });
        let inputs = self.input.shrink().map(move |input| Case {
            recipe: recipe.clone(),
            input,
        });
        programs.chain(inputs)
    }
}
