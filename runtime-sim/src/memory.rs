//! Sparse device memory: allocations at 64-bit addresses, each a byte vector. Every access must
//! lie inside one allocation; anything else is an error (never a silent read of zeros).

use std::collections::BTreeMap;

use crate::error::RuntimeError;
use crate::texture::{TexelMemory, UnmappedAddress};

/// Where [`DeviceMemory::alloc`] places its first allocation: above 4 GiB, so addresses need
/// both halves of a 64-bit register pair.
pub const ALLOC_BASE: u64 = 0x1_0000_0000;

/// Gap left between bump allocations, so an access just past the end of one buffer faults
/// instead of landing in the next.
const GUARD: u64 = 0x1000;

/// The largest single allocation, 4 GiB: allocations are host vectors, and a size read from a
/// bad request must fail as an error rather than abort the process on a failed host allocation.
pub const MAX_ALLOCATION: u64 = 1 << 32;

/// Device memory.
#[derive(Debug, Clone, Default)]
pub struct DeviceMemory {
    allocations: BTreeMap<u64, Vec<u8>>,
    next: u64,
}

impl DeviceMemory {
    /// Empty memory.
    pub fn new() -> Self {
        DeviceMemory {
            allocations: BTreeMap::new(),
            next: ALLOC_BASE,
        }
    }

    /// Allocates `size` zeroed bytes aligned to `align` (a power of two) and returns the
    /// address.
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64, RuntimeError> {
        if size == 0 {
            return Err(RuntimeError::BadAllocation {
                reason: "size is 0",
            });
        }
        if !align.is_power_of_two() {
            return Err(RuntimeError::BadAllocation {
                reason: "alignment is not a power of two",
            });
        }
        let start = self.next.max(ALLOC_BASE);
        let address = start
            .checked_add(align - 1)
            .map(|a| a & !(align - 1))
            .ok_or(RuntimeError::Overlap {
                address: start,
                size,
            })?;
        // `map` moves `next` past the new allocation and its guard gap.
        self.map(address, size)?;
        Ok(address)
    }

    /// Maps `size` zeroed bytes at exactly `address`.
    pub fn map(&mut self, address: u64, size: u64) -> Result<(), RuntimeError> {
        let end = address
            .checked_add(size)
            .ok_or(RuntimeError::Overlap { address, size })?;
        if size == 0 {
            return Err(RuntimeError::BadAllocation {
                reason: "size is 0",
            });
        }
        let len = usize::try_from(size)
            .ok()
            .filter(|_| size <= MAX_ALLOCATION)
            .ok_or(RuntimeError::BadAllocation {
                reason: "size exceeds the simulator's 4 GiB limit",
            })?;
        if let Some((&base, bytes)) = self.allocations.range(..end).next_back() {
            if base + bytes.len() as u64 > address {
                return Err(RuntimeError::Overlap { address, size });
            }
        }
        self.allocations.insert(address, vec![0; len]);
        self.next = self.next.max(end.saturating_add(GUARD));
        Ok(())
    }

    /// The bytes at `address .. address + len`, if they lie in one allocation.
    pub fn slice(&self, address: u64, len: u64) -> Option<&[u8]> {
        let (&base, bytes) = self.allocations.range(..=address).next_back()?;
        let start = usize::try_from(address - base).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        bytes.get(start..end)
    }

    /// Mutable bytes at `address .. address + len`, if they lie in one allocation.
    pub fn slice_mut(&mut self, address: u64, len: u64) -> Option<&mut [u8]> {
        let (&base, bytes) = self.allocations.range_mut(..=address).next_back()?;
        let start = usize::try_from(address - base).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        bytes.get_mut(start..end)
    }

    /// Copies `bytes` to `address`.
    pub fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), RuntimeError> {
        let len = bytes.len() as u64;
        self.slice_mut(address, len)
            .ok_or(RuntimeError::Unmapped { address, len })?
            .copy_from_slice(bytes);
        Ok(())
    }

    /// Reads `len` bytes at `address`.
    pub fn read(&self, address: u64, len: u64) -> Result<Vec<u8>, RuntimeError> {
        self.slice(address, len)
            .map(<[u8]>::to_vec)
            .ok_or(RuntimeError::Unmapped { address, len })
    }
}

impl TexelMemory for DeviceMemory {
    fn read_bytes(&self, address: u64, out: &mut [u8]) -> Result<(), UnmappedAddress> {
        let src = self
            .slice(address, out.len() as u64)
            .ok_or(UnmappedAddress)?;
        out.copy_from_slice(src);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mappings_at_the_top_of_the_address_space_are_errors_not_overflows() {
        let mut mem = DeviceMemory::new();
        // 16 bytes just below the top map; the guard gap past them does not fit.
        let top = u64::MAX - 31;
        mem.map(top, 16).expect("16 bytes near the top map");
        mem.write(top, &[7; 16]).expect("write");
        assert_eq!(mem.read(top + 15, 1).expect("read"), [7]);
        // Nothing fits above it, so the next bump allocation is an error, not a wrap.
        assert!(matches!(
            mem.alloc(16, 16),
            Err(RuntimeError::Overlap { .. })
        ));
        assert!(matches!(
            mem.map(u64::MAX, 2),
            Err(RuntimeError::Overlap { .. })
        ));
    }

    #[test]
    fn oversized_allocations_are_errors() {
        let mut mem = DeviceMemory::new();
        for size in [MAX_ALLOCATION + 1, 1 << 40, u64::MAX / 2] {
            assert!(
                matches!(mem.alloc(size, 16), Err(RuntimeError::BadAllocation { .. })),
                "size {size:#x}"
            );
        }
        // Refused requests leave nothing behind.
        assert!(mem.read(ALLOC_BASE, 1).is_err());
        assert_eq!(mem.alloc(4, 4).expect("a small one still fits"), ALLOC_BASE);
    }
}
