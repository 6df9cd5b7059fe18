//! Random well-formed functions for property tests.
//!
//! A [`Recipe`] is a small program in a shrinkable form: a list of [`Stmt`]s (pure operations
//! from the operation table, constants, loads and stores, nested `if`/`else`, bounded loops,
//! early exits) whose operands are *picks*, not values. [`Recipe::lower`] builds the
//! [`Function`] with the [`Builder`](super::Builder), resolving each pick modulo the values of
//! the needed type in scope (a constant when there is none), so every recipe, including every
//! shrunk one, lowers to a function that verifies. The text round-trip property, the
//! optimizer's equivalence tests (optimized vs unoptimized) and the backend's (compiled and
//! simulated vs interpreted) all draw their programs from here.
//!
//! Compiled with `cfg(test)` or the `arbitrary` feature (which brings in `quickcheck`).
//!
//! # What the programs compute and the buffers they need
//! Every program is a compute shader (`local_size` from [`Config::local_size`]) that reads
//! `gid = global_id.x` and otherwise depends only on its buffers:
//!
//! - **Input**: storage buffer [`INPUT`] = `(0, 0)`, [`INPUT_BYTES`] bytes, only read. All
//!   invocations share it. Loads read 1 to 8 bytes, aligned to the scalar's size, either in the
//!   invocation's window of [`WINDOW`] 32-bit words starting at byte `8 * (gid % 27)`, or at a
//!   position an i32 value `x` selects: word `x % 63` (byte `8 * (x % 31)` for 8-byte scalars)
//!   ("gathers"). Everything is little-endian; a 16-bit load reads the low-addressed half of a
//!   word.
//! - **Uniform**: uniform buffer [`UNIFORM`] = `(0, 3)`, the input's bytes again, read at
//!   constant offsets ([`Addr::Uniform`]).
//! - **Constant data**: a program that reads a table ([`Addr::Table`]) carries
//!   [`table_bytes`] as its `constant_data`, read at an offset an i32 value selects, as the
//!   SPIR-V front end reads a large constant array.
//! - **Private**: a program that loads or stores private memory ([`Addr::Private`],
//!   [`Stmt::PrivateStore`]) declares [`PRIVATE_BYTES`] of it per invocation, as the front end
//!   places a dynamically indexed local array. Accesses go to a word (an 8-byte unit for
//!   8-byte scalars) an i32 value selects, or to one at a constant offset ([`PrivateAt`]),
//!   both among the same `PRIVATE_BYTES / 4 - 1` words, so loads read what an earlier store
//!   left there, a mix of several stores, or bytes never written (undefined in the IR: the
//!   equivalence checks compare no value that depends on them); a value may
//!   come back as another type of the same or a different size (a 16-bit store writes the
//!   low-addressed half of its word).
//! - **Output**: storage buffer [`OUTPUT`] = `(0, 1)`, only written. Invocation `gid` owns the
//!   [`OUTPUT_SLOTS`] slots of [`SLOT_BYTES`] bytes starting at byte `gid * INVOCATION_BYTES`
//!   and writes nowhere else, so invocations never race. A store writes one or more
//!   consecutive scalars at the start of a slot (bytes it does not write keep the buffer's
//!   initial contents). Slots below [`RECIPE_SLOTS`] are written by the recipe's stores; the
//!   [`SINK_SLOTS`] after them receive, at the end of each body (a loop body, a switch case,
//!   an `if` arm with more than operations and constants in it, the function), the values its
//!   statements computed that nothing uses, one per slot in lowering order while slots
//!   remain; at the end, the program stores the most recent value of each type (bools as i32
//!   0/1) in the epilogue slots, in the order of [`EPILOGUE_TYPES`]. A program may `return` early and then
//!   skips the epilogue.
//!
//! - **Texture** (only with [`Config::textures`]): a combined image-sampler at [`TEXTURE`] =
//!   `(0, 2)`, built by [`texture`] and [`sampler`]: 2D, RGBA32F, [`TEXTURE_SIZE`] texels
//!   square with its full mip chain ([`TEXTURE_LEVELS`] levels), texel `(x, y)` of level `l`
//!   holding component `c` = `((5x + 3y + 7l + 2c) mod 16) / 8 - 0.75` (exact in binary; so
//!   values in `[-0.75, 1.125]`, some negative); linear minification and magnification, linear
//!   mipmapping, wrap repeat on u, mirrored repeat on v. Programs sample it with an explicit
//!   LOD (two f32 coordinates and a LOD from the values in scope, unchanged: special values
//!   included) and fetch texels from it (two i32 coordinates reduced modulo 10 and a level
//!   modulo 5, all unsigned, so fetches are sometimes out of range and read zeros). Each gives
//!   four f32 results.
//!
//! A harness dispatches N invocations along x (any N that is a multiple of the local size),
//! binds an input buffer of [`INPUT_BYTES`] bytes (see [`InputBuffer`] for random contents
//! rich in special values), a zero-filled output buffer of `N * INVOCATION_BYTES` bytes and,
//! if the configuration uses it, the texture; and compares the output buffers.
//! [`bind_resources`] binds all of them for the reference interpreter.
//!
//! Loops run at most [`Config::max_trips`] iterations each (a counter that every path back
//! to the top increments), so programs always terminate; every operation in the table is total,
//! so every program is defined for every input.
//!
//! # Using a restricted configuration
//! `Recipe`'s `Arbitrary` uses [`Config::default`]. For another configuration, wrap it:
//!
//! ```
//! use agxc_egraph::ir::arbitrary::{Config, Recipe};
//! use quickcheck::{Arbitrary, Gen};
//!
//! #[derive(Clone, Debug)]
//! struct NoLoops(Recipe);
//!
//! impl Arbitrary for NoLoops {
//!     fn arbitrary(g: &mut Gen) -> Self {
//!         NoLoops(Recipe::generate(g, &Config { loops: false, ..Config::default() }))
//!     }
//!     fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
//!         Box::new(self.0.shrink().map(NoLoops))
//!     }
//! }
//!
//! let recipe = NoLoops::arbitrary(&mut Gen::new(10)).0;
//! agxc_egraph::ir::verify(&recipe.lower()).unwrap();
//! ```

mod generate;
mod inputs;
mod lower;
mod shrink;
#[cfg(test)]
mod tests;
mod texture;

pub use inputs::InputBuffer;
pub use texture::{bind_resources, sampler, texel, texture, TEXTURE, TEXTURE_LEVELS, TEXTURE_SIZE};

use super::constant::Const;
use super::effects::Binding;
use super::function::Function;
use super::ops::PureOp;
use super::signature::{Class, Signature};
use super::types::Type;
use core::fmt;
use quickcheck::{Arbitrary, Gen};

/// The input buffer's binding.
pub const INPUT: Binding = Binding { set: 0, binding: 0 };
/// The input buffer's size in bytes.
pub const INPUT_BYTES: u32 = 256;
/// Number of 32-bit words in the load window.
pub const WINDOW: u32 = 8;
/// A uniform buffer holding the same bytes as the input ([`INPUT_BYTES`] of them).
pub const UNIFORM: Binding = Binding { set: 0, binding: 3 };
/// Bytes of constant data a program reading a table carries ([`table_bytes`]).
pub const TABLE_BYTES: u32 = 128;

/// The constant data of a program that reads a table: float specials (NaN, infinities,
/// signed zeros, a denormal, extremes) among ordinary floats and integer patterns.
pub fn table_bytes() -> Vec<u8> {
    const SPECIAL: [u32; 8] = [
        0x7fc0_0000,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x7f7f_ffff,
        0x3f80_0000,
        0xbfc0_0000,
        0xffff_ffff,
    ];
    (0..TABLE_BYTES / 4)
        .flat_map(|k| {
            let w = if k % 4 == 3 {
                SPECIAL[(k / 4) as usize % SPECIAL.len()]
            } else {
                k.wrapping_mul(0x9e37_79b9).rotate_left(k % 32)
            };
            w.to_le_bytes()
        })
        .collect()
}

/// Bytes of private memory a program that accesses it declares: 16 words, few enough that
/// stores and loads often meet.
pub const PRIVATE_BYTES: u32 = 64;

/// The output buffer's binding.
pub const OUTPUT: Binding = Binding { set: 0, binding: 1 };
/// Bytes per output slot (room for one i64 or two 32-bit scalars).
pub const SLOT_BYTES: u32 = 8;
/// Output slots per invocation: [`RECIPE_SLOTS`] for the recipe's stores, [`SINK_SLOTS`] for
/// the sinks, then one per epilogue type.
pub const OUTPUT_SLOTS: u32 = RECIPE_SLOTS + SINK_SLOTS + EPILOGUE_TYPES.len() as u32;
/// Slots the recipe's own stores write (slot numbers are taken modulo this).
pub const RECIPE_SLOTS: u32 = 10;
/// The first sink slot.
pub const SINK_SLOT: u32 = RECIPE_SLOTS;
/// Sink slots: at the end of each body, values computed there and used by nothing are stored
/// in the next free one (until they run out). Operands are picked uniformly from everything in
/// scope, so without sinks most computed values would be dead and a wrong rewrite of them could
/// never change an output (with sinks, about ten times more random programs expose a planted
/// wrong rule).
pub const SINK_SLOTS: u32 = 24;
/// Output bytes per invocation.
pub const INVOCATION_BYTES: u32 = SLOT_BYTES * OUTPUT_SLOTS;
/// The first epilogue slot.
pub const EPILOGUE_SLOT: u32 = SINK_SLOT + SINK_SLOTS;
/// The types the epilogue stores, one slot each, from [`EPILOGUE_SLOT`] on.
pub const EPILOGUE_TYPES: [Type; 6] = [
    Type::F32,
    Type::I32,
    Type::F16,
    Type::I16,
    Type::I64,
    Type::Bool,
];

/// A family of pure operations, derived from each table entry's signature.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Family {
    /// Float unary, binary and ternary operations (`fadd` ... `pow`).
    FloatArith,
    /// Integer unary, binary and ternary operations (`iadd` ... `bitrev`).
    IntArith,
    /// Bitwise logic on integers and bools, and bitfield insert/extract.
    Bitwise,
    /// Comparisons.
    Compare,
    /// Conversions.
    Convert,
    /// `select`.
    Select,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 6] = [
        Family::FloatArith,
        Family::IntArith,
        Family::Bitwise,
        Family::Compare,
        Family::Convert,
        Family::Select,
    ];

    /// The family of a table operation.
    pub fn of(op: PureOp) -> Family {
        match op.signature() {
            Signature::Compare(_) => Family::Compare,
            Signature::Convert { .. } => Family::Convert,
            Signature::Select | Signature::CompareSelect { .. } => Family::Select,
            Signature::BitfieldInsert | Signature::BitfieldExtract => Family::Bitwise,
            Signature::Unary(c) | Signature::Binary(c) | Signature::Ternary(c) => match c {
                Class::Float => Family::FloatArith,
                Class::Int => Family::IntArith,
                Class::IntOrBool | Class::Numeric | Class::Any => Family::Bitwise,
            },
        }
    }
}

/// What a generator may produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Statements in the whole recipe, nested ones included (before shrinking).
    pub max_stmts: usize,
    /// Deepest nesting of `if` and `loop`.
    pub max_depth: usize,
    /// Operation families to draw from.
    pub families: Vec<Family>,
    /// Table operations never to use (say, ones a backend lacks).
    pub exclude: Vec<PureOp>,
    /// Use `f16`.
    pub f16: bool,
    /// Use `i16`.
    pub i16: bool,
    /// Use `i64`.
    pub i64: bool,
    /// Generate `if`/`else`.
    pub ifs: bool,
    /// Generate loops.
    pub loops: bool,
    /// The most iterations a loop runs (each loop's count is between 0 and this).
    pub max_trips: u8,
    /// Generate loads and stores in the body (the epilogue's stores are always there).
    pub memory: bool,
    /// Generate early exits: `break` and `continue` inside loops, `return` anywhere.
    pub exits: bool,
    /// Generate switches: one-trip loops of cases with fall-through, as the SPIR-V front end
    /// lifts `OpSwitch` (see [`Stmt::Switch`]); only with `loops`, since a switch is a loop in
    /// the IR.
    pub switches: bool,
    /// Generate explicit-LOD samples and texel fetches of the [`TEXTURE`] (off by default, so
    /// that default programs need only the two buffers).
    pub textures: bool,
    /// The workgroup size the functions declare.
    pub local_size: [u32; 3],
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_stmts: 24,
            max_depth: 3,
            families: Family::ALL.to_vec(),
            exclude: Vec::new(),
            f16: true,
            i16: true,
            i64: false,
            ifs: true,
            loops: true,
            max_trips: 4,
            memory: true,
            exits: true,
            switches: true,
            textures: false,
            local_size: [4, 1, 1],
        }
    }
}

impl Config {
    /// The value types programs use under this configuration.
    pub fn types(&self) -> Vec<Type> {
        let mut types = vec![Type::Bool, Type::I32, Type::F32];
        for (on, ty) in [
            (self.i16, Type::I16),
            (self.i64, Type::I64),
            (self.f16, Type::F16),
        ] {
            if on {
                types.push(ty);
            }
        }
        types
    }
}

/// An operand choice: resolved modulo the number of values of the needed type in scope, most
/// recent first (pick 0 is the latest such value).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pick(pub u16);

/// A branch condition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cond {
    /// A bool value in scope (comparisons of loaded data make it data-dependent).
    Value(Pick),
    /// Bit `n % 8` of the global id: divergent across neighbouring invocations.
    GidBit(u8),
}

/// Where a load reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Addr {
    /// Word `n % WINDOW` of the invocation's window.
    Window(u8),
    /// The word an i32 value selects (modulo the buffer's size).
    Gather(Pick),
    /// Word `n % 64` of the [`UNIFORM`] buffer, at a constant offset (a push range).
    Uniform(u8),
    /// The word of the function's constant data an i32 value `x` selects: word
    /// `x % (TABLE_BYTES / 4 - 1)` (8-byte unit `x % (TABLE_BYTES / 8 - 1)` for 8-byte
    /// scalars).
    Table(Pick),
    /// Word `2 * (x % 31) + n % 2` of the input, with the offset computed as
    /// `(2 * (x % 31) + n % 2) << 2`: a dynamic root plus a constant, as array-of-structure
    /// indexing produces (adjacent ones are vectorized).
    Strided(Pick, u8),
    /// The invocation's private memory ([`PRIVATE_BYTES`] of it), where [`PrivateAt`] says.
    Private(PrivateAt),
}

/// Where a private-memory access goes: a word of the first `PRIVATE_BYTES / 4 - 1` (the last
/// one is left out, so that a two-scalar access there stays inside), rounded down to 8 bytes
/// for 8-byte scalars.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PrivateAt {
    /// The word an i32 value `x` selects, `x % (PRIVATE_BYTES / 4 - 1)` (8-byte unit
    /// `x % (PRIVATE_BYTES / 8 - 1)` for 8-byte scalars), as a dynamically indexed array.
    Selected(Pick),
    /// Word `n % (PRIVATE_BYTES / 4 - 1)` at a constant offset, as a constant index.
    Fixed(u8),
}

/// How many times a loop runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trips {
    /// A constant count.
    Const(u8),
    /// `umin(x, max)` for an i32 value `x` in scope: data-dependent but bounded.
    Data(Pick, u8),
}

/// An early exit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ExitKind {
    /// Leave the innermost loop (ignored outside loops).
    Break,
    /// Next iteration of the innermost loop (ignored outside loops).
    Continue,
    /// End the invocation.
    Return,
}

/// One statement of a recipe.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Stmt {
    /// A table operation. `ty` is its type parameter (the operand type of comparisons and
    /// conversions, the operated-on type otherwise); `to` is a conversion's result type.
    /// Lowering skips combinations the signature rejects.
    Op {
        /// The operation.
        op: PureOp,
        /// Type parameter.
        ty: Type,
        /// Conversion result type (ignored by other operations).
        to: Type,
        /// Operand picks, as many as the operation takes.
        args: [Pick; 4],
    },
    /// A constant.
    Const(Const),
    /// A load of `count` consecutive scalars (at most 8 bytes) from the input buffer, the
    /// uniform buffer, the constant table or private memory, as `addr` says.
    Load {
        /// Scalar type (bools load as i32).
        ty: Type,
        /// How many.
        count: u8,
        /// Where.
        addr: Addr,
    },
    /// A store of `count` consecutive values (at most 8 bytes) to a body slot.
    Store {
        /// Slot (modulo the body slots).
        slot: u8,
        /// Type (bools store as i32 0/1).
        ty: Type,
        /// How many.
        count: u8,
        /// The first value; the others are the next picks.
        value: Pick,
    },
    /// `if`/`else` yielding one result per entry of `results` (type, then-arm pick, else-arm
    /// pick).
    If {
        /// Condition.
        cond: Cond,
        /// Then arm.
        then_body: Vec<Stmt>,
        /// Else arm.
        else_body: Vec<Stmt>,
        /// Results.
        results: Vec<(Type, Pick, Pick)>,
    },
    /// A counted loop carrying one value per entry of `carried` (type, initial pick, next
    /// pick); its results are the carried values when it ends.
    Loop {
        /// Iteration count.
        trips: Trips,
        /// Loop-carried values.
        carried: Vec<(Type, Pick, Pick)>,
        /// Body.
        body: Vec<Stmt>,
    },
    /// An explicit-LOD sample of the [`TEXTURE`]: two f32 coordinates and the LOD; four f32
    /// results.
    Sample {
        /// s and t.
        coords: [Pick; 2],
        /// The level of detail.
        lod: Pick,
    },
    /// A texel fetch from the [`TEXTURE`]: two i32 coordinates (unsigned, modulo 10) and a level
    /// (modulo 5); four f32 results (zeros out of range).
    Fetch {
        /// x and y.
        coords: [Pick; 2],
        /// The mip level.
        level: Pick,
    },
    /// A switch on an i32 value modulo 8, in the shape the SPIR-V front end lifts `OpSwitch`
    /// to: a loop that runs once, holding one `if` per case, each tested by its literal or, when
    /// the case before falls through into it, by that case's test too; with `default`, the last
    /// case runs for every lane still there. A case that does not fall through leaves with its
    /// values; an `Exit` `break` inside a case leaves the switch (a `continue` there is
    /// dropped); lanes no case took leave with the values the switch started with.
    Switch {
        /// The selector.
        selector: Pick,
        /// The cases in order.
        cases: Vec<Case>,
        /// The last case is the default (it takes every lane still in the switch).
        default: bool,
        /// The values the switch carries (type, initial pick); its results.
        results: Vec<(Type, Pick)>,
    },
    /// `if cond { break/continue/return } else {}`; a `break` passes the carried values
    /// `values`, `values + 1`, ...
    Exit {
        /// Which exit.
        kind: ExitKind,
        /// When.
        cond: Cond,
        /// First pick of the values passed.
        values: Pick,
    },
    /// A store of `count` consecutive values (at most 8 bytes) to private memory.
    PrivateStore {
        /// Where.
        at: PrivateAt,
        /// Type (bools store as i32 0/1).
        ty: Type,
        /// How many.
        count: u8,
        /// The first value; the others are the next picks.
        value: Pick,
    },
}

/// A case of a [`Stmt::Switch`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Case {
    /// Its literal (modulo 8).
    pub literal: u8,
    /// Its statements.
    pub body: Vec<Stmt>,
    /// It falls through into the next case (else it leaves the switch).
    pub falls: bool,
    /// The first pick of the values it passes on (to the next case or out of the switch).
    pub values: Pick,
}

/// A random program; see the [module docs](self).
#[derive(Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The body.
    pub stmts: Vec<Stmt>,
    /// The workgroup size the function declares.
    pub local_size: [u32; 3],
}

impl Recipe {
    /// A random recipe under `config`.
    pub fn generate(g: &mut Gen, config: &Config) -> Recipe {
        generate::recipe(g, config)
    }

    /// The function this recipe describes (always well formed).
    pub fn lower(&self) -> Function {
        lower::lower(self)
    }

    /// How many instructions the statements lower to: the function's instructions but the
    /// fixed prelude, the epilogue's stores and the final `return` (a counterexample's size).
    pub fn body_insts(&self) -> usize {
        lower::lower_counting(self).1
    }

    /// Smaller recipes, most aggressive first: fewer statements, compound statements replaced
    /// by their bodies, smaller picks, counts and constants.
    pub fn shrink(&self) -> Box<dyn Iterator<Item = Recipe>> {
        let local_size = self.local_size;
        Box::new(
            shrink::stmts(&self.stmts)
                .into_iter()
                .map(move |stmts| Recipe { stmts, local_size }),
        )
    }

    /// The number of statements, nested ones included.
    pub fn size(&self) -> usize {
        shrink::size(&self.stmts)
    }
}

impl Arbitrary for Recipe {
    fn arbitrary(g: &mut Gen) -> Recipe {
        Recipe::generate(g, &Config::default())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Recipe>> {
        Recipe::shrink(self)
    }
}

/// Prints the lowered function's text form, which is what a failing property should show (it
/// parses back with [`parse_function`](super::parse_function)).
impl fmt::Debug for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Recipe lowering to:\n{}", self.lower())
    }
}
