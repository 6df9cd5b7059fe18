//! Flow control and the execution-mask stack, exactly as the document's pseudocode: the stack
//! instructions update `r0l` of every thread that exists (active or not) and then set
//! `exec[t] = (r0l[t] == 0)`.

use super::alu::compare;
use super::{Flow, Machine, SimdGroup};
use crate::decode::inst::{Decoded, Inst, Reg, StackOp};
use crate::error::ExecErrorKind;

type Step = Result<Flow, ExecErrorKind>;

const R0L: Reg = Reg::Half(0);

impl Machine<'_> {
    pub(super) fn control_op(&mut self, g: &mut SimdGroup, d: &Decoded) -> Step {
        let pc = i64::from(d.pc);
        match d.inst {
            Inst::Stop => Ok(Flow::Stop),
            Inst::Trap => Err(ExecErrorKind::Trap),
            Inst::JmpIncomplete { .. } => Ok(Flow::Next),
            Inst::JmpExecAny { offset } => Ok(if g.exec != 0 {
                Flow::Jump(pc + i64::from(offset))
            } else {
                Flow::Next
            }),
            Inst::JmpExecNone { offset } => Ok(if g.exec == 0 {
                Flow::Jump(pc + i64::from(offset))
            } else {
                Flow::Next
            }),
            Inst::CallImm { offset } => {
                let ret = d.pc + u32::from(d.len);
                g.regs.prepare_write(Reg::R32(1), g.exec)?;
                g.regs.set32(1, &[ret; 32], g.exec);
                Ok(Flow::Jump(pc + i64::from(offset)))
            }
            Inst::CallReg { reg } => {
                let target = uniform_value(g, d, reg, "call target")?;
                let ret = d.pc + u32::from(d.len);
                g.regs.prepare_write(Reg::R32(1), g.exec)?;
                g.regs.set32(1, &[ret; 32], g.exec);
                Ok(Flow::Jump(i64::from(target)))
            }
            Inst::Ret { reg } => {
                let target = uniform_value(g, d, reg, "return address")?;
                Ok(Flow::Jump(i64::from(target)))
            }
            Inst::PopExec { n, .. } => {
                g.regs.check_read(R0L, g.live)?;
                let v = g.regs.half(0);
                let r = crate::lanes::map(&v, |x| x.saturating_sub(u32::from(n)));
                self.set_r0l(g, &r)?;
                Ok(Flow::Next)
            }
            Inst::ExecStack { op, cmp, n, .. } => {
                g.regs.check_read(R0L, g.live)?;
                let v = g.regs.half(0);
                let n = u32::from(n);
                // Only threads with r0l == 0 (if/else: == 0 or == 1) evaluate the comparison.
                let evaluating = match op {
                    StackOp::If => lanes_where(&v, g.live, |x| x == 0),
                    StackOp::Else => lanes_where(&v, g.live, |x| x == 1),
                    StackOp::While => lanes_where(&v, g.live, |x| x < n),
                };
                let cond = if evaluating != 0 {
                    compare(self, g, &cmp, evaluating)?
                } else {
                    0
                };
                let r = std::array::from_fn(|l| {
                    let x = v[l];
                    let c = cond >> l & 1 == 1;
                    match op {
                        StackOp::If => {
                            if x != 0 {
                                (x + n) & 0xffff
                            } else if !c {
                                1
                            } else {
                                0
                            }
                        }
                        StackOp::Else => {
                            if x == 0 {
                                n
                            } else if x == 1 {
                                u32::from(!c)
                            } else {
                                x
                            }
                        }
                        StackOp::While => {
                            if x < n {
                                if c {
                                    0
                                } else {
                                    n
                                }
                            } else {
                                x
                            }
                        }
                    }
                });
                self.set_r0l(g, &r)?;
                Ok(Flow::Next)
            }
            Inst::Barrier => Ok(Flow::Barrier),
            _ => unreachable!("invariant: control_op receives control instructions"),
        }
    }

    /// Writes `r0l` for every thread that exists and recomputes the execution mask from it.
    fn set_r0l(&self, g: &mut SimdGroup, v: &[u32; 32]) -> Result<(), ExecErrorKind> {
        g.regs.prepare_write(R0L, g.live)?;
        g.regs.set_half(0, v, g.live);
        g.exec = lanes_where(v, g.live, |x| x & 0xffff == 0);
        Ok(())
    }
}

fn lanes_where(v: &[u32; 32], live: u32, f: impl Fn(u32) -> bool) -> u32 {
    let mut m = 0;
    for (l, &x) in v.iter().enumerate() {
        if f(x) {
            m |= 1 << l;
        }
    }
    m & live
}

/// The value of `r<reg>`, which the active threads must agree on (with none active, the first
/// thread that exists decides).
fn uniform_value(
    g: &SimdGroup,
    d: &Decoded,
    reg: u8,
    what: &'static str,
) -> Result<u32, ExecErrorKind> {
    let lanes = if g.exec != 0 {
        g.exec
    } else {
        g.live & g.live.wrapping_neg()
    };
    g.regs.check_read(Reg::R32(reg), lanes)?;
    let values = &g.regs.r[usize::from(reg)];
    let first_thread = lanes.trailing_zeros().min(31);
    let first = values[first_thread as usize];
    for (l, &value) in values.iter().enumerate() {
        if lanes >> l & 1 == 1 && value != first {
            return Err(ExecErrorKind::Divergent {
                opcode: d.opcode,
                what,
                first,
                first_thread,
                other: value,
                other_thread: l as u32,
            });
        }
    }
    Ok(first)
}
