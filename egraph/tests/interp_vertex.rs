//! The vertex stage through the interpreter: attributes, vertex index, position and varying
//! outputs, and read-only resources.

mod interp_support;

use agxc_egraph::interp::{run_vertex, InterpError, Limits, Resources};
use interp_support::parse;
use std::collections::BTreeMap;

const VS: &str = "
function @vs vertex {
block0:
    v0:f32 = input 0.x flat
    v1:f32 = input 0.y flat
    v2:f32 = const 2.0
    v3:f32 = fmul v0, v2
    output position.x v3
    output position.y v1
    v4:i32 = builtin vertex_index
    v5:f32 = s2f v4
    output 1.z v5
    output point_size v2
    return
}
";

#[test]
fn attributes_in_positions_and_varyings_out() {
    let mut attributes = BTreeMap::new();
    attributes.insert(
        0,
        vec![
            [1.0, 2.0, 0.0, 1.0],
            [-0.5, 3.0, 0.0, 1.0],
            [4.0, 0.0, 0.0, 1.0],
        ],
    );
    let out = run_vertex(
        &parse(VS),
        &Resources::new(),
        3,
        &attributes,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(
        out.positions,
        [
            [2.0, 2.0, 0.0, 0.0],
            [-1.0, 3.0, 0.0, 0.0],
            [8.0, 0.0, 0.0, 0.0]
        ]
    );
    assert_eq!(
        out.varyings[&1],
        [
            [0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 2.0, 0.0]
        ]
    );
    assert_eq!(out.point_sizes, [2.0; 3]);
    assert_eq!(out.stats.lanes, 3);
}

#[test]
fn missing_and_short_attributes_are_errors() {
    let func = parse(VS);
    let err = run_vertex(
        &func,
        &Resources::new(),
        3,
        &BTreeMap::new(),
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "inst0: no attribute supplied for location 0"
    );
    let mut attributes = BTreeMap::new();
    attributes.insert(0, vec![[0.0; 4]; 2]);
    let err = run_vertex(&func, &Resources::new(), 3, &attributes, &Limits::default()).unwrap_err();
    assert_eq!(
        err,
        InterpError::MissingVertices {
            location: 0,
            supplied: 2,
            needed: 3
        }
    );
}

#[test]
fn running_the_wrong_stage_is_an_error() {
    let err = agxc_egraph::interp::run_compute(
        &parse(VS),
        &mut Resources::new(),
        [1, 1, 1],
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "function is a vertex shader, the run expects compute"
    );
}
