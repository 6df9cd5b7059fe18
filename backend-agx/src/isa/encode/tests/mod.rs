//! Encoder tests: `(instruction, hex bytes, assembly)` triples for every instruction form the
//! backend emits, short and long forms and every operand kind. The bytes are worked out by
//! hand from the bit diagrams of `seeds/001_9be1231add6061e8.txt` and docs/g13.md (the
//! derivation is written next to each non-trivial triple, as 16-bit little-endian words or
//! as field values relative to a bit position), never taken from the encoder. docs/g13.md's
//! table of reference encodings is included verbatim. `roundtrip` decodes every triple and
//! random valid instructions with the simulator's independent decoder.

mod alu;
mod atomic;
mod control;
mod errors;
mod float;
mod layout;
mod memory;
mod roundtrip;
mod texture;

use crate::isa::{encode, Dst, FSrc, Hint, Instr, IntSrc, PReg, Src, UReg};

/// One encoder test vector.
pub(super) struct Triple {
    pub instr: Instr<PReg>,
    pub hex: &'static str,
    pub asm: &'static str,
}

pub(super) fn t(instr: Instr<PReg>, hex: &'static str, asm: &'static str) -> Triple {
    Triple { instr, hex, asm }
}

/// Every triple of every module.
pub(super) fn all() -> Vec<Triple> {
    let mut v = alu::triples();
    v.extend(float::triples());
    v.extend(control::triples());
    v.extend(memory::triples());
    v.extend(texture::triples());
    v.extend(atomic::triples());
    v
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks the encoding and the assembly text of every triple, reporting all mismatches.
pub(super) fn check(triples: &[Triple]) {
    let mut failures = Vec::new();
    for tr in triples {
        match encode(&tr.instr) {
            Ok(e) if hex(e.as_bytes()) == tr.hex => {}
            Ok(e) => failures.push(format!(
                "{}: bytes {} != {}",
                tr.asm,
                hex(e.as_bytes()),
                tr.hex
            )),
            Err(err) => failures.push(format!("{}: {err}", tr.asm)),
        }
        let text = tr.instr.to_string();
        if text != tr.asm {
            failures.push(format!("text {text:?} != {:?}", tr.asm));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// Operand shorthands.

/// `rN`.
pub(super) fn r(n: u16) -> PReg {
    PReg::r32(n)
}
/// `rNl`.
pub(super) fn l(n: u16) -> PReg {
    PReg::lo(n)
}
/// `rNh`.
pub(super) fn h(n: u16) -> PReg {
    PReg::hi(n)
}
/// `rN_rN+1`.
pub(super) fn r64(n: u16) -> PReg {
    PReg::r64(n)
}
pub(super) fn s(reg: PReg) -> Src<PReg> {
    Src::reg(reg)
}
pub(super) fn hinted(reg: PReg, hint: Hint) -> Src<PReg> {
    Src::Reg { reg, hint }
}
pub(super) fn imm(v: u8) -> Src<PReg> {
    Src::Imm(v)
}
pub(super) fn u32u(n: u16) -> Src<PReg> {
    Src::Uniform(UReg::U32(n))
}
pub(super) fn u16u(half: u16) -> Src<PReg> {
    Src::Uniform(UReg::U16(half))
}
pub(super) fn fs(reg: PReg) -> FSrc<PReg> {
    FSrc::reg(reg)
}
pub(super) fn d(reg: PReg) -> Dst<PReg> {
    Dst::new(reg)
}
pub(super) fn dc(reg: PReg) -> Dst<PReg> {
    Dst { reg, cache: true }
}
pub(super) fn zx(src: Src<PReg>) -> IntSrc<PReg> {
    IntSrc::zext(src)
}
pub(super) fn sx(src: Src<PReg>) -> IntSrc<PReg> {
    IntSrc::sext(src)
}
