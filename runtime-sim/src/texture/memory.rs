//! How the texture unit reads device memory: the [`TexelMemory`] trait the simulator's memory
//! implements, and [`SliceMemory`], a byte slice mapped at a base address (for tests and simple
//! runtimes).

/// The texture unit's view of device memory.
pub trait TexelMemory {
    /// Fills `out` with the bytes at `address .. address + out.len()`, or fails if any of them is
    /// unmapped. The texture unit never asks for more than 32 bytes at once.
    fn read_bytes(&self, address: u64, out: &mut [u8]) -> Result<(), UnmappedAddress>;
}

/// A [`TexelMemory`] read touched unmapped memory; the texture unit turns it into
/// [`super::TextureError::Unmapped`] with the address and length of the read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnmappedAddress;

/// A byte slice mapped at `base`; everything else is unmapped.
#[derive(Debug, Clone, Copy)]
pub struct SliceMemory<'a> {
    base: u64,
    bytes: &'a [u8],
}

impl<'a> SliceMemory<'a> {
    /// Maps `bytes` at `base .. base + bytes.len()`.
    pub fn new(base: u64, bytes: &'a [u8]) -> Self {
        SliceMemory { base, bytes }
    }
}

impl TexelMemory for SliceMemory<'_> {
    fn read_bytes(&self, address: u64, out: &mut [u8]) -> Result<(), UnmappedAddress> {
        let start = address.checked_sub(self.base).ok_or(UnmappedAddress)?;
        let start = usize::try_from(start).map_err(|_| UnmappedAddress)?;
        let end = start.checked_add(out.len()).ok_or(UnmappedAddress)?;
        let src = self.bytes.get(start..end).ok_or(UnmappedAddress)?;
        out.copy_from_slice(src);
        Ok(())
    }
}
