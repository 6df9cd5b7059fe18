//! Device-memory faults in terms of the shader's resources: the simulator reports a faulting
//! access by address; the glue knows which buffer, texture or push-constant block each
//! allocation holds, so the error names the resource (`set`, `binding`) and the byte offset
//! into it, and the resource's size.

use agxc_egraph::ir::Binding;
use agxc_runtime_sim::error::{Error as SimulatorError, ExecErrorKind};

use super::SimError;

/// What an allocation holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// A storage or uniform buffer.
    Buffer(Binding),
    /// A texture or storage image.
    Texture(Binding),
    /// The push-constant block.
    PushConstants,
    /// Vertex attributes of a location.
    VertexInput(u32),
    /// A vertex output slot.
    VertexOutput,
    /// The shader's constant data.
    ConstantData,
}

impl std::fmt::Display for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Resource::Buffer(b) => write!(f, "buffer (set {}, binding {})", b.set, b.binding),
            Resource::Texture(b) => write!(f, "texture (set {}, binding {})", b.set, b.binding),
            Resource::PushConstants => f.write_str("the push constants"),
            Resource::VertexInput(l) => write!(f, "vertex attributes at location {l}"),
            Resource::VertexOutput => f.write_str("a vertex output"),
            Resource::ConstantData => f.write_str("the shader's constant data"),
        }
    }
}

/// A device-memory access outside every allocation, located relative to the nearest resource
/// below it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "pc {pc:#x} (SIMD-group {simd_group}): thread {thread}: {access} of {len} bytes at offset \
     {offset} of {resource}, which holds {size} bytes (device address {address:#x})"
)]
pub struct OutOfBounds {
    /// Byte offset of the faulting instruction.
    pub pc: u32,
    /// The SIMD-group.
    pub simd_group: u32,
    /// The thread.
    pub thread: u32,
    /// `load`, `store`, `atomic` or `image store`.
    pub access: &'static str,
    /// Bytes accessed.
    pub len: u32,
    /// The resource whose allocation starts nearest below the address.
    pub resource: Resource,
    /// Offset of the first byte from the resource's start.
    pub offset: u64,
    /// The resource's size in bytes.
    pub size: u64,
    /// The device address.
    pub address: u64,
}

/// The allocations of a run, by resource.
#[derive(Default)]
pub(super) struct Regions {
    regions: Vec<(u64, u64, Resource)>,
}

impl Regions {
    /// Records that `len` bytes at `address` hold `resource`.
    pub fn add(&mut self, address: u64, len: u64, resource: Resource) {
        self.regions.push((address, len, resource));
    }

    /// `e` with a device fault restated against the resource it hit (the one whose
    /// allocation starts nearest below the faulting address); other errors unchanged.
    pub fn explain(&self, e: SimError) -> SimError {
        let SimError::Simulator(SimulatorError::Exec(exec)) = &e else {
            return e;
        };
        let ExecErrorKind::DeviceFault {
            thread,
            access,
            address,
            len,
        } = exec.kind
        else {
            return e;
        };
        let nearest = self
            .regions
            .iter()
            .filter(|r| r.0 <= address)
            .max_by_key(|r| r.0);
        match nearest {
            Some(&(base, size, resource)) => SimError::OutOfBounds(Box::new(OutOfBounds {
                pc: exec.pc,
                simd_group: exec.simd_group,
                thread,
                access,
                len,
                resource,
                offset: address - base,
                size,
                address,
            })),
            None => e,
        }
    }
}
