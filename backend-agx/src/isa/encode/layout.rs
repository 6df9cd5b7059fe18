//! The final emission step: lays out a sequence of instructions, binds symbolic labels to byte
//! offsets and patches jump offsets (relative to each jump's own address, docs/g13.md
//! "Execution-mask stack").
//!
//! Instruction lengths do not depend on jump offsets (every jump is 6 bytes), so layout takes
//! two passes: lengths and label positions first, then encoding with resolved offsets.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::encode;
use super::error::AssembleError;
use crate::isa::{Instr, JumpTarget, Label, PReg};

/// Builds a program from instructions and labels.
#[derive(Debug, Clone, Default)]
pub struct Assembler {
    instrs: Vec<Instr<PReg>>,
    /// Label bindings as (label, index of the next instruction pushed).
    bindings: Vec<(Label, usize)>,
}

/// A laid-out program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// The machine code.
    pub code: Vec<u8>,
    /// Byte offset of each instruction, in push order.
    pub pcs: Vec<u32>,
    /// The instructions with every jump target resolved to an offset, in push order.
    pub instrs: Vec<Instr<PReg>>,
    /// Byte offset of each bound label.
    pub labels: BTreeMap<Label, u32>,
}

impl Assembler {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an instruction.
    pub fn push(&mut self, instr: Instr<PReg>) {
        self.instrs.push(instr);
    }

    /// Binds `label` to the position of the next instruction pushed (or the end).
    pub fn bind(&mut self, label: Label) {
        self.bindings.push((label, self.instrs.len()));
    }

    /// Number of instructions pushed.
    pub fn len(&self) -> usize {
        self.instrs.len()
    }

    /// Whether no instruction was pushed.
    pub fn is_empty(&self) -> bool {
        self.instrs.is_empty()
    }

    /// Lays the program out and encodes it.
    pub fn finish(self) -> Result<Assembled, AssembleError> {
        // Pass 1: lengths, with jumps encoded against a placeholder offset.
        let mut pcs = Vec::with_capacity(self.instrs.len() + 1);
        let mut pc: u64 = 0;
        for (index, instr) in self.instrs.iter().enumerate() {
            pcs.push(u32::try_from(pc).map_err(|_| AssembleError::TooLarge)?);
            let sized = match instr.jump_target() {
                Some(_) => with_target(instr, JumpTarget::Offset(0)),
                None => *instr,
            };
            let len = encode(&sized)
                .map_err(|error| AssembleError::Instr { index, error })?
                .len();
            pc += len as u64;
        }
        let end = u32::try_from(pc).map_err(|_| AssembleError::TooLarge)?;
        i32::try_from(pc).map_err(|_| AssembleError::TooLarge)?;
        let mut labels = BTreeMap::new();
        for &(label, index) in &self.bindings {
            let at = pcs.get(index).copied().unwrap_or(end);
            if labels.insert(label, at).is_some() {
                return Err(AssembleError::DuplicateLabel(label));
            }
        }
        // Pass 2: resolve targets and encode.
        let mut code = Vec::with_capacity(end as usize);
        let mut instrs = Vec::with_capacity(self.instrs.len());
        for (index, instr) in self.instrs.iter().enumerate() {
            let resolved = match instr.jump_target() {
                Some(JumpTarget::Label(label)) => {
                    let target = *labels
                        .get(&label)
                        .ok_or(AssembleError::UnboundLabel { index, label })?;
                    // Both positions are below 2^31 (checked above), so the difference fits.
                    let offset = i64::from(target) - i64::from(pcs[index]);
                    with_target(instr, JumpTarget::Offset(offset as i32))
                }
                _ => *instr,
            };
            let bytes = encode(&resolved).map_err(|error| AssembleError::Instr { index, error })?;
            code.extend_from_slice(bytes.as_bytes());
            instrs.push(resolved);
        }
        Ok(Assembled {
            code,
            pcs,
            instrs,
            labels,
        })
    }
}

/// `instr` (a jump or call) with its target replaced.
fn with_target(instr: &Instr<PReg>, target: JumpTarget) -> Instr<PReg> {
    match *instr {
        Instr::JmpExecAny { .. } => Instr::JmpExecAny { target },
        Instr::JmpExecNone { .. } => Instr::JmpExecNone { target },
        Instr::Call { .. } => Instr::Call { target },
        other => other,
    }
}

impl Assembled {
    /// A listing: one line per instruction with its byte offset, its bytes in hex and its
    /// assembly, labels on lines of their own.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        for (i, instr) in self.instrs.iter().enumerate() {
            let pc = self.pcs[i];
            for (label, _) in self.labels.iter().filter(|(_, &at)| at == pc) {
                let _ = writeln!(out, "{label}:");
            }
            let end = self.pcs.get(i + 1).map_or(self.code.len(), |&e| e as usize);
            let hex: String = self.code[pc as usize..end]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let _ = writeln!(out, "{pc:6x}: {hex:<24} {instr}");
        }
        out
    }
}
