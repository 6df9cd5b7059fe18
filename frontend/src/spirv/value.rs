//! What a SPIR-V id stands for while lifting, and the environment that maps ids to it.
//!
//! The IR is scalarized, so a SPIR-V value is a tree of IR values ([`Agg`]): a vector is a list of
//! scalars, a matrix a list of column vectors, arrays and structures lists of their elements.
//! Pointers, images and samplers have no IR value; they are compile-time descriptions
//! ([`Pointer`], [`Handle`]) whose only run-time parts are dynamic indices.
//!
//! The [`Env`] maps every SPIR-V id defined so far and every promoted variable (Function and
//! Private storage, stage outputs) to its current tree. Control-flow lowering clones it into each
//! branch and merges the copies where the branches meet (see `cfg.rs`).

use super::module::Id;
use super::types::ImageTy;
use agxc_egraph::ir::{AddressSpace, Binding, Value};
use smallvec::SmallVec;
use std::collections::BTreeMap;
use std::rc::Rc;

/// An index step of a logical pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Index {
    Const(u32),
    Dyn(Value),
    /// A constant index past the end of a vector, matrix or array. Valid SPIR-V may hold one
    /// in code that does not run (it is undefined only when executed); a pointer with one
    /// reads zero and drops stores, as robust buffer access treats out-of-bounds accesses.
    OutOfRange(u32),
}

/// How a matrix (or a vector taken from one) is laid out in buffer memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemLayout {
    /// No matrix involved, or a column-major matrix with the given column stride.
    Plain,
    /// A matrix (or array of matrices) with a column (or row, if row-major) stride.
    Matrix { stride: u32, row_major: bool },
    /// A column vector of a row-major matrix: its components are `stride` bytes apart.
    Strided { stride: u32 },
}

/// A pointer into buffer, push-constant or workgroup memory: a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemPtr {
    pub space: AddressSpace,
    pub offset: u32,
    pub dynamic: Option<Value>,
    /// The pointee type.
    pub ty: Id,
    pub layout: MemLayout,
}

/// What a logical pointer is rooted at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Root {
    /// A promoted variable (Function, Private or Output storage): its contents live in the env.
    Var(Id),
    /// A stage input variable: read-only, read once in the prologue.
    Input(Id),
    /// A variable holding an image, sampler or combined image-sampler.
    Handle(Id),
}

/// A pointer value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pointer {
    /// Into a variable that has no memory address: a root and a path of indices.
    Logical {
        root: Root,
        path: SmallVec<[Index; 4]>,
        /// The pointee type.
        ty: Id,
    },
    /// Into memory.
    Mem(MemPtr),
}

impl Pointer {
    pub fn pointee(&self) -> Id {
        match self {
            Pointer::Logical { ty, .. } => *ty,
            Pointer::Mem(m) => m.ty,
        }
    }
}

/// An image, sampler or combined image-sampler: resolved to bindings at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Handle {
    Image {
        binding: Binding,
        ty: ImageTy,
    },
    Sampler {
        binding: Binding,
    },
    SampledImage {
        texture: Binding,
        sampler: Binding,
        ty: ImageTy,
    },
}

/// The lifted form of a SPIR-V value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Agg {
    Scalar(Value),
    Composite(Rc<[Agg]>),
    Pointer(Rc<Pointer>),
    Handle(Handle),
}

impl Agg {
    pub fn composite(items: Vec<Agg>) -> Agg {
        Agg::Composite(items.into())
    }

    /// A vector from its components.
    pub fn vector(items: impl IntoIterator<Item = Value>) -> Agg {
        Agg::Composite(items.into_iter().map(Agg::Scalar).collect())
    }

    pub fn scalar(&self) -> Option<Value> {
        match self {
            Agg::Scalar(v) => Some(*v),
            _ => None,
        }
    }

    pub fn children(&self) -> Option<&[Agg]> {
        match self {
            Agg::Composite(c) => Some(c),
            _ => None,
        }
    }

    /// The components of a scalar (one) or a vector (several); `None` for anything else,
    /// including an empty structure (so that callers may rely on at least one component).
    pub fn components(&self) -> Option<SmallVec<[Value; 4]>> {
        match self {
            Agg::Scalar(v) => Some(SmallVec::from_slice(&[*v])),
            Agg::Composite(c) if !c.is_empty() => c.iter().map(Agg::scalar).collect(),
            _ => None,
        }
    }

    pub fn handle(&self) -> Option<Handle> {
        match self {
            Agg::Handle(h) => Some(*h),
            _ => None,
        }
    }

    /// Every run-time value inside, in a fixed order.
    pub fn leaves(&self, out: &mut Vec<Value>) {
        match self {
            Agg::Scalar(v) => out.push(*v),
            Agg::Composite(c) => c.iter().for_each(|a| a.leaves(out)),
            Agg::Pointer(p) => match &**p {
                Pointer::Logical { path, .. } => out.extend(path.iter().filter_map(|i| match i {
                    Index::Dyn(v) => Some(*v),
                    Index::Const(_) | Index::OutOfRange(_) => None,
                })),
                Pointer::Mem(m) => out.extend(m.dynamic),
            },
            Agg::Handle(_) => {}
        }
    }

    /// The same tree with its leaves replaced, in `leaves` order.
    pub fn rebuild(&self, values: &mut impl Iterator<Item = Value>) -> Option<Agg> {
        Some(match self {
            Agg::Scalar(_) => Agg::Scalar(values.next()?),
            Agg::Composite(c) => Agg::Composite(
                c.iter()
                    .map(|a| a.rebuild(values))
                    .collect::<Option<Vec<_>>>()?
                    .into(),
            ),
            Agg::Pointer(p) => Agg::Pointer(Rc::new(match &**p {
                Pointer::Logical { root, path, ty } => Pointer::Logical {
                    root: *root,
                    path: path
                        .iter()
                        .map(|i| match i {
                            Index::Dyn(_) => values.next().map(Index::Dyn),
                            c => Some(*c),
                        })
                        .collect::<Option<_>>()?,
                    ty: *ty,
                },
                Pointer::Mem(m) => Pointer::Mem(MemPtr {
                    dynamic: match m.dynamic {
                        Some(_) => Some(values.next()?),
                        None => None,
                    },
                    ..m.clone()
                }),
            })),
            Agg::Handle(h) => Agg::Handle(*h),
        })
    }

    /// True if `other` has the same tree shape and the same compile-time parts, so that the two
    /// can be merged leaf by leaf.
    pub fn same_shape(&self, other: &Agg) -> bool {
        match (self, other) {
            (Agg::Scalar(_), Agg::Scalar(_)) => true,
            (Agg::Composite(a), Agg::Composite(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same_shape(y))
            }
            (Agg::Pointer(a), Agg::Pointer(b)) => match (&**a, &**b) {
                (
                    Pointer::Logical {
                        root: r1,
                        path: p1,
                        ty: t1,
                    },
                    Pointer::Logical {
                        root: r2,
                        path: p2,
                        ty: t2,
                    },
                ) => {
                    r1 == r2
                        && t1 == t2
                        && p1.len() == p2.len()
                        && p1.iter().zip(p2.iter()).all(|(x, y)| match (x, y) {
                            (Index::Const(a), Index::Const(b)) => a == b,
                            (Index::OutOfRange(a), Index::OutOfRange(b)) => a == b,
                            (Index::Dyn(_), Index::Dyn(_)) => true,
                            _ => false,
                        })
                }
                (Pointer::Mem(a), Pointer::Mem(b)) => {
                    a.space == b.space
                        && a.offset == b.offset
                        && a.ty == b.ty
                        && a.layout == b.layout
                        && a.dynamic.is_some() == b.dynamic.is_some()
                }
                _ => false,
            },
            (Agg::Handle(a), Agg::Handle(b)) => a == b,
            _ => false,
        }
    }
}

/// A name in the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Key {
    /// A SPIR-V result id.
    Id(Id),
    /// The contents of a promoted variable (by the variable's id).
    Var(Id),
    /// Whether control fell through from the previous case of the switch at this nesting depth.
    Fell(u32),
}

/// The current value of every name (ordered, so that merges are deterministic).
#[derive(Clone, Debug, Default)]
pub(crate) struct Env {
    pub map: BTreeMap<Key, Agg>,
}

impl Env {
    pub fn get(&self, key: Key) -> Option<&Agg> {
        self.map.get(&key)
    }

    pub fn set(&mut self, key: Key, value: Agg) {
        self.map.insert(key, value);
    }
}
