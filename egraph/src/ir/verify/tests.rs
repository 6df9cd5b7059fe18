//! Robustness: the verifier and the printer terminate without panicking on arbitrarily
//! corrupted functions, and report every corruption that breaks well-formedness.

use crate::ir::arbitrary::Recipe;
use crate::ir::{verify, Block, Function, Inst, Type, Value};
use cranelift_entity::EntityRef;
use quickcheck::{Arbitrary, Gen};

fn below(g: &mut Gen, n: usize) -> usize {
    u32::arbitrary(g) as usize % n.max(1)
}

/// One random corruption (which may or may not break well-formedness).
fn corrupt(func: &mut Function, g: &mut Gen) {
    let n_blocks = func.blocks.len();
    let n_insts = func.insts.len();
    let n_values = func.values.len();
    let inst = Inst::new(below(g, n_insts));
    let block = Block::new(below(g, n_blocks));
    match below(g, 6) {
        // Give an instruction a block it does not own (often an ancestor: a cycle).
        0 => {
            func.insts[inst].blocks.push(block);
        }
        // Drop an instruction from its block.
        1 => {
            let insts = &mut func.blocks[block].insts;
            if !insts.is_empty() {
                let i = below(g, insts.len());
                insts.remove(i);
            }
        }
        // Place an instruction a second time.
        2 => {
            func.blocks[block].insts.insert(0, inst);
        }
        // Point an operand at a random, possibly nonexistent, value.
        3 => {
            let args = &mut func.insts[inst].args;
            if !args.is_empty() {
                let i = below(g, args.len());
                args[i] = Value::new(below(g, n_values + 3));
            }
        }
        // Change a value's type.
        4 => {
            let v = Value::new(below(g, n_values));
            let ty = *g.choose(&Type::ALL).unwrap_or(&Type::I16);
            func.values[v].ty = ty;
        }
        // Point the entry at another block.
        _ => func.entry = block,
    }
}

#[test]
fn corrupted_functions_never_panic_or_hang() {
    let mut g = Gen::from_size_and_seed(100, 9);
    let mut rejected = 0;
    for _ in 0..300 {
        let mut func = Recipe::arbitrary(&mut g).lower();
        for _ in 0..1 + below(&mut g, 3) {
            corrupt(&mut func, &mut g);
        }
        if verify(&func).is_err() {
            rejected += 1;
        }
        let _ = func.to_string();
    }
    assert!(
        rejected > 150,
        "only {rejected} of 300 corrupted functions rejected"
    );
}

#[test]
fn an_instruction_owning_its_own_block_is_a_reported_cycle() {
    let mut g = Gen::from_size_and_seed(100, 4);
    let mut checked = 0;
    while checked < 50 {
        let mut func = Recipe::arbitrary(&mut g).lower();
        // Find a block owned by a structured instruction and make one of its instructions
        // own that block too.
        let Some((block, owner)) = func
            .blocks
            .iter()
            .find_map(|(b, data)| data.parent.map(|p| (b, p)))
        else {
            continue;
        };
        let Some(&inside) = func.blocks[block].insts.first() else {
            continue;
        };
        func.insts[inside].blocks.push(block);
        let errors = verify(&func).unwrap_err().to_string();
        assert!(
            errors.contains(&format!("{inside} ("))
                && errors.contains(&format!("owns {block}, which {owner} already owns")),
            "{errors}"
        );
        let _ = func.to_string();
        checked += 1;
    }
}
