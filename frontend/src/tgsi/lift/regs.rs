//! The registers the lifter tracks as SSA values, and sets of them.
//!
//! TEMP, OUT and ADDR registers are mutable vec4s in TGSI; in the IR each component that the
//! program ever writes becomes a [`RegId`] whose current value the lifter keeps while walking
//! the structured program. Components that are never written read as zero and need no id.

use super::types::Kind;
use crate::tgsi::ast::{Program, RegFile};
use crate::tgsi::decls::Decls;
use crate::tgsi::error::Result;
use std::collections::HashMap;

/// A tracked register component.
pub type RegId = u32;

/// A register component: file, index, component.
pub type RegKey = (RegFile, u32, u8);

/// True for the files whose registers the lifter tracks as SSA values.
pub fn is_tracked(file: RegFile) -> bool {
    matches!(file, RegFile::Temp | RegFile::Output | RegFile::Address)
}

/// The tracked register components and, for each, the kind of value most writes store.
#[derive(Clone, Debug, Default)]
pub struct RegTable {
    ids: HashMap<RegKey, RegId>,
    keys: Vec<RegKey>,
    kinds: Vec<Kind>,
}

impl RegTable {
    /// Every component some instruction writes (directly, or through an indirect
    /// destination that may reach it).
    pub fn new(program: &Program, decls: &Decls) -> Result<RegTable> {
        let mut t = RegTable::default();
        // Each array written indirectly is expanded once per write mask, however many
        // instructions write it.
        let mut arrays = std::collections::HashSet::new();
        for inst in &program.insts {
            let kind = super::types::dst_kind(inst.opcode);
            for dst in &inst.dsts {
                let reg = &dst.reg;
                if !is_tracked(reg.file) {
                    continue;
                }
                let indices = if reg.index.indirect.is_some() {
                    let key = (reg.file, reg.array_id.filter(|&id| id != 0), dst.mask, kind);
                    if !arrays.insert(key) {
                        continue;
                    }
                    decls.elements(reg)?
                } else {
                    u32::try_from(reg.index.offset).ok().into_iter().collect()
                };
                for index in indices {
                    for comp in 0..4u8 {
                        if dst.mask & (1 << comp) != 0 {
                            t.add((reg.file, index, comp), kind);
                        }
                    }
                }
            }
        }
        Ok(t)
    }

    fn add(&mut self, key: RegKey, kind: Kind) {
        match self.ids.get(&key) {
            Some(&id) => {
                if self.kinds[id as usize] == Kind::Untyped {
                    self.kinds[id as usize] = kind;
                }
            }
            None => {
                self.ids.insert(key, self.keys.len() as RegId);
                self.keys.push(key);
                self.kinds.push(kind);
            }
        }
    }

    /// The id of a component, if it is tracked.
    pub fn id(&self, file: RegFile, index: u32, comp: u8) -> Option<RegId> {
        self.ids.get(&(file, index, comp)).copied()
    }

    /// The number of tracked components.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The component an id stands for.
    pub fn key(&self, id: RegId) -> RegKey {
        self.keys[id as usize]
    }

    /// The kind of value most writes of this component store.
    pub fn kind(&self, id: RegId) -> Kind {
        self.kinds[id as usize]
    }

    /// Every tracked OUT component.
    pub fn outputs(&self) -> impl Iterator<Item = RegId> + '_ {
        (0..self.len() as RegId).filter(|&id| self.key(id).0 == RegFile::Output)
    }
}

/// A set of [`RegId`]s of fixed capacity.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RegSet {
    words: Vec<u64>,
}

impl RegSet {
    /// An empty set for ids below `n`.
    pub fn new(n: usize) -> RegSet {
        RegSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Adds an id.
    pub fn insert(&mut self, id: RegId) {
        if let Some(w) = self.words.get_mut(id as usize / 64) {
            *w |= 1 << (id % 64);
        }
    }

    /// Adds every id of `other`; true if the set grew.
    pub fn union_with(&mut self, other: &RegSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }

    /// Removes every id of `other`.
    pub fn subtract(&mut self, other: &RegSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
    }

    /// The ids in both sets.
    pub fn intersection(&self, other: &RegSet) -> RegSet {
        RegSet {
            words: self
                .words
                .iter()
                .zip(&other.words)
                .map(|(a, b)| a & b)
                .collect(),
        }
    }

    /// The ids, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = RegId> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w & (1u64 << b) != 0)
                .map(move |b| (i * 64 + b) as RegId)
        })
    }
}
