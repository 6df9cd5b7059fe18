//! End to end, vertex shaders through the documented vertex ABI (`abi` module docs): the
//! shader runs as a compute program, one thread per vertex, reading attribute arrays and
//! writing output arrays; compared with the interpreter's vertex runs.

mod common;

use std::collections::BTreeMap;

use agxc::sim;
use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::{Binding, OutputSlot};
use common::*;

#[test]
fn attributes_uniforms_and_outputs() {
    let f = parse(
        "function @vs vertex {
         block0:
             v0:f32 = input 0.x flat
             v1:f32 = input 0.y flat
             v2:i32 = input 1.x flat
             v3:i32 = const 0
             v4:f32 = load uniform(0, 0) [v3]
             v5:f32 = fmul v0, v4
             v6:f32 = fadd v1, v4
             output position.x v5
             output position.y v6
             v7:f32 = const 1.0
             output position.w v7
             v8:i32 = builtin vertex_index
             v9:i32 = iadd v8, v2
             output 2.y v9
             v10:f32 = sin v0
             output 3.x v10
             output point_size v4
             return
         }",
    );
    let n = 45u32;
    let mut rng = Rng::new(5);
    let mut attributes = BTreeMap::new();
    attributes.insert(
        0,
        (0..n)
            .map(|_| [rng.range_f32(-3.0, 3.0), rng.range_f32(-3.0, 3.0), 0.0, 1.0])
            .collect::<Vec<_>>(),
    );
    attributes.insert(
        1,
        (0..n)
            .map(|i| [i as f32 * 2.5 - 30.0, 0.0, 0.0, 0.0])
            .collect::<Vec<_>>(),
    );
    let mut res = Resources::new();
    res.bind_uniform(Binding::new(0, 0), f32s(&[1.75]));
    let want = match interp::run_vertex(&f, &res, n, &attributes, &Limits::default()) {
        Ok(w) => w,
        Err(e) => panic!("interpreter: {e}"),
    };
    for level in LEVELS {
        let g = at_level(&f, level);
        let binary = build(&g, &Default::default());
        let got = match sim::run_vertex(&binary, &res, n, &attributes) {
            Ok(o) => o,
            Err(e) => panic!("{level:?}: {e}\n{}", binary.disassembly),
        };
        let pos = &got.outputs[&OutputSlot::Position(0)];
        for (i, (w, g)) in want.positions.iter().zip(pos).enumerate() {
            for c in 0..4 {
                assert!(
                    float_matches(g[c], w[c], Tol::EXACT),
                    "{level:?}: vertex {i} position {c}: want {} got {}",
                    w[c],
                    g[c]
                );
            }
        }
        // One output array per location, named by its component-0 slot.
        let slot_y = &got.outputs[&OutputSlot::Location {
            location: 2,
            component: 0,
        }];
        let slot_sin = &got.outputs[&OutputSlot::Location {
            location: 3,
            component: 0,
        }];
        for i in 0..n as usize {
            assert_eq!(
                slot_y[i][1].to_bits(),
                want.varyings[&2][i][1].to_bits(),
                "{level:?}: vertex {i} output 2.y"
            );
            assert!(
                float_matches(
                    slot_sin[i][0],
                    want.varyings[&3][i][0],
                    Tol::abs(1.0 / 2048.0)
                ),
                "{level:?}: vertex {i} sin"
            );
        }
        let sizes = &got.outputs[&OutputSlot::PointSize];
        for (i, (got, want)) in sizes.iter().zip(&want.point_sizes).enumerate() {
            assert_eq!(got[0], *want, "{level:?}: point size {i}");
        }
    }
}
