//! Outputs stored together: the components of one output location written by one store
//! instead of one each, in fragment shaders (`st_tile` to a colour target) and vertex shaders
//! (`device_store` to the location's output array, [`crate::abi`], "Vertex stage").
//!
//! Instruction selection first moves the outputs of one location together within a stretch
//! of pure code ([`Isel::gather_outputs`]), then stores each run of consecutive components
//! from back-to-back `output`s with one instruction ([`Isel::output_run_at`],
//! [`Isel::output_run`]).

use agxc_egraph::ir::{EffectOp, Inst, Op, OutputSlot, Stage, Type, Value};

use super::{class_of, Isel};
use crate::abi::output_array;
use crate::error::BackendError;
use crate::isa::{Instr, MemFormat, RegClass, Src};
use crate::mir::VReg;

/// The farthest apart (in IR instructions) the first and last output of one location may be
/// for [`Isel::gather_outputs`] to store them together.
pub const OUTPUT_GATHER_SPAN: usize = 12;

impl Isel<'_> {
    /// Consecutive components of one output location (`array`, as [`output_array`] names it),
    /// `first` on, written by one store: a fragment shader's `st_tile`, a vertex shader's
    /// `device_store` (their sources a run of registers, one per mask bit; the seed ISA
    /// document, "st_tile", "device_store") instead of one per component. The values must all
    /// be 16-bit or all 32-bit words; the caller has checked they come from back-to-back
    /// `output` instructions, so nothing runs between the stores this one replaces.
    pub(super) fn output_run(
        &mut self,
        array: OutputSlot,
        first: u8,
        values: &[Value],
    ) -> Result<(), BackendError> {
        let words: Vec<VReg> = values.iter().map(|&v| self.output_word(v)).collect();
        let class = words[0].class;
        let n = words.len() as u8;
        let run = if class == RegClass::H16 {
            self.m.new_group(RegClass::Vec16(n))
        } else {
            self.m.new_group(RegClass::Vec32(n))
        };
        for (i, &w) in words.iter().enumerate() {
            let view = run.view(i as u16 * class.units() as u16, class);
            self.mov_src(view, Src::reg(w));
        }
        let mask = ((1u8 << n) - 1) << first;
        if self.func.stage == Stage::Vertex {
            return self.vertex_store(run, array, mask);
        }
        let OutputSlot::Location { location, .. } = array else {
            return Err(self.internal("a fragment output run not to a colour target"));
        };
        self.m.op(Instr::StTile {
            src: run,
            rt: location as u8,
            mask,
            format: MemFormat::I32,
        });
        Ok(())
    }

    /// `insts` with the outputs of one location moved together, sorted by component, to where
    /// the last of them is, so that [`Isel::output_run_at`] finds the whole location: one store
    /// instead of one per component (Mesa's epilog also stores each render target once, and
    /// its vertex outputs are vectors). Only within a stretch of pure instructions and input
    /// and builtin reads (an output never crosses another effect or a nested construct; a
    /// vertex shader's inputs and outputs are distinct buffers), only for locations written
    /// once per component there, and only when the first and last output are at most
    /// [`OUTPUT_GATHER_SPAN`] instructions apart: each earlier component's value then lives
    /// that much longer, and the run needs consecutive registers.
    pub(super) fn gather_outputs(&self, insts: Vec<Inst>) -> Vec<Inst> {
        if !matches!(self.func.stage, Stage::Fragment | Stage::Vertex) {
            return insts;
        }
        let key = |inst: Inst| self.output_key(inst);
        // Reads of stage inputs and builtins neither see nor change the tile, so an output
        // may move past them (elaboration places each varying read just before its first use,
        // between the outputs of one location).
        let is_read = |inst: Inst| {
            matches!(
                self.func.insts[inst].op,
                Op::Effect(EffectOp::Input(_) | EffectOp::Builtin(_))
            )
        };
        let movable = |inst: Inst| {
            matches!(
                self.func.insts[inst].op,
                Op::Const(_) | Op::Pure(_) | Op::Custom(_)
            ) || is_read(inst)
                || key(inst).is_some()
        };
        let mut out = Vec::with_capacity(insts.len());
        let mut start = 0;
        while start < insts.len() {
            let mut end = start;
            while end < insts.len() && movable(insts[end]) {
                end += 1;
            }
            let stretch = &insts[start..end];
            // Per location: its outputs' positions in the stretch.
            let mut by_location: std::collections::BTreeMap<OutputSlot, Vec<(u8, usize)>> =
                std::collections::BTreeMap::new();
            for (pos, &inst) in stretch.iter().enumerate() {
                if let Some((l, c)) = key(inst) {
                    by_location.entry(l).or_default().push((c, pos));
                }
            }
            // Where each gathered output goes: the position of its location's last output.
            let mut moved_to: Vec<Option<usize>> = vec![None; stretch.len()];
            for outputs in by_location.values() {
                let last = outputs.last().map_or(0, |o| o.1);
                let mut comps: Vec<u8> = outputs.iter().map(|o| o.0).collect();
                comps.sort_unstable();
                comps.dedup();
                if comps.len() != outputs.len() {
                    continue;
                }
                // The latest outputs within the span of the last one: the span counts the
                // instructions that compute values (input and builtin reads between the
                // outputs are placed by their uses and only move with them).
                let span =
                    |from: usize| stretch[from..last].iter().filter(|&&i| !is_read(i)).count();
                let kept = outputs
                    .iter()
                    .rev()
                    .take_while(|o| span(o.1) <= OUTPUT_GATHER_SPAN)
                    .count();
                let kept = &outputs[outputs.len() - kept..];
                // A varying stored to another component than its own (`OUT[0] = IN[0].yxzw`):
                // the inputs of a location are loaded as one vector, which then cannot be the
                // run's registers, so every value the run takes from that location is copied
                // into place. Gather only when that costs fewer copies than the stores saved.
                let input_of = |pos: usize| {
                    let v = self.func.insts[stretch[pos]].args[0];
                    match self.func.values[v].def {
                        agxc_egraph::ir::ValueDef::Result(i, 0) => match self.func.insts[i].op {
                            Op::Effect(EffectOp::Input(slot)) => Some(slot),
                            _ => None,
                        },
                        _ => None,
                    }
                };
                let moved: Vec<u32> = kept
                    .iter()
                    .filter_map(|&(c, pos)| input_of(pos).filter(|s| s.component != c))
                    .map(|s| s.location)
                    .collect();
                let copies = kept
                    .iter()
                    .filter(|&&(_, pos)| input_of(pos).is_some_and(|s| moved.contains(&s.location)))
                    .count();
                if kept.len() < 2 || copies + 1 >= kept.len() {
                    continue;
                }
                for &(_, pos) in kept {
                    moved_to[pos] = Some(last);
                }
            }
            for (pos, &inst) in stretch.iter().enumerate() {
                match moved_to[pos] {
                    Some(_) if moved_to[pos] != Some(pos) => {}
                    Some(_) => {
                        let mut group: Vec<(u8, Inst)> = (0..stretch.len())
                            .filter(|&p| moved_to[p] == Some(pos))
                            .map(|p| (key(stretch[p]).map_or(0, |k| k.1), stretch[p]))
                            .collect();
                        group.sort_by_key(|g| g.0);
                        out.extend(group.into_iter().map(|g| g.1));
                    }
                    None => out.push(inst),
                }
            }
            if end < insts.len() {
                out.push(insts[end]);
            }
            start = end + 1;
        }
        out
    }

    /// The outputs at the start of `insts` that one store can write: back-to-back `output`s of
    /// consecutive components of one location, all stored from registers of one class
    /// (`((array, component), value)` each; empty or one long when there is no run, or when
    /// every component is the same value).
    pub(super) fn output_run_at(&self, insts: &[Inst]) -> Vec<((OutputSlot, u8), Value)> {
        let mut run: Vec<((OutputSlot, u8), Value)> = Vec::new();
        for &inst in insts {
            let Some((array, component)) = self.output_key(inst) else {
                break;
            };
            let v = self.func.insts[inst].args[0];
            let Some(class) = self.output_class(v) else {
                break;
            };
            if let Some(&((a, c), first)) = run.last() {
                let same_class = self.output_class(first) == Some(class);
                if a != array || component != c + 1 || component > 3 || !same_class {
                    break;
                }
            }
            run.push(((array, component), v));
        }
        // One value in every component (a splat such as `vec4(-1.0)`): the run would copy it
        // into each register of the vector, as many instructions as the single stores it
        // replaces, and hold four registers instead of one. Store it component by component.
        if run.windows(2).all(|w| w[0].1 == w[1].1) {
            run.truncate(1);
        }
        run
    }

    /// The register class `v` is stored from by [`Isel::output`] ([`Isel::output_word`]): a
    /// vertex shader stores 32-bit words, a fragment shader f16 values as they are; `None`
    /// for a value no run takes (64-bit).
    fn output_class(&self, v: Value) -> Option<RegClass> {
        match self.func.value_type(v) {
            Type::I64 => None,
            Type::F16 if self.func.stage == Stage::Fragment => Some(RegClass::H16),
            Type::F16 | Type::I16 => Some(RegClass::R32),
            ty => Some(class_of(ty)),
        }
    }

    /// The output array and component an `output` instruction writes, if runs of it can be
    /// stored together: fragment colour targets; vertex varyings and the position.
    fn output_key(&self, inst: Inst) -> Option<(OutputSlot, u8)> {
        let Op::Effect(EffectOp::Output(slot)) = self.func.insts[inst].op else {
            return None;
        };
        match (self.func.stage, slot) {
            (Stage::Fragment | Stage::Vertex, OutputSlot::Location { component, .. })
            | (Stage::Vertex, OutputSlot::Position(component)) => {
                Some((output_array(slot), component))
            }
            _ => None,
        }
    }
}
