//! The budgets of the optimizer's control-flow passes (`agxc_egraph::passes`) on the G13.
//!
//! They follow from what [`cflow`](crate::cflow) emits for structured control flow:
//!
//! - an `if` with both arms: `if_*cmp` (the comparison fused), `else_*cmp`, `pop_exec`: three
//!   instructions, plus a `jmp_exec_none` over an expensive arm;
//! - a loop: the push (`if_icmp 0 == 0, n=2`), `while_icmp`, the back edge `jmp_exec_any` and
//!   the final `pop_exec`, plus a `jmp_exec_none` over a loop that holds memory accesses: five;
//! - a `break`, a `continue` under an `if` and a `return` under control flow: `mov_imm r0l` and
//!   `pop_exec`: two;
//! - each value a `yield`, `break` or `continue` passes: a copy into the register the value
//!   lives in after the construct, when the allocator cannot give both the same register;
//! - each operand of a texture-unit instruction (`texture_sample`, `texture_load`,
//!   `image_write`): a copy into the run of consecutive registers the instruction reads.
//!
//! If-conversion: one `icmpsel`/`fcmpsel` per result replaces a branch that costs at least three
//! stack instructions and a copy per result in each arm; when the SIMD-group diverges, both arms
//! run anyway. Speculating an arm only costs when the branch would have been uniform, so arms
//! of up to [`IF_CONVERT_ARM_COST`] issue cycles are converted: Mesa's AGX compiler makes the
//! same trade with `nir_opt_peephole_select(nir, 64, ...)` in `agx_optimize_loop_nir`
//! (`src/asahi/compiler/agx_compile.c`), 64 instructions per arm.

use agxc_egraph::passes::{PassConfig, SizeModel, UnrollBudget};

/// Most issue cycles each arm of an `if` may cost to be converted to selects.
pub const IF_CONVERT_ARM_COST: f64 = 64.0;

/// The G13's execution-mask code, in instructions (see the module docs).
pub const SIZE_MODEL: SizeModel = SizeModel {
    if_cost: 3.0,
    loop_cost: 5.0,
    exit_cost: 2.0,
    copy_cost: 1.0,
    effect_cost: 1.0,
    texture_operand_cost: 1.0,
};

/// The configuration for the G13.
pub fn config() -> PassConfig {
    PassConfig {
        unroll: UnrollBudget::default(),
        if_convert_arm_cost: IF_CONVERT_ARM_COST,
        size: SIZE_MODEL,
    }
}
