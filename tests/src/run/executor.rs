//! Executors: something that runs a lifted [`Function`] under a [`Launch`] and returns the
//! outputs in the corpus's format. The reference interpreter is one; compiling for the G13 and
//! running the simulator will be another, fed the same launches and compared the same way.

use agxc_egraph::interp::{run_compute_with, run_fragment_with, FloatMode, FragmentOutput, Limits};
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
    /// IEEE (the reference) or the G13's flushing of f32 denormals.
    pub float: FloatMode,
}

impl Interpreter {
    /// The interpreter with its default budgets, in IEEE mode.
    pub fn new() -> Interpreter {
        Interpreter::default()
    }

    /// The interpreter as a model of the G13's float behaviour: f32 denormals flushed
    /// ([`FloatMode::FlushF32Denormals`]).
    pub fn g13_model() -> Interpreter {
        Interpreter {
            float: FloatMode::FlushF32Denormals,
            ..Interpreter::default()
        }
    }
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
        match self.float {
            FloatMode::Ieee => "interp",
            FloatMode::FlushF32Denormals => "interp (G13 floats)",
        }
    }

    fn execute(&self, func: &Function, launch: &Launch) -> Result<Outputs, RunError> {
        let interp = |source| RunError::Interp {
            case: launch.case.clone(),
            source,
        };
        let mut res = launch.resources();
        let fragment = match &launch.stage {
            LaunchStage::Compute { groups } => {
                run_compute_with(func, &mut res, *groups, &self.limits, self.float)
                    .map_err(interp)?;
                None
            }
            LaunchStage::Fragment(grid) => Some((
                run_fragment_with(func, &mut res, grid, &self.limits, self.float)
                    .map_err(interp)?,
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
                (OutputKey::Image { set, binding }, _) => res
                    .texture(Binding::new(set, binding))
                    .map(|t| t.data().to_vec()),
            };
            if let Some(bytes) = bytes {
                outputs.insert(spec.key, bytes);
            }
        }
        Ok(outputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{OutputSpec, ScalarType, Tolerance};
    use crate::run::launch::BoundBuffer;
    use agxc_egraph::interp::{BufferKind, FragmentGrid};
    use agxc_egraph::ir::{
        AddressSpace, Builder, Builtin, EffectOp, MemAccess, OutputSlot, PureOp, Stage, Type,
    };

    fn spec(key: OutputKey, bytes: usize) -> OutputSpec {
        OutputSpec {
            key,
            bytes,
            elem: ScalarType::F32,
            tolerance: Tolerance::default(),
            row_pixels: None,
        }
    }

    fn floats(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn compute_outputs_are_the_written_buffers() {
        // out[i] = in[i] + 1.0 over 2 workgroups of 2.
        let mut func = Function::new("add_one", Stage::Compute);
        func.modes.local_size = [2, 1, 1];
        let mut b = Builder::new(&mut func);
        let i = b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
        let four = b.i32(4);
        let offset = b.pure(PureOp::Imul, &[i, four]);
        let at = |binding| MemAccess {
            space: AddressSpace::Storage(Binding::new(0, binding)),
            offset: 0,
        };
        let x = b.effect(EffectOp::Load(at(0)), &[offset], &[Type::F32])[0];
        let one = b.f32(1.0);
        let y = b.pure(PureOp::Fadd, &[x, one]);
        b.effect(EffectOp::Store(at(1)), &[offset, y], &[]);
        b.return_();

        let input: Vec<u8> = [0.5f32, -2.0, 3.0, 1e9]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let out_key = OutputKey::Buffer { set: 0, binding: 1 };
        let launch = Launch {
            case: "t".into(),
            stage: LaunchStage::Compute { groups: [2, 1, 1] },
            buffers: vec![
                BoundBuffer {
                    binding: Binding::new(0, 0),
                    kind: BufferKind::Storage,
                    data: input,
                },
                BoundBuffer {
                    binding: Binding::new(0, 1),
                    kind: BufferKind::Storage,
                    data: vec![0; 16],
                },
            ],
            push: Vec::new(),
            textures: Vec::new(),
            outputs: vec![
                spec(out_key, 16),
                spec(OutputKey::Target { location: 0 }, 0),
            ],
        };
        let out = Interpreter::new().execute(&func, &launch).expect("runs");
        // 1e9 + 1 rounds back to 1e9 in f32 (spacing 64 there).
        assert_eq!(
            floats(out.get(&out_key).expect("buffer read back")),
            [1.5, -1.0, 4.0, 1e9]
        );
        assert!(out.get(&OutputKey::Target { location: 0 }).is_none());
    }

    #[test]
    fn fragment_targets_are_rows_top_to_bottom() {
        // Target 0 = (frag_coord.x, frag_coord.y, 0, 1) written as x and y only; target 1 is
        // never written.
        let mut func = Function::new("coords", Stage::Fragment);
        let mut b = Builder::new(&mut func);
        for c in 0..2u8 {
            let v = b.effect(EffectOp::Builtin(Builtin::FragCoord(c)), &[], &[Type::F32])[0];
            let slot = OutputSlot::Location {
                location: 0,
                component: c,
            };
            b.effect(EffectOp::Output(slot), &[v], &[]);
        }
        b.return_();

        let clear = [9.0, 8.0, 7.0, 6.0];
        let grid = FragmentGrid::new(3, 2).with_clear(clear);
        let t0 = OutputKey::Target { location: 0 };
        let t1 = OutputKey::Target { location: 1 };
        let launch = Launch {
            case: "t".into(),
            stage: LaunchStage::Fragment(grid),
            buffers: Vec::new(),
            push: Vec::new(),
            textures: Vec::new(),
            outputs: vec![spec(t0, 96), spec(t1, 96)],
        };
        let out = Interpreter::new().execute(&func, &launch).expect("runs");
        let t0 = floats(out.get(&t0).expect("target 0"));
        // Pixel (2, 1) is the sixth pixel: centre (2.5, 1.5), z and w keep the clear colour.
        assert_eq!(t0[20..24], [2.5, 1.5, 7.0, 6.0]);
        assert_eq!(t0[0..2], [0.5, 0.5]);
        let t1 = floats(out.get(&t1).expect("target 1"));
        assert!(t1.chunks(4).all(|px| px == clear), "{t1:?}");
    }
}
