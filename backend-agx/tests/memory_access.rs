//! Memory access selection: push ranges (uniform-buffer words preloaded into uniform
//! registers, see `abi::ranges`), the vectorizer (`vectorize`) and addressing. Every shader
//! runs against the interpreter at -O0 and -O2 (`check_compute`).

mod common;

use agxc::sim;
use agxc_backend_agx::abi::{PushRange, UniformContent};
use agxc_backend_agx::{Binary, CompileOptions};
use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::Binding;
use common::{at_level, build, check_compute, parse, Level, Out, Tol};

fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn count(b: &Binary, what: &str) -> usize {
    b.disassembly.lines().filter(|l| l.contains(what)).count()
}

/// Odd threads read `ubo[2]`, even ones `ubo[2] + ubo[3]`: the same field in two branches.
const TWO_BRANCHES: &str = "function @ubo compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 1
    v2:i32 = and v0, v1
    v3:i32 = const 0
    v4:bool = ine v2, v3
    v5:i32 = const 4
    v6:i32 = imul v0, v5
    v7:i32 = const 8
    v8:f32 = if v4 {
    block1:
        v9:f32 = load uniform(0, 1) [v7]
        v10:f32 = fmul v9, v9
        yield v10
    } else {
    block2:
        v11:f32 = load uniform(0, 1) [v7]
        v12:i32 = const 12
        v13:f32 = load uniform(0, 1) [v12]
        v14:f32 = fadd v11, v13
        yield v14
    }
    store storage(0, 0) [v6], v8
    return
}";

#[test]
fn a_uniform_field_read_in_two_branches_is_preloaded() {
    let func = parse(TWO_BRANCHES);
    let mut res = Resources::default();
    res.bind_uniform(Binding::new(0, 1), bytes(&[0.0, 0.0, 1.5, -4.25]));
    res.bind_storage(Binding::new(0, 0), vec![0; 4 * 64]);
    let out = [Out::F32(Binding::new(0, 0), Tol::ulps(0))];
    let binaries = check_compute(&func, &res, [2, 1, 1], &out);
    for b in &binaries {
        assert_eq!(count(b, "device_load"), 0, "{}", b.disassembly);
        assert!(b
            .metadata
            .abi
            .uniform(UniformContent::BufferAddress(Binding::new(0, 1)))
            .is_none());
        let ranges = b.metadata.abi.push_ranges();
        assert_eq!(ranges.len(), 1, "{ranges:?}");
        let PushRange {
            binding,
            offset,
            words,
            ..
        } = ranges[0];
        assert_eq!((binding, offset, words), (Binding::new(0, 1), 8, 2));
    }
    // The same binary, dispatched again with other uniform contents, follows them.
    let binary = &binaries[1];
    for contents in [[0.0, 0.0, 3.0, 0.5], [9.0, 9.0, -2.0, 7.0]] {
        let mut run = res.clone();
        run.bind_uniform(Binding::new(0, 1), bytes(&contents));
        let mut want = run.clone();
        if let Err(e) = interp::run_compute(&func, &mut want, [2, 1, 1], &Limits::default()) {
            panic!("interpreter: {e}");
        }
        if let Err(e) = sim::run_compute(binary, &mut run, [2, 1, 1]) {
            panic!("{e}\n{}", binary.disassembly);
        }
        assert_eq!(
            run.buffer_data(Binding::new(0, 0)),
            want.buffer_data(Binding::new(0, 0)),
            "contents {contents:?}"
        );
    }
}

/// A dynamic index still loads from memory, next to a preloaded constant-offset read.
#[test]
fn dynamic_uniform_offsets_keep_their_loads() {
    let func = parse(
        "function @dyn compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:i32 = and v0, v1
    v3:i32 = const 4
    v4:i32 = imul v2, v3
    v5:f32 = load uniform(0, 1) [v4]
    v6:i32 = const 16
    v7:f32 = load uniform(0, 1) [v6]
    v8:f32 = fadd v5, v7
    v9:i32 = imul v0, v3
    store storage(0, 0) [v9], v8
    return
}",
    );
    let mut res = Resources::default();
    res.bind_uniform(Binding::new(0, 1), bytes(&[1.0, 2.0, 4.0, 8.0, 0.25]));
    res.bind_storage(Binding::new(0, 0), vec![0; 4 * 32]);
    let out = [Out::F32(Binding::new(0, 0), Tol::ulps(0))];
    for b in check_compute(&func, &res, [1, 1, 1], &out) {
        assert_eq!(count(&b, "device_load"), 1, "{}", b.disassembly);
        let abi = &b.metadata.abi;
        assert!(abi
            .uniform(UniformContent::BufferAddress(Binding::new(0, 1)))
            .is_some());
        assert!(abi
            .uniform(UniformContent::BufferWord(Binding::new(0, 1), 4))
            .is_some());
    }
}

/// `o[6*i + k] = ...` for k = 0..5: one four- and one two-element store, `6*i` computed once.
const SIX: &str = "function @six compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 2
    v2:i32 = ishl v0, v1
    v3:f32 = load storage(0, 1) [v2]
    v4:i32 = const 6
    v5:i32 = imul v0, v4
    v6:i32 = ishl v5, v1
    store storage(0, 0) [v6], v3
    v7:i32 = const 1
    v8:i32 = iadd v5, v7
    v9:i32 = ishl v8, v1
    v10:f32 = const 1.0
    v11:f32 = fadd v3, v10
    store storage(0, 0) [v9], v11
    v12:i32 = iadd v5, v1
    v13:i32 = ishl v12, v1
    v14:f32 = const 2.0
    v15:f32 = fmul v3, v14
    store storage(0, 0) [v13], v15
    v16:i32 = const 3
    v17:i32 = iadd v5, v16
    v18:i32 = ishl v17, v1
    v19:f32 = const 3.0
    v20:f32 = fsub v3, v19
    store storage(0, 0) [v18], v20
    v21:i32 = const 4
    v22:i32 = iadd v5, v21
    v23:i32 = ishl v22, v1
    v24:f32 = fmul v3, v3
    store storage(0, 0) [v23], v24
    v25:i32 = const 5
    v26:i32 = iadd v5, v25
    v27:i32 = ishl v26, v1
    v28:f32 = const 5.0
    v29:f32 = fadd v3, v28
    store storage(0, 0) [v27], v29
    return
}";

#[test]
fn six_adjacent_stores_become_two() {
    let func = parse(SIX);
    let mut res = Resources::default();
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.5 - 7.0).collect();
    res.bind_storage(Binding::new(0, 1), bytes(&x));
    res.bind_storage(Binding::new(0, 0), vec![0; 4 * 6 * 64]);
    let out = [Out::F32(Binding::new(0, 0), Tol::ulps(0))];
    for b in check_compute(&func, &res, [2, 1, 1], &out) {
        assert_eq!(count(&b, "device_store"), 2, "{}", b.disassembly);
        // The address: `6*i` once (a multiply-add), nothing per element.
        let integer = count(&b, "imadd") + count(&b, " iadd ") + count(&b, "bfeil");
        assert!(integer <= 2, "{}", b.disassembly);
    }
}

/// The same stores with a load of the same buffer between the second and the third: the
/// load may read what the second wrote, so the stores around it are not merged across it.
#[test]
fn stores_around_a_possibly_aliasing_load_are_not_merged() {
    let text = SIX.replace(
        "    v12:i32 = iadd v5, v1\n",
        "    v30:f32 = load storage(0, 0) [v2]\n    v12:i32 = iadd v5, v1\n",
    );
    let text = text.replace("v15:f32 = fmul v3, v14", "v15:f32 = fmul v30, v14");
    let func = parse(&text);
    let mut res = Resources::default();
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.5 - 7.0).collect();
    res.bind_storage(Binding::new(0, 1), bytes(&x));
    res.bind_storage(Binding::new(0, 0), vec![0; 4 * 6 * 64]);
    let out = [Out::F32(Binding::new(0, 0), Tol::ulps(0))];
    for b in check_compute(&func, &res, [2, 1, 1], &out) {
        // Stores 0-1 merge, 2-5 merge; none crosses the load.
        assert_eq!(count(&b, "device_store"), 2, "{}", b.disassembly);
        assert_eq!(
            count(&b, "0b0011, lsl") + count(&b, "0b0011, slot"),
            1,
            "{}",
            b.disassembly
        );
    }
}

/// Adjacent loads of a storage buffer merge; a store between two loads keeps them apart.
#[test]
fn adjacent_loads_merge_unless_a_store_intervenes() {
    let load3 = |store_between: bool| {
        let mid = if store_between {
            "    store storage(0, 1) [v9], v5\n"
        } else {
            ""
        };
        format!(
            "function @ld compute local_size(32, 1, 1) {{
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:i32 = imul v0, v1
    v3:i32 = const 2
    v4:i32 = ishl v2, v3
    v5:f32 = load storage(0, 1) [v4]
    v6:i32 = const 1
    v7:i32 = iadd v2, v6
    v8:i32 = ishl v7, v3
    v9:i32 = const 4
{mid}    v10:f32 = load storage(0, 1) [v8]
    v11:i32 = iadd v2, v3
    v12:i32 = ishl v11, v3
    v13:f32 = load storage(0, 1) [v12]
    v14:f32 = fadd v5, v10
    v15:f32 = fmul v14, v13
    v16:i32 = ishl v0, v3
    store storage(0, 0) [v16], v15
    return
}}"
        )
    };
    for (between, loads) in [(false, 1), (true, 2)] {
        let func = parse(&load3(between));
        let mut res = Resources::default();
        let x: Vec<f32> = (0..200).map(|i| i as f32 * 0.25 + 1.0).collect();
        res.bind_storage(Binding::new(0, 1), bytes(&x));
        res.bind_storage(Binding::new(0, 0), vec![0; 4 * 64]);
        let out = [
            Out::F32(Binding::new(0, 0), Tol::ulps(1)),
            Out::F32(Binding::new(0, 1), Tol::ulps(0)),
        ];
        for b in check_compute(&func, &res, [2, 1, 1], &out) {
            assert_eq!(count(&b, "device_load"), loads, "{}", b.disassembly);
        }
    }
}

#[test]
fn unoptimized_and_optimized_agree_on_the_layout() {
    // The ABI is laid out from the vectorized function at both levels.
    let func = parse(TWO_BRANCHES);
    for level in [Level::O0, Level::O2] {
        let b = build(&at_level(&func, level), &CompileOptions::default());
        assert!(
            b.metadata
                .abi
                .to_string()
                .contains("uniform buffer (0, 1) bytes 8..12"),
            "{}",
            b.metadata.abi
        );
    }
}
