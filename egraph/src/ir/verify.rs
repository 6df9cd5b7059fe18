//! The IR verifier (being written).

use super::function::Function;

/// Verifier errors (placeholder; being written).
#[derive(Debug, thiserror::Error)]
#[error("verification failed")]
pub struct VerifyErrors;

/// Checks a function (placeholder; being written).
pub fn verify(_func: &Function) -> Result<(), VerifyErrors> {
    Ok(())
}
