//! Appending instructions to a function.
//!
//! The builder keeps a current block and appends to it. It infers result types from the operation
//! table; it does not reject ill-typed input (a front end may build first and verify after, so
//! that every type error is reported by the verifier with the offending instruction's name).
//!
//! ```
//! use agxc_egraph::ir::{Builder, Const, Function, PureOp, Stage, Type};
//!
//! let mut func = Function::new("main", Stage::Compute);
//! let mut b = Builder::new(&mut func);
//! let x = b.konst(Const::f32(2.0));
//! let y = b.pure(PureOp::Fmul, &[x, x]);
//! let positive = b.pure(PureOp::Fgt, &[y, x]);
//! // if (positive) { yield y } else { yield x }
//! let (_, [then_block, else_block]) = b.begin_if(positive, &[Type::F32]);
//! let parent = b.block();
//! b.switch_to(then_block);
//! b.yield_(&[y]);
//! b.switch_to(else_block);
//! b.yield_(&[x]);
//! b.switch_to(parent);
//! b.return_();
//! assert!(agxc_egraph::ir::verify(&func).is_ok());
//! ```

use super::constant::Const;
use super::custom::CustomOp;
use super::effects::EffectOp;
use super::entities::{Block, Inst, Value};
use super::function::{Function, InstData, InstFlags, Op, ValueDef};
use super::ops::PureOp;
use super::types::Type;
use smallvec::SmallVec;

/// Appends instructions to a function's blocks.
pub struct Builder<'f> {
    func: &'f mut Function,
    block: Block,
    flags: InstFlags,
}

impl<'f> Builder<'f> {
    /// A builder appending to the function's entry block.
    pub fn new(func: &'f mut Function) -> Builder<'f> {
        let block = func.entry;
        Builder {
            func,
            block,
            flags: InstFlags::NONE,
        }
    }

    /// The function being built.
    pub fn func(&self) -> &Function {
        self.func
    }

    /// The function being built, mutably.
    pub fn func_mut(&mut self) -> &mut Function {
        self.func
    }

    /// The block instructions are appended to.
    pub fn block(&self) -> Block {
        self.block
    }

    /// Continues appending to `block`.
    pub fn switch_to(&mut self, block: Block) {
        self.block = block;
    }

    /// True if the current block already ends in a terminator.
    pub fn is_terminated(&self) -> bool {
        self.func.terminator(self.block).is_some()
    }

    /// Flags put on every instruction built from now on (until changed).
    pub fn set_flags(&mut self, flags: InstFlags) {
        self.flags = flags;
    }

    /// The type of a value.
    pub fn ty(&self, v: Value) -> Type {
        self.func.value_type(v)
    }

    /// Appends an instruction with results of the given types; returns it and its results.
    pub fn append(
        &mut self,
        op: Op,
        args: &[Value],
        result_types: &[Type],
        blocks: &[Block],
    ) -> (Inst, SmallVec<[Value; 2]>) {
        let inst = self.func.make_inst(InstData {
            op,
            args: args.into(),
            results: SmallVec::new(),
            blocks: blocks.into(),
            flags: self.flags,
        });
        let results: SmallVec<[Value; 2]> = result_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| self.func.make_value(ty, ValueDef::Result(inst, i as u32)))
            .collect();
        self.func.insts[inst].results = results.clone();
        for &b in blocks {
            self.func.blocks[b].parent = Some(inst);
        }
        self.func.blocks[self.block].insts.push(inst);
        (inst, results)
    }

    fn single(&mut self, op: Op, args: &[Value], ty: Type) -> Value {
        self.append(op, args, &[ty], &[]).1[0]
    }

    /// A constant.
    pub fn konst(&mut self, c: Const) -> Value {
        self.single(Op::Const(c), &[], c.ty())
    }

    /// An f32 constant.
    pub fn f32(&mut self, v: f32) -> Value {
        self.konst(Const::f32(v))
    }

    /// An i32 constant.
    pub fn i32(&mut self, v: i32) -> Value {
        self.konst(Const::i32(v))
    }

    /// A bool constant.
    pub fn bool(&mut self, v: bool) -> Value {
        self.konst(Const::bool(v))
    }

    /// A pure operation whose result type follows from its operands (not a conversion: use
    /// [`Builder::convert`]). Ill-typed operands are left for the verifier to report.
    pub fn pure(&mut self, op: PureOp, args: &[Value]) -> Value {
        let tys: SmallVec<[Type; 4]> = args.iter().map(|&a| self.ty(a)).collect();
        let ty = match op.signature().infer(&tys) {
            Ok(Some(t)) => t,
            _ => tys.first().copied().unwrap_or(Type::Bool),
        };
        self.single(Op::Pure(op), args, ty)
    }

    /// A conversion (or any pure operation) with an explicit result type.
    pub fn convert(&mut self, op: PureOp, arg: Value, to: Type) -> Value {
        self.single(Op::Pure(op), &[arg], to)
    }

    /// A pure operation with an explicit result type.
    pub fn pure_typed(&mut self, op: PureOp, args: &[Value], ty: Type) -> Value {
        self.single(Op::Pure(op), args, ty)
    }

    /// A target operation.
    pub fn custom(&mut self, op: CustomOp, args: &[Value]) -> Value {
        let tys: SmallVec<[Type; 4]> = args.iter().map(|&a| self.ty(a)).collect();
        let ty = match op.signature().infer(&tys) {
            Ok(Some(t)) => t,
            _ => tys.first().copied().unwrap_or(Type::Bool),
        };
        self.single(Op::Custom(op), args, ty)
    }

    /// An effectful operation with the given result types.
    pub fn effect(
        &mut self,
        op: EffectOp,
        args: &[Value],
        result_types: &[Type],
    ) -> SmallVec<[Value; 2]> {
        self.append(Op::Effect(op), args, result_types, &[]).1
    }

    /// Starts an `if` on `cond` with results of the given types. Returns the instruction and its
    /// `[then, else]` blocks; the current block is unchanged. Fill both arms (each must end in a
    /// terminator, normally [`Builder::yield_`]) and switch back to continue after the `if`.
    pub fn begin_if(&mut self, cond: Value, result_types: &[Type]) -> (Inst, [Block; 2]) {
        let then_block = self.func.make_block(None);
        let else_block = self.func.make_block(None);
        let (inst, _) = self.append(Op::If, &[cond], result_types, &[then_block, else_block]);
        (inst, [then_block, else_block])
    }

    /// Starts a `loop` with initial values `init` and results of the given types. Returns the
    /// instruction, its body block and the body's parameters (one per initial value, same
    /// types). The body must end in `continue`, `break`, `return` or `discard`.
    pub fn begin_loop(
        &mut self,
        init: &[Value],
        result_types: &[Type],
    ) -> (Inst, Block, SmallVec<[Value; 2]>) {
        let body = self.func.make_block(None);
        let (inst, _) = self.append(Op::Loop, init, result_types, &[body]);
        let params: SmallVec<[Value; 2]> = init
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let ty = self.func.value_type(v);
                self.func.make_value(ty, ValueDef::Param(body, i as u32))
            })
            .collect();
        self.func.blocks[body].params = params.clone();
        (inst, body, params)
    }

    /// The results of a structured instruction.
    pub fn results(&self, inst: Inst) -> &[Value] {
        &self.func.insts[inst].results
    }

    fn terminate(&mut self, op: Op, args: &[Value]) -> Inst {
        self.append(op, args, &[], &[]).0
    }

    /// Ends an `if` arm.
    pub fn yield_(&mut self, values: &[Value]) -> Inst {
        self.terminate(Op::Yield, values)
    }

    /// Leaves the innermost loop.
    pub fn break_(&mut self, values: &[Value]) -> Inst {
        self.terminate(Op::Break, values)
    }

    /// Starts the innermost loop's next iteration.
    pub fn continue_(&mut self, values: &[Value]) -> Inst {
        self.terminate(Op::Continue, values)
    }

    /// Ends the invocation.
    pub fn return_(&mut self) -> Inst {
        self.terminate(Op::Return, &[])
    }

    /// Ends the invocation and drops its fragment.
    pub fn discard(&mut self) -> Inst {
        self.terminate(Op::Discard, &[])
    }
}
