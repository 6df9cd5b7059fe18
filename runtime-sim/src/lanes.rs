//! Element-wise helpers over the 32 lanes of a SIMD-group. Written as plain indexed loops:
//! `[T; N]::map` and `std::array::from_fn` go through closures the optimiser does not always
//! flatten, and these run once per instruction on the simulator's hot path.

/// `f` applied to every lane of `a`.
#[inline(always)]
pub fn map<T: Copy, U: Copy + Default>(a: &[T; 32], f: impl Fn(T) -> U) -> [U; 32] {
    let mut out = [U::default(); 32];
    for i in 0..32 {
        out[i] = f(a[i]);
    }
    out
}

/// `f` applied lane by lane to `a` and `b`.
#[inline(always)]
pub fn zip<T: Copy, V: Copy, U: Copy + Default>(
    a: &[T; 32],
    b: &[V; 32],
    f: impl Fn(T, V) -> U,
) -> [U; 32] {
    let mut out = [U::default(); 32];
    for i in 0..32 {
        out[i] = f(a[i], b[i]);
    }
    out
}

/// `f` applied lane by lane to `a`, `b` and `c`.
#[inline(always)]
pub fn zip3<T: Copy, V: Copy, W: Copy, U: Copy + Default>(
    a: &[T; 32],
    b: &[V; 32],
    c: &[W; 32],
    f: impl Fn(T, V, W) -> U,
) -> [U; 32] {
    let mut out = [U::default(); 32];
    for i in 0..32 {
        out[i] = f(a[i], b[i], c[i]);
    }
    out
}

/// `f(lane)` for every lane.
#[inline(always)]
pub fn each<U: Copy + Default>(f: impl Fn(usize) -> U) -> [U; 32] {
    let mut out = [U::default(); 32];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = f(i);
    }
    out
}
