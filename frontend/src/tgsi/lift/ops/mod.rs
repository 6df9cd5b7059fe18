//! Opcode semantics: one function per opcode family, dispatched from [`Lifter::lift_op`].
//!
//! Semantics follow the seed reference (the Gallium TGSI document) lane by lane; where it
//! leaves an opcode TBD or has an evident typo, they follow Mesa's reference interpreter
//! (`tgsi_exec.c`), and each such place says so. Operations are not fused: `MAD` is a
//! multiply and an add (softpipe computes it unfused too), marked contractable for the
//! optimizer unless the instruction is `_PRECISE`.

mod control;
mod float;
mod image;
mod int;
mod legacy;
mod memory;
mod texture;

use super::{Lifter, Want};
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{PureOp, Value};

impl Lifter<'_, '_> {
    /// Lifts the current instruction (not a control-flow marker).
    pub(super) fn lift_op(&mut self) -> Result<()> {
        use Opcode::*;
        let op = self.inst().opcode;
        match op {
            NOP | END => Ok(()),
            MOV => self.componentwise(&[Want::Raw], |_, a| Ok(a[0])),
            ADD | SUB | MUL | DIV | MIN | MAX | MAD | FMA | LRP | FLR | CEIL | TRUNC | ROUND
            | FRC | FRAC | ABS | SSG | CMP | CND | CLAMP | SLT | SGE | SEQ | SNE | SGT | SLE
            | SFL | STR | LDEXP => self.float_op(op),
            RCP | RSQ | SQRT | EX2 | LG2 | POW | COS | SIN => self.scalar_op(op),
            DP2 | DP3 | DP4 | DPH | DP2A | LIT | EXP | LOG | DST | XPD | SCS | NRM | NRM4 | RFL
            | X2D | RCC => self.legacy_op(op),
            ARL | ARR | UARL => self.address_op(op),
            DDX | DDY | DDX_FINE | DDY_FINE => self.derivative(op),
            UADD | UMUL | UMAD | IMUL_HI | UMUL_HI | IDIV | UDIV | MOD | UMOD | IMIN | IMAX
            | UMIN | UMAX | IABS | INEG | ISSG | AND | OR | XOR | NOT | SHL | SHR | ISHR | USHR
            | ISLT | ISGE | USLT | USGE | USEQ | USNE | FSLT | FSGE | FSEQ | FSNE | I2F | U2F
            | F2I | F2U | UCMP | IBFE | UBFE | BFI | BREV | POPC | LSB | IMSB | UMSB | SAD
            | PK2H | UP2H => self.int_op(op),
            KILL | KILP | KIL | KILL_IF | DEMOTE | BARRIER | MEMBAR | READ_HELPER
            | INTERP_CENTROID | INTERP_SAMPLE => self.control_op(op),
            TEX | TXP | TXB | TXL | TXD | TEX2 | TXB2 | TXL2 | TEX_LZ | TXF | TXF_LZ | TXQ
            | SAMPLE | SAMPLE_B | SAMPLE_L | SAMPLE_C | SAMPLE_C_LZ | SAMPLE_D | SAMPLE_I
            | SVIEWINFO | TG4 => self.texture_op(op),
            LOAD | STORE | RESQ => self.memory_op(op),
            ATOMUADD | ATOMXCHG | ATOMCAS | ATOMAND | ATOMOR | ATOMXOR | ATOMUMIN | ATOMUMAX
            | ATOMIMIN | ATOMIMAX => self.atomic_op(op),
            EMIT | ENDPRIM => self.geometry_op(op),
            _ => Err(self.unsupported(why_unsupported(op))),
        }
    }

    fn unsupported(&self, what: impl Into<String>) -> TgsiError {
        let inst = self.inst();
        TgsiError::unsupported(inst.pos, inst.opcode.name(), what)
    }

    /// `dst.c = f(src0.c, src1.c, ...)` for every written channel.
    fn componentwise(
        &mut self,
        wants: &[Want],
        mut f: impl FnMut(&mut Self, &[Value]) -> Result<Value>,
    ) -> Result<()> {
        let mask = self.dst_mask();
        let mut out = [None; 4];
        for (chan, slot) in out.iter_mut().enumerate() {
            if mask & (1 << chan) == 0 {
                continue;
            }
            let args = wants
                .iter()
                .enumerate()
                .map(|(s, &w)| self.fetch(s, chan, w))
                .collect::<Result<Vec<_>>>()?;
            *slot = Some(f(self, &args)?);
        }
        self.store(0, out)
    }

    /// `dst.xyzw = f(src0.x, src1.x, ...)`: one result replicated to every written channel.
    fn replicated(
        &mut self,
        wants: &[Want],
        f: impl FnOnce(&mut Self, &[Value]) -> Result<Value>,
    ) -> Result<()> {
        let mask = self.dst_mask();
        if mask == 0 {
            return Ok(());
        }
        let args = wants
            .iter()
            .enumerate()
            .map(|(s, &w)| self.fetch(s, 0, w))
            .collect::<Result<Vec<_>>>()?;
        let v = f(self, &args)?;
        self.store(0, [Some(v); 4])
    }

    /// Each written channel computed by `f(chan)`.
    fn per_channel(&mut self, mut f: impl FnMut(&mut Self, usize) -> Result<Value>) -> Result<()> {
        let mask = self.dst_mask();
        let mut out = [None; 4];
        for (chan, slot) in out.iter_mut().enumerate() {
            if mask & (1 << chan) != 0 {
                *slot = Some(f(self, chan)?);
            }
        }
        self.store(0, out)
    }

    fn p(&mut self, op: PureOp, args: &[Value]) -> Value {
        self.b.pure(op, args)
    }

    fn fc(&mut self, v: f32) -> Value {
        self.b.f32(v)
    }

    fn ic(&mut self, v: i32) -> Value {
        self.b.i32(v)
    }

    /// `cond ? a : b`
    fn sel(&mut self, cond: Value, a: Value, b: Value) -> Value {
        self.b.pure(PureOp::Select, &[cond, a, b])
    }

    /// `cond ? 1.0 : 0.0`
    fn bool_to_float(&mut self, cond: Value) -> Value {
        let (one, zero) = (self.fc(1.0), self.fc(0.0));
        self.sel(cond, one, zero)
    }
}

fn why_unsupported(op: Opcode) -> &'static str {
    use Opcode::*;
    match op {
        ATOMFADD => "f32 atomic add (the graph IR's atomics are 32-bit integer operations)",
        ATOMINC_WRAP | ATOMDEC_WRAP => {
            "wrapping atomic increment and decrement (the graph IR has no such atomic)"
        }
        GATHER4 => "the Direct3D-style GATHER4 (TG4 is lifted)",
        LODQ => "LOD queries (the graph IR has no LOD query)",
        TXQS | SAMPLE_I_MS | SAMPLE_POS | SAMPLE_INFO => "multisampled textures",
        INTERP_OFFSET => "interpolation at an offset",
        BALLOT | READ_INVOC | READ_FIRST | VOTE_ANY | VOTE_ALL | VOTE_EQ => {
            "subgroup operations (the graph IR has none)"
        }
        CLOCK => "reading a clock",
        FBFETCH => "framebuffer fetch",
        IMG2HND | SAMP2HND => "bindless handles",
        MFENCE | LFENCE | SFENCE => "resource fences (removed from Gallium; MEMBAR replaced them)",
        PK2US | PK4B | PK4UB | UP2US | UP4B | UP4UB => {
            "this packing opcode (TBD in the reference; Mesa does not implement it either)"
        }
        ARA | PUSHA | POPA => {
            "address-register stacks (TBD in the reference, removed from Gallium)"
        }
        F2D | D2F | DABS | DNEG | DADD | DMUL | DDIV | DMAX | DMIN | DSLT | DSGE | DSEQ | DSNE
        | DRCP | DSQRT | DMAD | DFMA | DFRAC | DLDEXP | D2I | I2D | D2U | U2D | DRSQ | DTRUNC
        | DCEIL | DFLR | DROUND | DSSG | F2U64 | F2I64 | U2I64 | I2I64 | D2U64 | D2I64 | U642F
        | I642F | U642D | I642D | U64SEQ | U64SNE | I64SLT | U64SLT | I64SGE | U64SGE | I64MIN
        | U64MIN | I64MAX | U64MAX | I64ABS | I64SSG | I64NEG | U64ADD | U64MUL | U64SHL
        | I64SHR | U64SHR | I64DIV | U64DIV | I64MOD | U64MOD => {
            "64-bit arithmetic (TGSI keeps 64-bit values in register pairs; this lifter does not)"
        }
        _ => "this opcode here",
    }
}
