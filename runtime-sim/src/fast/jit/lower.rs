//! Lowering of a piece of a straight run to Cranelift IR.
//!
//! The function made for a piece takes the SIMD-group's register rows, the uniforms and the
//! execution mask expanded to 32 words (all ones or zero per lane), and loops over the 32 lanes
//! four at a time (`I32X4`). Within one chunk of four lanes every operation of the piece runs
//! in order on SSA values: a register row is loaded from memory at its first read, kept in a
//! host register (or wherever Cranelift's allocator puts it) while the piece runs, and stored
//! once at the end, blended with its old value under the execution mask. That is the same
//! result as the interpreter's instruction-by-instruction masked writes, because every
//! operation a piece holds computes each lane from the same lane only: an inactive lane's
//! intermediate values are computed but never stored.
//!
//! Each operation computes exactly what `fast::alu` computes for it (which is what the
//! reference computes): the same flushes, default NaNs, saturation, conversions and shift
//! rules, with the host's IEEE arithmetic in round-to-nearest (the x86-64 SSE and AArch64 NEON
//! lanes Cranelift emits round as Rust's `f32` operations do, and neither flushes denormals:
//! the flushes are explicit here, as in the interpreter).

use std::collections::{BTreeMap, HashMap, HashSet};

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32, I32X4};
use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;

use super::super::ops::{Cmp32, Dst32, FSrc32, IntTarget, Kind, RoundOp, Src32};
use super::bits::Amount;
use crate::decode::inst::{FRel, FUnaryOp, IRel};
use crate::float::DEFAULT_NAN_32;

/// Whether `kind` is compiled; the others run on the interpreter between compiled pieces.
pub(super) fn supported(kind: &Kind) -> bool {
    match kind {
        Kind::Mov { .. }
        | Kind::Iadd { .. }
        | Kind::Imadd { .. }
        | Kind::Bitop { .. }
        | Kind::Bitfield { .. }
        | Kind::F32ToInt { .. }
        | Kind::Fadd { .. }
        | Kind::Fmul { .. }
        | Kind::Fma { .. }
        | Kind::FRound { .. }
        | Kind::Select { .. }
        | Kind::Wait(_) => true,
        Kind::Asr { high, .. } => !high,
        Kind::IntToF32 { rte, .. } => *rte,
        Kind::FUnary { op, .. } => *op == FUnaryOp::Rcp,
        _ => false,
    }
}

/// The uniform sources of `kind`.
fn uniform_sources(kind: &Kind, out: &mut Vec<Src32>) {
    let mut add = |s: Src32| {
        if matches!(s, Src32::U(_) | Src32::Uh(_) | Src32::Uhs(_)) && !out.contains(&s) {
            out.push(s);
        }
    };
    match *kind {
        Kind::Iadd { a, b, .. } | Kind::Bitop { a, b, .. } | Kind::Asr { a, b, .. } => {
            add(a);
            add(b);
        }
        Kind::Imadd { a, b, c, .. } | Kind::Bitfield { a, b, c, .. } => {
            add(a);
            add(b);
            add(c);
        }
        Kind::IntToF32 { a, .. } => add(a),
        Kind::F32ToInt { a, .. } | Kind::FRound { a, .. } | Kind::FUnary { a, .. } => add(a.s),
        Kind::Fadd { a, b, .. } | Kind::Fmul { a, b, .. } => {
            add(a.s);
            add(b.s);
        }
        Kind::Fma { a, b, c, .. } => {
            add(a.s);
            add(b.s);
            add(c.s);
        }
        Kind::Select { ref cmp, x, y, .. } => {
            add(x);
            add(y);
            match *cmp {
                Cmp32::Int { a, b, .. } => {
                    add(a);
                    add(b);
                }
                Cmp32::Float { a, b, .. } => {
                    add(a.s);
                    add(b.s);
                }
            }
        }
        _ => {}
    }
}

/// Flushes an f32 denormal (as bits) to a zero of its sign, at translation time.
fn ftz(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// Builds the body of one piece: `ops` (all [`supported`]).
pub(super) fn build(b: &mut FunctionBuilder<'_>, ptr: Type, ops: &[&Kind]) {
    let entry = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (rows, uniforms, masks) = (params[0], params[1], params[2]);
    let mut flags = MemFlagsData::new();
    flags.set_notrap();

    // Uniforms cannot change inside a run (no `uniform_store` is part of one): read each once.
    let mut sources = Vec::new();
    for kind in ops {
        uniform_sources(kind, &mut sources);
    }
    let mut splats = BTreeMap::new();
    for s in sources {
        let v = match s {
            Src32::U(i) => b.ins().load(I32, flags, uniforms, i32::from(i) * 4),
            Src32::Uh(i) | Src32::Uhs(i) => {
                let word = b
                    .ins()
                    .load(I32, flags, uniforms, (i32::from(i >> 1) & 255) * 4);
                let shift = b.ins().iconst(I32, i64::from(16 * (i & 1)));
                let x = b.ins().ushr(word, shift);
                let sixteen = b.ins().iconst(I32, 16);
                let high = b.ins().ishl(x, sixteen);
                if matches!(s, Src32::Uhs(_)) {
                    b.ins().sshr(high, sixteen)
                } else {
                    b.ins().ushr(high, sixteen)
                }
            }
            _ => continue,
        };
        let splat = b.ins().splat(I32X4, v);
        splats.insert(key(s), splat);
    }
    let zero = b.ins().iconst(ptr, 0);
    b.ins().jump(body, &[BlockArg::Value(zero)]);

    b.switch_to_block(body);
    let offset = b.append_block_param(body, ptr);
    let base = b.ins().iadd(rows, offset);
    let mask_at = b.ins().iadd(masks, offset);
    let mut l = Lower {
        b,
        base,
        flags,
        splats,
        rows: BTreeMap::new(),
        written: Vec::new(),
        consts: HashMap::new(),
        flushed: HashSet::new(),
    };
    for kind in ops {
        l.op(kind);
    }
    let mask = l.b.ins().load(I32X4, flags, mask_at, 0);
    for r in std::mem::take(&mut l.written) {
        let new = l.rows[&r];
        let old = l.b.ins().load(I32X4, flags, base, row_offset(r));
        let v = l.b.ins().bitselect(mask, new, old);
        l.b.ins().store(flags, v, base, row_offset(r));
    }
    let b = l.b;
    let next = b.ins().iadd_imm_s(offset, 16);
    let more = b.ins().icmp_imm_u(IntCC::NotEqual, next, 128);
    b.ins()
        .brif(more, body, &[BlockArg::Value(next)], exit, &[]);
    b.switch_to_block(exit);
    b.ins().return_(&[]);
    b.seal_all_blocks();
}

/// The map key of a uniform source.
fn key(s: Src32) -> (u8, u16) {
    match s {
        Src32::U(i) => (0, u16::from(i)),
        Src32::Uh(i) => (1, i),
        Src32::Uhs(i) => (2, i),
        _ => (3, 0),
    }
}

/// Byte offset of row `r` in the register file (lane 0).
fn row_offset(r: u8) -> i32 {
    i32::from(r & 127) * 128
}

pub(super) struct Lower<'a, 'b> {
    pub(super) b: &'a mut FunctionBuilder<'b>,
    /// The register file advanced to the current chunk of lanes.
    base: Value,
    flags: MemFlagsData,
    splats: BTreeMap<(u8, u16), Value>,
    /// The current value of each row read or written.
    rows: BTreeMap<u8, Value>,
    /// Rows written, in order of first write.
    written: Vec<u8>,
    /// The constant of each splat made by [`Lower::k`], so that identities fold at translation
    /// time (Cranelift keeps e.g. `x << 0` and `x + 0` on vectors).
    consts: HashMap<Value, u32>,
    /// Values known to hold flushed f32 bits (an f32 result after `finish`): reading one as a
    /// float source needs no second flush.
    flushed: HashSet<Value>,
}

impl Lower<'_, '_> {
    pub(super) fn k(&mut self, v: u32) -> Value {
        let x = self.b.ins().iconst(I32, i64::from(v));
        let s = self.b.ins().splat(I32X4, x);
        self.consts.insert(s, v);
        s
    }

    /// The constant `v` holds, if made by [`Self::k`].
    pub(super) fn konst(&self, v: Value) -> Option<u32> {
        self.consts.get(&v).copied()
    }

    /// `x & y`, folding all-ones and zero operands.
    pub(super) fn and(&mut self, x: Value, y: Value) -> Value {
        match (self.konst(x), self.konst(y)) {
            (Some(u32::MAX), _) => y,
            (_, Some(u32::MAX)) => x,
            (Some(0), _) => x,
            (_, Some(0)) => y,
            _ => self.b.ins().band(x, y),
        }
    }

    /// `x & !y`, folding zero operands.
    pub(super) fn and_not(&mut self, x: Value, y: Value) -> Value {
        match (self.konst(x), self.konst(y)) {
            (Some(0), _) => x,
            (_, Some(0)) => x,
            (_, Some(u32::MAX)) => self.k(0),
            _ => self.b.ins().band_not(x, y),
        }
    }

    /// `x | y`, folding zero operands.
    pub(super) fn or(&mut self, x: Value, y: Value) -> Value {
        match (self.konst(x), self.konst(y)) {
            (Some(0), _) => y,
            (_, Some(0)) => x,
            _ => self.b.ins().bor(x, y),
        }
    }

    /// `x + y` (wrapping), folding zero operands.
    pub(super) fn add(&mut self, x: Value, y: Value) -> Value {
        match (self.konst(x), self.konst(y)) {
            (Some(0), _) => y,
            (_, Some(0)) => x,
            _ => self.b.ins().iadd(x, y),
        }
    }

    fn row(&mut self, r: u8) -> Value {
        let r = r & 127;
        if let Some(&v) = self.rows.get(&r) {
            return v;
        }
        let v = self
            .b
            .ins()
            .load(I32X4, self.flags, self.base, row_offset(r));
        self.rows.insert(r, v);
        v
    }

    fn set_row(&mut self, r: u8, v: Value) {
        let r = r & 127;
        if !self.written.contains(&r) {
            self.written.push(r);
        }
        self.rows.insert(r, v);
    }

    pub(super) fn shl(&mut self, x: Value, n: u32) -> Value {
        if n == 0 {
            return x;
        }
        let n = self.b.ins().iconst(I32, i64::from(n));
        self.b.ins().ishl(x, n)
    }

    pub(super) fn ushr(&mut self, x: Value, n: u32) -> Value {
        if n == 0 {
            return x;
        }
        let n = self.b.ins().iconst(I32, i64::from(n));
        self.b.ins().ushr(x, n)
    }

    pub(super) fn sshr(&mut self, x: Value, n: u32) -> Value {
        if n == 0 {
            return x;
        }
        let n = self.b.ins().iconst(I32, i64::from(n));
        self.b.ins().sshr(x, n)
    }

    pub(super) fn and_k(&mut self, x: Value, k: u32) -> Value {
        let k = self.k(k);
        self.and(x, k)
    }

    /// The 32-bit values of `s`, as `fast::lanes::get`.
    pub(super) fn get(&mut self, s: Src32) -> Value {
        match s {
            Src32::R(r) => self.row(r),
            Src32::H(h) | Src32::Hs(h) => {
                let row = self.row(h >> 1);
                let high = if h & 1 == 1 { row } else { self.shl(row, 16) };
                if matches!(s, Src32::Hs(_)) {
                    self.sshr(high, 16)
                } else {
                    self.ushr(high, 16)
                }
            }
            Src32::K(v) => self.k(v),
            Src32::U(_) | Src32::Uh(_) | Src32::Uhs(_) => self.splats[&key(s)],
        }
    }

    /// `flush(bits)`: denormals to zeros of their sign.
    fn ftz(&mut self, bits: Value) -> Value {
        let exp = self.and_k(bits, 0x7f80_0000);
        let zero = self.k(0);
        let denormal = self.b.ins().icmp(IntCC::Equal, exp, zero);
        let sign = self.and_k(bits, 0x8000_0000);
        self.b.ins().bitselect(denormal, sign, bits)
    }

    /// The bits of a float source, as `fast::lanes::get_f`: flushed, then `abs` and `neg`.
    fn get_fbits(&mut self, f: FSrc32) -> Value {
        if let Src32::K(v) = f.s {
            return self.k((ftz(v) & f.and) ^ f.xor);
        }
        let bits = self.get(f.s);
        let mut v = if self.flushed.contains(&bits) {
            bits
        } else {
            self.ftz(bits)
        };
        if f.and != u32::MAX {
            v = self.and_k(v, f.and);
        }
        if f.xor != 0 {
            let x = self.k(f.xor);
            v = self.b.ins().bxor(v, x);
        }
        v
    }

    fn get_f(&mut self, f: FSrc32) -> Value {
        let bits = self.get_fbits(f);
        self.b.ins().bitcast(F32X4, MemFlagsData::new(), bits)
    }

    /// An f32 result finished for a 32-bit destination, as `fast::alu::finish`.
    fn finish(&mut self, x: Value, sat: bool) -> Value {
        let mut bits = self.b.ins().bitcast(I32X4, MemFlagsData::new(), x);
        if sat {
            // NaN and values <= 0 to +0, values above 1 to 1.
            let one_s = self.b.ins().f32const(1.0);
            let one = self.b.ins().splat(F32X4, one_s);
            let zero_s = self.b.ins().f32const(0.0);
            let zero = self.b.ins().splat(F32X4, zero_s);
            let above_one = self.b.ins().fcmp(FloatCC::GreaterThan, x, one);
            let above_zero = self.b.ins().fcmp(FloatCC::GreaterThan, x, zero);
            let zero_bits = self.k(0);
            let one_bits = self.k(1.0f32.to_bits());
            let inner = self.b.ins().bitselect(above_zero, bits, zero_bits);
            bits = self.b.ins().bitselect(above_one, one_bits, inner);
        }
        // The magnitude is below 2^31, so the signed comparison is the interpreter's unsigned
        // one (SSE has only the signed form).
        let magnitude = self.and_k(bits, 0x7fff_ffff);
        let inf = self.k(0x7f80_0000);
        let nan = self.b.ins().icmp(IntCC::SignedGreaterThan, magnitude, inf);
        let flushed = self.ftz(bits);
        let default_nan = self.k(DEFAULT_NAN_32);
        let r = self.b.ins().bitselect(nan, default_nan, flushed);
        self.flushed.insert(r);
        r
    }

    fn write(&mut self, d: Dst32, v: Value) {
        match d {
            Dst32::R(r) => self.set_row(r, v),
            Dst32::H(h) => {
                let row = self.row(h >> 1);
                let (kept, shifted) = if h & 1 == 1 {
                    (self.and_k(row, 0x0000_ffff), self.shl(v, 16))
                } else {
                    let low = self.and_k(v, 0xffff);
                    (self.and_k(row, 0xffff_0000), low)
                };
                let new = self.or(kept, shifted);
                self.set_row(h >> 1, new);
            }
        }
    }

    /// The lanes where `c` holds, as all-ones or zero words.
    fn compare(&mut self, c: &Cmp32) -> Value {
        let (m, invert) = match *c {
            Cmp32::Int {
                rel,
                signed,
                invert,
                a,
                b,
            } => {
                let (x, y) = (self.get(a), self.get(b));
                let cc = match (rel, signed) {
                    (IRel::Eq, _) => IntCC::Equal,
                    (IRel::Lt, false) => IntCC::UnsignedLessThan,
                    (IRel::Gt, false) => IntCC::UnsignedGreaterThan,
                    (IRel::Lt, true) => IntCC::SignedLessThan,
                    (IRel::Gt, true) => IntCC::SignedGreaterThan,
                };
                (self.b.ins().icmp(cc, x, y), invert)
            }
            Cmp32::Float { rel, invert, a, b } => {
                let (x, y) = (self.get_f(a), self.get_f(b));
                let cc = match rel {
                    FRel::Eq => Some(FloatCC::Equal),
                    FRel::Lt => Some(FloatCC::LessThan),
                    FRel::Gt => Some(FloatCC::GreaterThan),
                    FRel::Ge => Some(FloatCC::GreaterThanOrEqual),
                    FRel::Le => Some(FloatCC::LessThanOrEqual),
                    FRel::LtNanLoses | FRel::GtNanLoses => None,
                };
                let m = match cc {
                    Some(cc) => self.b.ins().fcmp(cc, x, y),
                    None => {
                        // !isnan(x) && (isnan(y) || x rel y)
                        let cc = if rel == FRel::LtNanLoses {
                            FloatCC::LessThan
                        } else {
                            FloatCC::GreaterThan
                        };
                        let x_num = self.b.ins().fcmp(FloatCC::Ordered, x, x);
                        let y_nan = self.b.ins().fcmp(FloatCC::Unordered, y, y);
                        let rel = self.b.ins().fcmp(cc, x, y);
                        let either = self.or(y_nan, rel);
                        self.and(x_num, either)
                    }
                };
                (m, invert)
            }
        };
        if invert {
            self.b.ins().bnot(m)
        } else {
            m
        }
    }

    fn op(&mut self, kind: &Kind) {
        match *kind {
            Kind::Mov { d, v } => {
                let v = self.k(v);
                self.write(d, v);
            }
            Kind::Iadd {
                d,
                a,
                b,
                neg,
                shift,
            } => {
                let x = self.get(a);
                let y = self.get(b);
                let y = if neg { self.b.ins().ineg(y) } else { y };
                let y = self.shift::<true>(y, Amount::K(shift));
                let r = self.add(x, y);
                self.write(d, r);
            }
            Kind::Imadd {
                d,
                a,
                b,
                c,
                neg,
                shift,
            } => {
                let x = self.get(a);
                let y = self.get(b);
                let z = self.get(c);
                let z = if neg { self.b.ins().ineg(z) } else { z };
                let z = self.shift::<true>(z, Amount::K(shift));
                let p = self.b.ins().imul(x, y);
                let r = self.add(p, z);
                self.write(d, r);
            }
            Kind::Bitop { d, a, b, t } => {
                let x = self.get(a);
                let y = self.get(b);
                let r = self.bitop(x, y, t);
                self.write(d, r);
            }
            Kind::Bitfield {
                op,
                d,
                a,
                b,
                c,
                mask,
            } => {
                let x = self.get(a);
                let y = self.get(b);
                let s = self.amount(c, 0x7f);
                let r = self.bitfield(op, x, y, s, mask);
                self.write(d, r);
            }
            Kind::Asr { d, a, b, .. } => {
                // Low form only (`supported`): a 32-bit arithmetic shift, 31 and above the
                // sign fill.
                let x = self.get(a);
                let r = match self.amount(b, 0x7f) {
                    Amount::K(n) => self.sshr(x, n.min(31)),
                    Amount::V(s) => self.per_lane(x, s, |b, x, s| {
                        let max = b.ins().iconst(I32, 31);
                        let s = b.ins().umin(s, max);
                        b.ins().sshr(x, s)
                    }),
                };
                self.write(d, r);
            }
            Kind::IntToF32 { d, a, signed, .. } => {
                let x = self.get(a);
                let f = if signed {
                    self.b.ins().fcvt_from_sint(F32X4, x)
                } else {
                    self.b.ins().fcvt_from_uint(F32X4, x)
                };
                let r = self.finish(f, false);
                self.set_row(d, r);
            }
            Kind::F32ToInt { d, a, to, rte } => {
                let x = self.get_f(a);
                let x = if rte { self.b.ins().nearest(x) } else { x };
                let r = match to {
                    IntTarget::S32 => self.b.ins().fcvt_to_sint_sat(I32X4, x),
                    IntTarget::U32 => self.b.ins().fcvt_to_uint_sat(I32X4, x),
                    IntTarget::S16 | IntTarget::U16 => {
                        let i = self.b.ins().fcvt_to_sint_sat(I32X4, x);
                        let (lo, hi) = if to == IntTarget::S16 {
                            (-32768i32 as u32, 32767)
                        } else {
                            (0, 65535)
                        };
                        let lo = self.k(lo);
                        let hi = self.k(hi);
                        let i = self.b.ins().smax(i, lo);
                        self.b.ins().smin(i, hi)
                    }
                };
                self.write(d, r);
            }
            Kind::Fadd { d, a, b, sat } | Kind::Fmul { d, a, b, sat } => {
                let x = self.get_f(a);
                let y = self.get_f(b);
                let r = if matches!(kind, Kind::Fadd { .. }) {
                    self.b.ins().fadd(x, y)
                } else {
                    self.b.ins().fmul(x, y)
                };
                let r = self.finish(r, sat);
                self.set_row(d, r);
            }
            Kind::Fma { d, a, b, c, sat } => {
                let x = self.get_f(a);
                let y = self.get_f(b);
                let z = self.get_f(c);
                let r = self.b.ins().fma(x, y, z);
                let r = self.finish(r, sat);
                self.set_row(d, r);
            }
            Kind::FRound { op, d, a, sat } => {
                let x = self.get_f(a);
                let r = match op {
                    RoundOp::Floor => self.b.ins().floor(x),
                    RoundOp::Ceil => self.b.ins().ceil(x),
                    RoundOp::Trunc => self.b.ins().trunc(x),
                    RoundOp::Rint => self.b.ins().nearest(x),
                };
                let r = self.finish(r, sat);
                self.set_row(d, r);
            }
            Kind::FUnary { d, a, sat, .. } => {
                // `rcp` only (`supported`): 1 / x in f32.
                let x = self.get_f(a);
                let one_s = self.b.ins().f32const(1.0);
                let one = self.b.ins().splat(F32X4, one_s);
                let r = self.b.ins().fdiv(one, x);
                let r = self.finish(r, sat);
                self.set_row(d, r);
            }
            Kind::Select { d, ref cmp, x, y } => {
                let m = self.compare(cmp);
                let xv = self.get(x);
                let yv = self.get(y);
                let r = self.b.ins().bitselect(m, xv, yv);
                self.write(d, r);
            }
            // `wait` changes no register (the caller applies it); nothing else is supported.
            _ => {}
        }
    }
}
