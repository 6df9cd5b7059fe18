//! The assembler: label binding, offset patching, the pc map.

use super::{check, d, l, Triple};
use crate::isa::{AssembleError, Assembler, Instr, JumpTarget, Label, PReg};

/// L0: mov_imm r0l, 0 (pc 0, 4 bytes); jmp_exec_none L1 (pc 4, 6 bytes); wait 0 (pc 10);
/// L1: jmp_exec_any L0 (pc 12); stop (pc 18).
fn program() -> Assembler {
    let mut asm = Assembler::new();
    asm.bind(Label(0));
    asm.push(Instr::MovImm {
        dst: d(l(0)),
        imm: 0,
    });
    asm.push(Instr::JmpExecNone {
        target: JumpTarget::Label(Label(1)),
    });
    asm.push(Instr::Wait { slot: 0 });
    asm.bind(Label(1));
    asm.push(Instr::JmpExecAny {
        target: JumpTarget::Label(Label(0)),
    });
    asm.push(Instr::Stop);
    asm
}

#[test]
fn patches_forward_and_backward_offsets() {
    let out = program().finish().expect("the program lays out");
    // Offsets relative to each jump: L1 - 4 = +8; L0 - 12 = -12 = 0xfffffff4.
    let expected = "62000000".to_owned() + "20c008000000" + "3800" + "00c0f4ffffff" + "8800";
    assert_eq!(super::hex(&out.code), expected);
    assert_eq!(out.pcs, vec![0, 4, 10, 12, 18]);
    assert_eq!(out.labels.get(&Label(0)), Some(&0));
    assert_eq!(out.labels.get(&Label(1)), Some(&12));
    assert_eq!(
        out.instrs[1],
        Instr::JmpExecNone {
            target: JumpTarget::Offset(8)
        }
    );
    assert_eq!(
        out.instrs[3],
        Instr::JmpExecAny {
            target: JumpTarget::Offset(-12)
        }
    );
    let listing = out.listing();
    assert!(listing.contains("L1:\n"), "{listing}");
    assert!(
        listing.contains("     4: 20c008000000             jmp_exec_none +8"),
        "{listing}"
    );
}

#[test]
fn resolved_jumps_are_triples() {
    let resolved: Vec<Triple> = vec![
        super::t(
            Instr::JmpExecNone {
                target: JumpTarget::Offset(8),
            },
            "20c008000000",
            "jmp_exec_none +8",
        ),
        super::t(
            Instr::JmpExecAny {
                target: JumpTarget::Offset(-12),
            },
            "00c0f4ffffff",
            "jmp_exec_any -12",
        ),
    ];
    check(&resolved);
}

#[test]
fn label_at_the_end_and_errors() {
    let mut asm = Assembler::new();
    asm.push(Instr::JmpExecNone {
        target: JumpTarget::Label(Label(7)),
    });
    asm.bind(Label(7));
    let out = asm
        .finish()
        .expect("a label may follow the last instruction");
    // The end is byte 6, so the offset is +6.
    assert_eq!(super::hex(&out.code), "20c006000000");

    let mut asm = Assembler::new();
    asm.push(Instr::JmpExecAny {
        target: JumpTarget::Label(Label(2)),
    });
    assert_eq!(
        asm.finish(),
        Err(AssembleError::UnboundLabel {
            index: 0,
            label: Label(2)
        })
    );

    let mut asm = program();
    asm.bind(Label(0));
    assert_eq!(asm.finish(), Err(AssembleError::DuplicateLabel(Label(0))));

    let mut asm = Assembler::new();
    asm.push(Instr::Stop);
    asm.push(Instr::MovImm {
        dst: d(PReg::half(300)),
        imm: 0,
    });
    assert!(matches!(
        asm.finish(),
        Err(AssembleError::Instr { index: 1, .. })
    ));
}

#[test]
fn the_simulator_follows_the_patched_jumps() {
    use agxc_runtime_sim::decode::{decode_program, inst::Inst};
    let out = program().finish().expect("the program lays out");
    let decoded = decode_program(&out.code).expect("the simulator decodes the program");
    let pcs: Vec<u32> = decoded.iter().map(|d| d.pc).collect();
    assert_eq!(pcs, out.pcs);
    assert_eq!(decoded[1].inst, Inst::JmpExecNone { offset: 8 });
    assert_eq!(decoded[3].inst, Inst::JmpExecAny { offset: -12 });
}
