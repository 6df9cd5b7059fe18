//! The G13's float behaviours, as models the comparisons check it against.
//!
//! The G13 legitimately computes some floats differently from the oracles, and each difference
//! is a rule stated here, checked element by element, never a count of elements let through:
//!
//! - **Denormals.** The G13 flushes f32 denormal sources and results to zero (keeping the
//!   sign); f16 keeps denormals (`docs/g13.md`, "Floating point"). Vulkan permits this
//!   unless the shader declares `DenormPreserve` (Vulkan specification, appendix A "Vulkan
//!   Environment for SPIR-V", "Precision and Operation of SPIR-V Instructions": by default any
//!   denormalized value input into a shader or produced by an instruction may be flushed to
//!   zero; no corpus shader declares `DenormPreserve`). Modelled by
//!   the interpreter's [`FloatMode::FlushF32Denormals`] (its per-operation rules are in
//!   `agxc_egraph::interp`'s `float_mode.rs`).
//! - **Contraction.** At -O2 the optimizer fuses `a * b + c` into `fma` (one rounding instead
//!   of two), as SPIR-V allows without `NoContraction` and TGSI without `_PRECISE`. The
//!   optimized IR holds the fused operations with their own evaluation functions. The
//!   contraction tolerance is computed, not guessed: the optimized IR is evaluated a second
//!   time with every fused multiply-add split back into a multiply rounded to the result type
//!   followed by the add ([`split_fused`]: `fma(a, b, c)` to `fmul` + `fadd`,
//!   `g13.fmadd_sat(a, b, c)` to `fmul` + `g13.fadd_sat`); an element may differ from the
//!   oracle by exactly what that one extra rounding per contracted multiply-add changes, as it
//!   propagates through the rest of the shader.
//! - **Square roots** are `x * rsqrt_special(x)`, not correctly rounded; that is a precision
//!   Vulkan allows for `sqrt`, so it is a tolerance in the manifests of the cases it shows in
//!   (with the derivation next to it), not a rule here.
//!
//! Two models of the IR the G13 ran (the lifted IR at -O0, the optimized IR at -O2):
//! the **G13 model**, the interpreter in the flushing mode on that IR as it is; and the
//! **oracle model**, the interpreter in IEEE mode on that IR with its fused multiply-adds split
//! (at -O0 there is nothing to split: the reference run itself). They differ only in the two
//! behaviours above. [`compare_with_oracle`] accepts an element if the G13 matches the oracle
//! within the case's tolerance, or if the two models differ at that element, the G13 matches
//! the G13 model and the oracle model matches the oracle, each within the case's tolerance. So
//! every element is checked: directly, or as "the G13 computed its IR right, and without the
//! G13's float behaviours that IR computes the oracle's answer". The comparison with the
//! interpreter is the first half alone: the G13 against the G13 model.
//!
//! Limitation: a source-level `fma` in a -O2 case is split too. Such an element only needs
//! the oracle model where the G13 differs from the oracle, so a case mixing explicit `fma` with
//! a visible contraction would fail loudly rather than pass wrongly.

use agxc_backend_agx::target::ops::{FADD_SAT, FMADD_SAT};
use agxc_egraph::interp::FloatMode;
use agxc_egraph::ir::{CustomOp, Function, InstData, Op, PureOp, ValueDef};

use crate::corpus::{Difference, Mismatch, OutputSpec, Outputs, ScalarType, Tolerance};

/// `func` with each fused multiply-add split into a multiply rounded to the result type and an
/// add: `fma(a, b, c)` becomes `fadd(fmul(a, b), c)` and `g13.fmadd_sat(a, b, c)` becomes
/// `g13.fadd_sat(fmul(a, b), c)`. The multiply goes just before the add, in the same block,
/// with the same flags; everything else is unchanged.
pub fn split_fused(func: &Function) -> Function {
    let mut f = func.clone();
    let fmadd_sat = CustomOp::new(&FMADD_SAT);
    let blocks: Vec<_> = f.blocks.keys().collect();
    for block in blocks {
        let old = std::mem::take(&mut f.blocks[block].insts);
        let mut insts = Vec::with_capacity(old.len());
        for inst in old {
            let data = &f.insts[inst];
            let add = match data.op {
                Op::Pure(PureOp::Fma) => Some(Op::Pure(PureOp::Fadd)),
                Op::Custom(c) if c == fmadd_sat => Some(Op::Custom(CustomOp::new(&FADD_SAT))),
                _ => None,
            };
            if let (Some(add), &[a, b, c], &[r]) = (add, &data.args[..], &data.results[..]) {
                let ty = f.value_type(r);
                let mul = f.make_inst(InstData {
                    op: Op::Pure(PureOp::Fmul),
                    args: [a, b].as_slice().into(),
                    results: Default::default(),
                    blocks: Default::default(),
                    flags: data.flags,
                });
                let product = f.make_value(ty, ValueDef::Result(mul, 0));
                f.insts[mul].results = [product].as_slice().into();
                let data = &mut f.insts[inst];
                data.op = add;
                data.args = [product, c].as_slice().into();
                insts.push(mul);
            }
            insts.push(inst);
        }
        f.blocks[block].insts = insts;
    }
    f
}

/// The interpreter's float mode of the G13 model.
pub const G13_FLOATS: FloatMode = FloatMode::FlushF32Denormals;

/// The two models' outputs for one G13 run (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Models<'a> {
    /// The interpreter as the G13 computes floats, on the IR the G13 ran.
    pub g13: &'a Outputs,
    /// The interpreter in IEEE mode on the same IR with its fused multiply-adds split.
    pub oracle: &'a Outputs,
}

/// Whether `actual` is within `spec`'s tolerance of `expected` (32-bit words; integers exact).
fn close(spec: &OutputSpec, expected: u32, actual: u32) -> bool {
    match spec.elem {
        ScalarType::F32 => spec
            .tolerance
            .accepts(f32::from_bits(expected), f32::from_bits(actual)),
        ScalarType::I32 | ScalarType::U32 => expected == actual,
    }
}

/// Whether two model values differ at all (as floats: NaN equals NaN, and -0 equals +0 unless
/// the output is bit-exact; integers by bits).
fn differ(spec: &OutputSpec, a: u32, b: u32) -> bool {
    let exact = OutputSpec {
        tolerance: Tolerance {
            bit_exact: spec.tolerance.bit_exact,
            ..Tolerance::default()
        },
        ..spec.clone()
    };
    !close(&exact, a, b)
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A model's words for an output, if the model produced it at the recorded size.
fn model_words(model: &Outputs, spec: &OutputSpec, len: usize) -> Option<Vec<u32>> {
    model.get(&spec.key).filter(|b| b.len() == len).map(words)
}

/// Compares the G13's outputs with the oracle's recording, element by element: each must be
/// within the case's tolerance of the recording, or explained by the models (module docs).
/// Without models (a model run failed) every element must match directly.
pub fn compare_with_oracle(
    case: &str,
    specs: &[OutputSpec],
    oracle: &Outputs,
    actual: &Outputs,
    models: Option<Models<'_>>,
) -> Vec<Mismatch> {
    let mismatch = |spec: &OutputSpec, difference| Mismatch {
        case: case.to_owned(),
        spec: spec.clone(),
        difference,
    };
    let mut out = Vec::new();
    for spec in specs {
        let (Some(recorded), Some(produced)) = (oracle.get(&spec.key), actual.get(&spec.key))
        else {
            out.push(mismatch(spec, Difference::Missing));
            continue;
        };
        if recorded.len() != produced.len() {
            out.push(mismatch(
                spec,
                Difference::Size {
                    expected: recorded.len(),
                    actual: produced.len(),
                },
            ));
            continue;
        }
        let len = recorded.len();
        let g13_model = models.and_then(|m| model_words(m.g13, spec, len));
        let oracle_model = models.and_then(|m| model_words(m.oracle, spec, len));
        let (e, a) = (words(recorded), words(produced));
        let mut first = None;
        let mut count = 0;
        for i in 0..e.len() {
            let explained = match (&g13_model, &oracle_model) {
                (Some(g), Some(o)) => {
                    differ(spec, g[i], o[i]) && close(spec, g[i], a[i]) && close(spec, e[i], o[i])
                }
                _ => false,
            };
            if !close(spec, e[i], a[i]) && !explained {
                count += 1;
                first.get_or_insert((i, e[i], a[i]));
            }
        }
        // Trailing bytes that do not fill a word are compared exactly.
        let tail = len / 4 * 4;
        if first.is_none() && recorded[tail..] != produced[tail..] {
            count += 1;
            first = Some((tail / 4, 0, 1));
        }
        if let Some((index, expected, actual)) = first {
            out.push(mismatch(
                spec,
                Difference::Element {
                    index,
                    expected,
                    actual,
                    count,
                    total: len.div_ceil(4),
                },
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::OutputKey;
    use agxc_egraph::interp::{bytes_f32, f32_bytes, run_compute, Limits, Resources};
    use agxc_egraph::ir::{parse_function, Binding, OpRegistry};

    const KEY: OutputKey = OutputKey::Buffer { set: 0, binding: 1 };

    fn spec(tolerance: Tolerance) -> OutputSpec {
        OutputSpec {
            key: KEY,
            bytes: 4,
            elem: ScalarType::F32,
            tolerance,
            row_pixels: None,
        }
    }

    fn one(x: f32) -> Outputs {
        let mut o = Outputs::default();
        o.insert(KEY, x.to_le_bytes().to_vec());
        o
    }

    fn up(x: f32, ulps: u32) -> f32 {
        f32::from_bits(x.to_bits() + ulps)
    }

    /// Whether `actual` passes against `oracle` with the given models' values.
    fn passes(tol: Tolerance, oracle: f32, actual: f32, g13: f32, oracle_model: f32) -> bool {
        let (g, o) = (one(g13), one(oracle_model));
        let models = Models {
            g13: &g,
            oracle: &o,
        };
        compare_with_oracle("c", &[spec(tol)], &one(oracle), &one(actual), Some(models)).is_empty()
    }

    #[test]
    fn an_element_is_explained_only_by_both_models() {
        let exact = Tolerance::default();
        // Flushing changed the element: G13 = its model, the IEEE model = the oracle.
        assert!(passes(exact, -4.0, 0.0, 0.0, -4.0));
        // The G13 is not what its model says.
        assert!(!passes(exact, -4.0, 0.0, 1.0, -4.0));
        // Without the G13's behaviours the IR still does not give the oracle's answer.
        assert!(!passes(exact, -4.0, 0.0, 0.0, -3.0));
        // Models that agree explain nothing: the G13 must match the oracle itself, so the
        // tolerance is never applied twice (1 ulp to the model plus 1 ulp to the oracle).
        let ulp1 = Tolerance {
            ulp: 1,
            ..Tolerance::default()
        };
        assert!(!passes(ulp1, 1.0, up(1.0, 2), up(1.0, 1), up(1.0, 1)));
        assert!(passes(ulp1, 1.0, up(1.0, 1), 7.0, 7.0));
        // Without models every element must match directly.
        let failed = compare_with_oracle("c", &[spec(exact)], &one(-4.0), &one(0.0), None);
        assert_eq!(failed.len(), 1);
    }

    #[test]
    fn signed_zeros_differ_only_for_bit_exact_outputs() {
        let bit_exact = Tolerance {
            bit_exact: true,
            ..Tolerance::default()
        };
        // -0 vs +0 models differ for a bit-exact output, so the element is explained.
        assert!(passes(bit_exact, -0.0, 0.0, 0.0, -0.0));
        // For an ordinary output they are equal and the G13's +0 matches the oracle's -0
        // directly anyway.
        assert!(passes(Tolerance::default(), -0.0, 0.0, 0.0, -0.0));
    }

    #[test]
    fn missing_and_resized_outputs_are_reported() {
        let s = [spec(Tolerance::default())];
        let m = compare_with_oracle("c", &s, &one(1.0), &Outputs::default(), None);
        assert_eq!(m[0].difference, Difference::Missing);
        let mut long = Outputs::default();
        long.insert(KEY, vec![0; 8]);
        let m = compare_with_oracle("c", &s, &one(1.0), &long, None);
        assert_eq!(
            m[0].difference,
            Difference::Size {
                expected: 4,
                actual: 8
            }
        );
    }

    #[test]
    fn split_fused_rounds_the_product_first() {
        // out = fma(x, x, -1) with x = 1 + 2^-12: x*x = 1 + 2^-11 + 2^-24 exactly, so fused
        // gives 2^-11 + 2^-24, while the product rounded to f32 first (ties to even drops the
        // 2^-24) gives 2^-11.
        let func = parse_function(
            "function @f compute {
             block0:
                 v0:i32 = const 0
                 v1:f32 = load storage(0, 0) [v0]
                 v2:f32 = const -1.0
                 v3:f32 = fma v1, v1, v2
                 store storage(0, 1) [v0], v3
                 return
             }",
            &OpRegistry::new(),
        )
        .expect("test IR parses");
        let run = |f: &Function| {
            let mut res = Resources::new();
            let x = 1.0 + 2f32.powi(-12);
            res.bind_storage(Binding::new(0, 0), f32_bytes(&[x]));
            res.bind_storage(Binding::new(0, 1), vec![0; 4]);
            run_compute(f, &mut res, [1, 1, 1], &Limits::default()).expect("runs");
            bytes_f32(res.buffer_data(Binding::new(0, 1)).unwrap_or(&[]))[0]
        };
        assert_eq!(run(&func), 2f32.powi(-11) + 2f32.powi(-24));
        let split = split_fused(&func);
        assert_eq!(run(&split), 2f32.powi(-11));
        let text = split.to_string();
        assert!(
            text.contains("fmul") && text.contains("fadd") && !text.contains("fma"),
            "{text}"
        );
    }

    #[test]
    fn split_fused_keeps_the_saturate() {
        let registry = OpRegistry::with(&agxc_backend_agx::target::ops::OPS);
        let func = parse_function(
            "function @f compute {
             block0:
                 v0:f32 = const 3.0
                 v1:f32 = const 0.5
                 v2:f32 = const -1.0
                 v3:f32 = g13.fmadd_sat v0, v1, v2
                 v4:i32 = const 0
                 store storage(0, 1) [v4], v3
                 return
             }",
            &registry,
        )
        .expect("test IR parses");
        let text = split_fused(&func).to_string();
        assert!(
            text.contains("fmul v0, v1") && text.contains("g13.fadd_sat"),
            "{text}"
        );
        assert!(!text.contains("fmadd_sat"), "{text}");
    }
}
