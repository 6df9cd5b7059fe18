//! The driver: checks what the module requires, picks the entry point, carries its execution
//! modes into the IR, lifts it and verifies the result.

use super::cfg::Flow;
use super::context::Lowerer;
use super::decorations::Decorations;
use super::error::SpirvError;
use super::geometry::{geometry_modes, is_geometry_mode};
use super::module::{decode, Id, Inst, Module};
use super::{LiftOptions, SUPPORTED_CAPABILITIES, SUPPORTED_EXTENSIONS};
use agxc_egraph::ir::{verify, ExecutionModes, Function, Stage};
use rspirv::dr::Operand;
use spirv::{AddressingModel, BuiltIn, ExecutionMode, ExecutionModel};

/// The chosen entry point.
struct Entry<'m> {
    inst: &'m Inst,
    stage: Stage,
    function: Id,
    name: String,
    interface: Vec<Id>,
}

/// Lifts one entry point of a module given as words.
pub(crate) fn lift_words(words: &[u32], options: &LiftOptions) -> Result<Function, SpirvError> {
    let m = decode(words)?;
    check_requirements(&m)?;
    let entry = choose_entry(&m, options)?;
    let decos = Decorations::collect(&m.annotations)?;
    let mut l = Lowerer::new(&m, options, decos, &entry.name, entry.stage);
    l.import_sets()?;
    l.declare_globals()?;
    l.choose_private_vars()?;
    l.func.modes = l.execution_modes(entry.function, entry.inst)?;
    l.init_global_vars()?;
    l.collect_outputs(&entry.interface)?;
    l.lower_entry(entry.function, entry.inst)?;
    l.prune_prologue();
    let func = l.func;
    verify(&func).map_err(|e| SpirvError::Internal {
        function: entry.name.clone(),
        detail: e.to_string(),
    })?;
    Ok(func)
}

/// Capabilities, extensions and the addressing model.
fn check_requirements(m: &Module) -> Result<(), SpirvError> {
    for inst in &m.capabilities {
        let Some(Operand::Capability(c)) = inst.operands.first() else {
            return Err(inst.invalid("OpCapability without a capability"));
        };
        if !SUPPORTED_CAPABILITIES.contains(c) {
            return Err(SpirvError::UnsupportedCapability {
                capability: format!("{c:?}"),
                at: inst.location(),
            });
        }
    }
    for inst in &m.extensions {
        let name = inst.string(0)?;
        if !SUPPORTED_EXTENSIONS.contains(&name) {
            return Err(SpirvError::UnsupportedExtension {
                name: name.to_string(),
                at: inst.location(),
            });
        }
    }
    if let Some(mm) = &m.memory_model {
        if !matches!(
            mm.operands.first(),
            Some(Operand::AddressingModel(AddressingModel::Logical))
        ) {
            return Err(mm.unsupported("addressing models other than Logical"));
        }
    }
    Ok(())
}

fn choose_entry<'m>(m: &'m Module, options: &LiftOptions) -> Result<Entry<'m>, SpirvError> {
    let mut found = Vec::new();
    for inst in &m.entry_points {
        let name = inst.string(2)?;
        if options.entry.as_deref().is_some_and(|want| want != name) {
            continue;
        }
        found.push(inst);
    }
    let inst = match (found.as_slice(), &options.entry) {
        ([one], _) => *one,
        ([], Some(name)) => {
            return Err(SpirvError::EntryPoint(format!(
                "no entry point named `{name}`"
            )))
        }
        ([], None) => {
            return Err(SpirvError::EntryPoint(
                "the module has no entry point".into(),
            ))
        }
        (_, Some(name)) => {
            return Err(SpirvError::EntryPoint(format!(
                "several entry points are named `{name}` (for different stages)"
            )))
        }
        (_, None) => {
            let names: Vec<String> = found
                .iter()
                .filter_map(|i| i.string(2).ok().map(str::to_string))
                .collect();
            return Err(SpirvError::EntryPoint(format!(
                "the module has {} entry points ({}); name one",
                names.len(),
                names.join(", ")
            )));
        }
    };
    let stage = match inst.operands.first() {
        Some(Operand::ExecutionModel(ExecutionModel::GLCompute)) => Stage::Compute,
        Some(Operand::ExecutionModel(ExecutionModel::Fragment)) => Stage::Fragment,
        Some(Operand::ExecutionModel(ExecutionModel::Vertex)) => Stage::Vertex,
        Some(Operand::ExecutionModel(ExecutionModel::Geometry)) => {
            Stage::Geometry(geometry_modes(m, inst.id(1)?, inst)?)
        }
        Some(Operand::ExecutionModel(other)) => {
            return Err(inst.unsupported(format!("execution model {other:?}")))
        }
        _ => return Err(inst.invalid("missing execution model")),
    };
    Ok(Entry {
        inst,
        stage,
        function: inst.id(1)?,
        name: inst.string(2)?.to_string(),
        interface: inst.ids_from(3)?,
    })
}

impl<'m> Lowerer<'m> {
    /// `OpExtInstImport`: GLSL.std.450, and non-semantic sets to skip.
    fn import_sets(&mut self) -> Result<(), SpirvError> {
        let m = self.m;
        for inst in &m.ext_inst_imports {
            let name = inst.string(0)?;
            let id = inst.result()?;
            if name == "GLSL.std.450" {
                self.glsl_sets.insert(id);
            } else if name.starts_with("NonSemantic.") {
                self.ignored_sets.insert(id);
            } else {
                return Err(SpirvError::UnsupportedExtension {
                    name: name.to_string(),
                    at: inst.location(),
                });
            }
        }
        Ok(())
    }

    /// The entry point's execution modes.
    fn execution_modes(&mut self, function: Id, at: &Inst) -> Result<ExecutionModes, SpirvError> {
        let m = self.m;
        let mut modes = ExecutionModes::default();
        for inst in &m.execution_modes {
            if inst.id(0)? != function {
                continue;
            }
            let Some(Operand::ExecutionMode(mode)) = inst.operands.get(1) else {
                return Err(inst.invalid("missing execution mode"));
            };
            match mode {
                ExecutionMode::LocalSize => {
                    modes.local_size = [inst.literal(2)?, inst.literal(3)?, inst.literal(4)?];
                }
                ExecutionMode::LocalSizeId => {
                    for (slot, i) in modes.local_size.iter_mut().zip(2..) {
                        let v = self.operand_scalar(inst, i)?;
                        let c = self.fold(v).filter(|c| c.ty().is_int()).ok_or_else(|| {
                            inst.invalid("LocalSizeId operand is not an integer constant")
                        })?;
                        *slot = u32::try_from(c.as_u64())
                            .map_err(|_| inst.invalid("LocalSizeId out of range"))?;
                    }
                }
                ExecutionMode::OriginUpperLeft => modes.origin_upper_left = true,
                ExecutionMode::OriginLowerLeft => modes.origin_upper_left = false,
                ExecutionMode::PixelCenterInteger => modes.pixel_center_integer = true,
                ExecutionMode::DepthReplacing => modes.depth_replacing = true,
                ExecutionMode::EarlyFragmentTests => modes.early_fragment_tests = true,
                // Hints that do not change what the shader computes.
                ExecutionMode::DepthGreater
                | ExecutionMode::DepthLess
                | ExecutionMode::DepthUnchanged
                | ExecutionMode::LocalSizeHint => {}
                // Read into the stage by `geometry_modes`.
                mode if self.stage.geometry().is_some() && is_geometry_mode(*mode) => {}
                other => return Err(inst.unsupported(format!("execution mode {other:?}"))),
            }
        }
        // A constant decorated WorkgroupSize overrides LocalSize (SPIR-V BuiltIn WorkgroupSize).
        for inst in m.globals.iter() {
            let Some(id) = inst.result_id else { continue };
            if self.decos.builtin(id) != Some(BuiltIn::WorkgroupSize) || self.vars.contains_key(&id)
            {
                continue;
            }
            let value = self.value(id, inst)?;
            let mut size = [1u32; 3];
            let comps = value
                .components()
                .filter(|c| c.len() == 3)
                .ok_or_else(|| inst.mismatch("WorkgroupSize is not a 3-component vector"))?;
            for (slot, v) in size.iter_mut().zip(comps) {
                let c = self
                    .fold(v)
                    .ok_or_else(|| inst.invalid("WorkgroupSize is not constant"))?;
                *slot = u32::try_from(c.as_u64())
                    .map_err(|_| inst.invalid("WorkgroupSize out of range"))?;
            }
            modes.local_size = size;
        }
        if self.stage == Stage::Compute && modes.local_size.contains(&0) {
            return Err(at.invalid("a workgroup dimension is 0"));
        }
        Ok(modes)
    }

    /// Lifts the entry point's body.
    fn lower_entry(&mut self, function: Id, at: &Inst) -> Result<(), SpirvError> {
        let f = self
            .funcs
            .get(&function)
            .copied()
            .ok_or_else(|| at.unknown_id(function))?;
        if !f.params.is_empty() {
            return Err(f.def.invalid("the entry point takes parameters"));
        }
        let first = f
            .blocks
            .first()
            .ok_or_else(|| f.def.invalid("the entry point has no body"))?
            .label;
        self.calls.push(function);
        match self.lower_seq(first, &f.def)? {
            Flow::Done => Ok(()),
            _ => Err(f
                .def
                .invalid("the entry point's body does not end in a terminator")),
        }
    }
}
