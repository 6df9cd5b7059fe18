//! Emission: final layout and encoding through the ISA module's encoder.
//!
//! Two passes: instruction lengths and label positions first (every jump is 6 bytes whatever
//! its offset, so lengths do not depend on the layout), then encoding with each jump's offset
//! relative to its own address. `sample_mask 1, 0`, which the ISA module has no variant for
//! yet, is encoded here from the simulator's table (Mesa's layout: `T Tt 11000001`,
//! `Sx ? Tx St ? S`, with `Tt`/`St` set for immediates): bytes `c1 03 80 00`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::cflow::Lowered;
use crate::error::BackendError;
use crate::isa::{encode, Instr, JumpTarget, Label, PReg};

/// `sample_mask 1, 0`: drop the active lanes' pixels.
pub const SAMPLE_MASK_DISCARD: [u8; 4] = [0xc1, 0x03, 0x80, 0x00];

/// Encoded code with its layout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Emitted {
    /// Machine code.
    pub code: Vec<u8>,
    /// Byte offset of each instruction.
    pub pcs: Vec<u32>,
    /// The instructions (jumps resolved; `None` for `sample_mask`).
    pub instrs: Vec<Option<Instr<PReg>>>,
}

impl Emitted {
    /// The disassembly: `pc: bytes  text` per line.
    pub fn listing(&self) -> String {
        let mut s = String::new();
        for (i, instr) in self.instrs.iter().enumerate() {
            let pc = self.pcs[i] as usize;
            let end = self.pcs.get(i + 1).map_or(self.code.len(), |&p| p as usize);
            let hex: String = self.code[pc..end]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let text = match instr {
                Some(i) => i.to_string(),
                None => "sample_mask 1, 0".to_string(),
            };
            let _ = writeln!(s, "{pc:6x}: {hex:<24} {text}");
        }
        s
    }
}

/// Lays out and encodes `code`.
pub fn emit(code: &[Lowered]) -> Result<Emitted, BackendError> {
    // Pass 1: lengths and labels.
    let mut labels: BTreeMap<Label, u32> = BTreeMap::new();
    let mut pc: u64 = 0;
    let mut items: Vec<(u32, &Lowered)> = Vec::new();
    for (index, item) in code.iter().enumerate() {
        match item {
            Lowered::Label(l) => {
                labels.insert(*l, pc as u32);
            }
            Lowered::SampleMask => {
                items.push((pc as u32, item));
                pc += SAMPLE_MASK_DISCARD.len() as u64;
            }
            Lowered::Instr(i) => {
                let sized = with_offset(i, 0);
                let len = encode(&sized)
                    .map_err(|error| encode_error(index, i, error))?
                    .len();
                items.push((pc as u32, item));
                pc += len as u64;
            }
        }
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
                out.instrs.push(None);
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
                out.instrs.push(Some(resolved));
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
