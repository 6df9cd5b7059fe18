//! Target-defined operations.
//!
//! A backend adds its own pure operations (the G13's `sin_pt_1`, say) without touching the IR: it
//! declares a `static` [`CustomOpDef`] with a name, signature and evaluation function, and hands the
//! definitions to the optimizer (as part of its target description) and to the text parser (as an
//! [`OpRegistry`]). The interpreter evaluates them through the definition, so an IR containing
//! target operations still runs on the reference interpreter.
//!
//! ```
//! use agxc_egraph::ir::{Class, Const, CustomOp, CustomOpDef, Signature, Type};
//!
//! fn eval_double(args: &[Const], _result: Type) -> Const {
//!     Const::f32(args[0].as_f32() * 2.0)
//! }
//!
//! static DOUBLE: CustomOpDef = CustomOpDef {
//!     name: "example.double",
//!     signature: Signature::Unary(Class::Float),
//!     eval: eval_double,
//!     doc: "x * 2, exactly",
//! };
//!
//! let op = CustomOp::new(&DOUBLE);
//! assert_eq!(op.eval(&[Const::f32(1.5)], Type::F32), Const::f32(3.0));
//! ```

use super::constant::Const;
use super::signature::Signature;
use super::types::Type;
use core::fmt;
use core::hash::{Hash, Hasher};

/// The definition of a target operation: the same facts the built-in table holds for its ops.
#[derive(Debug)]
pub struct CustomOpDef {
    /// Text-form name; must not clash with a built-in operation (convention: `target.op`).
    pub name: &'static str,
    /// Operand and result types.
    pub signature: Signature,
    /// Evaluation function (total, like the built-in ones).
    pub eval: fn(&[Const], Type) -> Const,
    /// One line saying what it computes.
    pub doc: &'static str,
}

/// A reference to a target operation's definition. Equality, ordering and hashing go by name.
#[derive(Clone, Copy, Debug)]
pub struct CustomOp(&'static CustomOpDef);

impl CustomOp {
    /// Wraps a definition.
    pub fn new(def: &'static CustomOpDef) -> CustomOp {
        CustomOp(def)
    }

    /// The definition.
    pub fn def(self) -> &'static CustomOpDef {
        self.0
    }

    /// The text-form name.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The signature.
    pub fn signature(self) -> Signature {
        self.0.signature
    }

    /// Evaluates the operation.
    pub fn eval(self, args: &[Const], result: Type) -> Const {
        (self.0.eval)(args, result)
    }
}

impl PartialEq for CustomOp {
    fn eq(&self, other: &CustomOp) -> bool {
        self.0.name == other.0.name
    }
}
impl Eq for CustomOp {}
impl Hash for CustomOp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.name.hash(state)
    }
}
impl PartialOrd for CustomOp {
    fn partial_cmp(&self, other: &CustomOp) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for CustomOp {
    fn cmp(&self, other: &CustomOp) -> core::cmp::Ordering {
        self.0.name.cmp(other.0.name)
    }
}
impl fmt::Display for CustomOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

/// The target operations a parser or optimizer knows about.
#[derive(Clone, Debug, Default)]
pub struct OpRegistry {
    ops: Vec<CustomOp>,
}

impl OpRegistry {
    /// An empty registry (built-in operations only).
    pub fn new() -> OpRegistry {
        OpRegistry::default()
    }

    /// A registry holding `defs`.
    pub fn with(defs: &[&'static CustomOpDef]) -> OpRegistry {
        OpRegistry {
            ops: defs.iter().map(|d| CustomOp::new(d)).collect(),
        }
    }

    /// Adds a definition.
    pub fn register(&mut self, def: &'static CustomOpDef) {
        self.ops.push(CustomOp::new(def));
    }

    /// Looks a target operation up by name.
    pub fn get(&self, name: &str) -> Option<CustomOp> {
        self.ops.iter().copied().find(|op| op.name() == name)
    }

    /// All registered operations.
    pub fn ops(&self) -> &[CustomOp] {
        &self.ops
    }
}
