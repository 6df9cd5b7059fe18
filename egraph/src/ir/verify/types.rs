//! Operand and result types of every reachable instruction, against the operation table's
//! signatures (pure and target operations), the constants' types and the effects' rules.
//! Terminators' operands are checked with the structure, where their targets are known.

use super::structure::{Event, Walk};
use super::{Errors, VerifyErrorKind as E};
use crate::ir::entities::Inst;
use crate::ir::function::{Function, Op};
use crate::ir::signature::Signature;
use crate::ir::types::Type;
use smallvec::SmallVec;

pub(super) fn check(func: &Function, walk: &Walk, errors: &mut Errors) {
    for event in &walk.events {
        if let Event::Inst(inst) = *event {
            if !walk.broken.contains(inst) {
                check_inst(func, inst, errors);
            }
        }
    }
}

fn check_inst(func: &Function, inst: Inst, errors: &mut Errors) {
    let data = &func.insts[inst];
    let args: SmallVec<[Type; 4]> = data.args.iter().map(|&v| func.values[v].ty).collect();
    let results: SmallVec<[Type; 2]> = data.results.iter().map(|&v| func.values[v].ty).collect();
    match data.op {
        Op::Pure(op) => check_signature(op.signature(), &args, &results, inst, errors),
        Op::Custom(op) => check_signature(op.signature(), &args, &results, inst, errors),
        Op::Const(c) => {
            if !args.is_empty() {
                let got = args.len();
                errors.at_inst(inst, E::OperandCount { expected: 0, got });
            }
            match results[..] {
                [result] if result != c.ty() => errors.at_inst(
                    inst,
                    E::ConstType {
                        constant: c.ty(),
                        result,
                    },
                ),
                [_] => {}
                _ => {
                    let got = results.len();
                    errors.at_inst(inst, E::ResultCount { expected: 1, got });
                }
            }
        }
        Op::Effect(effect) => {
            if let Err(e) = effect.check(&args, &results) {
                errors.at_inst(inst, E::Effect(e));
            }
        }
        Op::If => match args[..] {
            [ty] if ty != Type::Bool => errors.at_inst(
                inst,
                E::Condition {
                    value: data.args[0],
                    got: ty,
                },
            ),
            [_] => {}
            _ => {
                let got = args.len();
                errors.at_inst(inst, E::OperandCount { expected: 1, got });
            }
        },
        // Loop initial values are checked against the body's parameters, and the results
        // against each `break`, with the structure; terminators likewise.
        Op::Loop | Op::Yield | Op::Break | Op::Continue | Op::Return | Op::Discard => {}
    }
}

fn check_signature(
    sig: Signature,
    args: &[Type],
    results: &[Type],
    inst: Inst,
    errors: &mut Errors,
) {
    let [result] = results[..] else {
        let got = results.len();
        errors.at_inst(inst, E::ResultCount { expected: 1, got });
        return;
    };
    if let Err(e) = sig.check(args, result) {
        errors.at_inst(inst, E::Signature(e));
    }
}
