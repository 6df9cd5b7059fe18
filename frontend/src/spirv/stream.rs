//! Word-level checks of a SPIR-V binary, made before `rspirv` decodes it.
//!
//! `rspirv`'s parser trusts parts of the stream: an `OpSpecConstantOp` whose operation is
//! `OpSwitch` (opcode 251), `OpConstant`, `OpSpecConstant` or `OpSpecConstantOp` reaches a
//! `panic!` in its operand parser (`binary/autogen_parse_operand.rs` in rspirv 0.13), because
//! those operations' operands have kinds it cannot parse outside their own instruction. This
//! module walks the instruction headers (SPIR-V section 2.3: the high 16 bits of an
//! instruction's first word are its word count) and refuses such instructions with an error
//! naming them, so that no input can panic inside `rspirv`.
//!
//! It also checks the header's id bound (word 3): every result id must be below it (section
//! 2.3), and it may not exceed the universal limit of 4,194,303 (section 2.17).

use super::error::{Location, SpirvError};
use super::module::{opcode_name, Inst};
use rspirv::grammar::{OperandKind, INSTRUCTION_TABLE};
use spirv::Op;

/// Words in the module header (SPIR-V section 2.3).
pub(crate) const HEADER_WORDS: usize = 5;

/// The header word holding the id bound.
const BOUND_WORD: u32 = 3;

/// SPIR-V's universal limit on the id bound (section 2.17, "Universal Limits"), the value
/// `spirv-val` enforces by default.
pub const MAX_ID_BOUND: u32 = 4_194_303;

fn decode_error(offset: usize, opcode: u16, detail: String) -> SpirvError {
    SpirvError::Decode {
        at: Some(Location {
            opcode: opcode_name(opcode),
            offset: offset as u32,
            function: None,
        }),
        detail,
    }
}

/// Word offset and opcode of every instruction, from the word stream alone; refuses word
/// counts of 0, instructions running past the end, and operands `rspirv` cannot parse.
pub(crate) fn walk_headers(words: &[u32]) -> Result<Vec<(u32, u16)>, SpirvError> {
    let mut out = Vec::new();
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = (words[at] & 0xffff) as u16;
        if count == 0 {
            return Err(decode_error(
                at,
                opcode,
                "instruction word count is 0".into(),
            ));
        }
        if at + count > words.len() {
            return Err(decode_error(
                at,
                opcode,
                format!(
                    "instruction of {count} words runs past the end of the module ({} words)",
                    words.len()
                ),
            ));
        }
        if u32::from(opcode) == Op::SpecConstantOp as u32 && count > 3 {
            check_spec_constant_op(at, words[at + 3])?;
        }
        out.push((at as u32, opcode));
        at += count;
    }
    Ok(out)
}

/// Refuses an `OpSpecConstantOp` operation whose operands `rspirv` would panic on. (Unknown
/// opcodes are left to `rspirv`, which reports them; operations SPIR-V does not allow there
/// but `rspirv` parses are refused later, by the lifter, with the instruction's function.)
fn check_spec_constant_op(at: usize, operation: u32) -> Result<(), SpirvError> {
    let Some(grammar) = INSTRUCTION_TABLE.lookup_opcode(operation) else {
        return Ok(());
    };
    let parseable = grammar.operands.iter().all(|o| {
        !matches!(
            o.kind,
            OperandKind::LiteralContextDependentNumber
                | OperandKind::LiteralSpecConstantOpInteger
                | OperandKind::PairLiteralIntegerIdRef
                | OperandKind::Debuginfo(_)
                | OperandKind::NonsemanticClspvreflection(_)
                | OperandKind::NonsemanticShaderDebuginfo100(_)
                | OperandKind::OpenclDebuginfo100(_)
        )
    });
    if parseable {
        return Ok(());
    }
    Err(decode_error(
        at,
        Op::SpecConstantOp as u16,
        format!(
            "the operation Op{} (opcode {operation}) cannot be a specialization constant \
             operation",
            grammar.opname
        ),
    ))
}

fn header_error(detail: String) -> SpirvError {
    SpirvError::Header {
        word: BOUND_WORD,
        detail,
    }
}

/// Checks the id bound on its own: not 0, not above [`MAX_ID_BOUND`].
pub(crate) fn check_bound_word(bound: u32) -> Result<(), SpirvError> {
    if bound == 0 {
        return Err(header_error(
            "id bound 0 (every id must be below the bound)".into(),
        ));
    }
    if bound > MAX_ID_BOUND {
        return Err(header_error(format!(
            "id bound {bound} is above SPIR-V's universal limit {MAX_ID_BOUND} (section 2.17)"
        )));
    }
    Ok(())
}

/// Checks that every id an instruction defines or uses is below the bound.
pub(crate) fn check_ids<'a>(
    bound: u32,
    insts: impl Iterator<Item = &'a Inst>,
) -> Result<(), SpirvError> {
    use rspirv::dr::Operand;
    for inst in insts {
        let operand_ids = inst.operands.iter().filter_map(|o| match o {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => Some(*id),
            _ => None,
        });
        let ids = inst
            .result_type
            .into_iter()
            .chain(inst.result_id)
            .chain(operand_ids);
        for id in ids {
            if id >= bound {
                return Err(header_error(format!(
                    "id bound {bound}, but {} uses id %{id}",
                    inst.location()
                )));
            }
        }
    }
    Ok(())
}
