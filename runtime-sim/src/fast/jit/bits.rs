//! The bit-manipulation operations of [`super::lower`]: shifts (by constants and per lane),
//! the bitfield family and the `bitop` truth tables, each computing what `fast::alu` computes.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;

use super::super::ops::Src32;
use super::lower::Lower;
use crate::decode::inst::BitfieldOp;

/// A shift amount: known at translation time, or per lane.
#[derive(Clone, Copy)]
pub(super) enum Amount {
    K(u32),
    V(Value),
}

impl Lower<'_, '_> {
    /// `x << s` (`SHL`) or `x >> s` per lane, 0 for amounts of 32 and above.
    pub(super) fn shift<const SHL: bool>(&mut self, x: Value, s: Amount) -> Value {
        match s {
            Amount::K(n) if n >= 32 => self.k(0),
            Amount::K(n) if SHL => self.shl(x, n),
            Amount::K(n) => self.ushr(x, n),
            Amount::V(s) => self.per_lane(x, s, |b, x, s| {
                let r = if SHL {
                    b.ins().ishl(x, s)
                } else {
                    b.ins().ushr(x, s)
                };
                let zero = b.ins().iconst(I32, 0);
                let fits = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, s, 32);
                b.ins().select(fits, r, zero)
            }),
        }
    }

    /// `f(x, s)` lane by lane (the host's vector shifts take one amount for all lanes).
    pub(super) fn per_lane(
        &mut self,
        x: Value,
        s: Value,
        f: impl Fn(&mut FunctionBuilder<'_>, Value, Value) -> Value,
    ) -> Value {
        let mut out = x;
        for lane in 0..4u8 {
            let xl = self.b.ins().extractlane(x, lane);
            let sl = self.b.ins().extractlane(s, lane);
            let r = f(self.b, xl, sl);
            out = self.b.ins().insertlane(out, r, lane);
        }
        out
    }

    /// `k - s` for an amount (wrapping).
    pub(super) fn minus(&mut self, k: u32, s: Amount) -> Amount {
        match s {
            Amount::K(n) => Amount::K(k.wrapping_sub(n)),
            Amount::V(v) => {
                let kv = self.k(k);
                Amount::V(self.b.ins().isub(kv, v))
            }
        }
    }

    /// `s - k` for an amount (wrapping).
    pub(super) fn less(&mut self, s: Amount, k: u32) -> Amount {
        match s {
            Amount::K(n) => Amount::K(n.wrapping_sub(k)),
            Amount::V(v) => {
                let kv = self.k(k);
                Amount::V(self.b.ins().isub(v, kv))
            }
        }
    }

    /// `if s > 32 { x } else { y }` per lane.
    pub(super) fn above_32(&mut self, s: Amount, x: Value, y: Value) -> Value {
        match s {
            Amount::K(n) => {
                if n > 32 {
                    x
                } else {
                    y
                }
            }
            Amount::V(v) => {
                let k = self.k(32);
                let c = self.b.ins().icmp(IntCC::UnsignedGreaterThan, v, k);
                self.b.ins().bitselect(c, x, y)
            }
        }
    }

    /// `bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`, as `fast::alu::bitfield`, with shift amounts
    /// that wrap below zero and shift everything out from 32 on, so that the 64-bit shifts of
    /// the definition are sums of 32-bit ones.
    pub(super) fn bitfield(
        &mut self,
        op: BitfieldOp,
        a: Value,
        b: Value,
        s: Amount,
        mask: u32,
    ) -> Value {
        let m = self.k(mask);
        match op {
            BitfieldOp::Bfi => {
                let sm = self.shift::<true>(m, s);
                let kept = self.and_not(a, sm);
                let bm = self.and(b, m);
                let ins = self.shift::<true>(bm, s);
                self.or(kept, ins)
            }
            BitfieldOp::Bfeil => {
                let kept = self.and_not(a, m);
                let sh = self.shift::<false>(b, s);
                let ext = self.and(sh, m);
                self.or(kept, ext)
            }
            BitfieldOp::Extr => {
                // ((b:a) >> s) as u32 = a >> s | b << (32 - s) | b >> (s - 32).
                let lo = self.shift::<false>(a, s);
                let up = self.minus(32, s);
                let mid = self.shift::<true>(b, up);
                let down = self.less(s, 32);
                let hi = self.shift::<false>(b, down);
                let x = self.or(lo, mid);
                let x = self.or(x, hi);
                self.and(x, m)
            }
            BitfieldOp::Shlhi => {
                // Bits 32..64 of `b << s` = b >> (32 - s) | b << (s - 32).
                let down = self.minus(32, s);
                let hi1 = self.shift::<false>(b, down);
                let up = self.less(s, 32);
                let hi2 = self.shift::<true>(b, up);
                let high = self.or(hi1, hi2);
                let shifted = self.shift::<true>(m, up);
                let sm = self.above_32(s, shifted, m);
                let x = self.and(high, sm);
                let kept = self.and_not(a, sm);
                self.or(x, kept)
            }
            BitfieldOp::Shrhi => {
                // Low 32 bits of `(b << 32) >> s` = b << (32 - s) | b >> (s - 32).
                let up = self.minus(32, s);
                let hi1 = self.shift::<true>(b, up);
                let down = self.less(s, 32);
                let hi2 = self.shift::<false>(b, down);
                let high = self.or(hi1, hi2);
                let shifted = self.shift::<true>(m, up);
                let sm = self.above_32(s, m, shifted);
                let x = self.and(high, sm);
                let kept = self.and_not(a, sm);
                self.or(x, kept)
            }
        }
    }

    /// The truth table `t` (`t[i]` all ones where `(a, b)` = `(i & 1, i >> 1)` gives 1) of `x`
    /// and `y`: the common tables as one host operation, the others as a sum of products.
    pub(super) fn bitop(&mut self, x: Value, y: Value, t: [u32; 4]) -> Value {
        let bits = t
            .iter()
            .enumerate()
            .fold(0u8, |acc, (i, &m)| acc | u8::from(m != 0) << i);
        match bits {
            0b1000 => return self.and(x, y),
            0b1110 => return self.or(x, y),
            0b0110 => return self.b.ins().bxor(x, y),
            0b1001 => {
                let r = self.b.ins().bxor(x, y);
                return self.b.ins().bnot(r);
            }
            0b0010 => return self.and_not(x, y),
            0b0100 => return self.and_not(y, x),
            0b1010 => return x,
            0b1100 => return y,
            _ => {}
        }
        let nx = self.b.ins().bnot(x);
        let ny = self.b.ins().bnot(y);
        let terms = [(nx, ny), (x, ny), (nx, y), (x, y)];
        let mut r = None;
        for (i, (p, q)) in terms.into_iter().enumerate() {
            if t[i] == 0 {
                continue;
            }
            let term = self.and(p, q);
            r = Some(match r {
                Some(acc) => self.or(acc, term),
                None => term,
            });
        }
        match r {
            Some(r) => r,
            None => self.k(0),
        }
    }

    pub(super) fn amount(&mut self, s: Src32, and: u32) -> Amount {
        match s {
            Src32::K(v) => Amount::K(v & and),
            s => {
                let v = self.get(s);
                Amount::V(self.and_k(v, and))
            }
        }
    }
}
