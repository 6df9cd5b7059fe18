//! `agxc asm`: G13 assembly text to raw machine code, through the backend's assembler
//! ([`agxc::backend_agx::isa::assemble`]) and encoder.

use std::io::Write;
use std::path::Path;

use super::run::{read, CliError};

/// `agxc asm SOURCE [-o OUT]`: writes the machine code to `OUT` or standard output.
pub fn asm_cmd(source: &Path, output: Option<&Path>) -> Result<(), CliError> {
    let bytes = read(source)?;
    let text = String::from_utf8(bytes).map_err(|e| CliError::Assemble {
        path: source.to_path_buf(),
        error: agxc::backend_agx::isa::AsmError {
            line: 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            column: 1,
            message: "the file is not UTF-8 text".into(),
        },
    })?;
    let assembled =
        agxc::backend_agx::isa::assemble(&text).map_err(|error| CliError::Assemble {
            path: source.to_path_buf(),
            error,
        })?;
    match output {
        Some(path) => std::fs::write(path, &assembled.code)?,
        None => std::io::stdout().write_all(&assembled.code)?,
    }
    Ok(())
}
