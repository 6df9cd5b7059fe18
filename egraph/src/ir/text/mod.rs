//! The IR text form: a printer (`Display` for [`Function`](crate::ir::Function), with
//! [`FunctionDisplay`] for annotated dumps) and a parser ([`parse_function`]) that round-trip.
//!
//! ```text
//! function @main compute local_size(64, 1, 1) {
//! block0:
//!     v0:i32 = builtin global_id.x
//!     v1:f32 = load storage(0, 0) [v0 + 16]
//!     v2:bool = fgt v1, v1
//!     v3:f32 = if v2 {
//!     block1:
//!         yield v1
//!     } else {
//!     block2:
//!         v4:f32 = fneg.nocontract v1
//!         yield v4
//!     }
//!     return
//! }
//! ```
//!
//! One instruction per line: results with their types, the mnemonic (an operation's table name,
//! with `.nocontract`/`.relaxed` flag suffixes), attributes, operands. Structured instructions
//! open their blocks with `{`, separate them with `} else {` and close them with `}`. Entity
//! numbers are printed as they are and preserved by the parser, so verifier messages and dumps
//! name the same `v12` and `block3`. `;` starts a comment.
//!
//! So that every function prints, the form also has:
//! - a function name that is not an identifier prints as a quoted string (`@"a b"`, with `\"`,
//!   `\\`, `\n`, `\t` and `\u{..}` escapes);
//! - `local_size(..)` prints for a non-compute function too when it differs from the default,
//!   and `shared(N)` for any stage when N > 0, `push_constants(N)` (the push-constant block's
//!   size) when N > 0, and `constants(0xWORD, ...)` (the function's read-only data, as
//!   little-endian 32-bit words in hex) when it has any.
//!
//! Memory effects put the address in brackets after the space (`storage(S, B)`,
//! `uniform(S, B)`, `push`, `shared`, `constant`): `load SPACE [vA + OFF]`,
//! `store SPACE [vA + OFF], vX, ...`, and the atomics name their operation first:
//! `v5:i32 = atomic add storage(0, 1) [vA + 4], vX` or `atomic cmpxchg shared [vA], vCmp, vX`
//! ([`AtomicOp`](crate::ir::AtomicOp) names).
//!
//! Columns in [`ParseError`] count characters (a tab is one column).
//!
//! Pipeline position: front-end tests, the optimizer's dumps and the `agxc` command line read
//! and write IR in this form; the equivalence tests print failing cases in it.

mod error;
mod lex;
mod parse;
mod print;
pub(crate) mod syntax;

pub use error::{ParseError, ParseErrorKind};
pub use parse::{parse_function, MAX_ENTITY};
pub use print::{FunctionDisplay, InstDisplay};

#[cfg(test)]
mod tests;
