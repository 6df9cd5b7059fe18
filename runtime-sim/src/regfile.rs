//! One SIMD-group's general-purpose registers, structure-of-arrays (`r[register][lane]`), with
//! the state of the two checkers that ride on register accesses:
//!
//! - the register-cache hint sanitizer: a `discard` hint poisons the register's halves for the
//!   SIMD-group's threads; a read of a poisoned half by a thread before the thread writes it is
//!   an error naming the pc of the discard, the thread and the register. With
//!   `Config::check_uninitialized` every half starts poisoned, so reads before the first write are
//!   errors too;
//! - the load scoreboard: a half written by a load that has not been waited for (`wait slot`) is
//!   pending; reading or writing it is an error naming the load's pc and slot.
//!
//! Both are tracked per 16-bit half. `hazard[h]` is the union of the lanes poisoned in `h` and,
//! when `h` is pending, all lanes: every access tests it with one AND, and only a hit takes the
//! slow path that works out which error to report.

use crate::decode::inst::Reg;
use crate::error::ExecErrorKind;
use crate::lanes;

/// Marker in `poison_pc` for halves never written.
pub const UNINITIALIZED: u32 = u32::MAX;

/// The register file of one SIMD-group.
#[derive(Debug, Clone, PartialEq)]
pub struct RegFile {
    /// `r[n][lane]`: register `rn` of thread `lane`.
    pub r: Box<[[u32; 32]; 128]>,
    poison: [u32; 256],
    poison_pc: [u32; 256],
    pending: [u8; 256],
    pending_pc: [u32; 256],
    hazard: [u32; 256],
    /// Bit `h` set when `hazard[h]` is not zero: the fast engine tests a run's halves against
    /// it with four ANDs.
    hazardous: [u64; 4],
    /// `waiting[slot]`: the halves with a load pending on `slot`, as a bit set like
    /// [`Self::hazardous`], so that `wait` visits only them instead of all 256 halves (a
    /// measurable cost in texture-heavy fragment shaders, which wait after every sample).
    waiting: [[u64; 4]; 8],
}

impl RegFile {
    /// A zeroed register file; with `uninitialized_poisoned`, every half starts poisoned.
    pub fn new(uninitialized_poisoned: bool) -> Self {
        let poison = if uninitialized_poisoned {
            [u32::MAX; 256]
        } else {
            [0; 256]
        };
        RegFile {
            r: Box::new([[0; 32]; 128]),
            poison,
            poison_pc: [UNINITIALIZED; 256],
            pending: [0; 256],
            pending_pc: [0; 256],
            hazard: poison,
            hazardous: [if uninitialized_poisoned { u64::MAX } else { 0 }; 4],
            waiting: [[0; 4]; 8],
        }
    }

    /// Resets to the state of [`Self::new`] for a program touching halves `0..halves`: only the
    /// register rows it can touch are cleared (the others stay unread and unwritten).
    pub fn reset(&mut self, uninitialized_poisoned: bool, halves: u32) {
        let rows = (halves as usize).div_ceil(2).min(128);
        for row in &mut self.r[..rows] {
            *row = [0; 32];
        }
        let poison = if uninitialized_poisoned { u32::MAX } else { 0 };
        self.poison = [poison; 256];
        self.poison_pc = [UNINITIALIZED; 256];
        self.pending = [0; 256];
        self.pending_pc = [0; 256];
        self.hazard = [poison; 256];
        self.hazardous = [if uninitialized_poisoned { u64::MAX } else { 0 }; 4];
        self.waiting = [[0; 4]; 8];
    }

    /// The hazard mask of half `h`: the lanes for which touching it is an error (poisoned lanes,
    /// or every lane while a load into it is pending).
    #[inline(always)]
    pub fn hazard(&self, h: u8) -> u32 {
        self.hazard[usize::from(h)]
    }

    /// The halves with a hazard, as a bit set (bit `h % 64` of word `h / 64`).
    #[inline(always)]
    pub fn hazardous(&self) -> &[u64; 4] {
        &self.hazardous
    }

    /// Sets `hazard[h]` and keeps [`Self::hazardous`] in step.
    #[inline(always)]
    fn set_hazard(&mut self, h: usize, lanes: u32) {
        self.hazard[h] = lanes;
        let bit = 1u64 << (h & 63);
        if lanes != 0 {
            self.hazardous[h >> 6] |= bit;
        } else {
            self.hazardous[h >> 6] &= !bit;
        }
    }

    /// Whether a load into half `h` is pending.
    #[inline(always)]
    pub fn pending(&self, h: u8) -> bool {
        self.pending[usize::from(h)] != 0
    }

    /// Clears the poison of `lanes` in half `h`, into which no load is pending: what
    /// [`Self::prepare_write`] does to it (the fast engine's unchecked runs, which write
    /// without checks, make the change afterwards).
    #[inline]
    pub fn clear_poison(&mut self, h: u8, lanes: u32) {
        let h = usize::from(h);
        self.poison[h] &= !lanes;
        let lanes = if self.pending[h] != 0 {
            u32::MAX
        } else {
            self.poison[h]
        };
        self.set_hazard(h, lanes);
    }

    /// The values of 32-bit register `rn` (`n` below 128, as `Program::load` checks).
    #[inline(always)]
    pub fn row(&self, n: u8) -> &[u32; 32] {
        &self.r[usize::from(n & 127)]
    }

    /// Checks that `lanes` may read `reg`.
    #[inline(always)]
    pub fn check_read(&self, reg: Reg, lanes: u32) -> Result<(), ExecErrorKind> {
        let (first, count) = reg.halves();
        for h in first..first + count {
            if self.hazard[h as usize] & lanes != 0 {
                return Err(self.read_error(reg, h as usize, lanes));
            }
        }
        Ok(())
    }

    #[cold]
    fn read_error(&self, reg: Reg, h: usize, lanes: u32) -> ExecErrorKind {
        let register = reg;
        if self.pending[h] != 0 {
            return ExecErrorKind::UnwaitedLoad {
                access: "read",
                register,
                slot: self.pending[h].trailing_zeros() as u8,
                load_pc: self.pending_pc[h],
            };
        }
        let thread = (self.poison[h] & lanes).trailing_zeros();
        if self.poison_pc[h] == UNINITIALIZED {
            ExecErrorKind::UninitializedRead { thread, register }
        } else {
            ExecErrorKind::ReadAfterDiscard {
                thread,
                register,
                discarded_at: self.poison_pc[h],
            }
        }
    }

    /// Checks that `reg` may be written (no load into it is pending) and clears the poison of
    /// `lanes`. Call before writing the values.
    #[inline(always)]
    pub fn prepare_write(&mut self, reg: Reg, lanes: u32) -> Result<(), ExecErrorKind> {
        if lanes == 0 {
            return Ok(());
        }
        let (first, count) = reg.halves();
        for h in first as usize..(first + count) as usize {
            if self.hazard[h] != 0 {
                if self.pending[h] != 0 {
                    return Err(ExecErrorKind::UnwaitedLoad {
                        access: "write",
                        register: Reg::Half(h as u8),
                        slot: self.pending[h].trailing_zeros() as u8,
                        load_pc: self.pending_pc[h],
                    });
                }
                self.poison[h] &= !lanes;
                self.set_hazard(h, self.poison[h]);
            }
        }
        Ok(())
    }

    /// Poisons `reg` for `lanes` (a discard hint executed at `pc`).
    pub fn discard(&mut self, reg: Reg, lanes: u32, pc: u32) {
        let (first, count) = reg.halves();
        for h in first as usize..(first + count) as usize {
            self.poison[h] |= lanes;
            self.poison_pc[h] = pc;
            self.set_hazard(h, self.hazard[h] | lanes);
        }
    }

    /// Marks `reg` pending on wait slot `slot` (a load issued at `pc` writes it).
    pub fn set_pending(&mut self, reg: Reg, slot: u8, pc: u32) {
        let (first, count) = reg.halves();
        for h in first as usize..(first + count) as usize {
            self.pending[h] |= 1 << slot;
            self.waiting[usize::from(slot & 7)][h >> 6] |= 1u64 << (h & 63);
            self.pending_pc[h] = pc;
            self.set_hazard(h, u32::MAX);
        }
    }

    /// `wait slot`: every load on `slot` has completed.
    pub fn wait(&mut self, slot: u8) {
        let Some(waiting) = self.waiting.get_mut(usize::from(slot)) else {
            return;
        };
        let words = std::mem::take(waiting);
        for (w, mut bits) in words.into_iter().enumerate() {
            while bits != 0 {
                let h = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.pending[h] &= !(1 << slot);
                if self.pending[h] == 0 {
                    self.set_hazard(h, self.poison[h]);
                }
            }
        }
    }

    /// The 16-bit values of half `h` (zero-extended).
    #[inline(always)]
    pub fn half(&self, h: u8) -> [u32; 32] {
        let row = &self.r[usize::from(h >> 1)];
        let shift = u32::from(h & 1) * 16;
        lanes::map(row, |x| (x >> shift) & 0xffff)
    }

    /// Writes the low 16 bits of `v` into half `h` for `lanes`.
    #[inline(always)]
    pub fn set_half(&mut self, h: u8, v: &[u32; 32], lanes: u32) {
        let row = &mut self.r[usize::from(h >> 1)];
        let shift = u32::from(h & 1) * 16;
        let field = 0xffffu32 << shift;
        // Branch-free, so that it vectorises: each lane's mask is all ones or zero.
        for (l, slot) in row.iter_mut().enumerate() {
            let m = field & 0u32.wrapping_sub((lanes >> l) & 1);
            *slot = (*slot & !m) | ((v[l] << shift) & m);
        }
    }

    /// Writes `v` into `rn` for `lanes`.
    #[inline(always)]
    pub fn set32(&mut self, n: u8, v: &[u32; 32], lanes: u32) {
        let row = &mut self.r[usize::from(n & 127)];
        if lanes == u32::MAX {
            *row = *v;
        } else {
            for (l, slot) in row.iter_mut().enumerate() {
                let m = 0u32.wrapping_sub((lanes >> l) & 1);
                *slot = (*slot & !m) | (v[l] & m);
            }
        }
    }

    /// The value of `reg` in every lane, zero-extended to 64 bits.
    pub fn read64(&self, reg: Reg) -> [u64; 32] {
        match reg {
            Reg::Half(h) => lanes::map(&self.half(h), u64::from),
            Reg::R32(n) => lanes::map(&self.r[usize::from(n)], u64::from),
            Reg::R64(n) => {
                let lo = &self.r[usize::from(n)];
                let hi = &self.r[usize::from(n) + 1];
                lanes::zip(lo, hi, |a, b| u64::from(a) | u64::from(b) << 32)
            }
        }
    }

    /// The value of `reg` in every lane, truncated or zero-extended to 32 bits.
    #[inline(always)]
    pub fn read32(&self, reg: Reg) -> [u32; 32] {
        match reg {
            Reg::Half(h) => self.half(h),
            Reg::R32(n) | Reg::R64(n) => self.r[usize::from(n)],
        }
    }

    /// Writes `v` (truncated to the register's width) into `reg` for `lanes`, without checks.
    pub fn store64(&mut self, reg: Reg, v: &[u64; 32], lanes: u32) {
        match reg {
            Reg::Half(h) => self.set_half(h, &lanes::map(v, |x| x as u32), lanes),
            Reg::R32(n) => self.set32(n, &lanes::map(v, |x| x as u32), lanes),
            Reg::R64(n) => {
                self.set32(n, &lanes::map(v, |x| x as u32), lanes);
                self.set32(n + 1, &lanes::map(v, |x| (x >> 32) as u32), lanes);
            }
        }
    }

    /// Writes `v` (truncated to the register's width, zero-extended into a 64-bit pair) into
    /// `reg` for `lanes`, without checks.
    #[inline(always)]
    pub fn store32(&mut self, reg: Reg, v: &[u32; 32], lanes: u32) {
        match reg {
            Reg::Half(h) => self.set_half(h, v, lanes),
            Reg::R32(n) => self.set32(n, v, lanes),
            Reg::R64(n) => {
                self.set32(n, v, lanes);
                self.set32(n + 1, &[0; 32], lanes);
            }
        }
    }
}
