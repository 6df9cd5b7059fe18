//! Loads, stores and barriers.
//!
//! A load or store moves consecutive scalars; they are split into *runs* of up to four
//! elements of one size (32-bit words, 16-bit halves; an `i64` is two words), each one
//! `device_load`/`device_store` (or `threadgroup_*`) with a contiguous mask. Loaded values are
//! views of the run's register group, so a `vec4` load needs no copies; stored values are
//! copied into a contiguous group unless a single register already is one.
//!
//! Addresses (docs/g13.md, "device_load / device_store"): the base is the buffer's 64-bit
//! address in a uniform pair (see [`crate::abi`]) and the offset an element index, so the IR's
//! byte offset is divided by the element size: a constant offset becomes the signed 16-bit
//! immediate; `x * size` (or `x << log2(size)`, or the double/quadruple through the shift
//! field) uses `x` itself; anything else is shifted right. Misaligned offsets round down to the
//! element, as the hardware does (the IR calls them errors).
//!
//! Push constants and uniform-buffer words at constant offsets are read from their uniform
//! registers (the ABI's push ranges); dynamic offsets load from memory. Workgroup memory uses `threadgroup_load`/`threadgroup_store`
//! with 16-bit element indices, private memory `stack_load`/`stack_store` at byte offsets.
//! Device loads complete on a wait slot, which the `waits` pass assigns and waits on.

use agxc_egraph::ir::{AddressSpace, BarrierKind, MemAccess, Op, PureOp, Type, Value};

use super::{class_of, Isel};
use crate::abi::{constant_words, UniformContent};
use crate::error::BackendError;
use crate::isa::{
    BitfieldOp, DeviceAccess, ICond, Instr, IntSrc, MemBase, MemFormat, MemOffset, RegClass, Src,
    StackAccess, TgAccess, TgBase, TgOffset, UReg,
};
use crate::mir::VReg;

/// A run of equally sized elements moved by one instruction.
struct Run {
    /// Index of the first value of the run.
    first: usize,
    /// Values in the run.
    count: usize,
    /// Byte position of the run relative to the access's address.
    pos: u32,
    /// Element size in bytes (2 or 4).
    size: u32,
    /// Elements (an i64 counts two).
    elements: u32,
}

/// Splits values of `types` into runs.
fn runs(types: &[Type]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    let mut pos = 0;
    for (i, &ty) in types.iter().enumerate() {
        let size = if ty.bytes() == 2 { 2 } else { 4 };
        let elements = ty.bytes().max(2) / size;
        match out.last_mut() {
            Some(run) if run.size == size && run.elements + elements <= 4 => {
                run.count += 1;
                run.elements += elements;
            }
            _ => out.push(Run {
                first: i,
                count: 1,
                pos,
                size,
                elements,
            }),
        }
        pos += ty.bytes();
    }
    out
}

/// How a dynamic byte offset becomes an element index: the index register, its extra shift
/// and whether it is signed.
#[derive(Clone, Copy)]
struct Index {
    reg: VReg,
    shift: u8,
    signed: bool,
}

impl Isel<'_> {
    pub(super) fn load(
        &mut self,
        access: MemAccess,
        offset: Value,
        results: &[Value],
    ) -> Result<(), BackendError> {
        let types: Vec<Type> = results.iter().map(|&r| self.func.value_type(r)).collect();
        let base = match access.space {
            AddressSpace::Storage(b) => self.abi_uniform(UniformContent::BufferAddress(b))?,
            AddressSpace::Uniform(b) => {
                // A push range (see `abi::ranges`): the ABI preloaded every word or none.
                let words = constant_words(self.func, offset, access.offset, &types);
                let preloaded = words.is_some_and(|w| {
                    w.iter()
                        .all(|&k| self.abi.uniform(UniformContent::BufferWord(b, k)).is_some())
                });
                if preloaded {
                    let c = crate::abi::const_i32(self.func, offset).unwrap_or(0);
                    let pos = i64::from(c) + i64::from(access.offset);
                    self.words_from_uniforms(pos, results, &types, |k| {
                        UniformContent::BufferWord(b, k)
                    })?;
                    return Ok(());
                }
                self.abi_uniform(UniformContent::BufferAddress(b))?
            }
            AddressSpace::PushConstant => {
                if self.push_from_uniforms(access, offset, results, &types)? {
                    return Ok(());
                }
                self.abi_uniform(UniformContent::PushAddress)?
            }
            AddressSpace::Workgroup => {
                return self.shared_access(access, offset, results, &types, false)
            }
            AddressSpace::Constant => self.abi_uniform(UniformContent::ConstantData)?,
            AddressSpace::Private => return self.private_access(access, offset, results, false),
        };
        for run in runs(&types) {
            let (off, shift) = self.element_offset(offset, access.offset + run.pos, run.size)?;
            let data = self.run_group(run.size, run.elements);
            self.m.op(Instr::DeviceLoad(DeviceAccess {
                data,
                base: MemBase::Uniform(base),
                offset: off,
                format: format(run.size),
                mask: mask(run.elements),
                shift,
                slot: 0,
            }));
            self.define_run_results(&run, data, results, &types);
        }
        Ok(())
    }

    pub(super) fn store(
        &mut self,
        access: MemAccess,
        offset: Value,
        values: &[Value],
    ) -> Result<(), BackendError> {
        let types: Vec<Type> = values.iter().map(|&v| self.func.value_type(v)).collect();
        let base = match access.space {
            AddressSpace::Storage(b) => self.abi_uniform(UniformContent::BufferAddress(b))?,
            AddressSpace::Workgroup => {
                return self.shared_access(access, offset, values, &types, true)
            }
            AddressSpace::Private => return self.private_access(access, offset, values, true),
            _ => return Err(self.unsupported("a store to a read-only address space")),
        };
        for run in runs(&types) {
            let (off, shift) = self.element_offset(offset, access.offset + run.pos, run.size)?;
            let data = self.gather_run(&run, values, &types);
            self.m.op(Instr::DeviceStore(DeviceAccess {
                data,
                base: MemBase::Uniform(base),
                offset: off,
                format: format(run.size),
                mask: mask(run.elements),
                shift,
                slot: 0,
            }));
        }
        Ok(())
    }

    /// A private-memory load or store: `stack_load`/`stack_store` at the byte offset itself
    /// (the stack's offsets are bytes, sign-extended; private memory is the bottom of the
    /// frame, see [`crate::regalloc`]), one per run. Stack accesses complete at once and are
    /// per thread, so helper threads keep their private values like any register.
    fn private_access(
        &mut self,
        access: MemAccess,
        offset: Value,
        values: &[Value],
        store: bool,
    ) -> Result<(), BackendError> {
        let types: Vec<Type> = values.iter().map(|&v| self.func.value_type(v)).collect();
        for run in runs(&types) {
            let bytes = access.offset.wrapping_add(run.pos);
            let at = match self.konst(offset) {
                Some(c) => {
                    let total = (c.as_i64() as i32).wrapping_add(bytes as i32);
                    match i16::try_from(total) {
                        Ok(imm) => MemOffset::Imm(imm),
                        Err(_) => MemOffset::Reg {
                            reg: self.imm_reg(RegClass::R32, u64::from(total as u32)),
                            signed: true,
                        },
                    }
                }
                None if bytes == 0 => MemOffset::Reg {
                    reg: self.reg(offset),
                    signed: true,
                },
                None => {
                    let reg = self.m.new_group(RegClass::R32);
                    let k = self.imm_src(RegClass::R32, u64::from(bytes));
                    let src = IntSrc::zext(Src::reg(self.reg(offset)));
                    self.iadd(reg, src, IntSrc::zext(k), false);
                    MemOffset::Reg { reg, signed: true }
                }
            };
            let data = if store {
                self.gather_run(&run, values, &types)
            } else {
                self.run_group(run.size, run.elements)
            };
            let stack = StackAccess {
                data,
                offset: at,
                format: format(run.size),
                mask: mask(run.elements),
            };
            if store {
                self.m.op(Instr::StackStore(stack));
            } else {
                self.m.op(Instr::StackLoad(stack));
                self.define_run_results(&run, data, values, &types);
            }
        }
        Ok(())
    }

    pub(super) fn barrier(&mut self, kind: BarrierKind) {
        // Loads complete in program order at issue and stores at once in this machine model,
        // so a memory barrier orders nothing further; the execution barrier synchronises the
        // workgroup's SIMD-groups (the waits pass drains pending loads before it).
        if kind == BarrierKind::Workgroup {
            self.m.op(Instr::ThreadgroupBarrier);
        }
    }

    /// The data group of a run: one register, or a run of `elements` registers.
    fn run_group(&mut self, size: u32, elements: u32) -> VReg {
        let n = elements as u8;
        let class = match (size, n) {
            (4, 1) => RegClass::R32,
            (4, _) => RegClass::Vec32(n),
            (_, 1) => RegClass::H16,
            _ => RegClass::Vec16(n),
        };
        self.m.new_group(class)
    }

    /// Gives each loaded value its view of the run's group (bools normalised to 0/1).
    fn define_run_results(&mut self, run: &Run, data: VReg, results: &[Value], types: &[Type]) {
        let mut unit = 0u16;
        for i in run.first..run.first + run.count {
            let ty = types[i];
            let class = class_of(ty);
            let view = data.view(unit, class);
            unit += class.units() as u16;
            if ty == Type::Bool {
                let b = self.m.new_group(RegClass::R32);
                self.icmpsel(
                    b,
                    ICond::Ueq,
                    Src::reg(view),
                    Src::Imm(0),
                    Src::Imm(0),
                    Src::Imm(1),
                );
                self.set(results[i], b);
            } else {
                self.set(results[i], view);
            }
        }
    }

    /// The stored values of a run in one contiguous group.
    fn gather_run(&mut self, run: &Run, values: &[Value], types: &[Type]) -> VReg {
        if run.count == 1 {
            // One register (or pair) is already a run of one.
            return self.reg(values[run.first]);
        }
        let data = self.run_group(run.size, run.elements);
        let mut unit = 0u16;
        for i in run.first..run.first + run.count {
            let class = class_of(types[i]);
            let view = data.view(unit, class);
            unit += class.units() as u16;
            let src = self.src(values[i]);
            self.mov_src(view, src);
        }
        data
    }

    /// The element offset of `offset + bytes` for elements of `size` bytes, with the
    /// instruction's extra shift.
    pub(super) fn element_offset(
        &mut self,
        offset: Value,
        bytes: u32,
        size: u32,
    ) -> Result<(MemOffset<VReg>, u8), BackendError> {
        let log2 = size.trailing_zeros();
        if let Some(c) = self.konst(offset) {
            let total = (c.as_i64() as i32 as i64) + i64::from(bytes);
            let index = total >> log2;
            if let Ok(imm) = i16::try_from(index) {
                return Ok((MemOffset::Imm(imm), 0));
            }
            let reg = self.imm_reg(RegClass::R32, index as u64 & 0xffff_ffff);
            return Ok((MemOffset::Reg { reg, signed: true }, 0));
        }
        let k = bytes >> log2;
        let index = self.index_of(offset, log2);
        if k == 0 {
            return Ok((
                MemOffset::Reg {
                    reg: index.reg,
                    signed: index.signed,
                },
                index.shift,
            ));
        }
        // index' = k + (index << shift), one iadd with its shift field.
        let reg = self.m.new_group(RegClass::R32);
        let kk = self.imm_src(RegClass::R32, u64::from(k));
        self.m.op(Instr::Iadd {
            dst: crate::isa::Dst::new(reg),
            a: IntSrc::zext(kk),
            b: IntSrc::zext(Src::reg(index.reg)),
            neg_b: false,
            shift: index.shift,
            sat: false,
        });
        Ok((
            MemOffset::Reg {
                reg,
                signed: index.signed,
            },
            0,
        ))
    }

    /// The element index of a dynamic byte offset. When the offset is `x * k` (an `imul` by a
    /// constant or an `ishl` by one) with `k` a multiple of the element size, the index is
    /// `x * (k / size)`: `x` itself with the instruction's shift field for a factor of 1, 2 or
    /// 4, else one `bfi` (a larger power of two) or `imadd` (any other factor) of `x`, with
    /// up to two factors of two left to the shift field; like Mesa's address lowering
    /// (`agx_nir_lower_address`, which matches `base + (x << s)` for `s <= 2`), the index is
    /// sign-extended, which agrees with the 32-bit byte offset whenever that offset is in
    /// bounds (below 2^31). Any other offset is `offset >> log2(size)`.
    fn index_of(&mut self, offset: Value, log2: u32) -> Index {
        if let Some((x, k)) = self.scaled_by(offset) {
            if k.trailing_zeros() >= log2 {
                let m = k >> log2;
                let shift = m.trailing_zeros().min(2);
                let rest = m >> shift;
                if rest == 1 {
                    return Index {
                        reg: self.reg(x),
                        shift: shift as u8,
                        signed: true,
                    };
                }
                // Scaling `x` takes an instruction, as shifting the byte offset does; it wins
                // only when that removes the offset's own computation (its one use is here).
                // Otherwise the shift of the shared offset is shared too, and `x` need not
                // outlive it (loop counters would need copies).
                if self.use_count(offset) > 1 {
                    return self.index_by_shift(offset, log2);
                }
                let reg = self.m.new_group(RegClass::R32);
                let src = Src::reg(self.reg(x));
                if rest.is_power_of_two() {
                    let n = Src::Imm(rest.trailing_zeros() as u8);
                    self.bitfield_op(BitfieldOp::Bfi, reg, Src::Imm(0), src, n, 0);
                } else {
                    let factor = self.imm_src(RegClass::R32, u64::from(rest));
                    let zero = IntSrc::zext(Src::Imm(0));
                    self.imadd(reg, IntSrc::zext(src), IntSrc::zext(factor), zero);
                }
                return Index {
                    reg,
                    shift: shift as u8,
                    signed: true,
                };
            }
        }
        if let Some(((x, m1), (y, m2))) = self.scaled_pair(offset, log2) {
            // `x * c1 + y * c2` (a row and a column): `x * m1 + y * m2` in one or two
            // `imadd`s, sign-extended like the single term above. Whatever the sum's other
            // uses, this replaces its shift (equal `imadd`s of several accesses are one after
            // machine CSE).
            let reg = self.scaled_sum((x, m1), (y, m2), 0);
            return Index {
                reg,
                shift: 0,
                signed: true,
            };
        }
        self.index_by_shift(offset, log2)
    }

    /// `x * m1 + y * m2 + k` in one `imadd` (a factor of 1 and no `k`) or two.
    fn scaled_sum(&mut self, (x, m1): (Value, u32), (y, m2): (Value, u32), k: u32) -> VReg {
        let ((x, m1), (y, m2)) = if m1 == 1 {
            ((y, m2), (x, m1))
        } else {
            ((x, m1), (y, m2))
        };
        let mut acc = IntSrc::zext(Src::reg(self.reg(y)));
        if m2 != 1 || k != 0 {
            let r = self.m.new_group(RegClass::R32);
            let factor = IntSrc::zext(self.imm_src(RegClass::R32, u64::from(m2)));
            let add = IntSrc::zext(self.imm_src(RegClass::R32, u64::from(k)));
            self.imadd(r, acc, factor, add);
            acc = IntSrc::zext(Src::reg(r));
        }
        let r = self.m.new_group(RegClass::R32);
        let src = IntSrc::zext(Src::reg(self.reg(x)));
        let factor = IntSrc::zext(self.imm_src(RegClass::R32, u64::from(m1)));
        self.imadd(r, src, factor, acc);
        r
    }

    /// `offset >> log2`, unsigned.
    fn index_by_shift(&mut self, offset: Value, log2: u32) -> Index {
        let reg = self.m.new_group(RegClass::R32);
        let src = Src::reg(self.reg(offset));
        self.bitfield_op(
            BitfieldOp::Bfeil,
            reg,
            Src::Imm(0),
            src,
            Src::Imm(log2 as u8),
            0,
        );
        Index {
            reg,
            shift: 0,
            signed: false,
        }
    }

    /// `(x, k)` if the i32 value `v` is `x * k` for a positive constant `k` (an `imul` by a
    /// constant, or an `ishl` by a constant, which the IR takes modulo 32).
    fn scaled_by(&self, v: Value) -> Option<(Value, u32)> {
        let inst = self.def_inst(v)?;
        let data = &self.func.insts[inst];
        let (x, k) = match data.op {
            Op::Pure(PureOp::Imul) => {
                let (a, b) = (data.args[0], data.args[1]);
                match (self.konst(a), self.konst(b)) {
                    (_, Some(k)) => (a, k.bits() as u32),
                    (Some(k), _) => (b, k.bits() as u32),
                    _ => return None,
                }
            }
            Op::Pure(PureOp::Ishl) => {
                let n = self.konst(data.args[1])?.bits() as u32 & 31;
                (data.args[0], 1u32 << n)
            }
            _ => return None,
        };
        // A negative factor (`x * -4`, `x << 31`) would need a signed quotient `k / size`.
        if self.func.value_type(x) != Type::I32 || k as i32 <= 0 {
            return None;
        }
        Some((x, k))
    }

    /// Push-constant loads at constant offsets read uniforms; returns false if the load needs
    /// the memory copy instead.
    fn push_from_uniforms(
        &mut self,
        access: MemAccess,
        offset: Value,
        results: &[Value],
        types: &[Type],
    ) -> Result<bool, BackendError> {
        let Some(c) = self.konst(offset) else {
            return Ok(false);
        };
        let start = c.as_i64() + i64::from(access.offset);
        let mut pos = start;
        for &ty in types {
            let bytes = i64::from(ty.bytes());
            if pos < 0 || pos % bytes.min(4) != 0 {
                return Err(self.unsupported(format!("a misaligned push-constant load at {pos}")));
            }
            let word = (pos / 4) as u32;
            if self.abi.uniform(UniformContent::PushWord(word)).is_none() {
                return Ok(false);
            }
            pos += bytes;
        }
        self.words_from_uniforms(start, results, types, UniformContent::PushWord)?;
        Ok(true)
    }

    /// Defines the values of a load of `types` at byte `pos` from the preloaded words
    /// `content(k)` (bytes `4k .. 4k + 4`), which the caller has checked the ABI holds.
    fn words_from_uniforms(
        &mut self,
        mut pos: i64,
        results: &[Value],
        types: &[Type],
        content: impl Fn(u32) -> UniformContent,
    ) -> Result<(), BackendError> {
        for (&r, &ty) in results.iter().zip(types) {
            let word = (pos / 4) as u32;
            let u = self.abi_uniform(content(word))?;
            match ty {
                Type::I16 | Type::F16 => {
                    let half = 2 * u + (pos % 4 / 2) as u16;
                    self.uniform_value(r, UReg::U16(half));
                }
                Type::I64 => {
                    let dst = self.m.new_group(RegClass::R64);
                    let hi = self.abi_uniform(content(word + 1))?;
                    self.mov_src(dst.word(0), Src::Uniform(UReg::U32(u)));
                    self.mov_src(dst.word(1), Src::Uniform(UReg::U32(hi)));
                    self.set(r, dst);
                }
                Type::Bool => {
                    let b = self.m.new_group(RegClass::R32);
                    let x = Src::Uniform(UReg::U32(u));
                    self.icmpsel(b, ICond::Ueq, x, Src::Imm(0), Src::Imm(0), Src::Imm(1));
                    self.set(r, b);
                }
                _ => self.uniform_value(r, UReg::U32(u)),
            }
            pos += i64::from(ty.bytes());
        }
        Ok(())
    }

    /// The threadgroup element index of the byte offset `offset + bytes`, for elements of
    /// `1 << log2` bytes: an immediate, or a 16-bit register.
    pub(super) fn shared_index(
        &mut self,
        offset: Value,
        bytes: u32,
        log2: u32,
    ) -> Result<TgOffset<VReg>, BackendError> {
        if let Some(c) = self.konst(offset) {
            let total = (c.as_i64() as i32 as i64 + i64::from(bytes)) >> log2;
            return i16::try_from(total)
                .map(TgOffset::Imm)
                .map_err(|_| self.unsupported("a workgroup memory offset beyond 64 KiB"));
        }
        let k = bytes >> log2;
        // Only the low 16 bits of the index count, so `(x * c) >> log2` is `x * (c >> log2)`
        // exactly when `c` is a multiple of the element size: one `imadd` (or `bfi`, or
        // nothing) with the constant part folded in, instead of a shift out of bytes.
        let scaled = self
            .scaled_by(offset)
            .filter(|&(_, c)| c.trailing_zeros() >= log2)
            .map(|(x, c)| (x, c >> log2))
            // As for device memory (`index_of`): scale `x` only where that replaces the
            // offset's own computation.
            .filter(|&(_, m)| m == 1 || self.use_count(offset) == 1);
        let pair = match scaled {
            None => self.scaled_pair(offset, log2),
            _ => None,
        };
        let idx = match (scaled, pair) {
            (Some((x, 1)), _) if k == 0 => self.reg(x),
            (Some((x, m)), _) if k == 0 && m.is_power_of_two() => {
                let r = self.m.new_group(RegClass::R32);
                let src = Src::reg(self.reg(x));
                let n = Src::Imm(m.trailing_zeros() as u8);
                self.bitfield_op(BitfieldOp::Bfi, r, Src::Imm(0), src, n, 0);
                r
            }
            (Some((x, m)), _) => {
                let r = self.m.new_group(RegClass::R32);
                let src = IntSrc::zext(Src::reg(self.reg(x)));
                let factor = IntSrc::zext(self.imm_src(RegClass::R32, u64::from(m)));
                let add = IntSrc::zext(self.imm_src(RegClass::R32, u64::from(k)));
                self.imadd(r, src, factor, add);
                r
            }
            // `x * c1 + y * c2`, both multiples of the element size (`buf[row][col]`): the
            // index is `x * m1 + y * m2`, one or two `imadd`s, instead of the sum of byte
            // offsets and its shift.
            (None, Some((a, b))) => self.scaled_sum(a, b, k),
            (None, None) => {
                let r = self.m.new_group(RegClass::R32);
                let src = Src::reg(self.reg(offset));
                self.bitfield_op(
                    BitfieldOp::Bfeil,
                    r,
                    Src::Imm(0),
                    src,
                    Src::Imm(log2 as u8),
                    0,
                );
                if k == 0 {
                    r
                } else {
                    let sum = self.m.new_group(RegClass::R32);
                    let kk = self.imm_src(RegClass::R32, u64::from(k));
                    self.iadd(sum, IntSrc::zext(Src::reg(r)), IntSrc::zext(kk), false);
                    sum
                }
            }
        };
        Ok(TgOffset::Reg(idx.lo16()))
    }

    /// `((x, m1), (y, m2))` if `v = x * (m1 << log2) + y * (m2 << log2)` (an `iadd` of two
    /// [`Isel::scaled_by`] terms whose factors are multiples of `1 << log2`).
    fn scaled_pair(&self, v: Value, log2: u32) -> Option<((Value, u32), (Value, u32))> {
        let inst = self.def_inst(v)?;
        let data = &self.func.insts[inst];
        if data.op != Op::Pure(PureOp::Iadd) {
            return None;
        }
        let term = |t: Value| {
            self.scaled_by(t)
                .filter(|&(_, c)| c.trailing_zeros() >= log2)
                .map(|(x, c)| (x, c >> log2))
        };
        Some((term(data.args[0])?, term(data.args[1])?))
    }

    /// Workgroup-memory loads and stores.
    fn shared_access(
        &mut self,
        access: MemAccess,
        offset: Value,
        values: &[Value],
        types: &[Type],
        store: bool,
    ) -> Result<(), BackendError> {
        for run in runs(types) {
            let log2 = run.size.trailing_zeros();
            let index = self.shared_index(offset, access.offset + run.pos, log2)?;
            let data = if store {
                self.gather_run(&run, values, types)
            } else {
                self.run_group(run.size, run.elements)
            };
            let a = TgAccess {
                data,
                base: TgBase::Imm(0),
                offset: index,
                format: format(run.size),
                mask: mask(run.elements),
            };
            if store {
                self.m.op(Instr::ThreadgroupStore(a));
            } else {
                self.m.op(Instr::ThreadgroupLoad(a));
                self.define_run_results(&run, data, values, types);
            }
        }
        Ok(())
    }
}

fn format(size: u32) -> MemFormat {
    if size == 2 {
        MemFormat::I16
    } else {
        MemFormat::I32
    }
}

fn mask(elements: u32) -> u8 {
    ((1u32 << elements) - 1) as u8
}
