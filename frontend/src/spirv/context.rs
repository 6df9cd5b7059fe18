//! The lifting context: module-level tables, the IR being built, and the emission helpers every
//! other part of the front end uses.

use super::cfg::Frame;
use super::constants::ConstVal;
use super::decorations::Decorations;
use super::error::SpirvError;
use super::io::OutputVar;
use super::liveness::Liveness;
use super::memory::VarInfo;
use super::module::{Block as SpvBlock, Func, Id, Inst, Module};
use super::types::TypeTable;
use super::value::{Agg, Env, Key};
use super::LiftOptions;
use agxc_egraph::ir::{
    Block, Builder, Const, EffectOp, Function, InstFlags, Op, PureOp, Stage, Type, Value, ValueDef,
};
use smallvec::SmallVec;
use spirv::Decoration;
use std::collections::{HashMap, HashSet};

/// Limits that keep adversarial input from exhausting the stack or memory.
pub(crate) mod limits {
    /// Nested structured constructs (selections, loops, switches, inlined calls) lifted
    /// recursively. Hand-written shaders stay far below; shader fuzzers (GraphicsFuzz) nest
    /// deeper than the 48 this once was. 128 as the TGSI front end; the IR verifier accepts 256.
    /// `tests::nesting` lifts and runs 127 levels on a test thread's default 2 MiB stack in a
    /// debug build.
    pub const MAX_NESTING: usize = 128;
    /// IR instructions in one lifted function (inlining and continue-construct duplication
    /// multiply code; this bounds the product).
    pub const MAX_INSTS: usize = 1 << 20;
}

/// The lifting context for one entry point.
pub(crate) struct Lowerer<'m> {
    pub m: &'m Module,
    pub options: &'m LiftOptions,
    pub types: TypeTable,
    pub decos: Decorations,
    /// Constants (`OpConstant*`, `OpSpecConstant*` other than `OpSpecConstantOp`).
    pub consts: HashMap<Id, ConstVal>,
    /// Module-scope values with an IR form valid everywhere (prologue values, pointers to
    /// global variables).
    pub globals: HashMap<Id, Agg>,
    /// Every variable, global or function-local.
    pub vars: HashMap<Id, VarInfo>,
    /// Function definitions by id.
    pub funcs: HashMap<Id, &'m Func>,
    /// Blocks by label, with the function holding them.
    pub blocks: HashMap<Id, (&'m SpvBlock, Id)>,
    /// `OpExtInstImport` ids of GLSL.std.450.
    pub glsl_sets: HashSet<Id>,
    /// `OpExtInstImport` ids of non-semantic sets (their instructions are skipped).
    pub ignored_sets: HashSet<Id>,
    pub stage: Stage,
    pub liveness: Liveness,

    /// The function being built.
    pub func: Function,
    /// The block instructions are appended to.
    pub block: Block,
    /// Length of the entry block's prologue (constants and invariant reads).
    prologue: usize,
    const_cache: HashMap<Const, Value>,
    const_agg_cache: HashMap<Id, Agg>,
    /// Byte offset of each constant table already in `func.constant_data` (`table.rs`).
    pub tables: HashMap<Vec<u8>, u32>,
    /// Function variables that live in private memory (`private.rs`).
    pub private_vars: HashSet<Id>,
    pub input_cache: HashMap<EffectOp, Value>,
    /// The value of each Input variable read so far.
    pub input_aggs: HashMap<Id, Agg>,
    /// Per-vertex geometry inputs' block members without an IR slot: (variable, member).
    pub unreadable_inputs: std::collections::HashSet<(Id, u32)>,
    /// The Output scalars written at the entry point's returns.
    pub outputs: Vec<OutputVar>,
    /// Flags of the SPIR-V instruction being lifted, put on the pure operations it becomes.
    pub flags: InstFlags,

    /// Current values of ids and promoted variables.
    pub env: Env,
    /// Open structured constructs, innermost last.
    pub frames: Vec<Frame>,
    /// Every SPIR-V block lifted so far, in order (constructs remember where theirs start).
    pub visited: Vec<Id>,
    /// Blocks on the current lifting path, to reject branches that would loop forever.
    pub on_path: HashMap<Id, u32>,
    pub path_stack: Vec<Id>,
    /// Functions being inlined, outermost first (the entry point at the bottom).
    pub calls: Vec<Id>,
    /// Nesting depth of switches (each has its own fall-through flag).
    pub switch_depth: u32,
}

impl<'m> Lowerer<'m> {
    pub fn new(
        m: &'m Module,
        options: &'m LiftOptions,
        decos: Decorations,
        name: &str,
        stage: Stage,
    ) -> Lowerer<'m> {
        let func = Function::new(name, stage);
        let block = func.entry;
        let mut blocks = HashMap::new();
        let mut funcs = HashMap::new();
        for f in &m.functions {
            funcs.insert(f.id, f);
            for b in &f.blocks {
                blocks.insert(b.label, (b, f.id));
            }
        }
        Lowerer {
            m,
            options,
            types: TypeTable::default(),
            decos,
            consts: HashMap::new(),
            globals: HashMap::new(),
            vars: HashMap::new(),
            funcs,
            blocks,
            glsl_sets: HashSet::new(),
            ignored_sets: HashSet::new(),
            stage,
            liveness: Liveness::compute(m),
            func,
            block,
            prologue: 0,
            const_cache: HashMap::new(),
            const_agg_cache: HashMap::new(),
            tables: HashMap::new(),
            private_vars: HashSet::new(),
            input_cache: HashMap::new(),
            input_aggs: HashMap::new(),
            unreadable_inputs: std::collections::HashSet::new(),
            outputs: Vec::new(),
            flags: InstFlags::NONE,
            env: Env::default(),
            frames: Vec::new(),
            visited: Vec::new(),
            on_path: HashMap::new(),
            path_stack: Vec::new(),
            calls: Vec::new(),
            switch_depth: 0,
        }
    }

    // ---- emission

    /// A builder appending to the current block.
    pub fn builder(&mut self) -> Builder<'_> {
        let mut b = Builder::new(&mut self.func);
        b.switch_to(self.block);
        b
    }

    /// Appends an instruction to the entry block's prologue, where its results are visible
    /// everywhere. Only for instructions without operands or with prologue operands.
    pub fn prologue_append(
        &mut self,
        op: Op,
        args: &[Value],
        tys: &[Type],
    ) -> SmallVec<[Value; 2]> {
        let entry = self.func.entry;
        let mut b = Builder::new(&mut self.func);
        let (inst, results) = b.append(op, args, tys, &[]);
        let insts = &mut self.func.blocks[entry].insts;
        insts.pop();
        insts.insert(self.prologue, inst);
        self.prologue += 1;
        results
    }

    /// Marks everything appended to the entry block so far as prologue (used after lifting
    /// specialization-constant operations, which are computed there).
    pub fn seal_prologue(&mut self) {
        self.prologue = self.func.blocks[self.func.entry].insts.len();
    }

    /// Drops prologue constants and invariant reads nothing uses (a vector built-in whose other
    /// components are never read, zeros made for paths that merge nothing, ...).
    pub fn prune_prologue(&mut self) {
        // Twice: a geometry shader's unused `vertex_input`s go first, then the vertex
        // constants only they used.
        for _ in 0..2 {
            let mut used = std::collections::HashSet::new();
            let func = &self.func;
            func.for_each_inst(|_, i| used.extend(func.inst(i).args.iter().copied()));
            let entry = self.func.entry;
            let insts = std::mem::take(&mut self.func.blocks[entry].insts);
            let kept = insts
                .into_iter()
                .filter(|&i| {
                    let data = &self.func.insts[i];
                    let removable = match data.op {
                        Op::Const(_) => true,
                        Op::Effect(EffectOp::VertexInput(_)) => true,
                        Op::Effect(e) => e.is_invariant_read(),
                        _ => false,
                    };
                    !removable || data.results.iter().any(|r| used.contains(r))
                })
                .collect();
            self.func.blocks[entry].insts = kept;
        }
    }

    /// A constant (one per distinct constant, in the prologue).
    pub fn konst(&mut self, c: Const) -> Value {
        if let Some(&v) = self.const_cache.get(&c) {
            return v;
        }
        let v = self.prologue_append(Op::Const(c), &[], &[c.ty()])[0];
        self.const_cache.insert(c, v);
        v
    }

    pub fn fconst(&mut self, ty: Type, v: f64) -> Value {
        self.konst(Const::float(ty, v))
    }

    pub fn iconst(&mut self, ty: Type, v: i64) -> Value {
        self.konst(Const::int(ty, v))
    }

    pub fn bconst(&mut self, v: bool) -> Value {
        self.konst(Const::bool(v))
    }

    pub fn zero(&mut self, ty: Type) -> Value {
        self.konst(Const::zero(ty))
    }

    /// A pure operation carrying the current instruction's flags: `NoContraction` only on float
    /// results (it is about fusing float arithmetic), `RelaxedPrecision` on any.
    pub fn pure(&mut self, op: PureOp, args: &[Value]) -> Value {
        let float = args.first().is_some_and(|&a| self.ty(a).is_float());
        let mut flags = InstFlags::NONE;
        if self.flags.contains(InstFlags::NO_CONTRACT) && float {
            flags = flags | InstFlags::NO_CONTRACT;
        }
        if self.flags.contains(InstFlags::RELAXED) {
            flags = flags | InstFlags::RELAXED;
        }
        let mut b = self.builder();
        b.set_flags(flags);
        b.pure(op, args)
    }

    /// A conversion (or a pure operation whose result type is explicit).
    pub fn convert(&mut self, op: PureOp, arg: Value, to: Type) -> Value {
        let mut flags = InstFlags::NONE;
        if self.flags.contains(InstFlags::RELAXED) {
            flags = InstFlags::RELAXED;
        }
        let mut b = self.builder();
        b.set_flags(flags);
        b.convert(op, arg, to)
    }

    pub fn effect(
        &mut self,
        op: EffectOp,
        args: &[Value],
        results: &[Type],
    ) -> SmallVec<[Value; 2]> {
        self.builder().effect(op, args, results)
    }

    /// An invariant read (built-in, input) computed once, in the prologue.
    pub fn invariant_read(&mut self, op: EffectOp, ty: Type) -> Value {
        if let Some(&v) = self.input_cache.get(&op) {
            return v;
        }
        let v = self.prologue_append(Op::Effect(op), &[], &[ty])[0];
        self.input_cache.insert(op, v);
        v
    }

    pub fn ty(&self, v: Value) -> Type {
        self.func.value_type(v)
    }

    /// The constant a value evaluates to, if it is computed from constants only (folded with
    /// the operation table's own evaluation functions).
    pub fn fold(&self, v: Value) -> Option<Const> {
        self.fold_depth(v, 0)
    }

    fn fold_depth(&self, v: Value, depth: u32) -> Option<Const> {
        if depth > 64 {
            return None;
        }
        let ValueDef::Result(inst, 0) = self.func.values.get(v)?.def else {
            return None;
        };
        let data = self.func.insts.get(inst)?;
        match data.op {
            Op::Const(c) => Some(c),
            Op::Pure(p) => {
                let args: Option<Vec<Const>> = data
                    .args
                    .iter()
                    .map(|&a| self.fold_depth(a, depth + 1))
                    .collect();
                let args = args?;
                let tys: Vec<Type> = args.iter().map(|c| c.ty()).collect();
                let ty = self.ty(v);
                p.signature().check(&tys, ty).ok()?;
                Some(p.eval(&args, ty))
            }
            _ => None,
        }
    }

    /// Rejects functions that grew past [`limits::MAX_INSTS`].
    pub fn check_budget(&self, at: &Inst) -> Result<(), SpirvError> {
        if self.func.insts.len() > limits::MAX_INSTS {
            return Err(SpirvError::TooLarge {
                detail: format!("more than {} IR instructions", limits::MAX_INSTS),
                at: at.location(),
            });
        }
        Ok(())
    }

    /// Sets the instruction flags from the decorations of the instruction's result.
    pub fn set_flags_for(&mut self, inst: &Inst) {
        self.flags = InstFlags::NONE;
        if let Some(id) = inst.result_id {
            if self.decos.has(id, Decoration::NoContraction) {
                self.flags = self.flags | InstFlags::NO_CONTRACT;
            }
            if self.decos.has(id, Decoration::RelaxedPrecision) {
                self.flags = self.flags | InstFlags::RELAXED;
            }
        }
    }

    // ---- values

    /// The lifted value of an id visible here.
    pub fn value(&mut self, id: Id, at: &Inst) -> Result<Agg, SpirvError> {
        if let Some(a) = self.env.get(Key::Id(id)) {
            return Ok(a.clone());
        }
        if let Some(a) = self.const_agg_cache.get(&id) {
            return Ok(a.clone());
        }
        if let Some(c) = self.consts.get(&id) {
            let c = c.clone();
            let a = self.const_agg(&c);
            self.const_agg_cache.insert(id, a.clone());
            return Ok(a);
        }
        if let Some(a) = self.globals.get(&id) {
            return Ok(a.clone());
        }
        Err(at.unknown_id(id))
    }

    /// Operand `i` of `inst`, lifted.
    pub fn operand(&mut self, inst: &Inst, i: usize) -> Result<Agg, SpirvError> {
        let id = inst.id(i)?;
        self.value(id, inst)
    }

    /// Operand `i` as the components of a scalar or vector.
    pub fn operand_components(
        &mut self,
        inst: &Inst,
        i: usize,
    ) -> Result<SmallVec<[Value; 4]>, SpirvError> {
        let a = self.operand(inst, i)?;
        a.components()
            .ok_or_else(|| inst.mismatch(format!("operand {i} is not a scalar or vector")))
    }

    /// Operand `i` as a scalar.
    pub fn operand_scalar(&mut self, inst: &Inst, i: usize) -> Result<Value, SpirvError> {
        match self.operand(inst, i)? {
            Agg::Scalar(v) => Ok(v),
            _ => Err(inst.mismatch(format!("operand {i} is not a scalar"))),
        }
    }

    /// Binds the instruction's result.
    pub fn bind(&mut self, inst: &Inst, value: Agg) -> Result<(), SpirvError> {
        let id = inst.result()?;
        self.env.set(Key::Id(id), value);
        Ok(())
    }

    /// Binds a scalar or vector result from its components, checking them against the result
    /// type.
    pub fn bind_components(&mut self, inst: &Inst, comps: &[Value]) -> Result<(), SpirvError> {
        let ty = inst.result_ty()?;
        let (scalar, count) = self.types.components(ty, inst)?;
        if comps.len() != count {
            return Err(inst.mismatch(format!(
                "{} components computed for a result of {count}",
                comps.len()
            )));
        }
        if let Some(&bad) = comps.iter().find(|&&c| self.ty(c) != scalar) {
            return Err(inst.mismatch(format!(
                "result component has type {}, the result type says {scalar}",
                self.ty(bad)
            )));
        }
        let agg = if self.types.is_vector(ty) {
            Agg::vector(comps.iter().copied())
        } else {
            Agg::Scalar(comps[0])
        };
        self.bind(inst, agg)
    }

    /// The IR form of a constant.
    pub fn const_agg(&mut self, c: &ConstVal) -> Agg {
        match c {
            ConstVal::Scalar(k) => Agg::Scalar(self.konst(*k)),
            ConstVal::Composite(items) => {
                Agg::composite(items.iter().map(|i| self.const_agg(i)).collect())
            }
        }
    }

    /// A value of type `ty` whose every scalar is zero (`OpUndef`, uninitialized variables).
    pub fn zero_agg(&mut self, ty: Id, at: &Inst) -> Result<Agg, SpirvError> {
        let c = ConstVal::null(&self.types, ty, at)?;
        Ok(self.const_agg(&c))
    }

    /// A tree shaped like `like` with zeros in every leaf (fills a merge for a path that did
    /// not define a name).
    pub fn zero_like(&mut self, like: &Agg) -> Agg {
        let mut leaves = Vec::new();
        like.leaves(&mut leaves);
        let zeros: Vec<Value> = leaves
            .iter()
            .map(|&v| {
                let ty = self.ty(v);
                self.zero(ty)
            })
            .collect();
        like.rebuild(&mut zeros.into_iter())
            .unwrap_or_else(|| like.clone())
    }
}
