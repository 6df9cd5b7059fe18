//! Declaration bookkeeping: which registers of each file exist, the arrays indirect
//! addressing may range over, and the declaration that introduced each input, output and
//! system value.
//!
//! Register indices are checked against [`limits`](super::limits) here, so that everything
//! downstream can size tables by them.

use super::ast::{Decl, Program, Range, RegFile, RegRef};
use super::error::{Result, TgsiError};
use super::limits::{MAX_CONST_REGISTERS, MAX_REGISTERS, MAX_RESOURCE_INDEX};
use std::collections::{BTreeMap, BTreeSet};

/// What the declarations of a program say.
#[derive(Clone, Debug, Default)]
pub struct Decls {
    /// Declared registers per file (for CONST: buffer 0 when 1D; see `consts`).
    declared: BTreeMap<RegFile, BTreeSet<u32>>,
    /// `ARRAY(n)` ranges per file.
    arrays: BTreeMap<(RegFile, u32), Range>,
    /// Declared constant registers per buffer.
    pub consts: BTreeMap<u32, BTreeSet<u32>>,
    /// The declaration of each input, output and system value register: index into
    /// `Program::decls`.
    pub decl_of: BTreeMap<(RegFile, u32), usize>,
}

fn limit_for(file: RegFile) -> u32 {
    match file {
        RegFile::Temp
        | RegFile::Input
        | RegFile::Output
        | RegFile::Address
        | RegFile::SystemValue => MAX_REGISTERS,
        RegFile::Const => MAX_CONST_REGISTERS,
        _ => MAX_RESOURCE_INDEX,
    }
}

impl Decls {
    /// Collects the declarations of `program`.
    pub fn new(program: &Program) -> Result<Decls> {
        let mut d = Decls::default();
        for (i, decl) in program.decls.iter().enumerate() {
            d.add(i, decl)?;
        }
        Ok(d)
    }

    fn add(&mut self, i: usize, decl: &Decl) -> Result<()> {
        let Range { first, last } = decl.range;
        let limit = limit_for(decl.file);
        if last >= limit {
            return Err(TgsiError::limit(
                decl.pos,
                format!(
                    "{}[{last}]: at most {limit} registers of this file",
                    decl.file.name()
                ),
            ));
        }
        if decl.file == RegFile::Const {
            let buffer = match decl.dimension {
                None => 0,
                Some(Some(r)) if r.first == r.last && r.first < MAX_RESOURCE_INDEX => r.first,
                Some(_) => {
                    return Err(TgsiError::invalid(
                        decl.pos,
                        "a constant declaration names one buffer: CONST[buffer][first..last]",
                    ))
                }
            };
            self.consts.entry(buffer).or_default().extend(first..=last);
            return Ok(());
        }
        self.declared
            .entry(decl.file)
            .or_default()
            .extend(first..=last);
        if let Some(id) = decl.array_id {
            self.arrays.insert((decl.file, id), decl.range);
        }
        if matches!(
            decl.file,
            RegFile::Input | RegFile::Output | RegFile::SystemValue
        ) {
            for r in first..=last {
                self.decl_of.insert((decl.file, r), i);
            }
        }
        Ok(())
    }

    /// True if register `index` of `file` is declared.
    pub fn is_declared(&self, file: RegFile, index: u32) -> bool {
        self.declared.get(&file).is_some_and(|s| s.contains(&index))
    }

    /// Declared registers of a file, in order.
    pub fn registers(&self, file: RegFile) -> impl Iterator<Item = u32> + '_ {
        self.declared.get(&file).into_iter().flatten().copied()
    }

    /// The registers an indirect access through `reg` may touch: its array, or the whole
    /// declared file when no array id is given (the effective index is absolute either way).
    pub fn elements(&self, reg: &RegRef) -> Result<Vec<u32>> {
        match reg.array_id.filter(|&id| id != 0) {
            Some(id) => match self.arrays.get(&(reg.file, id)) {
                Some(r) => Ok((r.first..=r.last).collect()),
                None => Err(TgsiError::invalid(
                    reg.pos,
                    format!("{}: no array {id} is declared", reg.file.name()),
                )),
            },
            None => Ok(self.registers(reg.file).collect()),
        }
    }
}
