//! Instruction selection forms: what the backend emits for small functions, checked on the
//! disassembly (the forms, not the register numbers, which the allocator chooses). The
//! end-to-end tests check that the results are right; these check that they come out in the
//! intended shape: modifiers folded, immediates used, comparisons fused.

mod common;

use agxc_backend_agx::CompileOptions;
use common::*;

/// The disassembly of a compute function whose body is `body` (v0 = global_id.x, v1 = 4,
/// v2 = v0 * 4, v3 = an f32 load, v4 = an i32 load are available), at -O0.
fn asm(body: &str) -> Vec<String> {
    let text = format!(
        "function @forms compute local_size(32, 1, 1) {{
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:f32 = load storage(0, 0) [v2]
             v4:i32 = load storage(0, 1) [v2]
             {body}
             return
         }}"
    );
    let f = parse(&text);
    let opts = CompileOptions {
        hints: false,
        ..CompileOptions::default()
    };
    build(&f, &opts)
        .disassembly
        .lines()
        .map(|l| l.split_whitespace().skip(2).collect::<Vec<_>>().join(" "))
        .collect()
}

/// Whether some line starts with `prefix` and contains every one of `parts`.
fn has(lines: &[String], prefix: &str, parts: &[&str]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with(prefix) && parts.iter().all(|p| l.contains(p)))
}

#[test]
fn neg_and_abs_fold_into_float_sources() {
    let l = asm("v5:f32 = fabs v3
                 v6:f32 = fneg v5
                 v7:f32 = fmul v6, v3
                 store storage(0, 2) [v2], v7");
    assert!(has(&l, "fmul32", &[".abs.neg"]), "{l:#?}");
    // Folded: no separate negation or absolute value.
    assert_eq!(
        l.iter().filter(|x| x.starts_with("fadd32")).count(),
        0,
        "{l:#?}"
    );
}

#[test]
fn saturate_folds_into_its_operand() {
    let l = asm("v5:f32 = fadd v3, v3
                 v6:f32 = fsat v5
                 store storage(0, 2) [v2], v6");
    assert!(has(&l, "fadd32", &[".sat"]), "{l:#?}");
    assert_eq!(
        l.iter().filter(|x| x.starts_with("fadd32")).count(),
        1,
        "{l:#?}"
    );
}

/// Constants no immediate holds come from the constant pool's uniforms (`promote`), not
/// `mov_imm`, when every user takes a uniform operand.
#[test]
fn small_float_constants_are_immediates_others_uniforms() {
    let l = asm("v5:f32 = const 0.5
                 v6:f32 = fmul v3, v5
                 v7:f32 = const 3.14159
                 v8:f32 = fadd v6, v7
                 store storage(0, 2) [v2], v8");
    assert!(has(&l, "fmul32", &[", 0.5"]), "{l:#?}");
    assert!(has(&l, "fadd32", &[", u"]), "{l:#?}");
    assert!(!has(&l, "mov_imm", &[]), "{l:#?}");
}

#[test]
fn integer_immediates_and_sixteen_bit_uniforms() {
    let l = asm("v5:i32 = const 200
                 v6:i32 = iadd v4, v5
                 v7:i16 = itrunc v6
                 v8:i16 = const 1000
                 v9:i16 = iadd v7, v8
                 v10:i32 = sext v9
                 store storage(0, 2) [v2], v10");
    assert!(has(&l, "iadd", &[", 200"]), "{l:#?}");
    // The 16-bit constant is read from the low half of its constant-pool uniform.
    assert!(
        l.iter()
            .any(|x| x.starts_with("iadd r") && x.contains("l, u") && x.ends_with('l')),
        "{l:#?}"
    );
    assert!(!has(&l, "mov_imm", &[]), "{l:#?}");
}

#[test]
fn comparisons_fuse_into_selects_and_branches() {
    let l = asm("v5:f32 = const 1.0
                 v6:bool = flt v3, v5
                 v7:f32 = select v6, v3, v5
                 v8:bool = sgt v4, v1
                 v9:f32 = if v8 {
                 block1:
                     yield v7
                 } else {
                 block2:
                     yield v3
                 }
                 store storage(0, 2) [v2], v9");
    assert!(has(&l, "fcmpsel", &[", lt,"]), "{l:#?}");
    // The branch tests the comparison itself (inverted when its then arm ended up empty).
    assert!(
        has(&l, "if_icmp", &["sgt"]) || has(&l, "if_icmp", &["sle"]),
        "{l:#?}"
    );
    // Neither comparison needs a bool register of its own.
    assert_eq!(
        l.iter().filter(|x| x.starts_with("icmpsel")).count(),
        0,
        "{l:#?}"
    );
}

#[test]
fn sqrt_and_sine_use_the_errata_sequences() {
    let l = asm("v5:f32 = sqrt v3
                 v6:f32 = sin v5
                 store storage(0, 2) [v2], v6");
    assert!(has(&l, "rsqrt_special", &[]), "{l:#?}");
    assert!(
        has(&l, "sin_pt_1", &[]) && has(&l, "sin_pt_2", &[]),
        "{l:#?}"
    );
    assert!(has(&l, "floor", &[]), "{l:#?}");
}

#[test]
fn scaled_offsets_use_the_element_index() {
    let l = asm("v5:i32 = const 8
                 v6:i32 = imul v0, v5
                 v7:f32 = load storage(0, 0) [v6]
                 store storage(0, 2) [v2], v7");
    // id * 8 for 4-byte elements: the id register with the instruction's extra shift of 1;
    // no multiply.
    assert!(has(&l, "device_load", &["lsl 1"]), "{l:#?}");
    assert_eq!(
        l.iter().filter(|x| x.starts_with("imadd")).count(),
        0,
        "{l:#?}"
    );
}
