//! The backend's passes as one ordered list of named steps over a [`Machine`], the code between
//! passes. [`crate::compile`] runs the list; the facade (`agxc::compile_function`) runs the same
//! list as the tail of the whole pipeline, with a dump and a `tracing` span per pass.
//!
//! The code changes form along the way (graph IR, machine function over virtual registers,
//! allocated instructions, lowered code with labels, encoded bytes); [`Machine::listing`] prints
//! whichever form the last pass left, so a dump after any pass is text.

use agxc_egraph::ir::{verify, Function};

use crate::cflow::{self, Lowered};
use crate::emit::{self, Emitted};
use crate::error::BackendError;
use crate::mir::{self, MFunction};
use crate::{
    collect, hints, isa, isel, latency, mopt, preamble, promote, regalloc, sched, stats, vectorize,
    Abi, Binary, CodeStats, CompileOptions, Metadata, PassDump, PreambleCode,
};

/// One backend pass: its name (as `--dump` spells it) and what it does to the code.
#[derive(Clone, Copy)]
pub struct MachinePass {
    /// The pass's name.
    pub name: &'static str,
    /// Runs it.
    pub run: fn(&mut Machine) -> Result<(), BackendError>,
}

impl std::fmt::Debug for MachinePass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The backend's passes, in order (the crate docs draw the same pipeline).
pub const PASSES: &[MachinePass] = &[
    MachinePass {
        name: "vectorize",
        run: |m| {
            vectorize::merge_accesses(&mut m.func);
            Ok(())
        },
    },
    MachinePass {
        name: "isel",
        run: |m| {
            let abi = Abi::for_function(&m.func)?;
            m.code = Code::Mir(isel::select(&m.func, &abi)?);
            m.abi = Some(abi);
            Ok(())
        },
    },
    MachinePass {
        name: "collect",
        run: |m| m.with_mir(collect::coalesce_runs),
    },
    MachinePass {
        name: "promote",
        run: |m| {
            let (Code::Mir(f), Some(abi)) = (&mut m.code, &mut m.abi) else {
                return Err(out_of_order("promote"));
            };
            promote::promote_constants(f, abi);
            Ok(())
        },
    },
    MachinePass {
        name: "mopt-dce",
        run: |m| {
            m.with_mir(|f| {
                mopt::dce::remove_dead(f);
            })
        },
    },
    MachinePass {
        name: "mopt-cse",
        run: |m| {
            m.with_mir(|f| {
                mopt::cse::eliminate(f);
            })
        },
    },
    MachinePass {
        name: "mopt-copyprop",
        run: |m| {
            m.with_mir(|f| {
                mopt::copyprop::propagate(f);
            })
        },
    },
    MachinePass {
        name: "mopt-combine",
        run: |m| {
            m.with_mir(|f| {
                mopt::combine::combine(f);
            })
        },
    },
    MachinePass {
        name: "mopt-coalesce",
        run: |m| {
            m.with_mir(|f| {
                mopt::coalesce::coalesce(f);
            })
        },
    },
    MachinePass {
        name: "preamble",
        run: |m| {
            let (Code::Mir(f), Some(abi)) = (&mut m.code, &mut m.abi) else {
                return Err(out_of_order("preamble"));
            };
            let extracted = preamble::extract(f, abi);
            m.preamble = (extracted.moved > 0).then_some(extracted.preamble);
            Ok(())
        },
    },
    MachinePass {
        name: "mopt-sink",
        run: |m| {
            m.with_mir(|f| {
                mopt::sink::sink(f);
            })
        },
    },
    MachinePass {
        name: "sched",
        run: schedule,
    },
    MachinePass {
        name: "regalloc",
        run: allocate,
    },
    MachinePass {
        name: "hints",
        run: |m| {
            let (Code::Allocated(a), true) = (&mut m.code, m.opts.hints) else {
                return Ok(());
            };
            hints::assign(&mut a.insts);
            Ok(())
        },
    },
    MachinePass {
        name: "cflow",
        run: |m| {
            let Code::Allocated(a) = &m.code else {
                return Err(out_of_order("cflow"));
            };
            let lowered = cflow::lower(&a.insts, a.exec_stack);
            m.facts = Some(AllocFacts::of(a));
            m.code = Code::Lowered(lowered);
            Ok(())
        },
    },
    MachinePass {
        name: "waits",
        run: |m| {
            let Code::Lowered(code) = &mut m.code else {
                return Err(out_of_order("waits"));
            };
            *code = crate::waits::insert(std::mem::take(code));
            Ok(())
        },
    },
    MachinePass {
        name: "emit",
        run: |m| {
            let Code::Lowered(code) = &m.code else {
                return Err(out_of_order("emit"));
            };
            m.code = Code::Emitted(emit::emit(code)?);
            Ok(())
        },
    },
];

/// The code in the form the last pass left it.
#[derive(Debug)]
enum Code {
    /// Before instruction selection: the graph IR (`Machine::func`).
    Ir,
    /// A machine function over virtual registers.
    Mir(MFunction),
    /// The machine function scheduled, with the allocation of that schedule made while
    /// choosing it (taken by `regalloc`).
    Scheduled(MFunction, regalloc::Allocation),
    /// Instructions over physical registers.
    Allocated(regalloc::Allocation),
    /// Structure lowered to execution-mask code with labels.
    Lowered(Vec<Lowered>),
    /// Encoded.
    Emitted(Emitted),
}

/// What the statistics and metadata need from the allocation once it has been lowered away.
#[derive(Clone, Copy, Debug)]
struct AllocFacts {
    gpr_halves: u32,
    stack_bytes: u32,
    spilled: u32,
    spill_instructions: u32,
    spill_base: u32,
    loops: u32,
}

impl AllocFacts {
    fn of(a: &regalloc::Allocation) -> AllocFacts {
        AllocFacts {
            gpr_halves: a.gpr_halves,
            stack_bytes: a.stack_bytes,
            spilled: a.spilled,
            spill_instructions: regalloc::spill_instructions(&a.insts, a.spill_base),
            spill_base: a.spill_base,
            loops: a
                .insts
                .iter()
                .filter(|i| matches!(i, mir::MInst::Loop))
                .count() as u32,
        }
    }
}

/// One function on its way through the backend's passes.
#[derive(Debug)]
pub struct Machine {
    func: Function,
    opts: CompileOptions,
    abi: Option<Abi>,
    code: Code,
    facts: Option<AllocFacts>,
    /// The preamble's machine function, from the `preamble` pass.
    preamble: Option<MFunction>,
}

fn out_of_order(pass: &'static str) -> BackendError {
    BackendError::Internal {
        pass,
        what: "ran out of order (see backend_agx::pipeline::PASSES)".into(),
    }
}

impl Machine {
    /// A verified function ready for the first pass.
    pub fn new(func: &Function, opts: &CompileOptions) -> Result<Machine, BackendError> {
        verify(func)?;
        Ok(Machine {
            func: func.clone(),
            opts: opts.clone(),
            abi: None,
            code: Code::Ir,
            facts: None,
            preamble: None,
        })
    }

    fn with_mir(&mut self, f: impl FnOnce(&mut MFunction)) -> Result<(), BackendError> {
        match &mut self.code {
            Code::Mir(m) => {
                f(m);
                Ok(())
            }
            _ => Err(out_of_order("a machine-function pass")),
        }
    }

    /// The code as the last pass left it: the graph IR, the machine function, the allocated or
    /// lowered instructions, or the disassembly.
    pub fn listing(&self) -> String {
        match &self.code {
            Code::Ir => self.func.to_string(),
            Code::Mir(m) | Code::Scheduled(m, _) => m.to_string(),
            Code::Allocated(a) => mir::Listing(&a.insts).to_string(),
            Code::Lowered(code) => code.iter().map(|l| format!("{l}\n")).collect(),
            Code::Emitted(e) => e.listing(),
        }
    }

    /// The binary, after the last pass ([`PASSES`]'s `emit`).
    pub fn finish(self, dumps: Vec<PassDump>) -> Result<Binary, BackendError> {
        let (Code::Emitted(emitted), Some(facts), Some(abi)) = (self.code, self.facts, self.abi)
        else {
            return Err(out_of_order("finish"));
        };
        let count = |f: &dyn Fn(&isa::Instr<isa::PReg>) -> bool| {
            emitted.instrs().filter(|i| f(i)).count() as u32
        };
        let stats = CodeStats {
            instructions: emitted.items.len() as u32,
            bytes: emitted.code.len() as u32,
            estimated_cycles: stats::estimate_cycles(&emitted.items),
            spilled_values: facts.spilled,
            spill_instructions: facts.spill_instructions,
            spills: count(&|i| match i {
                isa::Instr::StackStore(a) => regalloc::is_spill_slot(a, facts.spill_base),
                _ => false,
            }),
            fills: count(&|i| match i {
                isa::Instr::StackLoad(a) => regalloc::is_spill_slot(a, facts.spill_base),
                _ => false,
            }),
            loops: facts.loops,
            waits: count(&|i| matches!(i, isa::Instr::Wait { .. })),
            memory_loads: count(&|i| latency::is_async_load(i)),
        };
        let metadata = Metadata {
            stage: self.func.stage,
            gpr_halves: facts.gpr_halves,
            threads_per_core: regalloc::occupancy(facts.gpr_halves),
            stack_bytes: facts.stack_bytes,
            threadgroup_memory: self.func.shared_memory,
            workgroup_size: self.func.modes.local_size,
            abi,
        };
        let preamble = match self.preamble {
            Some(f) => Some(compile_preamble(
                f,
                self.opts.max_gpr_halves.min(256),
                self.opts.disassemble,
            )?),
            None => None,
        };
        Ok(Binary {
            disassembly: listing(&emitted, self.opts.disassemble),
            code: emitted.code,
            metadata,
            stats,
            dumps,
            preamble,
        })
    }
}

/// The preamble's machine function allocated, lowered and encoded like the main program's
/// (not scheduled: it runs once, on one thread); its listing when `disassemble`.
fn compile_preamble(
    f: MFunction,
    limit: u32,
    disassemble: bool,
) -> Result<PreambleCode, BackendError> {
    let a = regalloc::allocate(f, limit)?;
    let lowered = crate::waits::insert(cflow::lower(&a.insts, a.exec_stack));
    let emitted = emit::emit(&lowered)?;
    Ok(PreambleCode {
        instructions: emitted.items.len() as u32,
        disassembly: listing(&emitted, disassemble),
        code: emitted.code,
        gpr_halves: a.gpr_halves,
    })
}

/// The listing of `emitted` when `disassemble` ([`CompileOptions::disassemble`]), else empty.
fn listing(emitted: &emit::Emitted, disassemble: bool) -> String {
    if disassemble {
        emitted.listing()
    } else {
        String::new()
    }
}

/// `sched`: schedules for latency within the occupancy step and for register pressure (top-down
/// and bottom-up; `sched` module docs), allocates each, and keeps the one with fewer spills,
/// then fewer registers (ties: the earlier, latency first). Registers are what Mesa's shader-db
/// compares and what occupancy follows; the pressure schedules cost waits and latency, so one
/// is taken only when it saves registers. The choice needs the allocations, so the winner's is
/// kept for `regalloc`.
fn schedule(m: &mut Machine) -> Result<(), BackendError> {
    if !m.opts.schedule {
        return Ok(());
    }
    let Code::Mir(f) = std::mem::replace(&mut m.code, Code::Ir) else {
        return Err(out_of_order("sched"));
    };
    let (f, a) = schedule_and_allocate(f, m.opts.max_gpr_halves.min(256))?;
    m.code = Code::Scheduled(f, a);
    Ok(())
}

/// The choice `sched` makes: `m` scheduled each way and allocated within `limit` halves; the
/// kept schedule and its allocation.
pub(crate) fn schedule_and_allocate(
    m: MFunction,
    limit: u32,
) -> Result<(MFunction, regalloc::Allocation), BackendError> {
    // The three schedules share the blocks' dependence graphs and many list schedules.
    let prepared = sched::Prepared::new(&m);
    let mut latency_first = m.clone();
    prepared.apply(&mut latency_first, sched::Policy::Occupancy);
    let mut best = (
        regalloc::allocate(latency_first.clone(), limit)?,
        latency_first,
    );
    let mut tried = vec![best.1.insts.clone()];
    // The pressure schedules, then the same again with a vector built piecewise counted by its
    // components (`sched::Prepared::sliced`): they can compute one component's inputs early
    // and free them, which the whole-vector count never shows. Each is kept only if its
    // allocation takes fewer registers (or spills less) than the best so far.
    let sliced = sched::Prepared::sliced(&m);
    let models = std::iter::once(&prepared).chain(sliced.as_ref());
    for model in models {
        for policy in [sched::Policy::Pressure, sched::Policy::PressureBottomUp] {
            let mut candidate = m.clone();
            model.apply(&mut candidate, policy);
            if tried.contains(&candidate.insts) {
                continue;
            }
            if let Ok(b) = regalloc::allocate(candidate.clone(), limit) {
                if (b.spilled, b.gpr_halves) < (best.0.spilled, best.0.gpr_halves) {
                    tried.push(candidate.insts.clone());
                    best = (b, candidate);
                    continue;
                }
            }
            tried.push(candidate.insts);
        }
    }
    Ok((best.1, best.0))
}

/// `regalloc`: the allocation `sched` chose, or (scheduling off) the function allocated as it is.
fn allocate(m: &mut Machine) -> Result<(), BackendError> {
    m.code = match std::mem::replace(&mut m.code, Code::Ir) {
        Code::Scheduled(_, a) => Code::Allocated(a),
        Code::Mir(f) => Code::Allocated(regalloc::allocate(f, m.opts.max_gpr_halves.min(256))?),
        _ => return Err(out_of_order("regalloc")),
    };
    Ok(())
}
