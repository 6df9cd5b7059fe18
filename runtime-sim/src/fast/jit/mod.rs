//! Straight runs compiled to host code with Cranelift.
//!
//! # What is compiled, and when
//! A program's straight runs (`fast::straight`) are compiled together, once per program, into
//! one function per *piece*: a maximal stretch of a run whose operations [`lower::supported`]
//! holds for (the integer and f32 arithmetic, conversions, selects and `wait`s that make up
//! nearly all of real shaders' runs). The operations between pieces (e.g. `log2`, 64-bit
//! shifts) run on the interpreter inside the run, in order. Only the entries a run can start
//! at are compiled: the start of each maximal run and the jump targets inside one.
//!
//! [`Engine::Fast`] compiles a program once one worker has executed its straight runs
//! [`HOT`] times, so that the 100,000 small programs of a soak never pay for compilation and a
//! large dispatch pays for it once (a few milliseconds); [`Engine::FastCompiled`] compiles before
//! the first run (the tests use it, so that the compiled code runs on every test program);
//! [`Engine::FastInterpreted`] never compiles.
//!
//! # When compiled code runs, and why the results are the same
//! A compiled entry runs only where the interpreter would run the run without checks
//! (`Runs::mode`: no 16-bit half the run touches has a hazard, or the only hazards are poison
//! on halves the run writes before reading), so no check inside it can fail; the run loop
//! makes the writes' one change to the checkers' state afterwards (`Runs::clear_poison`),
//! does the step limit, the counts and the timing model for the whole run as it does for the
//! interpreter, and the `wait`s of a compiled piece are applied after it (they only clear
//! pending loads, which nothing in an unchecked run touches). Other runs with hazards go to
//! the interpreter with its checks. Each compiled operation computes what
//! `fast::alu` computes (see [`lower`]); the unit tests, the random-program properties and
//! the corpus tests compare the engines bit for bit.
//!
//! Each entry's whole run also gets a compiled timing function ([`timing`]): the timing
//! model's walk over the run with the ready times in host registers, used by the run loop for
//! every run from that entry that completes (whichever executor ran it), with the same result
//! as `Timing::issue_run`.
//!
//! # Safety
//! The generated code reads and writes only the register file's 128 rows of 32 lanes, the 256
//! uniforms and the 32-word mask it is given, at offsets fixed at compile time from register
//! numbers below 128 and uniform numbers below 256, and contains no calls other than the ones
//! Cranelift makes to the C library's `fmaf` on hosts without a fused multiply-add; a run's
//! timing function ([`timing`]) reads and writes only the 130 ready times and the four-word
//! block `Timing::issue_compiled` gives it, at offsets fixed at compile time. A program
//! that Cranelift cannot compile (which would be a bug here) simply runs on the interpreter.
//!
//! [`Engine::Fast`]: crate::config::Engine::Fast
//! [`Engine::FastCompiled`]: crate::config::Engine::FastCompiled
//! [`Engine::FastInterpreted`]: crate::config::Engine::FastInterpreted

mod bits;
mod lower;
mod timing;

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, OnceLock};

use cranelift_codegen::ir::{AbiParam, UserFuncName};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};

use super::ops::{Kind, Op, Target};
use super::straight::Runs;
use crate::timing::CompiledRun;

/// Straight-run executions after which [`crate::config::Engine::Fast`] compiles a program
/// (counted per worker).
pub(crate) const HOT: u32 = 512;

/// A compiled piece: `(rows, uniforms, mask)`.
type PieceFn = unsafe extern "C" fn(*mut u32, *const u32, *const u32);

/// A stretch of a straight run.
#[derive(Debug)]
pub(crate) enum Piece {
    /// Compiled; afterwards the `wait` slots it held are applied.
    Host { f: PieceFn, waits: Box<[u8]> },
    /// Run by the interpreter: operations `range`.
    Interpreted(Range<usize>),
}

/// A program's compiled code.
pub(crate) struct Compiled {
    /// `entries[i]`: the pieces of the run starting at operation `i`, when compiled.
    entries: Vec<Option<Box<[Piece]>>>,
    /// `timings[i]`: the timing model of the whole run starting at operation `i`, when compiled
    /// (see [`timing`]).
    timings: Vec<Option<CompiledRun>>,
    /// Owns the code's memory; freed on drop, when no piece can be running (they run only
    /// while the program is borrowed).
    module: Mutex<Option<JITModule>>,
}

impl Drop for Compiled {
    fn drop(&mut self) {
        let module = match self.module.get_mut() {
            Ok(m) => m.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(module) = module {
            // SAFETY: the function pointers in `entries` are dropped with `self` and nothing
            // else holds them; no piece runs, since running one borrows the program.
            unsafe { module.free_memory() };
        }
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.entries.iter().flatten().count();
        write!(f, "Compiled({n} entries)")
    }
}

impl Compiled {
    /// The pieces of the run starting at operation `i`.
    #[inline(always)]
    pub fn entry(&self, i: usize) -> Option<&[Piece]> {
        self.entries.get(i)?.as_deref()
    }

    /// The timing function of the whole run starting at operation `i` (for
    /// `Timing::issue_compiled`).
    #[inline(always)]
    pub fn timing(&self, i: usize) -> Option<CompiledRun> {
        *self.timings.get(i)?
    }
}

/// The compiled code of a program, made at most once ([`None`]: the host or the program could
/// not be compiled; the interpreter runs everything).
#[derive(Default)]
pub(crate) struct Jit {
    code: OnceLock<Option<Compiled>>,
}

impl Jit {
    /// The compiled code, if compiled already.
    #[inline(always)]
    pub fn get(&self) -> Option<&Compiled> {
        self.code.get()?.as_ref()
    }

    /// Whether compiling was tried and failed (for the tests: on the hosts Cranelift supports,
    /// every program must compile).
    #[cfg(test)]
    pub fn failed(&self) -> bool {
        matches!(self.code.get(), Some(None))
    }

    /// The compiled code, compiling `ops` now if no worker has.
    pub fn get_or_compile(&self, ops: &[Op], runs: &Runs) -> Option<&Compiled> {
        self.code
            .get_or_init(|| {
                catch_unwind(AssertUnwindSafe(|| compile(ops, runs)))
                    .ok()
                    .flatten()
            })
            .as_ref()
    }
}

/// A cache: copies start uncompiled, and it takes no part in comparisons.
impl Clone for Jit {
    fn clone(&self) -> Self {
        Jit::default()
    }
}

impl PartialEq for Jit {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Jit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.code.get() {
            None => write!(f, "Jit(not compiled)"),
            Some(None) => write!(f, "Jit(not compilable)"),
            Some(Some(c)) => c.fmt(f),
        }
    }
}

/// The operations a run can be entered at: where a maximal run starts, and jump targets.
fn entries(ops: &[Op], runs: &Runs) -> Vec<usize> {
    let mut starts: Vec<usize> = (0..ops.len()).filter(|&i| runs.starts_run(i)).collect();
    for op in ops {
        if let Kind::JmpExecAny(Target::Index(t)) | Kind::JmpExecNone(Target::Index(t)) = op.kind {
            if runs.at(t, u64::MAX).is_some() {
                starts.push(t);
            }
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// Compiles every entry of the program's runs; `None` if the host is not supported.
fn compile(ops: &[Op], runs: &Runs) -> Option<Compiled> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    flags.set("is_pic", "false").ok()?;
    flags.set("use_colocated_libcalls", "false").ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let ptr = module.target_config().pointer_type();
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    let mut sig = module.make_signature();
    for _ in 0..3 {
        sig.params.push(AbiParam::new(ptr));
    }
    let mut timing_sig = module.make_signature();
    for _ in 0..2 {
        timing_sig.params.push(AbiParam::new(ptr));
    }

    // Pieces refer to functions by id until the module is finalised.
    enum Pending {
        Host(FuncId, Box<[u8]>),
        Interpreted(Range<usize>),
    }
    let mut pending: Vec<(usize, Vec<Pending>, FuncId)> = Vec::new();
    let mut count = 0u32;
    for start in entries(ops, runs) {
        let Some(run) = runs.at(start, u64::MAX) else {
            continue;
        };
        let timing_id = module
            .declare_function(&format!("timing{start}"), Linkage::Local, &timing_sig)
            .ok()?;
        ctx.func.signature = timing_sig.clone();
        ctx.func.name = UserFuncName::user(1, timing_id.as_u32());
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            timing::build(&mut b, runs.issues(run.clone()));
            b.finalize(module.target_config());
        }
        module.define_function(timing_id, &mut ctx).ok()?;
        module.clear_context(&mut ctx);
        let mut pieces = Vec::new();
        let mut i = run.start;
        while i < run.end {
            let host = lower::supported(&ops[i].kind);
            let mut j = i;
            while j < run.end && lower::supported(&ops[j].kind) == host {
                j += 1;
            }
            if !host {
                pieces.push(Pending::Interpreted(i..j));
                i = j;
                continue;
            }
            let kinds: Vec<&Kind> = ops[i..j].iter().map(|op| &op.kind).collect();
            let waits: Box<[u8]> = kinds
                .iter()
                .filter_map(|k| match k {
                    Kind::Wait(slot) => Some(*slot),
                    _ => None,
                })
                .collect();
            let name = format!("run{count}");
            count += 1;
            let id = module.declare_function(&name, Linkage::Local, &sig).ok()?;
            ctx.func.signature = sig.clone();
            ctx.func.name = UserFuncName::user(0, id.as_u32());
            {
                let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
                lower::build(&mut b, ptr, &kinds);
                b.finalize(module.target_config());
            }
            module.define_function(id, &mut ctx).ok()?;
            module.clear_context(&mut ctx);
            pieces.push(Pending::Host(id, waits));
            i = j;
        }
        pending.push((start, pieces, timing_id));
    }
    module.finalize_definitions().ok()?;
    let mut entries: Vec<Option<Box<[Piece]>>> = (0..ops.len()).map(|_| None).collect();
    let mut timings: Vec<Option<CompiledRun>> = vec![None; ops.len()];
    for (start, pieces, timing_id) in pending {
        let code = module.get_finalized_function(timing_id);
        // SAFETY: `code` is a finalised function of `module` with the signature `timing_sig`:
        // two pointer parameters, no results, the host's C convention.
        timings[start] = Some(unsafe { std::mem::transmute::<*const u8, CompiledRun>(code) });
        let pieces = pieces
            .into_iter()
            .map(|p| match p {
                Pending::Host(id, waits) => {
                    let code = module.get_finalized_function(id);
                    // SAFETY: `code` is a finalised function of `module` with the signature
                    // `sig`: three pointer parameters, no results, the host's C convention.
                    let f = unsafe { std::mem::transmute::<*const u8, PieceFn>(code) };
                    Piece::Host { f, waits }
                }
                Pending::Interpreted(r) => Piece::Interpreted(r),
            })
            .collect();
        entries[start] = Some(pieces);
    }
    Some(Compiled {
        entries,
        timings,
        module: Mutex::new(Some(module)),
    })
}

#[cfg(test)]
mod tests {
    use super::Piece;
    use crate::program::{Program, ProgramMetadata};

    /// A straight run of `imadd`s compiles to one host piece at its start (so the engines'
    /// comparisons in the tests run compiled code, not only the interpreter).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    #[test]
    fn a_straight_run_compiles_to_host_code() {
        let imadd = [0x1e, 0x09, 0x42, 0x32, 0x00, 0x00, 0x00, 0x00]; // imadd r2, r1, 3, 0
        let mut code: Vec<u8> = imadd.repeat(3);
        code.extend_from_slice(&[0x88, 0x00]); // stop
        let program = Program::load(&code, ProgramMetadata::compute(6)).expect("loads");
        let fast = &program.fast;
        let compiled = fast
            .jit
            .get_or_compile(&fast.ops, &fast.runs)
            .expect("compiles");
        let pieces = compiled.entry(0).expect("an entry at the run's start");
        assert!(matches!(pieces, [Piece::Host { .. }]), "{pieces:?}");
        assert!(compiled.entry(1).is_none());
    }
}
