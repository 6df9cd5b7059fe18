//! An AmberScript runner: Vulkan CTS-style test scripts (google/amber's format, specified in
//! its `docs/amber_script.md`) compiled by agxc and run in the G13 simulator.
//!
//! Supported subset (anything else is an error naming its line, never skipped):
//! - `#!amber` first line; `#` comments;
//! - `SHADER vertex|fragment|compute NAME PASSTHROUGH|GLSL|SPIRV-ASM|SPIRV-HEX [TARGET_ENV e]`
//!   (GLSL through `glslangValidator`, assembly through `spirv-as`);
//! - `BUFFER NAME DATA_TYPE t|FORMAT f [STD140|STD430]` with `DATA ... END`,
//!   `SIZE n FILL v` or `SIZE n SERIES_FROM a INC_BY d` (see [`format`] for the layouts);
//! - `PIPELINE compute|graphics NAME ... END` with `ATTACH s [ENTRY_POINT e]`,
//!   `BIND BUFFER b AS storage|uniform DESCRIPTOR_SET s BINDING n`, `AS push_constant`,
//!   `AS color LOCATION n`, `FRAMEBUFFER_SIZE w h` (default 250x250);
//! - `CLEAR_COLOR p r g b a` (0..=255), `CLEAR p`, `RUN p x y z`,
//!   `RUN p DRAW_RECT POS x y SIZE w h` (with the PASSTHROUGH vertex shader: the fragment
//!   shader covers the pixels whose centres are in the rectangle), `REPEAT n ... END`;
//! - `EXPECT b IDX x y [SIZE w h] EQ_RGB|EQ_RGBA ... [TOLERANCE t...]`,
//!   `EXPECT b IDX n [TOLERANCE t...] EQ|NE|LT|LE|GT|GE values`, `EXPECT a EQ_BUFFER b`,
//!   `EXPECT a RMSE_BUFFER b TOLERANCE t`;
//! - `DEVICE_FEATURE`, `DEVICE_EXTENSION`, `INSTANCE_EXTENSION`: accepted only for what agxc
//!   implements (see [`parse`]), refused otherwise.
//!
//! A script stops at its first failing `EXPECT`.

pub mod exec;
pub mod expect;
pub mod format;
pub mod parse;
pub mod shader;

use crate::OptLevel;

/// How a script ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every expectation held.
    Pass,
    /// An expectation failed.
    Fail {
        /// Its 1-based line.
        line: usize,
        /// Its text.
        expect: String,
        /// What differed.
        reason: String,
    },
    /// The script could not be parsed or run.
    Error {
        /// The 1-based line at fault.
        line: usize,
        /// Why.
        message: String,
    },
}

/// Runs a script's text, compiling its shaders at `opt`.
pub fn run_script(text: &str, opt: OptLevel) -> Outcome {
    let cmds = match parse::parse(text) {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Error {
                line: e.line,
                message: e.message,
            }
        }
    };
    let mut runner = exec::Runner::new(opt);
    match runner.run(&cmds) {
        Ok(Some(out)) => out,
        Ok(None) => Outcome::Pass,
        Err((line, message)) => Outcome::Error { line, message },
    }
}

/// One line for a script's outcome: `PASS file`, `FAIL file:LINE: EXPECT ...: why` or
/// `ERROR file:LINE: why`.
pub fn describe(file: &str, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass => format!("PASS {file}"),
        Outcome::Fail {
            line,
            expect,
            reason,
        } => format!("FAIL {file}:{line}: `{expect}`: {reason}"),
        // Line 0: the file itself (it could not be read).
        Outcome::Error { line: 0, message } => format!("ERROR {file}: {message}"),
        Outcome::Error { line, message } => format!("ERROR {file}:{line}: {message}"),
    }
}
