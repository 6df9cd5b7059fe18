//! Value kinds: TGSI registers are untyped 32-bit slots; the IR types every value.
//!
//! An instruction reads each source as the type its opcode works on (Mesa's
//! `tgsi_opcode_infer_src_type`) and the lifter bit-casts where the register holds the other
//! type; results get the type their operation produces. `MOV`, `UCMP` and memory loads are
//! untyped: they pass values through without a cast.

use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::Type;

/// How an opcode's destination is typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// 32-bit float.
    Float,
    /// 32-bit integer (signed or unsigned: the IR's integers are signless).
    Int,
    /// Whatever the source held.
    Untyped,
}

impl Kind {
    /// The IR type a value of this kind gets when one has to be made up (a zero for a
    /// register read before any write).
    pub fn ty(self) -> Type {
        match self {
            Kind::Int => Type::I32,
            Kind::Float | Kind::Untyped => Type::F32,
        }
    }
}

/// The type an opcode writes (after Mesa's `tgsi_opcode_infer_dst_type`).
pub fn dst_kind(op: Opcode) -> Kind {
    use Opcode::*;
    match op {
        MOV | UCMP | LOAD => Kind::Untyped,
        NOT | SHL | AND | OR | XOR | TXQ | TXQS | F2U | UDIV | UMAD | UMAX | UMIN | UMOD | UMUL
        | USEQ | USGE | USHR | USLT | USNE | SVIEWINFO | UMUL_HI | UBFE | BFI | BREV | ARL
        | ARR | MOD | F2I | FSEQ | FSGE | FSLT | FSNE | IDIV | IMAX | IMIN | INEG | ISGE | ISHR
        | ISLT | UADD | UARL | IABS | ISSG | IMUL_HI | IBFE | IMSB | LSB | POPC | UMSB | SHR
        | SAD | PK2H | RESQ | READ_HELPER => Kind::Int,
        _ => Kind::Float,
    }
}
