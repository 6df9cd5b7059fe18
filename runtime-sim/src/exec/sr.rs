//! Special registers read by `get_sr`. The ISA document gives no numbering; this simulator uses
//! Mesa's (`enum agx_sr` in the AGX compiler), listed in the crate docs with what each reports
//! here.

use super::operand::Lanes;
use super::{Machine, SimdGroup};
use crate::error::ExecErrorKind;
use crate::program::Stage;

/// The name of special register `sr`, if the simulator knows it.
pub fn special_register_name(sr: u8) -> Option<&'static str> {
    Some(match sr {
        0 => "threadgroup_position_in_grid.x",
        1 => "threadgroup_position_in_grid.y",
        2 => "threadgroup_position_in_grid.z",
        4 => "threads_per_threadgroup.x",
        5 => "threads_per_threadgroup.y",
        6 => "threads_per_threadgroup.z",
        8 => "dispatch_threads_per_threadgroup.x",
        9 => "dispatch_threads_per_threadgroup.y",
        10 => "dispatch_threads_per_threadgroup.z",
        20 => "core_index",
        21 => "vm_slot",
        48 => "thread_position_in_threadgroup.x",
        49 => "thread_position_in_threadgroup.y",
        50 => "thread_position_in_threadgroup.z",
        51 => "thread_index_in_threadgroup",
        52 => "thread_index_in_simdgroup",
        53 => "simdgroup_index_in_threadgroup",
        56 => "active_thread_index_in_quad",
        58 => "active_thread_index_in_simdgroup",
        60 => "coverage_mask",
        62 => "backfacing",
        63 => "is_active_thread",
        80 => "thread_position_in_grid.x",
        81 => "thread_position_in_grid.y",
        82 => "thread_position_in_grid.z",
        124 => "input_sample_mask",
        _ => return None,
    })
}

impl Machine<'_> {
    /// The value of special register `sr` in every lane.
    pub(crate) fn special_register(
        &self,
        g: &SimdGroup,
        sr: u8,
    ) -> Result<Lanes<u32>, ExecErrorKind> {
        let ids = &g.ids;
        let lane = |f: &dyn Fn(usize) -> u32| -> Lanes<u32> { std::array::from_fn(f) };
        let exec = g.exec;
        let fragment = self.stage() == Stage::Fragment;
        Ok(match sr {
            0..=2 => [ids.group[usize::from(sr)]; 32],
            4..=6 => [ids.group_size[usize::from(sr - 4)]; 32],
            8..=10 => [ids.group_size[usize::from(sr - 8)]; 32],
            20 | 21 | 62 => [0; 32],
            48..=50 => ids.local[usize::from(sr - 48)],
            51 => ids.index_in_group,
            52 => lane(&|l| l as u32),
            53 => [ids.simd_in_group; 32],
            56 => lane(&|l| {
                let quad_below = exec >> (l & !3) & ((1u32 << (l & 3)) - 1);
                quad_below.count_ones()
            }),
            58 => lane(&|l| (exec & ((1u64 << l) - 1) as u32).count_ones()),
            60 if fragment => lane(&|l| u32::from(g.discarded >> l & 1 == 0)),
            63 => lane(&|l| exec >> l & 1),
            80..=82 => ids.global[usize::from(sr - 80)],
            124 if fragment => [1; 32],
            _ => {
                return Err(ExecErrorKind::SpecialRegister {
                    sr: u32::from(sr),
                    stage: self.stage().name(),
                })
            }
        })
    }
}
