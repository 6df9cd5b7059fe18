//! Push ranges: which uniform-buffer words the runtime preloads into uniform registers.
//!
//! A uniform-buffer load at a constant offset reads the same words in every invocation, so,
//! as Mesa's AGX driver does for its push ranges and preamble-hoisted UBO loads (see
//! `/work/shared/mesa-reference/README.md`: "UBO and push-block loads" cost no main-shader
//! instructions), the runtime copies those words into uniform registers before the dispatch
//! and the shader reads them as operands: no `device_load`, no `wait`, in every branch.
//!
//! The choice is per binding and all or nothing (every word a binding's constant-offset loads
//! read, or none), bindings in ascending order while the words fit the budget
//! [`UBO_UNIFORM_BUDGET`] shared with every other uniform content (the constant pool is
//! appended afterwards into what is left). A load whose words are not all preloaded, or
//! whose offset is dynamic, negative or misaligned, keeps its `device_load` from the buffer's
//! address, which the ABI then includes.

use std::collections::{BTreeMap, BTreeSet};

use agxc_egraph::ir::{Binding, Function, Type, Value};

use super::{const_i32, Abi, UniformContent};

/// The most 32-bit uniforms a shader's contents other than the constant pool may use once
/// uniform-buffer words are added: the rest of the 256 stays for promoted constants.
pub const UBO_UNIFORM_BUDGET: u32 = 192;

/// The uniform-buffer words one load reads, if its offset is a constant the words can be
/// preloaded for: non-negative and every element aligned to its size.
pub(crate) fn constant_words(
    func: &Function,
    offset: Value,
    access_offset: u32,
    types: &[Type],
) -> Option<Vec<u32>> {
    let c = const_i32(func, offset)?;
    let mut pos = i64::from(c) + i64::from(access_offset);
    let mut words = Vec::new();
    for &ty in types {
        let bytes = i64::from(ty.bytes());
        if pos < 0 || pos % bytes != 0 || pos + bytes > i64::from(u32::MAX) {
            return None;
        }
        let first = (pos / 4) as u32;
        let last = ((pos + bytes - 1) / 4) as u32;
        words.extend(first..=last);
        pos += bytes;
    }
    Some(words)
}

/// The uniform-buffer loads of a function, collected while the ABI is laid out.
#[derive(Default)]
pub(super) struct UboReads {
    /// Per load: its binding and its words (`None`: not preloadable).
    loads: Vec<(Binding, Option<Vec<u32>>)>,
}

impl UboReads {
    pub(super) fn record(&mut self, b: Binding, words: Option<Vec<u32>>) {
        self.loads.push((b, words));
    }

    /// Chooses the preloaded words given the 32-bit uniforms `used` by other contents; adds
    /// them to `need`, and the address of every binding some load still reads from memory.
    pub(super) fn choose(&self, used: u32, need: &mut BTreeSet<UniformContent>) {
        let mut per_binding: BTreeMap<Binding, BTreeSet<u32>> = BTreeMap::new();
        for (b, words) in &self.loads {
            let set = per_binding.entry(*b).or_default();
            set.extend(words.iter().flatten());
        }
        let mut budget = UBO_UNIFORM_BUDGET.saturating_sub(used);
        let mut chosen: BTreeSet<Binding> = BTreeSet::new();
        for (b, words) in &per_binding {
            let n = words.len() as u32;
            if n > 0 && n <= budget {
                budget -= n;
                chosen.insert(*b);
                need.extend(words.iter().map(|&k| UniformContent::BufferWord(*b, k)));
            }
        }
        for (b, words) in &self.loads {
            if words.is_none() || !chosen.contains(b) {
                need.insert(UniformContent::BufferAddress(*b));
            }
        }
    }
}

/// A contiguous run of preloaded uniform-buffer words: the runtime copies `words` 32-bit
/// words from byte `offset` of the buffer at `binding` into `u{uniform}..`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PushRange {
    /// The uniform buffer.
    pub binding: Binding,
    /// First byte (a multiple of 4).
    pub offset: u32,
    /// Words copied.
    pub words: u32,
    /// First 32-bit uniform written.
    pub uniform: u16,
}

impl Abi {
    /// The preloaded uniform-buffer words as contiguous ranges, in uniform order. Words past
    /// the end of the bound buffer read as zero (like push-constant words).
    pub fn push_ranges(&self) -> Vec<PushRange> {
        let mut out: Vec<PushRange> = Vec::new();
        for s in &self.uniforms {
            let UniformContent::BufferWord(b, k) = s.content else {
                continue;
            };
            match out.last_mut() {
                Some(r)
                    if r.binding == b
                        && r.offset / 4 + r.words == k
                        && u32::from(r.uniform) + r.words == u32::from(s.index) =>
                {
                    r.words += 1
                }
                _ => out.push(PushRange {
                    binding: b,
                    offset: 4 * k,
                    words: 1,
                    uniform: s.index,
                }),
            }
        }
        out
    }
}
