//! Decoding: a SPIR-V binary into instructions that know their word offset.
//!
//! The instruction stream is decoded by `rspirv::dr::load_words` (operands typed by the grammar in
//! the `spirv` crate). `rspirv` does not keep positions, so the word offset of every instruction is
//! recovered by walking the instruction headers of the word stream (SPIR-V section 2.3: the high
//! 16 bits of an instruction's first word are its word count) and pairing the walk, in order, with
//! the loaded instructions, which `rspirv` sorts into the sections of the logical layout
//! (section 2.4). A module whose instructions are out of that order cannot be paired and is
//! reported as such.
//!
//! Two kinds of instruction have no place in `rspirv`'s loader and are taken out of the stream
//! before it runs: `OpExecutionModeId` (decoded on its own by `rspirv`'s parser) and
//! module-scope `OpExtInst` (non-semantic debug information, which lifting ignores).

use super::error::{Location, SpirvError};
use super::stream::{check_bound_word, check_ids, walk_headers, HEADER_WORDS};
use rspirv::dr;
use spirv::Op;
use std::collections::HashMap;
use std::rc::Rc;

/// A SPIR-V result id.
pub(crate) type Id = u32;

/// One decoded instruction and where it came from.
#[derive(Clone, Debug)]
pub(crate) struct Inst {
    pub opcode: Op,
    opname: &'static str,
    pub result_type: Option<Id>,
    pub result_id: Option<Id>,
    pub operands: Vec<dr::Operand>,
    /// Word offset from the start of the module.
    pub offset: u32,
    /// The display name of the function holding it.
    pub function: Option<Rc<str>>,
}

impl Inst {
    /// `OpFoo`.
    pub fn name(&self) -> String {
        format!("Op{}", self.opname)
    }

    pub fn location(&self) -> Location {
        Location {
            opcode: self.name(),
            offset: self.offset,
            function: self.function.as_deref().map(str::to_string),
        }
    }

    pub fn invalid(&self, detail: impl Into<String>) -> SpirvError {
        SpirvError::Invalid {
            detail: detail.into(),
            at: self.location(),
        }
    }

    pub fn unsupported(&self, what: impl Into<String>) -> SpirvError {
        SpirvError::Unsupported {
            what: what.into(),
            at: self.location(),
        }
    }

    pub fn mismatch(&self, detail: impl Into<String>) -> SpirvError {
        SpirvError::TypeMismatch {
            detail: detail.into(),
            at: self.location(),
        }
    }

    pub fn unstructured(&self, detail: impl Into<String>) -> SpirvError {
        SpirvError::Unstructured {
            detail: detail.into(),
            at: self.location(),
        }
    }

    pub fn unknown_id(&self, id: Id) -> SpirvError {
        SpirvError::UnknownId {
            id,
            at: self.location(),
        }
    }

    pub fn unsupported_instruction(&self) -> SpirvError {
        SpirvError::UnsupportedInstruction {
            at: self.location(),
        }
    }

    fn operand(&self, i: usize) -> Result<&dr::Operand, SpirvError> {
        self.operands
            .get(i)
            .ok_or_else(|| self.invalid(format!("missing operand {i}")))
    }

    /// Operand `i` as an id.
    pub fn id(&self, i: usize) -> Result<Id, SpirvError> {
        match self.operand(i)? {
            dr::Operand::IdRef(id)
            | dr::Operand::IdScope(id)
            | dr::Operand::IdMemorySemantics(id) => Ok(*id),
            other => Err(self.invalid(format!("operand {i} ({other:?}) is not an id"))),
        }
    }

    /// Operand `i` as a 32-bit literal.
    pub fn literal(&self, i: usize) -> Result<u32, SpirvError> {
        match self.operand(i)? {
            dr::Operand::LiteralBit32(v) | dr::Operand::LiteralExtInstInteger(v) => Ok(*v),
            other => Err(self.invalid(format!("operand {i} ({other:?}) is not a literal"))),
        }
    }

    /// Operand `i` as a string.
    pub fn string(&self, i: usize) -> Result<&str, SpirvError> {
        match self.operand(i)? {
            dr::Operand::LiteralString(s) => Ok(s),
            other => Err(self.invalid(format!("operand {i} ({other:?}) is not a string"))),
        }
    }

    /// The result id (present for every instruction that has one by the grammar).
    pub fn result(&self) -> Result<Id, SpirvError> {
        self.result_id
            .ok_or_else(|| self.invalid("missing result id"))
    }

    /// The result type id.
    pub fn result_ty(&self) -> Result<Id, SpirvError> {
        self.result_type
            .ok_or_else(|| self.invalid("missing result type"))
    }

    /// Operands `from..` as ids.
    pub fn ids_from(&self, from: usize) -> Result<Vec<Id>, SpirvError> {
        (from..self.operands.len()).map(|i| self.id(i)).collect()
    }
}

/// A block: its label and its instructions, the last one its terminator.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub label: Id,
    pub label_inst: Inst,
    pub insts: Vec<Inst>,
}

impl Block {
    /// The terminator (the loader guarantees a block ends in one).
    pub fn terminator(&self) -> &Inst {
        self.insts.last().unwrap_or(&self.label_inst)
    }

    /// The merge instruction, if this is a header block (it precedes the terminator).
    pub fn merge(&self) -> Option<&Inst> {
        let n = self.insts.len();
        if n < 2 {
            return None;
        }
        let inst = &self.insts[n - 2];
        matches!(inst.opcode, Op::SelectionMerge | Op::LoopMerge).then_some(inst)
    }
}

/// A function definition.
#[derive(Clone, Debug)]
pub(crate) struct Func {
    pub def: Inst,
    pub id: Id,
    pub params: Vec<Inst>,
    pub blocks: Vec<Block>,
}

/// A decoded module, sections in logical-layout order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Module {
    pub capabilities: Vec<Inst>,
    pub extensions: Vec<Inst>,
    pub ext_inst_imports: Vec<Inst>,
    pub memory_model: Option<Inst>,
    pub entry_points: Vec<Inst>,
    pub execution_modes: Vec<Inst>,
    pub names: HashMap<Id, String>,
    pub member_names: Vec<Inst>,
    pub annotations: Vec<Inst>,
    pub globals: Vec<Inst>,
    pub functions: Vec<Func>,
}

/// Turns bytes into words (either byte order, told apart by the magic number).
pub(crate) fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, SpirvError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(SpirvError::NotSpirv(format!(
            "{} bytes is not a whole number of words",
            bytes.len()
        )));
    }
    let le: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if le.first() == Some(&spirv::MAGIC_NUMBER.swap_bytes()) {
        return Ok(le.into_iter().map(u32::swap_bytes).collect());
    }
    Ok(le)
}

/// `OpFoo` for a known opcode number, `opcode N` otherwise.
pub(crate) fn opcode_name(opcode: u16) -> String {
    match rspirv::grammar::INSTRUCTION_TABLE.lookup_opcode(opcode as u32) {
        Some(g) => format!("Op{}", g.opname),
        None => format!("opcode {opcode}"),
    }
}

fn is_line(op: Op) -> bool {
    matches!(op, Op::Line | Op::NoLine)
}

/// Decodes a module.
pub(crate) fn decode(words: &[u32]) -> Result<Module, SpirvError> {
    if words.len() < HEADER_WORDS {
        return Err(SpirvError::NotSpirv(format!(
            "{} words is shorter than the 5-word header",
            words.len()
        )));
    }
    if words[0] != spirv::MAGIC_NUMBER {
        return Err(SpirvError::NotSpirv(format!(
            "magic number {:#010x}, expected {:#010x}",
            words[0],
            spirv::MAGIC_NUMBER
        )));
    }
    check_bound_word(words[3])?;
    let walk = walk_headers(words)?;
    let mut kept = words[..HEADER_WORDS].to_vec();
    let mut kept_walk = Vec::new();
    let mut mode_ids = words[..HEADER_WORDS].to_vec();
    let mut mode_id_walk = Vec::new();
    let mut in_function = false;
    for &(offset, opcode) in &walk {
        let start = offset as usize;
        let inst = &words[start..start + (words[start] >> 16) as usize];
        match Op::from_u32(opcode as u32) {
            Some(Op::Function) => in_function = true,
            Some(Op::FunctionEnd) => in_function = false,
            Some(Op::ExecutionModeId) => {
                mode_ids.extend_from_slice(inst);
                mode_id_walk.push((offset, opcode));
                continue;
            }
            Some(Op::ExtInst) if !in_function => continue,
            _ => {}
        }
        kept.extend_from_slice(inst);
        kept_walk.push((offset, opcode));
    }
    let loaded = dr::load_words(&kept).map_err(|state| decode_error(&state, &kept_walk))?;
    let mut module = pair(loaded, &kept_walk)?;
    let mut collect = Collect::default();
    rspirv::binary::parse_words(&mode_ids, &mut collect)
        .map_err(|state| decode_error(&state, &mode_id_walk))?;
    for (inst, &(offset, _)) in collect.insts.iter().zip(&mode_id_walk) {
        module.execution_modes.push(Inst {
            opcode: inst.class.opcode,
            opname: inst.class.opname,
            result_type: inst.result_type,
            result_id: inst.result_id,
            operands: inst.operands.clone(),
            offset,
            function: None,
        });
    }
    check_ids(words[3], module_insts(&module))?;
    Ok(module)
}

/// Every instruction of a decoded module (names excepted), in section order.
fn module_insts(m: &Module) -> impl Iterator<Item = &Inst> {
    let functions = m.functions.iter().flat_map(|f| {
        std::iter::once(&f.def).chain(&f.params).chain(
            f.blocks
                .iter()
                .flat_map(|b| std::iter::once(&b.label_inst).chain(&b.insts)),
        )
    });
    m.capabilities
        .iter()
        .chain(&m.extensions)
        .chain(&m.ext_inst_imports)
        .chain(&m.memory_model)
        .chain(&m.entry_points)
        .chain(&m.execution_modes)
        .chain(&m.member_names)
        .chain(&m.annotations)
        .chain(&m.globals)
        .chain(functions)
}

/// Collects decoded instructions in stream order.
#[derive(Default)]
struct Collect {
    insts: Vec<dr::Instruction>,
}

impl rspirv::binary::Consumer for Collect {
    fn initialize(&mut self) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }

    fn finalize(&mut self) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }

    fn consume_header(&mut self, _: dr::ModuleHeader) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }

    fn consume_instruction(&mut self, inst: dr::Instruction) -> rspirv::binary::ParseAction {
        self.insts.push(inst);
        rspirv::binary::ParseAction::Continue
    }
}

/// Maps an `rspirv` parse failure onto the instruction it names.
fn decode_error(state: &rspirv::binary::ParseState, walk: &[(u32, u16)]) -> SpirvError {
    use rspirv::binary::ParseState as S;
    let index = match state {
        S::WordCountZero(_, i)
        | S::OpcodeUnknown(_, i, _)
        | S::OperandExpected(_, i)
        | S::OperandExceeded(_, i)
        | S::TypeUnsupported(_, i)
        | S::SpecConstantOpIntegerIncorrect(_, i) => Some(*i),
        _ => None,
    };
    // rspirv numbers instructions from 1.
    let at = index
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| walk.get(i))
        .map(|&(offset, opcode)| Location {
            opcode: opcode_name(opcode),
            offset,
            function: None,
        });
    SpirvError::Decode {
        at,
        detail: state.to_string(),
    }
}

/// Pairs the loaded instructions with the header walk and builds the module.
fn pair(loaded: dr::Module, walk: &[(u32, u16)]) -> Result<Module, SpirvError> {
    let mut offsets = walk
        .iter()
        .filter(|&&(_, op)| Op::from_u32(op as u32).is_none_or(|op| !is_line(op)))
        .peekable();
    let mut next =
        |inst: &dr::Instruction, function: Option<Rc<str>>| -> Result<Inst, SpirvError> {
            let located = |offset: u32| Inst {
                opcode: inst.class.opcode,
                opname: inst.class.opname,
                result_type: inst.result_type,
                result_id: inst.result_id,
                operands: inst.operands.clone(),
                offset,
                function: function.clone(),
            };
            match offsets.next() {
                Some(&(offset, op)) if op as u32 == inst.class.opcode as u32 => Ok(located(offset)),
                Some(&(offset, op)) => Err(SpirvError::Invalid {
                    detail: format!(
                        "instruction out of the logical layout order (SPIR-V section 2.4): \
                     expected {} here",
                        located(0).name()
                    ),
                    at: Location {
                        opcode: opcode_name(op),
                        offset,
                        function: None,
                    },
                }),
                None => Err(SpirvError::Decode {
                    at: None,
                    detail: "the loaded module has more instructions than the word stream".into(),
                }),
            }
        };
    let mut m = Module::default();
    let globals = |v: &Vec<dr::Instruction>| {
        v.iter()
            .filter(|i| !is_line(i.class.opcode))
            .cloned()
            .collect::<Vec<_>>()
    };
    for inst in &loaded.capabilities {
        m.capabilities.push(next(inst, None)?);
    }
    for inst in &loaded.extensions {
        m.extensions.push(next(inst, None)?);
    }
    for inst in &loaded.ext_inst_imports {
        m.ext_inst_imports.push(next(inst, None)?);
    }
    if let Some(inst) = &loaded.memory_model {
        m.memory_model = Some(next(inst, None)?);
    }
    for inst in &loaded.entry_points {
        m.entry_points.push(next(inst, None)?);
    }
    for inst in &loaded.execution_modes {
        m.execution_modes.push(next(inst, None)?);
    }
    for inst in &loaded.debug_string_source {
        next(inst, None)?;
    }
    for inst in &loaded.debug_names {
        let inst = next(inst, None)?;
        if inst.opcode == Op::Name {
            if let (Ok(id), Ok(name)) = (inst.id(0), inst.string(1)) {
                m.names.insert(id, name.to_string());
            }
        } else {
            m.member_names.push(inst);
        }
    }
    for inst in &loaded.debug_module_processed {
        next(inst, None)?;
    }
    for inst in &loaded.annotations {
        m.annotations.push(next(inst, None)?);
    }
    for inst in &globals(&loaded.types_global_values) {
        m.globals.push(next(inst, None)?);
    }
    for f in &loaded.functions {
        let Some(def) = &f.def else {
            return Err(SpirvError::Decode {
                at: None,
                detail: "function without OpFunction".into(),
            });
        };
        let id = def.result_id.unwrap_or(0);
        let name: Rc<str> = match m.names.get(&id) {
            Some(n) if !n.is_empty() => n.as_str().into(),
            _ => format!("%{id}").into(),
        };
        let fname = Some(name);
        let def = next(def, fname.clone())?;
        let mut params = Vec::new();
        for p in &f.parameters {
            params.push(next(p, fname.clone())?);
        }
        let mut blocks = Vec::new();
        for b in &f.blocks {
            let Some(label) = &b.label else {
                return Err(def.invalid("block without OpLabel"));
            };
            let label_inst = next(label, fname.clone())?;
            let label = label_inst.result()?;
            let mut insts = Vec::new();
            for inst in b.instructions.iter().filter(|i| !is_line(i.class.opcode)) {
                insts.push(next(inst, fname.clone())?);
            }
            blocks.push(Block {
                label,
                label_inst,
                insts,
            });
        }
        if let Some(end) = &f.end {
            next(end, fname.clone())?;
        }
        m.functions.push(Func {
            def,
            id,
            params,
            blocks,
        });
    }
    if let Some(&&(offset, op)) = offsets.peek() {
        return Err(SpirvError::Decode {
            at: Some(Location {
                opcode: opcode_name(op),
                offset,
                function: None,
            }),
            detail: "instruction not kept by the loader".into(),
        });
    }
    Ok(m)
}
