//! The instruction list: one row per G13 instruction form (a form with its own bit diagram:
//! `mov_imm` has a 16- and a 32-bit form, `device_load` and `device_store` are two), holding
//! everything the description knows of it:
//!
//! ```text
//! Variant = "name", length rule, bit diagram, issue class(latency, interval), operand list;
//! ```
//!
//! - the name is the document's (the disassembler's mnemonic, except that it suffixes the float
//!   operations with their precision);
//! - the length rule and the bit diagram are the [`encoding`](crate::encoding) entry: the
//!   diagrams (constant bits, named fields) are written beside their families' in
//!   `encoding/table_*.rs`, as the document draws them, and a family's members differ by the
//!   sub-operation code passed to its diagram (`bit_unary!(0b000010)` is `popcount`);
//! - the issue class, latency and issue interval are the [`timing`](crate::timing) row;
//! - the operand list is [`operands`](crate::operands)' (`None`: the form keeps typed operands
//!   in both consumers).
//!
//! The rows are in match priority order too: the decoder tries them in this order.

use crate::encoding::table_alu::*;
use crate::encoding::table_atomic::*;
use crate::encoding::table_control::*;
use crate::encoding::table_memory::*;
use crate::encoding::*;
use crate::operands::{Operand, DST_A};
use crate::timing::{
    Cost, InstClass, DEVICE_LOAD_LATENCY, STACK_LATENCY, TEXTURE_LATENCY, THREADGROUP_LATENCY,
};
use core::fmt;

/// Builds [`Opcode`], its per-form accessors and the encoding table from the rows.
macro_rules! instructions {
    ($(
        $op:ident = $name:literal, $len:expr, $bits:expr, $class:ident($lat:expr, $int:expr),
        $operands:expr;
    )*) => {
        /// Every G13 instruction form, one per row of the list (the simulator decodes them all;
        /// the backend emits most of them).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)] // the variants are the document's instruction names
        pub enum Opcode { $($op,)* }

        impl Opcode {
            /// The document's name for the instruction (the disassembler's mnemonic, except
            /// for the float operations, which it suffixes with their precision).
            pub const fn name(self) -> &'static str {
                match self { $(Opcode::$op => $name,)* }
            }

            /// The issue class and cost in the simulator's timing model (the row's).
            pub const fn timing(self) -> (InstClass, Cost) {
                match self {
                    $(Opcode::$op => (InstClass::$class, Cost { latency: $lat, interval: $int }),)*
                }
            }

            /// The operand list of a form on the generic path (the row's).
            pub const fn operands(self) -> Option<&'static [Operand]> {
                match self { $(Opcode::$op => $operands,)* }
            }
        }

        /// The encoding entries, indexed by [`Opcode`] (rows and variants are in one order).
        pub(crate) static ENCODINGS: &[Encoding] = &[$(enc(Opcode::$op, $len, $bits),)*];
    };
}

instructions! {
    // Moves and integer arithmetic ("Move Instructions", "Integer Arithmetic Instructions").
    MovImm16 = "mov_imm", L4_6, MOV16, Move(2, 1), None;
    MovImm32 = "mov_imm", L6_8, MOV32, Move(2, 1), None;
    GetSr = "get_sr", FIXED4, GET_SR, Move(2, 1), None;
    Iadd = "iadd", FIXED8, IADD, IntArith(2, 1), None;
    Imadd = "imadd", FIXED8, IMADD, IntArith(3, 2), None;
    Convert = "convert", FIXED6, CONVERT, Convert(3, 2), None;

    // Bit manipulation, shifts and bitfields ("Shift/Bitfield Instructions", "Bit Manipulation
    // Instructions").
    Bitrev = "bitrev", FIXED6, bit_unary!(0b000001), Bitwise(2, 1), Some(DST_A);
    Popcount = "popcount", FIXED6, bit_unary!(0b000010), Bitwise(2, 1), Some(DST_A);
    Ffs = "ffs", FIXED6, bit_unary!(0b000011), Bitwise(2, 1), Some(DST_A);
    Bfi = "bfi", FIXED8, bitfield!(0, 0b00), Bitwise(2, 1), None;
    Bfeil = "bfeil", FIXED8, bitfield!(1, 0b00), Bitwise(2, 1), None;
    Extr = "extr", FIXED8, bitfield!(0, 0b01), Bitwise(2, 1), None;
    Shlhi = "shlhi", FIXED8, bitfield!(0, 0b10), Bitwise(2, 1), None;
    Shrhi = "shrhi", FIXED8, bitfield!(1, 0b10), Bitwise(2, 1), None;
    Asr = "asr", FIXED8, asr!(0b01), Bitwise(2, 1), None;
    Asrh = "asrh", FIXED8, asr!(0b11), Bitwise(2, 1), None;
    Bitop = "bitop", FIXED6, BITOP, Bitwise(2, 1), None;

    // Float arithmetic and the one-source float family ("Floating-Point Instructions").
    Fmadd = "fmadd32", L6_8, FMADD, FloatArith(2, 1), None;
    Fmadd16 = "fmadd16", L6_8, FMADD16, FloatArith(2, 1), None;
    Fadd = "fadd32", FIXED6, fbin32!(0b101010), FloatArith(2, 1), None;
    Fadd16 = "fadd16", FIXED6, fbin16!(0b100110), FloatArith(2, 1), None;
    Fmul = "fmul32", FIXED6, fbin32!(0b011010), FloatArith(2, 1), None;
    Fmul16 = "fmul16", FIXED6, fbin16!(0b010110), FloatArith(2, 1), None;
    Floor = "floor", L4_6, funary!(0b0000, 0), Round(3, 2), None;
    Ceil = "ceil", L4_6, funary!(0b0000, 1), Round(3, 2), None;
    Trunc = "trunc", L4_6, funary!(0b0000, 2), Round(3, 2), None;
    Rint = "rint", L4_6, funary!(0b0000, 3), Round(3, 2), None;
    Rcp = "rcp", L4_6, funary!(0b1000, 0), Transcendental(5, 3), None;
    Rsqrt = "rsqrt", L4_6, funary!(0b1001, 0), Transcendental(6, 4), None;
    RsqrtSpecial = "rsqrt_special", L4_6, funary!(0b0001, 0), Transcendental(6, 4), None;
    SinPt1 = "sin_pt_1", L4_6, funary!(0b1010, 0), Transcendental(3, 2), None;
    SinPt2 = "sin_pt_2", L4_6, funary!(0b1110, 0), Transcendental(5, 2), None;
    Log2 = "log2", L4_6, funary!(0b1100, 0), Transcendental(5, 2), None;
    Exp2 = "exp2", L4_6, funary!(0b1101, 0), Transcendental(5, 2), None;
    Dfdx = "dfdx", L4_6, funary!(0b0100, 0), Derivative(3, 2), None;
    Dfdy = "dfdy", L4_6, funary!(0b0110, 0), Derivative(3, 2), None;

    // Flow control ("Flow Control Instructions").
    Ret = "ret", FIXED2, RET, ControlFlow(2, 1), None;
    Stop = "stop", FIXED2, STOP, ControlFlow(2, 1), None;
    Trap = "trap", FIXED2, TRAP, ControlFlow(2, 1), None;
    CallReg = "call", FIXED2, CALL_REG, ControlFlow(2, 1), None;
    CallImm = "call", FIXED6, CALL_IMM, ControlFlow(2, 1), None;
    JmpIncomplete = "jmp_incomplete", FIXED4, JMP_INCOMPLETE, ControlFlow(2, 1), None;
    JmpExecAny = "jmp_exec_any", FIXED6, JMP_EXEC_ANY, ControlFlow(2, 1), None;
    JmpExecNone = "jmp_exec_none", FIXED6, JMP_EXEC_NONE, ControlFlow(2, 1), None;

    // The execution-mask stack ("Execution Mask Stack Instructions").
    PopExec = "pop_exec", FIXED6, POP_EXEC, ExecMask(2, 1), None;
    IfIcmp = "if_icmp", FIXED6, icmp_stack!(0b00), ExecMask(2, 1), None;
    IfFcmp = "if_fcmp", FIXED6, fcmp_stack!(0b00), ExecMask(2, 1), None;
    WhileIcmp = "while_icmp", FIXED6, icmp_stack!(0b10), ExecMask(2, 1), None;
    WhileFcmp = "while_fcmp", FIXED6, fcmp_stack!(0b10), ExecMask(2, 1), None;
    ElseIcmp = "else_icmp", FIXED6, icmp_stack!(0b01), ExecMask(2, 1), None;
    ElseFcmp = "else_fcmp", FIXED6, fcmp_stack!(0b01), ExecMask(2, 1), None;

    // Selects, ballots and shuffles ("Select Instructions", "SIMD Group and Quad Group
    // Instructions").
    Icmpsel = "icmpsel", L8_10, ICMPSEL, Select(2, 1), None;
    Fcmpsel = "fcmpsel", L8_10, FCMPSEL, Select(2, 1), None;
    IcmpBallot = "icmp_ballot", FIXED8, ICMP_BALLOT, SimdGroup(3, 2), None;
    IcmpQuadBallot = "icmp_quad_ballot", FIXED8, ICMP_QUAD_BALLOT, SimdGroup(3, 2), None;
    FcmpBallot = "fcmp_ballot", FIXED8, FCMP_BALLOT, SimdGroup(3, 2), None;
    FcmpQuadBallot = "fcmp_quad_ballot", FIXED8, FCMP_QUAD_BALLOT, SimdGroup(3, 2), None;
    SimdShuffle = "simd_shuffle", FIXED6, SHUFFLE, SimdGroup(3, 2), None;
    SimdShuffleDown = "simd_shuffle_down", FIXED6, SHUFFLE_DOWN, SimdGroup(3, 2), None;

    // Synchronisation, memory, stack, fragment I/O and textures ("Memory and Stack Instructions";
    // `sample_mask` is not in the document). `uniform_store` must come before `device_store`: it
    // shadows a `device_store` form (`encoding::table_memory`).
    Wait = "wait", FIXED2, WAIT, Wait(1, 1), None;
    LdTile = "ld_tile", FIXED8, tile!(1), Tile(2, 1), None;
    StTile = "st_tile", FIXED8, tile!(0), Tile(2, 1), None;
    LdVar = "ld_var", L4_8, LD_VAR, Varying(3, 1), None;
    UniformStore = "uniform_store", L47_6_8, UNIFORM_STORE, UniformStore(1, 1), None;
    DeviceLoad = "device_load", L47_6_8, device!(0b0000101),
        DeviceLoad(DEVICE_LOAD_LATENCY, 1), None;
    DeviceStore = "device_store", L47_6_8, device!(0b1000101), DeviceStore(1, 1), None;
    StackStore = "stack_store", L47_6_8, stack!(0b10110101), Stack(STACK_LATENCY, 1), None;
    StackLoad = "stack_load", L47_6_8, stack!(0b00110101), Stack(STACK_LATENCY, 1), None;
    StackGetPtr = "stack_get_ptr", FIXED8, STACK_GET_PTR, Stack(STACK_LATENCY, 1), None;
    StackAdjust = "stack_adjust", L47_6_8, STACK_ADJUST, Stack(STACK_LATENCY, 1), None;
    ThreadgroupLoad = "threadgroup_load", L6_8, threadgroup!(0b11),
        Threadgroup(THREADGROUP_LATENCY, 1), None;
    ThreadgroupStore = "threadgroup_store", L6_8, threadgroup!(0b01),
        Threadgroup(THREADGROUP_LATENCY, 1), None;
    TextureSample = "texture_sample", L8_12, texture!(0b00110001),
        Texture(TEXTURE_LATENCY, 1), None;
    TextureLoad = "texture_load", L8_12, texture!(0b01110001), Texture(TEXTURE_LATENCY, 1), None;
    ImageWrite = "image_write", L6_8, IMAGE_WRITE, DeviceStore(1, 1), None;
    ThreadgroupBarrier = "threadgroup_barrier", FIXED2, BARRIER, Barrier(1, 1), None;
    SampleMask = "sample_mask", FIXED4, SAMPLE_MASK, Tile(2, 1), None;

    // Atomics (not in the document; Mesa's layouts, `encoding::table_atomic`). They count with the
    // loads of their memory: a device atomic returns on a wait slot after a device load's
    // latency, a local atomic after a threadgroup access's.
    Atomic = "atomic", FIXED8, ATOMIC, DeviceLoad(DEVICE_LOAD_LATENCY, 1), None;
    LocalAtomic = "local_atomic", FIXED10, LOCAL_ATOMIC, Threadgroup(THREADGROUP_LATENCY, 1), None;
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
