//! Emission: final layout and encoding through the ISA module's encoder.
//!
//! Two passes: instruction lengths and label positions first (every jump is 6 bytes whatever
//! its offset, so lengths do not depend on the layout), then encoding with each jump's offset
//! relative to its own address.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::cflow::Lowered;
use crate::error::BackendError;
use crate::isa::{encode, Instr, JumpTarget, Label, PReg};

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
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(self.items.len() * 64);
        let mut hex = String::new();
        for (i, item) in self.items.iter().enumerate() {
            let pc = self.pcs[i] as usize;
            let end = self.pcs.get(i + 1).map_or(self.code.len(), |&p| p as usize);
            hex.clear();
            for &b in &self.code[pc..end] {
                hex.push(char::from(HEX[usize::from(b >> 4)]));
                hex.push(char::from(HEX[usize::from(b & 15)]));
            }
            let _ = writeln!(s, "{pc:6x}: {hex:<24} {item}");
        }
        s
    }

    /// The machine instructions (every item but the labels).
    pub fn instrs(&self) -> impl Iterator<Item = &Instr<PReg>> {
        self.items.iter().filter_map(|l| match l {
            Lowered::Instr(i) => Some(i),
            _ => None,
        })
    }
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
