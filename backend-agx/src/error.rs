//! The backend's error type: every way compiling a function for the G13 can fail, naming the
//! IR instruction or the machine instruction involved.

use agxc_egraph::ir::{Inst, VerifyErrors};
use thiserror::Error;

use crate::isa::EncodeError;

/// Why a function could not be compiled.
#[derive(Debug, Clone, Error)]
pub enum BackendError {
    /// The input does not verify.
    #[error("the input IR does not verify:\n{0}")]
    Verify(#[from] VerifyErrors),
    /// An IR instruction uses something the backend does not implement.
    #[error("{inst}: {what} is not supported by the G13 backend")]
    UnsupportedInst {
        /// The instruction.
        inst: Inst,
        /// What it needs.
        what: String,
    },
    /// A function-level feature the backend does not implement.
    #[error("{what} is not supported by the G13 backend")]
    Unsupported {
        /// What.
        what: String,
    },
    /// The ABI needs more uniform registers than exist.
    #[error("the shader needs {needed} 32-bit uniform registers; the G13 has 256")]
    TooManyUniforms {
        /// Uniforms needed.
        needed: u32,
    },
    /// More textures or samplers than slots.
    #[error("more than 256 {what}")]
    TooManyBindings {
        /// Which kind of binding.
        what: &'static str,
    },
    /// Spilling did not bring register pressure under the limit.
    #[error("register allocation failed: {reason}")]
    RegisterAllocation {
        /// Why.
        reason: String,
    },
    /// A machine instruction could not be encoded (a backend bug: isel and register
    /// allocation should only produce encodable instructions).
    #[error("machine instruction {index} (`{asm}`) cannot be encoded: {error}")]
    Encode {
        /// Position in the final instruction list.
        index: usize,
        /// The instruction's assembly text.
        asm: String,
        /// The encoder's error.
        #[source]
        error: EncodeError,
    },
    /// The code is larger than a jump can span.
    #[error("the program is too large ({bytes} bytes)")]
    TooLarge {
        /// Code size.
        bytes: usize,
    },
    /// An internal invariant failed (a backend bug), named by pass.
    #[error("internal error in {pass}: {what}")]
    Internal {
        /// The pass.
        pass: &'static str,
        /// What went wrong.
        what: String,
    },
}
