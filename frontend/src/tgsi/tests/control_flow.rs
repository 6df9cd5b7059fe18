//! IF/UIF/ELSE, loops with BRK/CONT/BREAKC, subroutines, RET, and indirect addressing,
//! with lanes that diverge.

use super::harness::{as_f, compute, compute_program, compute_text_with_tail, f, i, BODY_START};
use crate::tgsi::LiftOptions;

fn lane(t0: [u32; 4], t1: [u32; 4], t2: [u32; 4]) -> [[u32; 4]; 4] {
    [t0, t1, t2, [0; 4]]
}

#[test]
fn if_else_takes_the_float_condition_per_lane() {
    let body = "IF TEMP[0].xxxx\n  MOV TEMP[4].x, TEMP[1].xxxx\nELSE\n  MOV TEMP[4].x, TEMP[1].yyyy\nENDIF";
    let t1 = f([10.0, 20.0, 0.0, 0.0]);
    let xs = [1.0, 0.0, f32::NAN, -0.0];
    let inputs: Vec<_> = xs
        .iter()
        .map(|&x| lane(f([x, 0.0, 0.0, 0.0]), t1, [0; 4]))
        .collect();
    let out = compute("", body, &inputs);
    // x != 0.0 is true for NaN and false for -0.0.
    let got: Vec<f32> = out.iter().map(|o| as_f(o[0])[0]).collect();
    assert_eq!(got, vec![10.0, 20.0, 10.0, 20.0]);
}

#[test]
fn uif_tests_the_bits() {
    let body = "UIF TEMP[0].yyyy\n  UADD TEMP[4].x, TEMP[1].xxxx, TEMP[1].yyyy\nENDIF\nMOV TEMP[4].y, TEMP[1].xxxx";
    let t1 = i([5, 7, 0, 0]);
    let ys = [0u32, 1, 0x8000_0000, 0];
    let inputs: Vec<_> = ys.iter().map(|&y| lane([0, y, 0, 0], t1, [0; 4])).collect();
    let out = compute("", body, &inputs);
    let got: Vec<[u32; 2]> = out.iter().map(|o| [o[0][0], o[0][1]]).collect();
    assert_eq!(got, vec![[0, 5], [12, 5], [12, 5], [0, 5]]);
}

#[test]
fn nested_ifs_thread_values_out() {
    let body = "MOV TEMP[4].x, TEMP[1].wwww
UIF TEMP[0].xxxx
  UIF TEMP[0].yyyy
    MOV TEMP[4].x, TEMP[1].xxxx
  ELSE
    MOV TEMP[4].x, TEMP[1].yyyy
  ENDIF
ELSE
  MOV TEMP[4].x, TEMP[1].zzzz
ENDIF";
    let t1 = [1, 2, 3, 4];
    let cases = [([1, 1], 1), ([1, 0], 2), ([0, 1], 3), ([0, 0], 3)];
    let inputs: Vec<_> = cases
        .iter()
        .map(|(c, _)| lane([c[0], c[1], 0, 0], t1, [0; 4]))
        .collect();
    let out = compute("", body, &inputs);
    for ((_, want), o) in cases.iter().zip(&out) {
        assert_eq!(o[0][0], *want);
    }
}

const COUNTING: &str = "IMM[1] UINT32 {0, 1, 2, 3}";

#[test]
fn loop_with_break_sums_below_n() {
    let body = "MOV TEMP[4].x, IMM[1].xxxx
MOV TEMP[5].x, IMM[1].xxxx
BGNLOOP
  USGE TEMP[6].x, TEMP[5].xxxx, TEMP[0].xxxx
  UIF TEMP[6].xxxx
    BRK
  ENDIF
  UADD TEMP[4].x, TEMP[4].xxxx, TEMP[5].xxxx
  UADD TEMP[5].x, TEMP[5].xxxx, IMM[1].yyyy
ENDLOOP";
    let ns = [0u32, 1, 5, 10];
    let inputs: Vec<_> = ns
        .iter()
        .map(|&n| lane([n, 0, 0, 0], [0; 4], [0; 4]))
        .collect();
    let out = compute(COUNTING, body, &inputs);
    for (&n, o) in ns.iter().zip(&out) {
        assert_eq!(o[0][0], (0..n).sum::<u32>(), "sum below {n}");
        assert_eq!(o[1][0], n, "the counter leaves the loop");
    }
}

#[test]
fn loop_with_continue_skips_odd_numbers() {
    let body = "MOV TEMP[4].x, IMM[1].xxxx
MOV TEMP[5].x, IMM[1].xxxx
BGNLOOP
  USGE TEMP[6].x, TEMP[5].xxxx, TEMP[0].xxxx
  UIF TEMP[6].xxxx
    BRK
  ENDIF
  UADD TEMP[5].x, TEMP[5].xxxx, IMM[1].yyyy
  AND TEMP[6].x, TEMP[5].xxxx, IMM[1].yyyy
  UIF TEMP[6].xxxx
    CONT
  ENDIF
  UADD TEMP[4].x, TEMP[4].xxxx, TEMP[5].xxxx
ENDLOOP";
    let ns = [0u32, 1, 5, 10];
    let inputs: Vec<_> = ns
        .iter()
        .map(|&n| lane([n, 0, 0, 0], [0; 4], [0; 4]))
        .collect();
    let out = compute(COUNTING, body, &inputs);
    for (&n, o) in ns.iter().zip(&out) {
        let want: u32 = (1..=n).filter(|i| i % 2 == 0).sum();
        assert_eq!(o[0][0], want, "even numbers up to {n}");
    }
}

#[test]
fn breakc_and_nested_loops() {
    // Counts pairs (i, j) with j < i < n, breaking the inner loop with BREAKC.
    let body = "MOV TEMP[4].x, IMM[1].xxxx
MOV TEMP[5].x, IMM[1].xxxx
BGNLOOP
  USGE TEMP[6].x, TEMP[5].xxxx, TEMP[0].xxxx
  BREAKC TEMP[6].xxxx
  MOV TEMP[5].y, IMM[1].xxxx
  BGNLOOP
    USGE TEMP[6].y, TEMP[5].yyyy, TEMP[5].xxxx
    BREAKC TEMP[6].yyyy
    UADD TEMP[4].x, TEMP[4].xxxx, IMM[1].yyyy
    UADD TEMP[5].y, TEMP[5].yyyy, IMM[1].yyyy
  ENDLOOP
  UADD TEMP[5].x, TEMP[5].xxxx, IMM[1].yyyy
ENDLOOP";
    let ns = [0u32, 1, 4, 7];
    let inputs: Vec<_> = ns
        .iter()
        .map(|&n| lane([n, 0, 0, 0], [0; 4], [0; 4]))
        .collect();
    let out = compute(COUNTING, body, &inputs);
    for (&n, o) in ns.iter().zip(&out) {
        assert_eq!(o[0][0], n * n.saturating_sub(1) / 2, "pairs below {n}");
    }
}

#[test]
fn subroutines_are_inlined_with_their_returns() {
    let body = "MOV TEMP[4].x, TEMP[0].xxxx\nCAL :SUB\nUADD TEMP[4].y, TEMP[4].xxxx, IMM[1].yyyy";
    // Body: 3 instructions; then 2 STOREs and END; the subroutine starts right after.
    let sub_at = BODY_START + 3 + 3;
    let body = body.replace(":SUB", &format!(":{sub_at}"));
    let tail = "BGNSUB
  USLT TEMP[6].x, TEMP[4].xxxx, IMM[1].zzzz
  UIF TEMP[6].xxxx
    MOV TEMP[4].x, IMM[1].wwww
    RET
  ENDIF
  UMUL TEMP[4].x, TEMP[4].xxxx, IMM[1].zzzz
  RET
ENDSUB";
    let xs = [0u32, 1, 2, 5];
    let inputs: Vec<_> = xs
        .iter()
        .map(|&x| lane([x, 0, 0, 0], [0; 4], [0; 4]))
        .collect();
    let text = compute_text_with_tail(xs.len(), COUNTING, &body, tail);
    let out = compute_program(&text, &inputs, &LiftOptions::default(), |_| {});
    for (&x, o) in xs.iter().zip(&out) {
        let after = if x < 2 { 3 } else { x * 2 };
        assert_eq!([o[0][0], o[0][1]], [after, after + 1], "x = {x}");
    }
}

#[test]
fn ret_in_main_ends_the_lane() {
    // Lanes with TEMP[1].x set store TEMP[0] themselves and return before the wrapper's stores.
    let body = "MOV TEMP[4], TEMP[2]\nUIF TEMP[1].xxxx\n  STORE BUFFER[1], TEMP[9].xxxx, TEMP[0]\n  RET\nENDIF";
    let inputs = [
        lane([1, 2, 3, 4], [1, 0, 0, 0], [7; 4]),
        lane([1, 2, 3, 4], [0; 4], [7; 4]),
    ];
    let out = compute("", body, &inputs);
    assert_eq!(out[0], [[1, 2, 3, 4], [0; 4]]);
    assert_eq!(out[1], [[7; 4], [0; 4]]);
}

#[test]
fn temp_arrays_are_indexed_through_addr() {
    let decls = "DCL TEMP[10..13], ARRAY(1)\nDCL ADDR[0]";
    let body = "MOV TEMP[10], TEMP[1].xxxx
MOV TEMP[11], TEMP[1].yyyy
MOV TEMP[12], TEMP[1].zzzz
MOV TEMP[13], TEMP[1].wwww
UARL ADDR[0].x, TEMP[0].xxxx
MOV TEMP[4], TEMP[ADDR[0].x+10](1)
MOV TEMP[ADDR[0].x+11](1).y, TEMP[2].xxxx
MOV TEMP[5].x, TEMP[10].yyyy
MOV TEMP[5].y, TEMP[11].yyyy
MOV TEMP[5].z, TEMP[12].yyyy
MOV TEMP[5].w, TEMP[13].yyyy";
    let t1 = [1, 2, 3, 4];
    let xs = [0u32, 1, 3, 7];
    let inputs: Vec<_> = xs
        .iter()
        .map(|&x| lane([x, 0, 0, 0], t1, [99, 0, 0, 0]))
        .collect();
    let out = compute(decls, body, &inputs);
    // Reads: TEMP[10], TEMP[11], TEMP[13], and zero outside the array. Writes to .y of
    // TEMP[11], TEMP[12]; index 14 and 18 are outside and write nothing.
    assert_eq!(out[0], [[1; 4], [1, 99, 3, 4]]);
    assert_eq!(out[1], [[2; 4], [1, 2, 99, 4]]);
    assert_eq!(out[2], [[4; 4], [1, 2, 3, 4]]);
    assert_eq!(out[3], [[0; 4], [1, 2, 3, 4]]);
}

#[test]
fn immediates_are_indexed_through_addr() {
    // vert-arl style: ARL floors a float into ADDR, IMM[ADDR[0].x + 1] picks an immediate.
    let decls = "DCL ADDR[0]\nIMM[1] FLT32 {1.0, 0.0, 0.0, 1.0}\nIMM[2] FLT32 {0.0, 1.0, 0.0, 1.0}\nIMM[3] FLT32 {0.0, 0.0, 1.0, 1.0}";
    let body = "ARL ADDR[0].x, TEMP[0]\nMOV TEMP[4], IMM[ADDR[0].x + 1]";
    let xs = [0.5f32, 1.9, 2.0, -0.5];
    let inputs: Vec<_> = xs
        .iter()
        .map(|&x| lane(f([x, 0.0, 0.0, 0.0]), [0; 4], [0; 4]))
        .collect();
    let out = compute(decls, body, &inputs);
    assert_eq!(as_f(out[0][0]), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(as_f(out[1][0]), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(as_f(out[2][0]), [0.0, 0.0, 1.0, 1.0]);
    // floor(-0.5) + 1 = 0 is IMM[0], the wrapper's {64, 16, 32, 48} (as floats).
    assert_eq!(out[3][0], [64, 16, 32, 48]);
}
