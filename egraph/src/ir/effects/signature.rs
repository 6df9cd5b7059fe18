//! What each effect operation takes and yields: [`EffectOp`]'s operand and result signatures
//! and the sample operations' checks.

use super::*;

impl EffectOp {
    /// The text-form mnemonic.
    pub fn name(&self) -> &'static str {
        match self {
            EffectOp::Load(_) => "load",
            EffectOp::Store(_) => "store",
            EffectOp::BufferSize(_) => "buffer_size",
            EffectOp::Barrier(_) => "barrier",
            EffectOp::Builtin(_) => "builtin",
            EffectOp::Input(_) => "input",
            EffectOp::Output(_) => "output",
            EffectOp::Derivative(Axis::X, _) => "ddx",
            EffectOp::Derivative(Axis::Y, _) => "ddy",
            EffectOp::Sample(_) => "sample",
            EffectOp::Fetch(_) => "fetch",
            EffectOp::TexSize(_) => "tex_size",
            EffectOp::TexLevels(_) => "tex_levels",
            EffectOp::Demote => "demote",
            EffectOp::VertexInput(_) => "vertex_input",
            EffectOp::EmitVertex(_) => "emit_vertex",
            EffectOp::EndPrimitive(_) => "end_primitive",
            EffectOp::Atomic(..) => "atomic",
            EffectOp::ImageLoad(_) => "image_load",
            EffectOp::ImageStore(_) => "image_store",
            EffectOp::ImageSize(_) => "image_size",
        }
    }

    /// True if the result depends only on the invocation and its bound resources, never on
    /// memory written by the shader: such effects may be treated as free-floating leaves.
    ///
    /// `vertex_input` would qualify but is left out: it takes an operand, and keeping it in
    /// the control-flow skeleton needs nothing from the optimizer's invariant-read handling.
    pub fn is_invariant_read(&self) -> bool {
        matches!(
            self,
            EffectOp::BufferSize(_)
                | EffectOp::Builtin(_)
                | EffectOp::Input(_)
                | EffectOp::TexSize(_)
                | EffectOp::TexLevels(_)
        )
    }

    /// True if it writes memory or outputs, or changes the invocation's state.
    pub fn has_side_effects(&self) -> bool {
        matches!(
            self,
            EffectOp::Store(_)
                | EffectOp::Barrier(_)
                | EffectOp::Output(_)
                | EffectOp::Demote
                | EffectOp::EmitVertex(_)
                | EffectOp::EndPrimitive(_)
                | EffectOp::Atomic(..)
                | EffectOp::ImageStore(_)
        )
    }

    /// Checks operand and result types against the operation.
    pub fn check(&self, args: &[Type], results: &[Type]) -> Result<(), EffectTypeError> {
        use EffectTypeError as E;
        let expect_args = |want: &[Type]| -> Result<(), EffectTypeError> {
            if args != want {
                return Err(E::Operands {
                    found: args.to_vec(),
                    expected: want.to_vec(),
                });
            }
            Ok(())
        };
        let expect_results = |want: &[Type]| -> Result<(), EffectTypeError> {
            if results != want {
                return Err(E::Results {
                    found: results.to_vec(),
                    expected: want.to_vec(),
                });
            }
            Ok(())
        };
        match self {
            EffectOp::Load(_) => {
                expect_args(&[Type::I32])?;
                if results.is_empty() {
                    return Err(E::LoadWithoutResults);
                }
                Ok(())
            }
            EffectOp::Store(access) => {
                if !access.space.is_writable() {
                    return Err(E::StoreToReadOnly);
                }
                if args.len() < 2 || args[0] != Type::I32 {
                    return Err(E::StoreOperands);
                }
                expect_results(&[])
            }
            EffectOp::BufferSize(_) | EffectOp::TexLevels(_) => {
                expect_args(&[])?;
                expect_results(&[Type::I32])
            }
            EffectOp::Barrier(_)
            | EffectOp::Demote
            | EffectOp::EmitVertex(_)
            | EffectOp::EndPrimitive(_) => {
                expect_args(&[])?;
                expect_results(&[])
            }
            EffectOp::VertexInput(_) => match (args, results) {
                ([Type::I32], [t]) if *t != Type::Bool => Ok(()),
                _ => Err(E::VertexInput),
            },
            EffectOp::Builtin(b) => {
                expect_args(&[])?;
                expect_results(&[b.ty()])
            }
            EffectOp::Input(_) => {
                expect_args(&[])?;
                match results {
                    [t] if *t != Type::Bool => Ok(()),
                    _ => Err(E::InputResult),
                }
            }
            EffectOp::Output(_) => {
                expect_results(&[])?;
                match args {
                    [t] if *t != Type::Bool => Ok(()),
                    _ => Err(E::OutputOperand),
                }
            }
            EffectOp::Derivative(..) => match (args, results) {
                ([a], [r]) if a.is_float() && a == r => Ok(()),
                _ => Err(E::Derivative),
            },
            EffectOp::Sample(s) => {
                if let Some(why) = s.gather_misfit() {
                    return Err(E::Gather(why));
                }
                if args.len() != s.arity() || args.iter().any(|t| !t.is_float()) {
                    return Err(E::SampleOperands(s.arity()));
                }
                let integer = !s.shadow && texel_class(results) == Some(crate::ir::TexelClass::Int);
                if !integer
                    && (results.len() != s.result_count() || results.iter().any(|t| !t.is_float()))
                {
                    return Err(E::SampleResults(s.result_count()));
                }
                Ok(())
            }
            EffectOp::Fetch(f) => {
                if f.target.dim == TexDim::Cube {
                    return Err(E::FetchFromCube);
                }
                let n = f.target.dim.coords() + f.target.arrayed as usize + 1;
                expect_args(&vec![Type::I32; n])?;
                let integer = texel_class(results) == Some(crate::ir::TexelClass::Int);
                if !integer && (results.len() != 4 || results.iter().any(|t| !t.is_float())) {
                    return Err(E::FetchResults);
                }
                Ok(())
            }
            EffectOp::TexSize(s) => {
                expect_args(&[Type::I32])?;
                let n = s.target.dim.size_components() + s.target.arrayed as usize;
                expect_results(&vec![Type::I32; n])
            }
            EffectOp::Atomic(op, access) => {
                if !access.space.is_writable() {
                    return Err(E::AtomicSpace);
                }
                expect_args(&vec![Type::I32; 1 + op.value_operands()])?;
                expect_results(&[Type::I32])
            }
            EffectOp::ImageLoad(op) => Ok(op.check_load(args, results)?),
            EffectOp::ImageStore(op) => Ok(op.check_store(args, results)?),
            EffectOp::ImageSize(op) => Ok(op.check_size(args, results)?),
        }
    }
}

pub(super) fn list(tys: &[Type]) -> String {
    tys.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}

/// Helper for code that walks sample operands by role.
#[derive(Clone, Copy, Debug, Default)]
pub struct SampleOperands<'a> {
    /// Coordinates.
    pub coords: &'a [Value],
    /// Array layer.
    pub layer: Option<Value>,
    /// Projector.
    pub proj: Option<Value>,
    /// Depth reference.
    pub dref: Option<Value>,
    /// Bias or explicit LOD.
    pub lod: Option<Value>,
    /// d/dx of each coordinate.
    pub ddx: &'a [Value],
    /// d/dy of each coordinate.
    pub ddy: &'a [Value],
    /// Minimum LOD.
    pub min_lod: Option<Value>,
}

impl SampleOp {
    /// Splits `args` (which must have `self.arity()` entries) by role.
    pub fn operands<'a>(&self, args: &'a [Value]) -> SampleOperands<'a> {
        let n = self.target.dim.coords();
        let mut i = n;
        let mut next = |present: bool| -> Option<Value> {
            if present {
                i += 1;
                args.get(i - 1).copied()
            } else {
                None
            }
        };
        let layer = next(self.target.arrayed);
        let proj = next(self.proj);
        let dref = next(self.shadow);
        let lod = next(matches!(self.lod, LodMode::Bias | LodMode::Explicit));
        let (ddx, ddy) = if self.lod == LodMode::Grad {
            let start = i;
            i += 2 * n;
            (
                args.get(start..start + n).unwrap_or(&[]),
                args.get(start + n..start + 2 * n).unwrap_or(&[]),
            )
        } else {
            (&[][..], &[][..])
        };
        let min_lod = if self.min_lod {
            args.get(i).copied()
        } else {
            None
        };
        SampleOperands {
            coords: args.get(..n).unwrap_or(&[]),
            layer,
            proj,
            dref,
            lod,
            ddx,
            ddy,
            min_lod,
        }
    }
}
