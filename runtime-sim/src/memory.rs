//! Sparse device memory: allocations at 64-bit addresses. Every access must lie inside one
//! allocation; anything else is an error (never a silent read of zeros).
//!
//! Storage is 32-bit atomic words aligned to absolute addresses (word `k` of an allocation holds
//! the bytes at `(base & !3) + 4k ..`), accessed with relaxed loads and stores, so that the
//! workgroups of a parallel dispatch share one memory through `&DeviceMemory` without a data
//! race in the Rust sense: a program whose workgroups touch disjoint bytes gets exactly the
//! result of a one-thread run, and a program whose workgroups race on the same bytes gets one of
//! the interleavings, never undefined behaviour. An element access (1, 2 or 4 bytes, aligned to
//! its size, as every memory instruction's is) touches one word; a relaxed word store compiles
//! to a plain store. Stores of part of a word replace their bytes with a compare-and-swap, so
//! that two threads writing different bytes of one word both keep theirs.
//!
//! Allocations are zeroed lazily by the host (`zerocopy`'s zeroed boxes come from the zeroing
//! allocator), so a large buffer that a dispatch barely touches costs no more than before, and a
//! host allocation failure is an error rather than an abort.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use zerocopy::FromZeros;

use crate::error::RuntimeError;
use crate::texture::{TexelMemory, UnmappedAddress};

/// Where [`DeviceMemory::alloc`] places its first allocation: above 4 GiB, so addresses need
/// both halves of a 64-bit register pair.
pub const ALLOC_BASE: u64 = 0x1_0000_0000;

/// Gap left between bump allocations, so an access just past the end of one buffer faults
/// instead of landing in the next.
const GUARD: u64 = 0x1000;

/// The largest single allocation, 4 GiB: allocations are host memory, and a size read from a
/// bad request must fail as an error rather than abort the process on a failed host allocation.
pub const MAX_ALLOCATION: u64 = 1 << 32;

/// One allocation: `len` bytes at `base`.
pub(crate) struct Allocation {
    base: u64,
    len: u64,
    /// Words covering `base & !3 .. base + len`, rounded up to whole words.
    words: Box<[AtomicU32]>,
}

impl Allocation {
    fn new(base: u64, len: u64) -> Result<Self, RuntimeError> {
        let span = (base & 3) + len;
        let count = usize::try_from(span.div_ceil(4)).map_err(|_| too_large())?;
        let words = <[AtomicU32]>::new_box_zeroed_with_elems(count).map_err(|_| {
            RuntimeError::BadAllocation {
                reason: "the host could not allocate the memory",
            }
        })?;
        Ok(Allocation { base, len, words })
    }

    /// Whether the `len` bytes at `address` lie inside this allocation.
    #[inline(always)]
    pub fn contains(&self, address: u64, len: u64) -> bool {
        address >= self.base && len <= self.len && address - self.base <= self.len - len
    }

    /// The word holding the byte at `address`, which must lie inside the allocation.
    #[inline(always)]
    fn word(&self, address: u64) -> &AtomicU32 {
        &self.words[((address - (self.base & !3)) >> 2) as usize]
    }

    /// The `size`-byte element (1, 2 or 4 bytes, `address` aligned to `size`) at `address`,
    /// zero-extended; `address .. address + size` must lie inside the allocation.
    #[inline(always)]
    pub fn load(&self, address: u64, size: u32) -> u32 {
        let w = self.word(address).load(Relaxed);
        if size == 4 {
            return w;
        }
        let shift = 8 * (address & 3) as u32;
        (w >> shift) & (u32::MAX >> (32 - 8 * size))
    }

    /// Stores the low `size` bytes of `value` as the element at `address` (as [`Self::load`]).
    #[inline(always)]
    pub fn store(&self, address: u64, size: u32, value: u32) {
        let word = self.word(address);
        if size == 4 {
            word.store(value, Relaxed);
            return;
        }
        let shift = 8 * (address & 3) as u32;
        let mask = (u32::MAX >> (32 - 8 * size)) << shift;
        replace_bits(word, mask, value << shift);
    }

    /// Applies `f` to the 32-bit word at `address` (4-aligned, inside the allocation) atomically
    /// and returns the old value.
    pub fn update(&self, address: u64, f: impl Fn(u32) -> u32) -> u32 {
        let word = self.word(address);
        let mut old = word.load(Relaxed);
        loop {
            match word.compare_exchange_weak(old, f(old), Relaxed, Relaxed) {
                Ok(previous) => return previous,
                Err(current) => old = current,
            }
        }
    }

    /// Copies the bytes at `address ..` into `out` (inside the allocation): whole words when
    /// `address` is word-aligned (texels and descriptors), bytes otherwise.
    fn read_bytes(&self, address: u64, out: &mut [u8]) {
        if address & 3 == 0 {
            let mut chunks = out.chunks_exact_mut(4);
            let mut a = address;
            for chunk in &mut chunks {
                chunk.copy_from_slice(&self.word(a).load(Relaxed).to_le_bytes());
                a += 4;
            }
            let tail = chunks.into_remainder();
            if !tail.is_empty() {
                let w = self.word(a).load(Relaxed).to_le_bytes();
                tail.copy_from_slice(&w[..tail.len()]);
            }
            return;
        }
        for (i, byte) in out.iter_mut().enumerate() {
            let a = address + i as u64;
            *byte = (self.word(a).load(Relaxed) >> (8 * (a & 3))) as u8;
        }
    }

    /// Copies `bytes` to `address ..` (inside the allocation): whole words with stores, the
    /// partial words at either end with compare-and-swaps.
    fn write_bytes(&self, address: u64, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            let a = address + i as u64;
            let offset = (a & 3) as usize;
            let n = (4 - offset).min(bytes.len() - i);
            let word = self.word(a);
            if n == 4 {
                word.store(
                    u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]),
                    Relaxed,
                );
            } else {
                let mut value = 0u32;
                let mut mask = 0u32;
                for k in 0..n {
                    value |= u32::from(bytes[i + k]) << (8 * (offset + k));
                    mask |= 0xff << (8 * (offset + k));
                }
                replace_bits(word, mask, value);
            }
            i += n;
        }
    }
}

/// Replaces the bits of `word` under `mask` with those of `value`, atomically.
fn replace_bits(word: &AtomicU32, mask: u32, value: u32) {
    let mut old = word.load(Relaxed);
    loop {
        let new = (old & !mask) | (value & mask);
        match word.compare_exchange_weak(old, new, Relaxed, Relaxed) {
            Ok(_) => return,
            Err(current) => old = current,
        }
    }
}

fn too_large() -> RuntimeError {
    RuntimeError::BadAllocation {
        reason: "size exceeds the simulator's 4 GiB limit",
    }
}

/// Device memory.
pub struct DeviceMemory {
    allocations: BTreeMap<u64, Allocation>,
    next: u64,
}

impl Default for DeviceMemory {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for DeviceMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let spans: Vec<String> = self
            .allocations
            .values()
            .map(|a| format!("{:#x}+{}", a.base, a.len))
            .collect();
        f.debug_struct("DeviceMemory")
            .field("allocations", &spans)
            .finish()
    }
}

impl Clone for DeviceMemory {
    fn clone(&self) -> Self {
        let allocations = self
            .allocations
            .iter()
            .map(|(&base, a)| {
                let words = a
                    .words
                    .iter()
                    .map(|w| AtomicU32::new(w.load(Relaxed)))
                    .collect();
                let copy = Allocation {
                    base: a.base,
                    len: a.len,
                    words,
                };
                (base, copy)
            })
            .collect();
        DeviceMemory {
            allocations,
            next: self.next,
        }
    }
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

    /// Allocates a buffer holding `bytes` (at least one byte) aligned to `align` (a power of
    /// two, at least 4) and returns the address. The new allocation is zeroed, so only the
    /// nonzero words are stored: a zero-filled buffer (a dispatch's output) is not touched here,
    /// and its pages are first touched, in parallel, by the dispatch that writes them (session
    /// 14: copying an 8 MB output buffer of zeros was a tenth of a warm `alu_hash_noise` run's
    /// serial part).
    pub fn alloc_bytes(&mut self, bytes: &[u8], align: u64) -> Result<u64, RuntimeError> {
        let address = self.alloc(bytes.len().max(1) as u64, align.max(4))?;
        let a = self
            .allocations
            .get_mut(&address)
            .ok_or(RuntimeError::Unmapped {
                address,
                len: bytes.len() as u64,
            })?;
        // `address` is 4-aligned: word `k` holds bytes `4k ..`, the last one padded with the
        // zeros it already holds.
        for (word, chunk) in a.words.iter_mut().zip(bytes.chunks(4)) {
            let mut le = [0u8; 4];
            le[..chunk.len()].copy_from_slice(chunk);
            let v = u32::from_le_bytes(le);
            if v != 0 {
                *word.get_mut() = v;
            }
        }
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
        if size > MAX_ALLOCATION {
            return Err(too_large());
        }
        if let Some((_, a)) = self.allocations.range(..end).next_back() {
            if a.base + a.len > address {
                return Err(RuntimeError::Overlap { address, size });
            }
        }
        self.allocations
            .insert(address, Allocation::new(address, size)?);
        self.next = self.next.max(end.saturating_add(GUARD));
        Ok(())
    }

    /// The allocation holding the `len` bytes at `address`, if one holds them all.
    #[inline]
    pub(crate) fn allocation(&self, address: u64, len: u64) -> Option<&Allocation> {
        let (_, a) = self.allocations.range(..=address).next_back()?;
        a.contains(address, len).then_some(a)
    }

    /// The base address and size of every allocation, in address order.
    pub fn allocations(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.allocations.values().map(|a| (a.base, a.len))
    }

    /// Copies the bytes at `address .. address + out.len()` into `out`, if they lie in one
    /// allocation.
    pub fn read_into(&self, address: u64, out: &mut [u8]) -> Result<(), RuntimeError> {
        let len = out.len() as u64;
        let a = self
            .allocation(address, len)
            .ok_or(RuntimeError::Unmapped { address, len })?;
        a.read_bytes(address, out);
        Ok(())
    }

    /// Copies `bytes` to `address`, if the bytes there lie in one allocation. Takes `&self`:
    /// the executor's image stores write through a shared reference.
    pub(crate) fn store_bytes(&self, address: u64, bytes: &[u8]) -> Result<(), RuntimeError> {
        let len = bytes.len() as u64;
        let a = self
            .allocation(address, len)
            .ok_or(RuntimeError::Unmapped { address, len })?;
        a.write_bytes(address, bytes);
        Ok(())
    }

    /// Copies `bytes` to `address`.
    pub fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), RuntimeError> {
        self.store_bytes(address, bytes)
    }

    /// Reads `len` bytes at `address`.
    pub fn read(&self, address: u64, len: u64) -> Result<Vec<u8>, RuntimeError> {
        let size = usize::try_from(len).map_err(|_| RuntimeError::Unmapped { address, len })?;
        if self.allocation(address, len).is_none() {
            return Err(RuntimeError::Unmapped { address, len });
        }
        let mut out = vec![0; size];
        self.read_into(address, &mut out)?;
        Ok(out)
    }
}

/// One allocation as the texture unit's memory: the executor finds a texture's allocation once
/// per instruction and reads its texels here, without a search per texel. Reads outside the
/// allocation fail as they would in [`DeviceMemory`], which the executor uses instead when a
/// texture does not lie in one allocation.
impl TexelMemory for Allocation {
    #[inline(always)]
    fn read_bytes(&self, address: u64, out: &mut [u8]) -> Result<(), UnmappedAddress> {
        if !self.contains(address, out.len() as u64) {
            return Err(UnmappedAddress);
        }
        Allocation::read_bytes(self, address, out);
        Ok(())
    }
}

impl TexelMemory for DeviceMemory {
    fn read_bytes(&self, address: u64, out: &mut [u8]) -> Result<(), UnmappedAddress> {
        self.read_into(address, out).map_err(|_| UnmappedAddress)
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
    fn alloc_bytes_reads_back_every_byte() {
        // Zero words are skipped (the allocation is fresh), a partial last word kept.
        let mut mem = DeviceMemory::new();
        let first = mem.alloc(5, 1).expect("allocates");
        mem.write(first, &[0xff; 5]).expect("writes");
        for len in [1usize, 3, 4, 7, 9, 64] {
            let bytes: Vec<u8> = (0..len)
                .map(|i| if i % 5 < 2 { 0 } else { i as u8 + 1 })
                .collect();
            let a = mem.alloc_bytes(&bytes, 1).expect("allocates");
            assert_eq!(a & 3, 0, "at least word-aligned");
            assert_eq!(mem.read(a, len as u64).expect("reads"), bytes, "len {len}");
        }
        assert_eq!(mem.read(first, 5).expect("reads"), [0xff; 5]);
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

    #[test]
    fn unaligned_allocations_keep_every_byte() {
        // An allocation starting at an odd address: its words are aligned to absolute
        // addresses, so the first and last words are partial.
        let mut mem = DeviceMemory::new();
        let base = ALLOC_BASE + 3;
        mem.map(base, 7).expect("maps");
        let bytes = [1, 2, 3, 4, 5, 6, 7];
        mem.write(base, &bytes).expect("write");
        assert_eq!(mem.read(base, 7).expect("read"), bytes);
        assert_eq!(mem.read(base + 2, 3).expect("read"), [3, 4, 5]);
        assert!(mem.read(base - 1, 1).is_err());
        assert!(mem.read(base + 6, 2).is_err());
        let a = mem.allocation(base + 1, 4).expect("inside");
        // Bytes 2..6 of the buffer (1-based values 2..=5) hold the aligned word at base + 1.
        assert_eq!(a.load(base + 1, 4), u32::from_le_bytes([2, 3, 4, 5]));
        assert_eq!(a.load(base + 1, 2), u32::from(u16::from_le_bytes([2, 3])));
        a.store(base + 3, 1, 0xAB);
        assert_eq!(mem.read(base, 7).expect("read"), [1, 2, 3, 0xAB, 5, 6, 7]);
        let old = a.update(base + 1, |w| w.wrapping_add(1));
        assert_eq!(old, u32::from_le_bytes([2, 3, 0xAB, 5]));
        assert_eq!(mem.read(base + 1, 1).expect("read"), [3]);
    }

    #[test]
    fn a_clone_is_independent() {
        let mut mem = DeviceMemory::new();
        let a = mem.alloc(8, 4).expect("alloc");
        mem.write(a, &[9; 8]).expect("write");
        let copy = mem.clone();
        mem.write(a, &[1; 8]).expect("write");
        assert_eq!(copy.read(a, 8).expect("read"), [9; 8]);
    }
}
