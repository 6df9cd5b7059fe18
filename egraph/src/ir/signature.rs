//! Operation signatures: which operand types an operation accepts and what it produces.
//!
//! Signatures are data in the operation table; the builder infers result types from them, and the
//! verifier, the text parser and the optimizer's type analysis check against them.

use super::types::Type;
use core::fmt;

/// A set of scalar types an operand may have.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Class {
    /// `f16` or `f32`.
    Float,
    /// `i16`, `i32` or `i64`.
    Int,
    /// An integer or `bool` (bitwise logic works on both).
    IntOrBool,
    /// Any non-bool type (bit casts).
    Numeric,
    /// Any type.
    Any,
}

impl Class {
    /// True if `ty` belongs to the class.
    pub fn contains(self, ty: Type) -> bool {
        match self {
            Class::Float => ty.is_float(),
            Class::Int => ty.is_int(),
            Class::IntOrBool => ty.is_int() || ty == Type::Bool,
            Class::Numeric => ty != Type::Bool,
            Class::Any => true,
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Class::Float => "float",
            Class::Int => "integer",
            Class::IntOrBool => "integer or bool",
            Class::Numeric => "numeric",
            Class::Any => "any",
        })
    }
}

/// How a conversion's result width relates to its operand's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Width {
    /// Strictly wider.
    Wider,
    /// Strictly narrower.
    Narrower,
    /// Exactly the same width.
    Same,
    /// Any widths.
    Any,
}

/// The shape of an operation's operands and result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Signature {
    /// `T -> T`.
    Unary(Class),
    /// `(T, T) -> T`.
    Binary(Class),
    /// `(T, T, T) -> T`.
    Ternary(Class),
    /// `(T, T) -> bool`.
    Compare(Class),
    /// `(bool, T, T) -> T`.
    Select,
    /// `T -> U` with the result type written explicitly.
    Convert {
        /// Operand class.
        from: Class,
        /// Result class.
        to: Class,
        /// Width relation between them.
        width: Width,
    },
    /// `(base: T, insert: T, offset: i32, count: i32) -> T`, T an integer.
    BitfieldInsert,
    /// `(base: T, offset: i32, count: i32) -> T`, T an integer.
    BitfieldExtract,
    /// `(a: T, b: T, x: U, y: U) -> U`: compare `a` with `b`, select `x` or `y`. The compared
    /// and the selected types are independent (an f32 comparison may select i32 values); this
    /// is the shape of compare-and-select instructions that targets supply as their own
    /// operations (the table's own `select` takes a `bool`).
    CompareSelect {
        /// Class of the compared operands.
        compare: Class,
        /// Class of the selected operands and the result.
        select: Class,
    },
}

/// Why operand or result types do not fit a signature.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// Wrong number of operands.
    #[error("expects {expected} operands, got {got}")]
    Arity {
        /// Expected operand count.
        expected: usize,
        /// Actual operand count.
        got: usize,
    },
    /// An operand has a type outside the allowed class.
    #[error("operand {index} has type {got}, expected {class}")]
    OperandClass {
        /// Operand index.
        index: usize,
        /// Actual type.
        got: Type,
        /// Allowed class.
        class: Class,
    },
    /// An operand's type differs from the first operand's.
    #[error("operand {index} has type {got}, expected {expected}")]
    OperandMismatch {
        /// Operand index.
        index: usize,
        /// Actual type.
        got: Type,
        /// Required type.
        expected: Type,
    },
    /// The result type does not follow from the operands.
    #[error("result type {got} does not match the operation's result type {expected}")]
    Result {
        /// Declared result type.
        got: Type,
        /// Type the signature gives.
        expected: String,
    },
}

impl Signature {
    /// Number of operands.
    pub fn arity(self) -> usize {
        match self {
            Signature::Unary(_) | Signature::Convert { .. } => 1,
            Signature::Binary(_) | Signature::Compare(_) => 2,
            Signature::Ternary(_) | Signature::Select | Signature::BitfieldExtract => 3,
            Signature::BitfieldInsert | Signature::CompareSelect { .. } => 4,
        }
    }

    /// The result type implied by the operand types, or `None` for conversions (whose result type
    /// is explicit). Errors if the operands do not fit.
    pub fn infer(self, args: &[Type]) -> Result<Option<Type>, SignatureError> {
        if args.len() != self.arity() {
            return Err(SignatureError::Arity {
                expected: self.arity(),
                got: args.len(),
            });
        }
        let class_at = |index: usize, class: Class| {
            if class.contains(args[index]) {
                Ok(())
            } else {
                Err(SignatureError::OperandClass {
                    index,
                    got: args[index],
                    class,
                })
            }
        };
        let same_as = |index: usize, expected: Type| {
            if args[index] == expected {
                Ok(())
            } else {
                Err(SignatureError::OperandMismatch {
                    index,
                    got: args[index],
                    expected,
                })
            }
        };
        match self {
            Signature::Unary(c) | Signature::Binary(c) | Signature::Ternary(c) => {
                class_at(0, c)?;
                for i in 1..args.len() {
                    same_as(i, args[0])?;
                }
                Ok(Some(args[0]))
            }
            Signature::Compare(c) => {
                class_at(0, c)?;
                same_as(1, args[0])?;
                Ok(Some(Type::Bool))
            }
            Signature::Select => {
                same_as(0, Type::Bool)?;
                same_as(2, args[1])?;
                Ok(Some(args[1]))
            }
            Signature::Convert { from, .. } => {
                class_at(0, from)?;
                Ok(None)
            }
            Signature::BitfieldInsert => {
                class_at(0, Class::Int)?;
                same_as(1, args[0])?;
                same_as(2, Type::I32)?;
                same_as(3, Type::I32)?;
                Ok(Some(args[0]))
            }
            Signature::BitfieldExtract => {
                class_at(0, Class::Int)?;
                same_as(1, Type::I32)?;
                same_as(2, Type::I32)?;
                Ok(Some(args[0]))
            }
            Signature::CompareSelect { compare, select } => {
                class_at(0, compare)?;
                same_as(1, args[0])?;
                class_at(2, select)?;
                same_as(3, args[2])?;
                Ok(Some(args[2]))
            }
        }
    }

    /// Checks operand types and a declared result type together.
    pub fn check(self, args: &[Type], result: Type) -> Result<(), SignatureError> {
        match self.infer(args)? {
            Some(t) if t == result => Ok(()),
            Some(t) => Err(SignatureError::Result {
                got: result,
                expected: t.to_string(),
            }),
            None => {
                let Signature::Convert { to, width, .. } = self else {
                    unreachable!("only conversions leave the result type open")
                };
                let (a, r) = (args[0].bits(), result.bits());
                let width_ok = match width {
                    Width::Wider => r > a,
                    Width::Narrower => r < a,
                    Width::Same => r == a,
                    Width::Any => true,
                };
                if to.contains(result) && width_ok {
                    Ok(())
                } else {
                    Err(SignatureError::Result {
                        got: result,
                        expected: match width {
                            Width::Wider => format!("{to} wider than {}", args[0]),
                            Width::Narrower => format!("{to} narrower than {}", args[0]),
                            Width::Same => format!("{to} as wide as {}", args[0]),
                            Width::Any => to.to_string(),
                        },
                    })
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FCMPSEL: Signature = Signature::CompareSelect {
        compare: Class::Float,
        select: Class::Any,
    };

    #[test]
    fn compare_select_takes_two_compared_and_two_selected_operands() {
        use Type::*;
        assert_eq!(FCMPSEL.arity(), 4);
        assert_eq!(FCMPSEL.infer(&[F32, F32, I32, I32]), Ok(Some(I32)));
        assert_eq!(FCMPSEL.infer(&[F16, F16, Bool, Bool]), Ok(Some(Bool)));
        assert_eq!(FCMPSEL.check(&[F32, F32, F16, F16], F16), Ok(()));
        assert!(FCMPSEL.check(&[F32, F32, F16, F16], F32).is_err());
    }

    #[test]
    fn compare_select_names_the_operand_that_does_not_fit() {
        use Type::*;
        let err = |args: &[Type]| FCMPSEL.infer(args).unwrap_err();
        assert_eq!(
            err(&[I32, I32, F32, F32]),
            SignatureError::OperandClass {
                index: 0,
                got: I32,
                class: Class::Float
            }
        );
        assert_eq!(
            err(&[F32, F16, F32, F32]),
            SignatureError::OperandMismatch {
                index: 1,
                got: F16,
                expected: F32
            }
        );
        assert_eq!(
            err(&[F32, F32, F32, I32]),
            SignatureError::OperandMismatch {
                index: 3,
                got: I32,
                expected: F32
            }
        );
        let int_select = Signature::CompareSelect {
            compare: Class::Int,
            select: Class::Float,
        };
        assert_eq!(
            int_select.infer(&[I16, I16, I32, I32]),
            Err(SignatureError::OperandClass {
                index: 2,
                got: I32,
                class: Class::Float
            })
        );
        assert_eq!(
            FCMPSEL.infer(&[F32, F32, F32]),
            Err(SignatureError::Arity {
                expected: 4,
                got: 3
            })
        );
    }
}
