//! The shader's interface: properties to execution modes, inputs and system values to IR
//! inputs and built-ins, outputs to output slots, and resources to bindings.
//!
//! Inputs and system values are read once, at the top of the entry block, for every
//! component some instruction reads; outputs are written from the OUT registers' values at
//! every exit (`END`, `RET` in the main program), so an OUT register behaves like a TEMP
//! until the shader ends, as in TGSI. Geometry shaders differ (see `geometry`): their inputs
//! are per vertex and their outputs are written at each `EMIT` instead of at the exits.

use super::geometry::{geometry_modes, is_per_vertex, vertex_slot};
use super::Lifter;
use crate::tgsi::ast::{
    Decl, InterpMode, Processor, Program, PropertyValue, Range, RegFile, RegRef, Semantic,
};
use crate::tgsi::error::{Pos, Result, TgsiError};
use crate::tgsi::limits::DEFAULT_SHARED_MEMORY;
use crate::tgsi::options::LiftOptions;
use agxc_egraph::ir::{
    AddressSpace, Binding, Builtin, Const, EffectOp, Function, InputSlot, Interp, OutputSlot,
    PureOp, Stage, Type, Value,
};
use std::collections::{BTreeMap, BTreeSet};

/// Default varying location of `GENERIC[i]`: `i`.
pub const GENERIC_LOCATION: u32 = 0;
/// Default varying location of `COLOR[i]` (vertex outputs, fragment inputs): `32 + i`.
pub const COLOR_LOCATION: u32 = 32;
/// Default varying location of `BCOLOR[i]`: `34 + i`.
pub const BCOLOR_LOCATION: u32 = 34;
/// Default varying location of `FOG`: 36.
pub const FOG_LOCATION: u32 = 36;
/// Default varying location of `TEXCOORD[i]`: `40 + i`.
pub const TEXCOORD_LOCATION: u32 = 40;

/// The IR stage of a TGSI header.
pub fn stage_of(program: &Program) -> Result<Stage> {
    let pos = program.header_pos;
    match program.processor {
        Processor::Fragment => Ok(Stage::Fragment),
        Processor::Vertex => Ok(Stage::Vertex),
        Processor::Compute => Ok(Stage::Compute),
        Processor::Geometry => Ok(Stage::Geometry(geometry_modes(program)?)),
        p => Err(TgsiError::UnsupportedStage {
            pos,
            stage: p.name(),
        }),
    }
}

/// A property's value as a name; `what` names the property in the error.
pub(super) fn name_value<'p>(value: &'p PropertyValue, pos: Pos, what: &str) -> Result<&'p str> {
    match value {
        PropertyValue::Name(n) => Ok(n),
        PropertyValue::Uint(v) => Err(TgsiError::invalid(
            pos,
            format!("{what} takes a name, not {v}"),
        )),
    }
}

/// A property's value as a number; `what` names the property in the error.
pub(super) fn uint_value(value: &PropertyValue, pos: Pos, what: &str) -> Result<u32> {
    match value {
        PropertyValue::Uint(v) => Ok(*v),
        PropertyValue::Name(n) => Err(TgsiError::invalid(
            pos,
            format!("{what} takes a number, not `{n}`"),
        )),
    }
}

/// Sets the execution modes and the shared-memory size from the properties and declarations.
pub fn apply_properties(program: &Program, opts: &LiftOptions, func: &mut Function) -> Result<()> {
    let mut block: [Option<u32>; 3] = [None; 3];
    for p in &program.props {
        let pos = p.name_pos;
        match p.name.as_str() {
            "CS_FIXED_BLOCK_WIDTH" | "CS_FIXED_BLOCK_HEIGHT" | "CS_FIXED_BLOCK_DEPTH" => {
                let axis = match p.name.as_str() {
                    "CS_FIXED_BLOCK_WIDTH" => 0,
                    "CS_FIXED_BLOCK_HEIGHT" => 1,
                    _ => 2,
                };
                let v = uint_value(&p.value, pos, &p.name)?;
                if v == 0 {
                    return Err(TgsiError::invalid(pos, format!("{} must not be 0", p.name)));
                }
                block[axis] = Some(v);
            }
            "FS_COORD_ORIGIN" => {
                func.modes.origin_upper_left = match name_value(&p.value, pos, &p.name)? {
                    "UPPER_LEFT" => true,
                    "LOWER_LEFT" => false,
                    other => {
                        return Err(TgsiError::UnknownName {
                            pos,
                            what: "coordinate origin",
                            name: other.into(),
                        })
                    }
                }
            }
            "FS_COORD_PIXEL_CENTER" => {
                func.modes.pixel_center_integer = match name_value(&p.value, pos, &p.name)? {
                    "HALF_INTEGER" => false,
                    "INTEGER" => true,
                    other => {
                        return Err(TgsiError::UnknownName {
                            pos,
                            what: "pixel center",
                            name: other.into(),
                        })
                    }
                }
            }
            "FS_EARLY_DEPTH_STENCIL" => {
                func.modes.early_fragment_tests = uint_value(&p.value, pos, &p.name)? != 0;
            }
            // Pipeline state or hints without an IR counterpart: FS_COLOR0_WRITES_ALL_CBUFS is
            // a blend-stage broadcast, the rest describe other stages or the driver.
            _ => {}
        }
    }
    if func.stage == Stage::Compute {
        let fallback = opts.local_size.unwrap_or([1, 1, 1]);
        func.modes.local_size = [0, 1, 2].map(|i| block[i].unwrap_or(fallback[i]));
    }
    if opts.const0_push_constants {
        // `CONST[0]` as push constants: a run supplies every register declared (16 bytes each).
        let last = program
            .decls
            .iter()
            .filter(|d| d.file == RegFile::Const)
            .filter(|d| matches!(d.dimension, None | Some(Some(Range { first: 0, .. }))))
            .map(|d| d.range.last)
            .max();
        if let Some(last) = last {
            func.push_constant_bytes = last.saturating_add(1).saturating_mul(16);
        }
    }
    if program.decls.iter().any(|d| d.file == RegFile::Memory) {
        func.shared_memory = opts.shared_memory.unwrap_or(DEFAULT_SHARED_MEMORY);
    }
    if func.stage == Stage::Fragment
        && program.decls.iter().any(|d| {
            d.file == RegFile::Output && d.semantic.is_some_and(|s| s.name == Semantic::Position)
        })
    {
        func.modes.depth_replacing = true;
    }
    Ok(())
}

/// Where an input component comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputSource {
    /// A fragment varying or vertex attribute.
    Slot(InputSlot),
    /// A built-in, read as is.
    Builtin(Builtin),
    /// `FACE.x`: +1.0 front facing, -1.0 back facing.
    Face,
    /// `HELPER_INVOCATION`: ~0 for helpers, else 0.
    Helper,
    /// A constant component (`FACE.yzw`, the unused components of scalar system values).
    Const(Const),
}

/// The default location of a varying semantic (see the constants above).
pub(super) fn varying_location(semantic: Semantic, index: u32) -> Option<u32> {
    let base = match semantic {
        Semantic::Generic => GENERIC_LOCATION,
        Semantic::Color => COLOR_LOCATION,
        Semantic::BColor => BCOLOR_LOCATION,
        Semantic::Fog => FOG_LOCATION,
        Semantic::TexCoord => TEXCOORD_LOCATION,
        _ => return None,
    };
    base.checked_add(index)
}

fn unsupported_decl(decl: &Decl, what: impl Into<String>) -> TgsiError {
    TgsiError::UnsupportedDeclaration {
        pos: decl.pos,
        what: what.into(),
    }
}

/// The source of component `comp` of input or system-value register `index`.
pub fn input_source(
    stage: Stage,
    opts: &LiftOptions,
    decl: &Decl,
    index: u32,
    comp: u8,
) -> Result<InputSource> {
    let semantic = decl.semantic.map(|s| (s.name, s.index));
    let kind = if decl.file == RegFile::SystemValue {
        "system value"
    } else {
        "input"
    };
    let stage_name = stage.name();
    let zero = InputSource::Const(Const::i32(0));
    let per_axis = |f: fn(u8) -> Builtin| {
        if comp < 3 {
            InputSource::Builtin(f(comp))
        } else {
            zero
        }
    };
    let scalar = |b: Builtin| {
        if comp == 0 {
            InputSource::Builtin(b)
        } else {
            zero
        }
    };
    let src = match (stage, semantic) {
        (Stage::Fragment, Some((Semantic::Position, _))) => {
            InputSource::Builtin(Builtin::FragCoord(comp))
        }
        (Stage::Fragment, Some((Semantic::Face, _))) => match comp {
            0 => InputSource::Face,
            3 => InputSource::Const(Const::f32(1.0)),
            _ => InputSource::Const(Const::f32(0.0)),
        },
        (Stage::Fragment, Some((Semantic::HelperInvocation, _))) => {
            if comp == 0 {
                InputSource::Helper
            } else {
                zero
            }
        }
        (Stage::Compute, Some((Semantic::ThreadId, _))) => per_axis(Builtin::LocalId),
        (Stage::Compute, Some((Semantic::BlockId, _))) => per_axis(Builtin::WorkgroupId),
        (Stage::Compute, Some((Semantic::BlockSize, _))) => per_axis(Builtin::WorkgroupSize),
        (Stage::Compute, Some((Semantic::GridSize, _))) => per_axis(Builtin::NumWorkgroups),
        (Stage::Vertex, Some((Semantic::VertexId, _))) => scalar(Builtin::VertexIndex),
        (Stage::Vertex, Some((Semantic::InstanceId, _))) => scalar(Builtin::InstanceIndex),
        // Old geometry shaders declare the primitive id as an input (`DCL IN[0], PRIM_ID`).
        (Stage::Geometry(_), Some((Semantic::PrimId, _))) => scalar(Builtin::PrimitiveId),
        (Stage::Geometry(_), Some((Semantic::InvocationId, _))) => scalar(Builtin::InvocationId),
        (_, _) if decl.file == RegFile::SystemValue => {
            let name = semantic.map_or("(none)", |(s, _)| s.name());
            return Err(unsupported_decl(
                decl,
                format!("{stage_name} system value semantic {name}"),
            ));
        }
        (Stage::Compute, _) => {
            return Err(unsupported_decl(decl, "compute shaders have no inputs"));
        }
        (Stage::Geometry(_), _) => {
            return Err(unsupported_decl(
                decl,
                "a geometry input without a vertex dimension (declare IN[][n])",
            ));
        }
        (Stage::Vertex, _) => {
            // Vertex attributes are numbered by register; old shaders give them semantics
            // (`DCL IN[0], POSITION`), which name no slot.
            let (location, component) = opts
                .input_slots
                .get(&(index, comp))
                .copied()
                .unwrap_or((index, comp));
            InputSource::Slot(InputSlot {
                location,
                component,
                interp: Interp::Flat,
            })
        }
        (Stage::Fragment, _) => {
            let default = match semantic {
                None => Some(index),
                Some((s, i)) => varying_location(s, i),
            };
            let slot = opts
                .input_slots
                .get(&(index, comp))
                .copied()
                .or(default.map(|l| (l, comp)));
            let Some((location, component)) = slot else {
                let name = semantic.map_or("(none)", |(s, _)| s.name());
                return Err(unsupported_decl(
                    decl,
                    format!("fragment {kind} semantic {name}"),
                ));
            };
            let interp = match decl.interp {
                Some(InterpMode::Constant) => Interp::Flat,
                Some(InterpMode::Linear) => Interp::Linear,
                // COLOR follows the flat-shading state; smooth is the default state.
                _ => Interp::Perspective,
            };
            InputSource::Slot(InputSlot {
                location,
                component,
                interp,
            })
        }
    };
    Ok(src)
}

/// The output slot of component `comp` of OUT register `index`, or `None` for a component
/// the slot ignores (x, y, w of a fragment depth output; y, z, w of a point size).
pub fn output_slot(
    stage: Stage,
    opts: &LiftOptions,
    decl: &Decl,
    index: u32,
    comp: u8,
) -> Result<Option<OutputSlot>> {
    let semantic = decl.semantic.map(|s| (s.name, s.index));
    let location = |default: Option<u32>| opts.output_locations.get(&index).copied().or(default);
    let user = |l: Option<u32>| {
        l.map(|location| {
            Some(OutputSlot::Location {
                location,
                component: comp,
            })
        })
    };
    let slot = match (stage, semantic) {
        (Stage::Fragment, Some((Semantic::Color, i))) => user(location(Some(i))),
        (Stage::Fragment, Some((Semantic::Position, _))) => {
            Some((comp == 2).then_some(OutputSlot::FragDepth))
        }
        (Stage::Vertex | Stage::Geometry(_), Some((Semantic::Position, _))) => {
            Some(Some(OutputSlot::Position(comp)))
        }
        (Stage::Vertex | Stage::Geometry(_), Some((Semantic::PSize, _))) => {
            Some((comp == 0).then_some(OutputSlot::PointSize))
        }
        (Stage::Vertex | Stage::Geometry(_), Some((s, i))) => {
            user(location(varying_location(s, i)))
        }
        (Stage::Vertex | Stage::Fragment | Stage::Geometry(_), None) => user(location(Some(index))),
        _ => None,
    };
    slot.ok_or_else(|| {
        let name = semantic.map_or("(none)", |(s, _)| s.name());
        unsupported_decl(decl, format!("{} output semantic {name}", stage.name()))
    })
}

/// Checks every input, output and system-value declaration against the stage up front, so
/// an unsupported one is reported at its declaration.
pub fn check_declarations(program: &Program, stage: Stage, opts: &LiftOptions) -> Result<()> {
    let geometry = matches!(stage, Stage::Geometry(_));
    for decl in &program.decls {
        let per_vertex = geometry && is_per_vertex(decl);
        // `nir_to_tgsi` gives a geometry shader's primitive id the per-vertex dimension (see
        // `is_per_vertex`).
        let primitive_id = geometry
            && decl.file == RegFile::Input
            && decl
                .semantic
                .is_some_and(|s| matches!(s.name, Semantic::PrimId | Semantic::InvocationId));
        if decl.dimension.is_some()
            && !per_vertex
            && !primitive_id
            && matches!(decl.file, RegFile::Input | RegFile::Output)
        {
            return Err(unsupported_decl(
                decl,
                format!("two-dimensional {} registers", decl.file.name()),
            ));
        }
        // Whether a declaration maps depends on its semantic and the stage, not on the
        // register: checking its first register covers the range.
        let index = decl.range.first;
        for comp in 0..4 {
            match decl.file {
                RegFile::Input if per_vertex => {
                    vertex_slot(opts, decl, index, comp)?;
                }
                RegFile::Input | RegFile::SystemValue => {
                    input_source(stage, opts, decl, index, comp)?;
                }
                RegFile::Output => {
                    output_slot(stage, opts, decl, index, comp)?;
                }
                _ => {}
            }
        }
        match decl.file {
            RegFile::Memory if decl.memory != Some(crate::tgsi::ast::MemoryType::Shared) => {
                let kind = decl.memory.map_or("GLOBAL", |m| m.name());
                return Err(unsupported_decl(
                    decl,
                    format!("MEMORY of kind {kind} (only SHARED is)"),
                ));
            }
            RegFile::Memory if stage != Stage::Compute => {
                return Err(unsupported_decl(
                    decl,
                    "shared memory outside compute shaders",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

impl Lifter<'_, '_> {
    /// Reads every input and system-value component some instruction reads, at the top of the
    /// entry block.
    pub(super) fn materialize_inputs(&mut self) -> Result<()> {
        let prog = self.prog;
        // Direct reads, and each indirectly read array once (however many instructions read
        // it), with the components read.
        let mut wanted: BTreeSet<(RegFile, u32, u8)> = BTreeSet::new();
        let mut arrays: BTreeMap<(RegFile, Option<u32>), u8> = BTreeMap::new();
        let mut array_regs: BTreeMap<(RegFile, Option<u32>), RegRef> = BTreeMap::new();
        for inst in &prog.insts {
            for src in &inst.srcs {
                let file = src.reg.file;
                if !matches!(file, RegFile::Input | RegFile::SystemValue) {
                    continue;
                }
                if src.reg.dimension.is_some() {
                    continue; // per-vertex geometry inputs: `materialize_vertex_inputs`
                }
                let comps = src.swizzle.iter().fold(0u8, |m, &c| m | 1 << c);
                if src.reg.index.indirect.is_some() {
                    let key = (file, src.reg.array_id.filter(|&id| id != 0));
                    *arrays.entry(key).or_default() |= comps;
                    array_regs.entry(key).or_insert(src.reg);
                } else if let Ok(index) = u32::try_from(src.reg.index.offset) {
                    for &comp in &src.swizzle {
                        wanted.insert((file, index, comp));
                    }
                }
            }
        }
        for (key, comps) in arrays {
            let reg = array_regs[&key];
            for index in self.decls.elements(&reg)? {
                for comp in (0..4).filter(|c| comps & (1 << c) != 0) {
                    wanted.insert((key.0, index, comp));
                }
            }
        }
        let mut front_facing = None;
        let mut helper = None;
        for (file, index, comp) in wanted {
            let Some(&d) = self.decls.decl_of.get(&(file, index)) else {
                continue; // reported at the reading instruction
            };
            let decl = &prog.decls[d];
            if is_per_vertex(decl) {
                continue; // read without its vertex: reported at the reading instruction
            }
            let v = match input_source(self.stage, self.opts, decl, index, comp)? {
                InputSource::Slot(slot) => {
                    self.b.effect(EffectOp::Input(slot), &[], &[Type::F32])[0]
                }
                InputSource::Builtin(b) => self.b.effect(EffectOp::Builtin(b), &[], &[b.ty()])[0],
                InputSource::Face => {
                    let ff = *front_facing.get_or_insert_with(|| {
                        self.b
                            .effect(EffectOp::Builtin(Builtin::FrontFacing), &[], &[Type::Bool])[0]
                    });
                    let (one, minus_one) = (self.b.f32(1.0), self.b.f32(-1.0));
                    self.b.pure(PureOp::Select, &[ff, one, minus_one])
                }
                InputSource::Helper => {
                    let h = *helper.get_or_insert_with(|| {
                        self.b.effect(
                            EffectOp::Builtin(Builtin::HelperInvocation),
                            &[],
                            &[Type::Bool],
                        )[0]
                    });
                    self.mask(h)
                }
                InputSource::Const(c) => self.b.konst(c),
            };
            self.inputs.insert((file, index, comp), v);
        }
        Ok(())
    }

    /// The value of an input or system-value component (read at the top of the shader).
    pub(super) fn input_value(
        &mut self,
        file: RegFile,
        index: u32,
        comp: u8,
        pos: Pos,
    ) -> Result<Value> {
        if !self.decls.is_declared(file, index) {
            return Err(TgsiError::invalid(
                pos,
                format!("{}[{index}] is not declared", file.name()),
            ));
        }
        match self.inputs.get(&(file, index, comp)) {
            Some(&v) => Ok(v),
            None => Ok(self.zero(Type::F32)),
        }
    }

    /// Writes every tracked OUT component to its slot at an exit of the shader; a geometry
    /// shader's outputs are written at its `EMIT`s instead.
    pub(super) fn write_outputs(&mut self) -> Result<()> {
        if matches!(self.stage, Stage::Geometry(_)) {
            return Ok(());
        }
        self.store_outputs()
    }

    /// Writes every tracked OUT component to its slot.
    pub(super) fn store_outputs(&mut self) -> Result<()> {
        let ids: Vec<_> = self.regs.outputs().collect();
        for id in ids {
            let (_, index, comp) = self.regs.key(id);
            let Some(&d) = self.decls.decl_of.get(&(RegFile::Output, index)) else {
                continue;
            };
            let Some(slot) = output_slot(self.stage, self.opts, &self.prog.decls[d], index, comp)?
            else {
                continue;
            };
            let mut v = self.current(id);
            if !matches!(slot, OutputSlot::Location { .. }) {
                v = self.cast(v, Type::F32);
            }
            self.b.effect(EffectOp::Output(slot), &[v], &[]);
        }
        Ok(())
    }

    /// The memory a `BUFFER`, `MEMORY` or `CONST` resource operand names.
    pub(super) fn resource_space(
        &mut self,
        file: RegFile,
        index: u32,
        pos: Pos,
    ) -> Result<AddressSpace> {
        match file {
            RegFile::Buffer => {
                if !self.decls.is_declared(file, index) {
                    return Err(TgsiError::invalid(
                        pos,
                        format!("BUFFER[{index}] is not declared"),
                    ));
                }
                let b = self
                    .opts
                    .storage_bindings
                    .get(&index)
                    .copied()
                    .unwrap_or(Binding::new(0, index));
                Ok(AddressSpace::Storage(b))
            }
            RegFile::Memory => {
                // Every MEMORY register is the one workgroup block, as in softpipe. Mesa
                // declares it as `MEMORY[1], SHARED` (the index is the memory type) and then
                // addresses `MEMORY[0]`, so any index is accepted once shared memory is.
                if self.decls.registers(file).next().is_none() {
                    return Err(TgsiError::invalid(
                        pos,
                        format!("MEMORY[{index}]: no MEMORY is declared"),
                    ));
                }
                Ok(AddressSpace::Workgroup)
            }
            RegFile::Const => self.const_space(index, pos),
            other => Err(TgsiError::invalid(
                pos,
                format!("{} is not a memory resource", other.name()),
            )),
        }
    }

    /// The memory of constant buffer `buffer`.
    pub(super) fn const_space(&self, buffer: u32, pos: Pos) -> Result<AddressSpace> {
        if !self.decls.consts.contains_key(&buffer) {
            return Err(TgsiError::invalid(
                pos,
                format!("constant buffer {buffer} is not declared"),
            ));
        }
        if buffer == 0 && self.opts.const0_push_constants {
            return Ok(AddressSpace::PushConstant);
        }
        let b = self
            .opts
            .const_bindings
            .get(&buffer)
            .copied()
            .unwrap_or(Binding::new(0, buffer));
        Ok(AddressSpace::Uniform(b))
    }

    /// The binding of texture unit `unit`.
    pub(super) fn texture_binding(&self, unit: u32) -> Binding {
        self.opts
            .texture_bindings
            .get(&unit)
            .copied()
            .unwrap_or(Binding::new(0, unit))
    }
}
