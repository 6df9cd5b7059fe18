//! Emission: final layout and encoding through the ISA module's encoder.
//!
//! Two passes: instruction lengths and label positions first (every jump is 6 bytes whatever
//! its offset, so lengths do not depend on the layout), then encoding with each jump's offset
//! relative to its own address.
//!
//! Two instructions the ISA module has no variant for yet are encoded here, from the
//! simulator's encoding tables (`agxc_runtime_sim::encoding`, which follow Mesa's packer and
//! the document's diagram) and checked against its golden encodings:
//! - `sample_mask 1, 0` (`T Tt 11000001`, `Sx ? Tx St ? S`, `Tt`/`St` set for immediates):
//!   bytes `c1 03 80 00`;
//! - `simd_shuffle D, A, B` (document, "simd_shuffle": `0 D Dt 1101111`, `00 Bt B 01 At A`,
//!   `0 ? Dx Ax Bx`), 6 bytes: `D` an `ALUDst`, `A` an `ALUSrc`, `B` a 16-bit `ALUSrc`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::cflow::Lowered;
use crate::error::BackendError;
use crate::isa::{encode, Instr, JumpTarget, Label, PReg, RegClass};

/// `sample_mask 1, 0`: drop the active lanes' pixels.
pub const SAMPLE_MASK_DISCARD: [u8; 4] = [0xc1, 0x03, 0x80, 0x00];

/// Encoded code with its layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Emitted {
    /// Machine code.
    pub code: Vec<u8>,
    /// Byte offset of each instruction.
    pub pcs: Vec<u32>,
    /// The instructions, jumps resolved (no labels).
    pub items: Vec<Lowered>,
}

impl Emitted {
    /// The disassembly: `pc: bytes  text` per line.
    pub fn listing(&self) -> String {
        let mut s = String::new();
        for (i, item) in self.items.iter().enumerate() {
            let pc = self.pcs[i] as usize;
            let end = self.pcs.get(i + 1).map_or(self.code.len(), |&p| p as usize);
            let hex: String = self.code[pc..end]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let _ = writeln!(s, "{pc:6x}: {hex:<24} {item}");
        }
        s
    }

    /// The machine instructions (those the ISA module represents).
    pub fn instrs(&self) -> impl Iterator<Item = &Instr<PReg>> {
        self.items.iter().filter_map(|l| match l {
            Lowered::Instr(i) => Some(i),
            _ => None,
        })
    }
}

/// `simd_shuffle dst, src, lane` (see the module docs).
pub fn encode_shuffle(dst: PReg, src: PReg, lane: PReg) -> Result<[u8; 6], BackendError> {
    let bad = |what: &str| BackendError::Internal {
        pass: "emit",
        what: format!("simd_shuffle {dst}, {src}, {lane}: {what}"),
    };
    let wide = match (dst.class, src.class) {
        (RegClass::R32, RegClass::R32) => true,
        (RegClass::H16, RegClass::H16) => false,
        _ => return Err(bad("operands must both be 16- or 32-bit registers")),
    };
    if lane.class != RegClass::H16 {
        return Err(bad("the lane operand must be a 16-bit register"));
    }
    for r in [dst, src, lane] {
        if r.halves().end > 256 || (wide && r != lane && r.half % 2 != 0) {
            return Err(bad("register out of range or misaligned"));
        }
    }
    let (d, a, b) = (
        u64::from(dst.half),
        u64::from(src.half),
        u64::from(lane.half),
    );
    let mut bits: u64 = 0b1101111;
    bits |= u64::from(wide) << 8; // Dt: 32-bit destination, no cache hint
    bits |= (d & 0x3f) << 9;
    bits |= (a & 0x3f) << 16;
    let at: u64 = if wide { 0b1001 } else { 0b0001 }; // register, no hint
    bits |= at << 22;
    bits |= 0b01 << 26;
    bits |= (b & 0x3f) << 28;
    bits |= 0b0001 << 34; // Bt: 16-bit register, no hint
    bits |= (b >> 6) << 40;
    bits |= (a >> 6) << 42;
    bits |= (d >> 6) << 44;
    let le = bits.to_le_bytes();
    Ok([le[0], le[1], le[2], le[3], le[4], le[5]])
}

/// Lays out and encodes `code`.
pub fn emit(code: &[Lowered]) -> Result<Emitted, BackendError> {
    // Pass 1: lengths and labels.
    let mut labels: BTreeMap<Label, u32> = BTreeMap::new();
    let mut pc: u64 = 0;
    let mut items: Vec<(u32, &Lowered)> = Vec::new();
    for (index, item) in code.iter().enumerate() {
        let len = match item {
            Lowered::Label(l) => {
                labels.insert(*l, pc as u32);
                continue;
            }
            Lowered::SampleMask => SAMPLE_MASK_DISCARD.len(),
            Lowered::Shuffle { .. } => 6,
            Lowered::Instr(i) => encode(&with_offset(i, 0))
                .map_err(|error| encode_error(index, i, error))?
                .len(),
        };
        items.push((pc as u32, item));
        pc += len as u64;
        if pc > i32::MAX as u64 {
            return Err(BackendError::TooLarge { bytes: pc as usize });
        }
    }
    // Pass 2: encode with resolved offsets.
    let mut out = Emitted::default();
    for (index, &(at, item)) in items.iter().enumerate() {
        out.pcs.push(at);
        match item {
            Lowered::SampleMask => {
                out.code.extend_from_slice(&SAMPLE_MASK_DISCARD);
                out.items.push(*item);
            }
            Lowered::Shuffle { dst, src, lane } => {
                out.code
                    .extend_from_slice(&encode_shuffle(*dst, *src, *lane)?);
                out.items.push(*item);
            }
            Lowered::Instr(i) => {
                let resolved = match i.jump_target() {
                    Some(JumpTarget::Label(l)) => {
                        let target =
                            labels
                                .get(&l)
                                .copied()
                                .ok_or_else(|| BackendError::Internal {
                                    pass: "emit",
                                    what: format!("label {l} is not bound"),
                                })?;
                        with_offset(i, target as i32 - at as i32)
                    }
                    _ => *i,
                };
                let bytes = encode(&resolved).map_err(|error| encode_error(index, i, error))?;
                out.code.extend_from_slice(bytes.as_bytes());
                out.items.push(Lowered::Instr(resolved));
            }
            Lowered::Label(_) => {}
        }
    }
    Ok(out)
}

fn with_offset(i: &Instr<PReg>, offset: i32) -> Instr<PReg> {
    let target = JumpTarget::Offset(offset);
    match *i {
        Instr::JmpExecAny { .. } => Instr::JmpExecAny { target },
        Instr::JmpExecNone { .. } => Instr::JmpExecNone { target },
        Instr::Call { .. } => Instr::Call { target },
        other => other,
    }
}

fn encode_error(index: usize, i: &Instr<PReg>, error: crate::isa::EncodeError) -> BackendError {
    BackendError::Encode {
        index,
        asm: i.to_string(),
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The simulator's golden encoding of `simd_shuffle r0, r1, r2l` (its `tests/golden.rs`,
    /// fields B = 4, Bt = 1 on top of the 32-bit D and A).
    #[test]
    fn shuffle_matches_the_golden_encoding() {
        let bytes = encode_shuffle(PReg::r32(0), PReg::r32(1), PReg::lo(2));
        assert_eq!(bytes.ok(), Some([0x6f, 0x01, 0x42, 0x46, 0x04, 0x00]));
    }

    #[test]
    fn shuffle_round_trips_through_the_simulators_decoder() {
        let bytes = match encode_shuffle(PReg::r32(40), PReg::r32(70), PReg::hi(100)) {
            Ok(b) => b,
            Err(e) => panic!("{e}"),
        };
        let text = agxc_runtime_sim::disasm::disassemble(&bytes);
        assert!(text.contains("simd_shuffle r40, r70, r100h"), "{text}");
    }
}
