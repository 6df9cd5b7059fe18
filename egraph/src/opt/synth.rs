//! Generated shader-like functions, for the optimizer's benchmarks and limit tests.
//!
//! [`shader_like`] builds a verified compute function of about `n` instructions from a seed:
//! loads of inputs, long chains of float and integer arithmetic drawn mostly from recent values
//! (so most values are used), comparisons and selects, occasional transcendentals, constants,
//! stores every few instructions, and structured `if`s and counted `loop`s. The same seed always
//! gives the same function. [`straight_line`] is the same code in one block, [`loop_heavy`]
//! mostly loops (nested, some holding `if`s): the compile-speed benchmark's inputs.

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::ir::{
    AddressSpace, Binding, Builder, EffectOp, Function, MemAccess, PureOp, Stage, Type, Value,
};

/// The project's seeded generator: `rand_xoshiro`'s SplitMix64 (Vigna's reference algorithm,
/// so a seed gives the same sequence anywhere), with the few draws the generators and tests
/// need. Every random input in the workspace comes from here, from a fixed seed.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// The next 32 random bits (the high half of [`Rng::next_u64`]).
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
        (self.next_u64() >> 11) as f64 * SCALE
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A float in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

struct Gen<'f> {
    b: Builder<'f>,
    rng: Rng,
    /// Values visible in the current block, per nesting level.
    floats: Vec<Vec<Value>>,
    ints: Vec<Vec<Value>>,
    made: usize,
    zero: Value,
    out: MemAccess,
    /// How far back (in values of a type) an operand may reach.
    window: usize,
}

impl Gen<'_> {
    fn pick(pool: &[Vec<Value>], rng: &mut Rng, window: usize) -> Value {
        let all: usize = pool.iter().map(Vec::len).sum();
        // Mostly one of the last few values: long dependency chains, few dead values.
        let back = if rng.chance(0.8) {
            rng.below(8.min(all))
        } else {
            rng.below(all.min(window))
        };
        let mut i = all - 1 - back;
        for level in pool {
            if i < level.len() {
                return level[i];
            }
            i -= level.len();
        }
        pool[0][0]
    }

    fn float(&mut self) -> Value {
        Gen::pick(&self.floats, &mut self.rng, self.window)
    }

    fn int(&mut self) -> Value {
        Gen::pick(&self.ints, &mut self.rng, self.window)
    }

    fn push_float(&mut self, v: Value) {
        if let Some(top) = self.floats.last_mut() {
            top.push(v);
        }
    }

    fn push_int(&mut self, v: Value) {
        if let Some(top) = self.ints.last_mut() {
            top.push(v);
        }
    }

    /// One or a few straight-line instructions.
    fn step(&mut self) {
        use PureOp::*;
        let r = self.rng.below(100);
        self.made += 1;
        match r {
            0..=44 => {
                let ops = [Fadd, Fmul, Fsub, Fadd, Fmul, Fmax, Fmin, Fdiv];
                let op = ops[self.rng.below(ops.len())];
                let (a, c) = (self.float(), self.float());
                let v = self.b.pure(op, &[a, c]);
                self.push_float(v);
            }
            45..=54 => {
                let ops = [Fneg, Fabs, Floor, Sqrt, Fsat, Fract, Exp2, Log2, Sin, Cos];
                let op = ops[self.rng.below(ops.len())];
                let a = self.float();
                let v = self.b.pure(op, &[a]);
                self.push_float(v);
            }
            55..=59 => {
                let k = [0.5f32, 1.0, 2.0, 0.25, 3.0, -1.0][self.rng.below(6)];
                let c = self.b.f32(k);
                let a = self.float();
                let v = self.b.pure(Fmul, &[a, c]);
                self.made += 1;
                self.push_float(v);
            }
            60..=74 => {
                let ops = [Iadd, Imul, Isub, And, Xor, Ishl, Ushr, Or];
                let op = ops[self.rng.below(ops.len())];
                let a = self.int();
                let c = if self.rng.chance(0.5) {
                    self.made += 1;
                    self.b.i32(self.rng.below(16) as i32 + 1)
                } else {
                    self.int()
                };
                let v = self.b.pure(op, &[a, c]);
                self.push_int(v);
            }
            75..=84 => {
                let (a, c) = (self.float(), self.float());
                let cmp = self.b.pure(Flt, &[a, c]);
                let (x, y) = (self.float(), self.float());
                let v = self.b.pure(Select, &[cmp, x, y]);
                self.made += 1;
                self.push_float(v);
            }
            85..=89 => {
                let a = self.int();
                let v = self.b.convert(S2f, a, Type::F32);
                self.push_float(v);
            }
            _ => {
                let v = self.float();
                let off = self.int();
                let mask = self.b.i32(0xfc);
                let addr = self.b.pure(And, &[off, mask]);
                self.b.effect(EffectOp::Store(self.out), &[addr, v], &[]);
                self.made += 2;
            }
        }
    }

    fn straight(&mut self, n: usize) {
        let end = self.made + n;
        while self.made < end {
            self.step();
        }
    }

    fn if_block(&mut self, n: usize) {
        let (a, c) = (self.float(), self.float());
        let cond = self.b.pure(PureOp::Flt, &[a, c]);
        let (_, [t, e]) = self.b.begin_if(cond, &[Type::F32]);
        self.made += 2;
        let parent = self.b.block();
        let arm = |g: &mut Gen<'_>, block| {
            g.b.switch_to(block);
            g.floats.push(Vec::new());
            g.ints.push(Vec::new());
            g.straight(n / 2);
            let v = g.float();
            g.b.yield_(&[v]);
            g.made += 1;
            g.floats.pop();
            g.ints.pop();
        };
        arm(self, t);
        arm(self, e);
        self.b.switch_to(parent);
        let inst = self.b.func().blocks[parent].insts.last().copied();
        if let Some(r) = inst.map(|i| self.b.func().insts[i].results[0]) {
            self.push_float(r);
        }
    }

    fn loop_block(&mut self, n: usize) {
        self.loop_with(n, |_| {});
    }

    /// A counted loop whose body is `n` straight-line instructions, then `inner`.
    fn loop_with(&mut self, n: usize, inner: impl FnOnce(&mut Self)) {
        let i0 = self.b.i32(0);
        let acc0 = self.float();
        let (inst, body, params) = self.b.begin_loop(&[i0, acc0], &[Type::I32, Type::F32]);
        self.made += 2;
        let parent = self.b.block();
        self.b.switch_to(body);
        self.floats.push(vec![params[1]]);
        self.ints.push(vec![params[0]]);
        self.straight(n);
        inner(self);
        let one = self.b.i32(1);
        let next = self.b.pure(PureOp::Iadd, &[params[0], one]);
        let limit = self.b.i32(4 + self.rng.below(8) as i32);
        let more = self.b.pure(PureOp::Slt, &[next, limit]);
        let acc = self.float();
        let (_, [t, e]) = self.b.begin_if(more, &[]);
        self.b.switch_to(t);
        self.b.yield_(&[]);
        self.b.switch_to(e);
        self.b.break_(&[next, acc]);
        self.b.switch_to(body);
        self.b.continue_(&[next, acc]);
        self.made += 8;
        self.floats.pop();
        self.ints.pop();
        self.b.switch_to(parent);
        let r = self.b.results(inst).to_vec();
        self.push_int(r[0]);
        self.push_float(r[1]);
    }
}

/// The start of a generated function: a load of 8 floats and one of 4 integers to draw from.
fn start(f: &mut Function, seed: u64) -> Gen<'_> {
    let input = MemAccess {
        space: AddressSpace::Storage(Binding::new(0, 0)),
        offset: 0,
    };
    let out = MemAccess {
        space: AddressSpace::Storage(Binding::new(0, 1)),
        offset: 0,
    };
    let mut b = Builder::new(f);
    let zero = b.i32(0);
    let floats = b
        .effect(EffectOp::Load(input), &[zero], &[Type::F32; 8])
        .to_vec();
    let ints = b
        .effect(
            EffectOp::Load(MemAccess {
                offset: 32,
                ..input
            }),
            &[zero],
            &[Type::I32; 4],
        )
        .to_vec();
    Gen {
        b,
        rng: Rng::new(seed),
        floats: vec![floats],
        ints: vec![ints],
        made: 3,
        zero,
        out,
        window: usize::MAX,
    }
}

/// The end of a generated function: the rest of the `n` instructions straight-line, a store of
/// the last float and `return`.
fn finish(mut g: Gen<'_>, n: usize) {
    g.straight(n.saturating_sub(g.made + 3));
    let v = g.float();
    let z = g.zero;
    g.b.effect(EffectOp::Store(g.out), &[z, v], &[]);
    g.b.return_();
}

/// A verified compute function of about `n` instructions, the same for the same seed.
pub fn shader_like(n: usize, seed: u64) -> Function {
    let mut f = Function::new("synth", Stage::Compute);
    let mut g = start(&mut f, seed);
    while g.made + 40 < n {
        match g.rng.below(10) {
            0 if n - g.made > 120 => g.if_block(60),
            1 if n - g.made > 120 => g.loop_block(40),
            _ => g.straight(40),
        }
    }
    finish(g, n);
    f
}

/// A verified compute function of about `n` instructions in one block: [`shader_like`]'s
/// arithmetic, comparisons, selects, conversions and stores without any `if` or `loop` (the
/// backend's scheduler and register allocator see one block of `n` instructions). Operands
/// reach at most [`STRAIGHT_WINDOW`] values back, as in unrolled code, so the values live at
/// once stay within what registers and a spill frame hold however long the function is.
pub fn straight_line(n: usize, seed: u64) -> Function {
    let mut f = Function::new("synth_straight", Stage::Compute);
    let mut g = start(&mut f, seed);
    g.window = STRAIGHT_WINDOW;
    finish(g, n);
    f
}

/// How many values of a type back an operand of [`straight_line`] may reach.
pub const STRAIGHT_WINDOW: usize = 48;

/// A verified compute function of about `n` instructions that is mostly loops: counted loops
/// of about 40 instructions one after the other, every third one holding an `if` or a nested
/// loop, so most blocks are short and most values live across a loop.
pub fn loop_heavy(n: usize, seed: u64) -> Function {
    let mut f = Function::new("synth_loops", Stage::Compute);
    let mut g = start(&mut f, seed);
    while g.made + 100 < n {
        match g.rng.below(3) {
            0 => g.loop_with(20, |g| g.if_block(20)),
            1 => g.loop_with(10, |g| g.loop_block(20)),
            _ => g.loop_block(40),
        }
    }
    finish(g, n);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_close_to_the_request_and_functions_verify() {
        for n in [50, 500, 3000] {
            let f = shader_like(n, 7);
            let count = f.inst_count();
            assert!(
                count >= n * 9 / 10 && count <= n * 11 / 10 + 20,
                "asked {n}, got {count}"
            );
            assert!(crate::ir::verify(&f).is_ok());
            for g in [straight_line(n, 7), loop_heavy(n, 7)] {
                let count = g.inst_count();
                assert!(
                    count >= n * 9 / 10 && count <= n * 11 / 10 + 40,
                    "asked {n}, got {count}"
                );
                assert!(crate::ir::verify(&g).is_ok());
            }
        }
        assert_eq!(
            shader_like(300, 1).to_string(),
            shader_like(300, 1).to_string()
        );
    }
}
