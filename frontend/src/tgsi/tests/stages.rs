//! Fragment and vertex shaders: inputs and outputs by semantic, built-ins, properties,
//! derivatives and discards.

use super::harness::{fragment, lift_ok};
use crate::tgsi::{lift, LiftOptions, TgsiError, COLOR_LOCATION};
use agxc_egraph::interp::{run_vertex, FragmentGrid, Limits, Resources, Varying};
use std::collections::BTreeMap;

/// Component `c` of an affine varying at the centre of pixel (x, y), as the interpreter's
/// model defines it (f64, rounded once).
fn at(v: &Varying, c: usize, x: u32, y: u32) -> f32 {
    (v.base[c] as f64 + v.ddx[c] as f64 * (x as f64 + 0.5) + v.ddy[c] as f64 * (y as f64 + 0.5))
        as f32
}

#[test]
fn generic_inputs_and_color_outputs() {
    let text = "FRAG
DCL IN[0], GENERIC[2], PERSPECTIVE
DCL IN[1], COLOR, LINEAR
DCL OUT[0], COLOR[1]
DCL OUT[1], COLOR
ADD OUT[0], IN[0], IN[1]
MOV OUT[1].yw, IN[0].wzyx
END
";
    let v = Varying::affine(
        [1.0, 2.0, 3.0, 4.0],
        [0.5, 0.0, -1.0, 0.25],
        [0.0, 2.0, 0.5, 0.0],
    );
    let c = Varying::constant([10.0, 20.0, 30.0, 40.0]);
    let grid = FragmentGrid::new(4, 2)
        .with_varying(2, v)
        .with_varying(COLOR_LOCATION, c)
        .with_clear([-1.0; 4]);
    let out = fragment(text, &grid, &mut Resources::new());
    for y in 0..2 {
        for x in 0..4 {
            let g = |k| at(&v, k, x, y);
            let sum = [g(0) + 10.0, g(1) + 20.0, g(2) + 30.0, g(3) + 40.0];
            assert_eq!(out.pixel(1, x, y), Some(sum), "COLOR[1] at ({x}, {y})");
            // Only .y and .w are written; .x and .z keep the clear colour.
            assert_eq!(
                out.pixel(0, x, y),
                Some([-1.0, g(2), -1.0, g(0)]),
                "COLOR[0] at ({x}, {y})"
            );
        }
    }
}

#[test]
fn position_face_and_coordinate_conventions() {
    let text = "FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COORD_PIXEL_CENTER INTEGER
DCL IN[0], POSITION, LINEAR
DCL IN[1], FACE, CONSTANT
DCL OUT[0], COLOR
MOV OUT[0].xy, IN[0].xyyy
MOV OUT[0].zw, IN[1].xxxw
END
";
    let func = lift_ok(text);
    assert!(!func.modes.origin_upper_left && func.modes.pixel_center_integer);
    let mut grid = FragmentGrid::new(2, 3);
    grid.front_facing = false;
    let out = fragment(text, &grid, &mut Resources::new());
    // Lower-left origin, integer centres: pixel (x, row) is at (x, height - 1 - row).
    assert_eq!(out.pixel(0, 1, 0), Some([1.0, 2.0, -1.0, 1.0]));
    assert_eq!(out.pixel(0, 0, 2), Some([0.0, 0.0, -1.0, 1.0]));
}

#[test]
fn kill_if_drops_fragments_with_a_negative_component() {
    let text = "FRAG
DCL IN[0].x, GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {2.0, 1.0, 0.0, 0.0}
SUB TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
KILL_IF TEMP[0].xyyy
MOV OUT[0], IMM[0].yyyy
END
";
    // x + 0.5 per pixel: pixels 0 and 1 have x < 2 and are dropped.
    let grid = FragmentGrid::new(4, 1)
        .with_varying(0, Varying::affine([0.0; 4], [1.0, 0.0, 0.0, 0.0], [0.0; 4]));
    let out = fragment(text, &grid, &mut Resources::new());
    assert_eq!(out.dropped, vec![true, true, false, false]);
    assert_eq!(out.pixel(0, 3, 0), Some([1.0; 4]));
}

#[test]
fn kill_and_kilp_discard_unconditionally_inside_ifs() {
    let text = "FRAG
DCL IN[0].x, GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {2.0, 1.0, 0.0, 0.0}
SLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
IF TEMP[0].xxxx
  KILL
ENDIF
MOV OUT[0], IMM[0].yyyy
END
";
    let grid = FragmentGrid::new(4, 1)
        .with_varying(0, Varying::affine([0.0; 4], [1.0, 0.0, 0.0, 0.0], [0.0; 4]));
    let out = fragment(text, &grid, &mut Resources::new());
    assert_eq!(out.dropped, vec![true, true, false, false]);
    let legacy = fragment(
        &text.replace("KILL\n", "KILP\n"),
        &grid,
        &mut Resources::new(),
    );
    assert_eq!(legacy.dropped, out.dropped);
}

#[test]
fn coarse_and_fine_derivatives() {
    // q = u * v with u = x + 0.5 and v = y + 0.5 at each pixel centre.
    let text = "FRAG
DCL IN[0].xy, GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
MUL TEMP[0].x, IN[0].xxxx, IN[0].yyyy
DDX OUT[0].x, TEMP[0].xxxx
DDX_FINE OUT[0].y, TEMP[0].xxxx
DDY OUT[0].z, TEMP[0].xxxx
DDY_FINE OUT[0].w, TEMP[0].xxxx
END
";
    let uv = Varying::affine([0.0; 4], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]);
    let out = fragment(
        text,
        &FragmentGrid::new(2, 2).with_varying(0, uv),
        &mut Resources::new(),
    );
    // d/dx of u*v is v: fine uses the pixel's own row (v = 0.5 or 1.5), coarse the quad's top
    // row (0.5). d/dy is u: fine uses the own column, coarse the left column (0.5).
    assert_eq!(out.pixel(0, 0, 0), Some([0.5, 0.5, 0.5, 0.5]));
    assert_eq!(out.pixel(0, 1, 1), Some([0.5, 1.5, 0.5, 1.5]));
    assert_eq!(out.pixel(0, 0, 1), Some([0.5, 1.5, 0.5, 0.5]));
}

#[test]
fn depth_output_writes_frag_depth() {
    let text = "FRAG
DCL OUT[0], POSITION
DCL OUT[1], COLOR
IMM[0] FLT32 {0.25, 0.75, 0.0, 1.0}
MOV OUT[0], IMM[0].xyxx
MOV OUT[1], IMM[0]
END
";
    assert!(lift_ok(text).modes.depth_replacing);
    let out = fragment(text, &FragmentGrid::new(2, 2), &mut Resources::new());
    // Only z of a POSITION output is the depth.
    assert_eq!(out.depth, vec![0.25; 4]);
}

#[test]
fn vertex_attributes_outputs_and_point_size() {
    let text = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[3]
DCL OUT[2], PSIZE
ADD OUT[0], IN[0], IN[1]
MOV OUT[1], IN[1].wzyx
MOV OUT[2].x, IN[1].wwww
END
";
    let func = lift_ok(text);
    let mut attrs = BTreeMap::new();
    attrs.insert(0, vec![[1.0, 2.0, 3.0, 4.0], [0.0; 4]]);
    attrs.insert(1, vec![[0.5, 0.5, 0.5, 8.0], [1.0, 2.0, 3.0, 4.0]]);
    let out = run_vertex(&func, &Resources::new(), 2, &attrs, &Limits::default()).unwrap();
    assert_eq!(
        out.positions,
        vec![[1.5, 2.5, 3.5, 12.0], [1.0, 2.0, 3.0, 4.0]]
    );
    assert_eq!(
        out.varyings[&3],
        vec![[8.0, 0.5, 0.5, 0.5], [4.0, 3.0, 2.0, 1.0]]
    );
    assert_eq!(out.point_sizes, vec![8.0, 4.0]);
}

#[test]
fn vertex_ids_and_indirect_immediates() {
    // graw's vert-arl pattern, with the vertex id choosing the immediate.
    let text = "VERT
DCL SV[0], VERTEXID
DCL OUT[0], POSITION
DCL ADDR[0]
IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}
IMM[1] FLT32 {0.0, 1.0, 0.0, 1.0}
UARL ADDR[0].x, SV[0].xxxx
MOV OUT[0], IMM[ADDR[0].x]
END
";
    let func = lift_ok(text);
    let out = run_vertex(
        &func,
        &Resources::new(),
        3,
        &BTreeMap::new(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(
        out.positions,
        vec![[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0], [0.0; 4]]
    );
}

#[test]
fn packed_inputs_and_outputs_follow_the_options() {
    let text = "FRAG
DCL IN[0].xyz, GENERIC[0], CONSTANT
DCL OUT[0], COLOR
MOV OUT[0].xyz, IN[0].xyzz
END
";
    let mut opts = LiftOptions::default();
    // x and y are one variable at location 0, z another at location 1.
    opts.input_slots.insert((0, 0), (0, 0));
    opts.input_slots.insert((0, 1), (0, 1));
    opts.input_slots.insert((0, 2), (1, 0));
    opts.output_locations.insert(0, 5);
    let func = lift(text, &opts).unwrap();
    let grid = FragmentGrid::new(1, 1)
        .with_varying(0, Varying::constant([1.0, 2.0, 9.0, 9.0]))
        .with_varying(1, Varying::constant([3.0, 9.0, 9.0, 9.0]));
    let out =
        agxc_egraph::interp::run_fragment(&func, &mut Resources::new(), &grid, &Limits::default())
            .unwrap();
    assert_eq!(out.pixel(5, 0, 0), Some([1.0, 2.0, 3.0, 0.0]));
}

#[test]
fn unsupported_stages_and_semantics_name_themselves() {
    let tess = "TESS_EVAL\nEND\n";
    assert!(matches!(
        lift(tess, &LiftOptions::default()),
        Err(TgsiError::UnsupportedStage {
            stage: "TESS_EVAL",
            ..
        })
    ));
    let e = lift("FRAG\nDCL IN[0], PRIM_ID\nEND\n", &LiftOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "2:1: unsupported declaration: fragment input semantic PRIM_ID"
    );
    let e = lift("VERT\nDCL OUT[0], CLIPDIST\nEND\n", &LiftOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "2:1: unsupported declaration: vertex output semantic CLIPDIST"
    );
    let e = lift(
        "COMP\nDCL TEMP[0]\nDDX TEMP[0], TEMP[0]\nEND\n",
        &LiftOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "3:1: DDX: derivatives outside fragment shaders is not supported"
    );
}

#[test]
fn kil_demote_helper_and_interpolation_opcodes() {
    let text = "FRAG
DCL IN[0].x, GENERIC[0], LINEAR
DCL OUT[0], COLOR
DCL TEMP[0]
IMM[0] FLT32 {2.0, 3.0, 0.0, 0.0}
SUB TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
KIL TEMP[0].xxxx
SUB TEMP[0].y, IMM[0].yyyy, IN[0].xxxx
IF TEMP[0].yyyy
ELSE
  DEMOTE
ENDIF
READ_HELPER OUT[0].x
INTERP_CENTROID OUT[0].y, IN[0].xxxx
INTERP_SAMPLE OUT[0].z, IN[0].xxxx, IMM[0].zzzz
MEMBAR IMM[0].zzzz
END
";
    // x + 0.5: pixels 0 and 1 are killed (x < 2), pixel 2 (2.5) lives, pixel 3 (3.5) has
    // 3 - 3.5 != 0 and lives too; a pixel at exactly 3.0 would be demoted.
    let grid = FragmentGrid::new(4, 1)
        .with_varying(0, Varying::affine([0.0; 4], [1.0, 0.0, 0.0, 0.0], [0.0; 4]));
    let out = fragment(text, &grid, &mut Resources::new());
    assert_eq!(out.dropped, vec![true, true, false, false]);
    assert_eq!(out.pixel(0, 2, 0), Some([0.0, 2.5, 2.5, 0.0]));
    let grid = FragmentGrid::new(1, 1).with_varying(0, Varying::constant([3.0, 0.0, 0.0, 0.0]));
    assert_eq!(
        fragment(text, &grid, &mut Resources::new()).dropped,
        vec![true],
        "demoted"
    );
}
