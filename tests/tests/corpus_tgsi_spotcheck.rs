//! Spot checks of the recorded softpipe outputs against Rust's own arithmetic.
//!
//! The recordings are softpipe's, but whether the harness gave softpipe the right inputs (the
//! bytes `agxc_tests::corpus` generates, in the right buffers, with the right varying model and
//! row order) is checked here: for cases whose results are exact, the expected outputs are
//! recomputed from the generated inputs with plain Rust integer and f32 arithmetic.

use agxc_tests::corpus::{load_corpus, Case, OutputKey};
use agxc_tests::softpipe::generated_corpus_dir;

fn case(name: &str) -> Case {
    load_corpus(&generated_corpus_dir())
        .expect("the corpus loads")
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("case {name} exists"))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    words(bytes).into_iter().map(f32::from_bits).collect()
}

/// The generated input of the buffer at `binding`.
fn input(case: &Case, binding: u32) -> Vec<u8> {
    let inputs = case.inputs();
    let index = case
        .manifest
        .buffers
        .iter()
        .position(|b| b.binding == binding)
        .expect("buffer exists");
    inputs.buffers[index].clone()
}

fn expected(case: &Case, key: OutputKey) -> Vec<u8> {
    case.read_expected()
        .expect("recorded outputs")
        .get(&key)
        .expect("output recorded")
        .to_vec()
}

fn buffer(binding: u32) -> OutputKey {
    OutputKey::Buffer { set: 0, binding }
}

#[test]
fn storage_blocks_receive_their_own_bindings() {
    // z[i] = x[i] * 3 + y[63 - i] with x at binding 0 and y at binding 2, declared out of order.
    let c = case("ssbo_binding_order");
    let x = words(&input(&c, 0));
    let y = words(&input(&c, 2));
    let want: Vec<u32> = (0..64)
        .map(|i| x[i].wrapping_mul(3).wrapping_add(y[63 - i]))
        .collect();
    assert_eq!(words(&expected(&c, buffer(5))), want);
}

#[test]
fn bitwise_results_match_rust() {
    let c = case("int_bitwise");
    let x = words(&input(&c, 0));
    let y = words(&input(&c, 1));
    let r = words(&expected(&c, buffer(2)));
    for i in 0..64 {
        for k in 0..4 {
            let xi = x[4 * i + k];
            let yi = y[4 * i + k];
            let rev = x[4 * i + (3 - k)];
            assert_eq!(r[16 * i + k], xi & yi, "x & y at {i}.{k}");
            assert_eq!(r[16 * i + 4 + k], xi | 0x00ff_00ff, "x | c at {i}.{k}");
            assert_eq!(r[16 * i + 8 + k], xi ^ rev, "x ^ x.wzyx at {i}.{k}");
            assert_eq!(r[16 * i + 12 + k], !yi & !xi, "~y & ~x at {i}.{k}");
        }
    }
}

#[test]
fn shifts_match_rust() {
    let c = case("int_shifts");
    let x = words(&input(&c, 0));
    let r = words(&expected(&c, buffer(1)));
    for i in 0..64u32 {
        let n = [i % 32, (i + 7) % 32, (i * 3) % 32, (31 - i % 32) % 32];
        for k in 0..4 {
            let v = x[(4 * i) as usize + k];
            let base = (12 * i) as usize + k;
            assert_eq!(r[base], v << n[k], "shl at {i}.{k}");
            assert_eq!(r[base + 4], ((v as i32) >> n[k]) as u32, "ishr at {i}.{k}");
            assert_eq!(r[base + 8], v >> n[k], "ushr at {i}.{k}");
        }
    }
}

#[test]
fn exact_float_arithmetic_matches_rust() {
    // Rows 0 and 1 of each element: x + y and x - y * 0.5, each a single rounding (y * 0.5 is
    // exact), so softpipe and Rust agree bit for bit.
    let c = case("fmath_arith");
    let a = floats(&input(&c, 0));
    let b = floats(&input(&c, 1));
    let r = floats(&expected(&c, buffer(2)));
    for i in 0..128 {
        for k in 0..4 {
            let (x, y) = (a[4 * i + k], b[4 * i + k]);
            assert_eq!(
                r[16 * i + k].to_bits(),
                (x + y).to_bits(),
                "x + y at {i}.{k}"
            );
            assert_eq!(
                r[16 * i + 4 + k].to_bits(),
                (x - y * 0.5).to_bits(),
                "x - y * 0.5 at {i}.{k}"
            );
        }
    }
}

#[test]
fn shared_memory_reduction_sums_each_workgroup() {
    // The inputs are multiples of 1/8 with small magnitudes, so every partial sum is exact.
    let c = case("shared_reduction");
    let a = floats(&input(&c, 0));
    let want: Vec<f32> = a.chunks(64).map(|g| g.iter().sum()).collect();
    assert_eq!(floats(&expected(&c, buffer(1))), want);
}

#[test]
fn fragment_outputs_follow_the_varying_model_and_row_order() {
    // second = (a.x + a.y, a.z - a.w, -a.x, 1) with `a` from the affine model at each pixel
    // centre; rows are stored top (y = 0) first. The varyings are dyadic, so exact.
    let c = case("frag_multiple_targets");
    let [w, h] = c.manifest.size.expect("fragment size");
    let v = &c.manifest.varyings[0];
    let second = floats(&expected(&c, OutputKey::Target { location: 1 }));
    let first = floats(&expected(&c, OutputKey::Target { location: 0 }));
    for y in 0..h {
        for x in 0..w {
            let a: Vec<f32> = v
                .words_at_pixel(x, y)
                .into_iter()
                .map(f32::from_bits)
                .collect();
            let p = ((y * w + x) * 4) as usize;
            assert_eq!(
                &second[p..p + 4],
                &[a[0] + a[1], a[2] - a[3], -a[0], 1.0],
                "pixel {x},{y}"
            );
            let squares: Vec<f32> = a.iter().map(|c| c * c).collect();
            assert_eq!(&first[p..p + 4], squares.as_slice(), "pixel {x},{y}");
        }
    }
}

#[test]
fn frag_coord_is_the_pixel_centre_with_row_zero_on_top() {
    let c = case("frag_fragcoord");
    let [w, h] = c.manifest.size.expect("fragment size");
    let out = floats(&expected(&c, OutputKey::Target { location: 0 }));
    for y in 0..h {
        for x in 0..w {
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let checker = (((x / 4) + (y / 4)) & 1) as f32;
            // Depth of a triangle at NDC z = 0 is 0.5.
            let gradient = cx * 0.125 - cy * 0.0625 + 0.5;
            let p = ((y * w + x) * 4) as usize;
            assert_eq!(
                &out[p..p + 4],
                &[cx, cy, checker, gradient],
                "pixel {x},{y}"
            );
        }
    }
}

#[test]
fn texel_fetch_reads_levels_in_corpus_layout() {
    // color = texel(level 0, c % 8) - texel(level 1, (c / 2) % 4) with c the pixel; texels are
    // RGBA32F stored level by level, rows top to bottom (tests/corpus/README.md).
    let c = case("frag_texel_fetch");
    let [w, h] = c.manifest.size.expect("fragment size");
    let texels = floats(&c.inputs().textures[0]);
    let layout = c.manifest.textures[0].layout();
    let texel = |level: usize, x: u32, y: u32| -> [f32; 4] {
        let l = layout[level];
        let at = l.offset / 4 + ((y * l.width + x) * 4) as usize;
        [texels[at], texels[at + 1], texels[at + 2], texels[at + 3]]
    };
    let out = floats(&expected(&c, OutputKey::Target { location: 0 }));
    for y in 0..h {
        for x in 0..w {
            let a = texel(0, x % 8, y % 8);
            let b = texel(1, (x / 2) % 4, (y / 2) % 4);
            let want = [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]];
            let p = ((y * w + x) * 4) as usize;
            assert_eq!(&out[p..p + 4], &want, "pixel {x},{y}");
        }
    }
}
