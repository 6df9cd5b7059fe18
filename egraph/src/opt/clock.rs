//! The clock `egg` reads, without a calibration per process.
//!
//! `egg` times its runs (the runner's phases and time limit, `EGraph::rebuild`'s log line) with
//! `quanta`, whose first reading in a process calibrates the CPU's time-stamp counter against
//! the operating system's clock in a busy loop: at least 500 rounds of a microsecond, until the
//! error is small or 200 ms have passed (`quanta`'s documentation says 10 to 20 ms is usual).
//! That is a fixed cost of every `agxc` process that optimizes, however small the shader (a
//! tenth of a typical compile). So `egg` runs under a `quanta` mock clock (`quanta::with_clock`,
//! per thread) that the optimizer advances from `std::time::Instant` at the points where the
//! runner looks at the time: when an iteration starts, after each rule's search (the
//! scheduler checks the limits there) and after each rule's application. The time limit then
//! sees the real elapsed time at every check, and the report's search and apply times are the
//! real ones; `egg`'s own rebuild time reads zero (nothing advances the clock during a
//! rebuild), so the report derives it from the run's total instead.

use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A mock `quanta` clock that follows the real time when told to.
pub struct EggClock {
    clock: quanta::Clock,
    mock: Arc<quanta::Mock>,
    start: Instant,
    /// Real time since `start` that the mock clock has been advanced by.
    synced: Cell<Duration>,
}

impl Default for EggClock {
    fn default() -> Self {
        EggClock::new()
    }
}

impl EggClock {
    /// A clock at the current time.
    pub fn new() -> Self {
        let (clock, mock) = quanta::Clock::mock();
        EggClock {
            clock,
            mock,
            start: Instant::now(),
            synced: Cell::new(Duration::ZERO),
        }
    }

    /// Advances the clock `egg` reads to the real time.
    pub fn sync(&self) {
        let now = self.start.elapsed();
        let behind = now.saturating_sub(self.synced.get());
        if !behind.is_zero() {
            self.mock.increment(behind);
            self.synced.set(now);
        }
    }

    /// Runs `f` (calls into `egg`) with this clock as the one `egg` reads.
    pub fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        self.sync();
        quanta::with_clock(&self.clock, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mock_follows_the_real_time_when_synced() {
        let c = EggClock::new();
        c.run(|| {
            let t0 = quanta::Instant::now();
            std::thread::sleep(Duration::from_millis(5));
            // Not advanced yet: egg would see no time pass.
            assert_eq!(quanta::Instant::now(), t0);
            c.sync();
            let seen = quanta::Instant::now().duration_since(t0);
            assert!(seen >= Duration::from_millis(5), "{seen:?}");
        });
    }
}
