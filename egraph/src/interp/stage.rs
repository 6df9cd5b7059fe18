//! What each stage supplies to a lockstep batch: the compute grid position, the fragment grid
//! and its quads, the vertex attributes, or the geometry input primitives (and what the
//! geometry invocations emit).

use super::fragment::FragmentGrid;
use super::geometry::GeometryEnv;
use super::quad::QuadGrid;
use crate::ir::ExecutionModes;
use std::collections::BTreeMap;

/// The stage of a batch and its inputs.
pub(crate) enum StageEnv<'a> {
    /// One compute workgroup.
    Compute {
        /// Workgroup size.
        local_size: [u32; 3],
        /// This workgroup's id.
        group: [u32; 3],
        /// Workgroups in the dispatch.
        groups: [u32; 3],
    },
    /// The whole fragment grid.
    Fragment {
        /// Grid, varyings and fixed-function state.
        grid: &'a FragmentGrid,
        /// Padded grid geometry.
        quads: QuadGrid,
        /// Origin and pixel-centre conventions.
        modes: ExecutionModes,
    },
    /// A batch of vertices.
    Vertex {
        /// Per location, 4 floats per vertex.
        attributes: &'a BTreeMap<u32, Vec<[f32; 4]>>,
    },
    /// A batch of geometry invocations.
    Geometry(GeometryEnv<'a>),
}

impl StageEnv<'_> {
    /// The stage's text-form name.
    pub fn name(&self) -> &'static str {
        match self {
            StageEnv::Compute { .. } => "compute",
            StageEnv::Fragment { .. } => "fragment",
            StageEnv::Vertex { .. } => "vertex",
            StageEnv::Geometry(_) => "geometry",
        }
    }

    /// The padded grid, in the fragment stage.
    pub fn quads(&self) -> Option<QuadGrid> {
        match self {
            StageEnv::Fragment { quads, .. } => Some(*quads),
            _ => None,
        }
    }
}
