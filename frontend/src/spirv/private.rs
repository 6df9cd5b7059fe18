//! Large local arrays in private memory.
//!
//! Function variables are promoted to IR values (`memory.rs`), and a dynamic index into one
//! becomes a `select` over every element. For a large array written at dynamic indices (a
//! loop filling `float a[256]`) that is a chain of hundreds of compares and selects per
//! access, and every element stays live in registers. Such a variable goes to the
//! invocation's private memory instead (IR `private` space; the G13's per-thread stack):
//! accesses become one load or store at a byte offset, laid out as workgroup memory is
//! (natural sizes, no decorations). Mesa does the same for its AGX backend with
//! `nir_lower_vars_to_scratch` above a size threshold.
//!
//! Chosen before lifting, by a scan of the whole module (so that loop analysis, which asks
//! which variables are promoted before a callee is lifted, agrees with the choice): a
//! `Function` variable of more than [`MIN_PRIVATE_BYTES`] bytes that some `OpStore` writes
//! through an access chain with a non-constant index. Arrays only read dynamically keep the
//! promoted form, where a constant array becomes a table in the constant data (`table.rs`).
//!
//! A dynamic index into a private array is clamped to the array (`umin`, unsigned, so a
//! negative index clamps too): an out-of-range index is undefined behaviour in SPIR-V, and
//! the clamp keeps every access inside the variable. A constant index out of range (valid
//! SPIR-V may hold one in code that does not run) is clamped the same way.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Id, Inst};
use super::value::{MemLayout, MemPtr, Pointer};
use agxc_egraph::ir::{AddressSpace, PureOp, Type, Value};
use spirv::{Op, StorageClass};
use std::collections::{HashMap, HashSet};

/// Variables of at most this many bytes stay promoted: their selects fold after unrolling,
/// and they fit the registers.
pub const MIN_PRIVATE_BYTES: u32 = 256;

/// Most private memory one invocation may use (inlined calls each get their own copy of a
/// callee's arrays): the G13's stack frame holds the private memory and the spill slots,
/// addressed with 16-bit byte offsets.
pub const MAX_PRIVATE_BYTES: u32 = 24 * 1024;

impl Lowerer<'_> {
    /// Finds the variables that go to private memory (module docs). Runs after the types and
    /// constants are declared, before any function is lifted.
    pub fn choose_private_vars(&mut self) -> Result<(), SpirvError> {
        let m = self.m;
        // Pointer ids derived from a variable by access chains: (root, dynamically indexed).
        let mut chains: HashMap<Id, (Id, bool)> = HashMap::new();
        let mut written: HashSet<Id> = HashSet::new();
        let mut locals: Vec<&Inst> = Vec::new();
        for f in &m.functions {
            for inst in f.blocks.iter().flat_map(|b| &b.insts) {
                match inst.opcode {
                    Op::Variable => locals.push(inst),
                    Op::AccessChain | Op::InBoundsAccessChain => {
                        let base = inst.id(0)?;
                        let (root, base_dynamic) =
                            chains.get(&base).copied().unwrap_or((base, false));
                        let mut dynamic = base_dynamic;
                        for i in 1..inst.operands.len() {
                            dynamic |= !self.consts.contains_key(&inst.id(i)?);
                        }
                        chains.insert(inst.result()?, (root, dynamic));
                    }
                    Op::Store => {
                        if let Some(&(root, true)) = chains.get(&inst.id(0)?) {
                            written.insert(root);
                        }
                    }
                    _ => {}
                }
            }
        }
        for inst in locals {
            let id = inst.result()?;
            if !written.contains(&id) {
                continue;
            }
            let (class, pointee) = self.types.pointer(inst.result_ty()?, inst)?;
            if class != StorageClass::Function {
                continue;
            }
            let size = self.types.natural_size(pointee, &self.decos, inst)?;
            if size > MIN_PRIVATE_BYTES && size <= MAX_PRIVATE_BYTES {
                self.private_vars.insert(id);
            }
        }
        Ok(())
    }

    /// True if the Function variable `var` lives in private memory.
    pub fn is_private_var(&self, var: Id) -> bool {
        self.private_vars.contains(&var)
    }

    /// Places the Function variable `inst` (of type `pointee`) in private memory, stores its
    /// initializer, and returns its pointer. Each lifting of the declaration (an inlined
    /// function's variables, once per call) gets its own bytes.
    pub fn declare_private_var(&mut self, inst: &Inst, pointee: Id) -> Result<Pointer, SpirvError> {
        let size = self.types.natural_size(pointee, &self.decos, inst)?;
        let offset = self.func.private_bytes.next_multiple_of(16);
        let end = offset
            .checked_add(size)
            .filter(|&e| e <= MAX_PRIVATE_BYTES)
            .ok_or_else(|| {
                inst.unsupported(format!(
                    "local arrays needing more than {MAX_PRIVATE_BYTES} bytes of private memory per invocation"
                ))
            })?;
        self.func.private_bytes = end;
        let ptr = Pointer::Mem(MemPtr {
            space: AddressSpace::Private,
            offset,
            dynamic: None,
            ty: pointee,
            layout: MemLayout::Plain,
        });
        if inst.operands.len() > 1 {
            let init = self.operand(inst, 1)?;
            self.store(inst, &ptr, init)?;
        }
        Ok(ptr)
    }

    /// `index` clamped to `0..n` (unsigned) for an access into private memory, unless it is
    /// certainly in range already.
    pub fn clamp_private_index(&mut self, index: Value, n: u32) -> Value {
        if n == 0 || self.below(index, u64::from(n)) {
            return index;
        }
        let last = self.iconst(Type::I32, i64::from(n) - 1);
        self.pure(PureOp::Umin, &[index, last])
    }
}
