//! Size limits of the TGSI front end. Each keeps a hostile or broken input from exhausting
//! memory or time; real shaders stay far below all of them.

/// Lines after the header (Mesa's own parser stops at a few hundred thousand tokens).
pub const MAX_STATEMENTS: usize = 200_000;

/// Registers per tracked file (TEMP, IN, OUT, ADDR, SV); softpipe has 4096 temporaries.
pub const MAX_REGISTERS: u32 = 4096;

/// Constant-buffer registers per buffer (16 bytes each: a 1 MiB buffer).
pub const MAX_CONST_REGISTERS: u32 = 65_536;

/// Constant buffers, sampler units, storage buffers and memory regions per kind.
pub const MAX_RESOURCE_INDEX: u32 = 1024;

/// Nesting of IF and loop constructs, counting inlined subroutines (the IR verifier accepts
/// 256 levels; subroutine wrappers add one each).
pub const MAX_NESTING: usize = 128;

/// Depth of nested subroutine calls that are inlined.
pub const MAX_CALL_DEPTH: usize = 16;

/// Statements in the structured program after inlining every call.
pub const MAX_TREE_STATEMENTS: usize = 1_000_000;

/// Register components times structured constructs: the size of the liveness tables.
pub const MAX_LIVENESS_BITS: usize = 1 << 28;

/// IR instructions the lifter may create (indirect addressing lowered to selects grows with
/// the array size).
pub const MAX_IR_INSTRUCTIONS: usize = 4_000_000;

/// Workgroup-shared memory in bytes when the shader declares `MEMORY[n], SHARED` and the
/// options do not give a size (TGSI text does not carry one; this is the minimum
/// `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE`).
pub const DEFAULT_SHARED_MEMORY: u32 = 32_768;
