//! Executors: something that runs a lifted [`Function`] under a [`Launch`] and returns the
//! outputs in the corpus's format. The reference interpreter is one; compiling for the G13 and
//! running the simulator will be another, fed the same launches and compared the same way.

use agxc_egraph::interp::{
    run_compute, run_fragment, BufferKind, FragmentOutput, Limits, Resources,
};
use agxc_egraph::ir::{Binding, Function};

use super::error::RunError;
use super::launch::{Launch, LaunchStage};
use crate::corpus::{OutputKey, Outputs};

/// Runs a function on a launch's resources.
pub trait Executor {
    /// A short name for reports (`interp`).
    fn name(&self) -> &'static str;

    /// Binds the launch's resources, dispatches or draws, and reads back every output the
    /// launch lists (an output the run cannot produce is left out, and the comparison reports
    /// it as missing).
    fn execute(&self, func: &Function, launch: &Launch) -> Result<Outputs, RunError>;
}

/// The reference interpreter (`agxc_egraph::interp`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Interpreter {
    /// Loop, step and lane budgets of each run.
    pub limits: Limits,
}

impl Interpreter {
    /// The interpreter with its default budgets.
    pub fn new() -> Interpreter {
        Interpreter::default()
    }
}

fn resources(launch: &Launch) -> Resources {
    let mut res = Resources::new();
    for b in &launch.buffers {
        match b.kind {
            BufferKind::Storage => res.bind_storage(b.binding, b.data.clone()),
            BufferKind::Uniform => res.bind_uniform(b.binding, b.data.clone()),
        };
    }
    res.set_push_constants(launch.push.clone());
    for t in &launch.textures {
        res.bind_combined(t.binding, t.texture.clone(), t.sampler);
    }
    res
}

/// A render target as the corpus stores it: RGBA32F rows top to bottom. A location the shader
/// never writes keeps the clear colour, as an attachment the pipeline leaves alone does.
fn target_bytes(out: &FragmentOutput, location: u32, clear: [f32; 4]) -> Vec<u8> {
    let pixels = out.width as usize * out.height as usize;
    let cleared;
    let texels = match out.targets.get(&location) {
        Some(t) => t.as_slice(),
        None => {
            cleared = vec![clear; pixels];
            cleared.as_slice()
        }
    };
    texels
        .iter()
        .flat_map(|px| px.iter().flat_map(|c| c.to_le_bytes()))
        .collect()
}

impl Executor for Interpreter {
    fn name(&self) -> &'static str {
        "interp"
    }

    fn execute(&self, func: &Function, launch: &Launch) -> Result<Outputs, RunError> {
        let interp = |source| RunError::Interp {
            case: launch.case.clone(),
            source,
        };
        let mut res = resources(launch);
        let fragment = match &launch.stage {
            LaunchStage::Compute { groups } => {
                run_compute(func, &mut res, *groups, &self.limits).map_err(interp)?;
                None
            }
            LaunchStage::Fragment(grid) => Some((
                run_fragment(func, &mut res, grid, &self.limits).map_err(interp)?,
                grid.clear,
            )),
        };
        let mut outputs = Outputs::default();
        for spec in &launch.outputs {
            let bytes = match (spec.key, &fragment) {
                (OutputKey::Buffer { set, binding }, _) => res
                    .buffer_data(Binding::new(set, binding))
                    .map(<[u8]>::to_vec),
                (OutputKey::Target { location }, Some((out, clear))) => {
                    Some(target_bytes(out, location, *clear))
                }
                (OutputKey::Target { .. }, None) => None,
            };
            if let Some(bytes) = bytes {
                outputs.insert(spec.key, bytes);
            }
        }
        Ok(outputs)
    }
}
