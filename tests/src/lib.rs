//! Cross-crate tests for agxc: corpora, equivalence properties and oracle comparisons.
