//! `agxc-g13-isa`: the one description of the G13 (Apple M1 GPU) instructions, shared by the
//! backend (`agxc-backend-agx`, which emits them) and the simulator (`agxc-runtime-sim`, which
//! decodes, prints, runs and times them).
//!
//! # What it holds
//! Every table is keyed by [`Opcode`], one per instruction form:
//! - [`encoding`]: per form, its constant bits, its named fields (long and short forms: the
//!   `L` bit's length rule) as the ISA document's bit diagrams draw them. The simulator's decoder
//!   matches bytes against it and reads fields by name ([`encoding::decode_raw`],
//!   [`encoding::RawInst`]); the backend's encoder and the simulator's test assembler set fields
//!   by name ([`encoding::FieldWriter`]);
//! - [`ops`]: the sub-operation selectors of families that share one layout (float precision,
//!   `convert` modes and rounding, the bitfield and one-source float families, execution-mask
//!   stack operations, `bitop` truth tables), with their field codes and mnemonics: the backend's
//!   instruction type and the simulator's decoded form both use them;
//! - [`operands`]: the operand kinds (ALU destination, ALU source with its size limit) of the
//!   forms on the *generic path*, in assembly order: both consumers encode, decode, print,
//!   parse and scan the registers of those forms from this list alone;
//! - [`timing`]: latency, issue interval and issue class per form, read by the simulator's timing
//!   model and statistics, the backend's scheduler and the extraction cost model;
//! - [`semantics`]: the model of the target-only operations (`sin_pt_1`, `sin_pt_2`,
//!   `rsqrt_special`), evaluated by the backend's constant folder, interpreter hooks and rule
//!   checker and executed by the simulator.
//!
//! Adding an instruction whose operands are of the kinds [`operands`] describes: an [`Opcode`]
//! variant with its name, an encoding entry, a timing row and its operand list (the compiler
//! makes the `match`es exhaustive; this crate's tests check that the lists name fields of their
//! entries); then its semantics (the simulator's `exec/table.rs`, one function of a lane's
//! source values) and its selection (the backend's instruction selection emits `Instr::Alu`
//! with the new opcode). Nothing else changes in either consumer. An instruction with operands
//! of a kind not described yet (memory, texture, control, float modifiers) also needs that
//! kind here and its handling in the backend's `isa` module and the simulator's decoder, or a
//! typed form on both sides as the existing families have.
//!
//! # Where it sits
//! Nested under `runtime-sim/` because the simulator is the crate that models the machine and
//! these facts are the machine's; a workspace member of its own so that the backend can depend
//! on the description without depending on the simulator (`cargo tree -p agxc-backend-agx -e
//! normal` shows this crate and no simulator). It has no dependencies and knows neither
//! consumer's types.
//!
//! # What it does not share
//! The simulator stays an independent check of the backend through what this crate does not
//! hold: the hand-derived `(instruction, bytes, assembly)` triples of the encoder's tests and the
//! simulator's golden vectors, worked out from the ISA document's bit diagrams, not generated
//! from these tables. A wrong field position here fails them.

// `#[macro_use]`: the families' bit-diagram macros, which the instruction list instantiates.
#[macro_use]
pub mod encoding;
pub mod opcode;
pub mod operands;
pub mod ops;
pub mod semantics;
pub mod timing;

pub use opcode::Opcode;
