//! Front ends (placeholder until the SPIR-V and TGSI issues land).
