//! Recovers the structured control flow of a TGSI program.
//!
//! TGSI's control flow is already structured (IF/UIF ... ELSE ... ENDIF, BGNLOOP ... ENDLOOP,
//! BGNSUB ... ENDSUB), but written as a flat instruction list with markers. This pass turns
//! it into a tree of [`Stmt`]s, checking that the markers balance, and inlines every
//! subroutine call (`CAL`): the graph IR has no calls.
//!
//! A subroutine whose `RET` sits inside an IF is wrapped in a loop that runs once, and the
//! `RET` becomes a `break` out of it; a `RET` inside one of the subroutine's own loops would
//! need a multi-level break and is reported as unsupported, as is recursion. The main program
//! ends at its top-level `END`; instructions after it are only reached through `CAL`.

use super::ast::{Instruction, Program};
use super::error::{Pos, Result, TgsiError};
use super::limits::{MAX_CALL_DEPTH, MAX_NESTING, MAX_TREE_STATEMENTS};
use super::opcode::Opcode;

/// A structured statement. Instructions are referred to by their index in
/// [`Program::insts`]; an inlined subroutine's instructions appear once per call.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// An ordinary instruction.
    Op(usize),
    /// `IF`/`UIF`/`BREAKC` on the condition of instruction `inst`.
    If {
        /// Unique id of this construct (for per-construct tables).
        node: usize,
        /// The instruction holding the condition.
        inst: usize,
        /// Statements run when the condition holds.
        then_: Vec<Stmt>,
        /// Statements run otherwise.
        else_: Vec<Stmt>,
    },
    /// `BGNLOOP ... ENDLOOP`, or a subroutine wrapper (`once`).
    Loop {
        /// Unique id of this construct.
        node: usize,
        /// The `BGNLOOP` (or the `CAL` for a wrapper).
        inst: usize,
        /// The body.
        body: Vec<Stmt>,
        /// A wrapper that runs its body once: falling off the end leaves the loop.
        once: bool,
    },
    /// `BRK`, or a `RET` inside a wrapped subroutine.
    Break(usize),
    /// `CONT`.
    Continue(usize),
    /// `RET` in the main program, or `END`: write the outputs and stop.
    Return(usize),
}

/// The structured program.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// The main program's statements.
    pub body: Vec<Stmt>,
    /// The number of constructs (`node` ids are `0..nodes`).
    pub nodes: usize,
}

/// What closes the block being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Main,
    Then,
    Else,
    Loop,
    Sub,
}

/// A statement inside a subroutine before wrapping: `RET` is kept apart until the body is
/// known, because its meaning depends on where it sits.
#[derive(Clone, Debug)]
enum Raw {
    Stmt(Stmt),
    If {
        node: usize,
        inst: usize,
        then_: Vec<Raw>,
        else_: Vec<Raw>,
    },
    Loop {
        node: usize,
        inst: usize,
        body: Vec<Raw>,
    },
    SubReturn(usize),
}

struct Builder<'p> {
    insts: &'p [Instruction],
    nodes: usize,
    statements: usize,
    depth: usize,
    calls: Vec<usize>,
}

/// Builds the statement tree of `program`.
pub fn structure(program: &Program) -> Result<Tree> {
    let mut b = Builder {
        insts: &program.insts,
        nodes: 0,
        statements: 0,
        depth: 0,
        calls: Vec::new(),
    };
    let (raw, _, _) = b.block(0, Context::Main, 0)?;
    let body = finish(raw, false, &mut b)?;
    Ok(Tree {
        body,
        nodes: b.nodes,
    })
}

impl Builder<'_> {
    fn pos(&self, i: usize) -> Pos {
        self.insts.get(i).map_or(Pos::default(), |inst| inst.pos)
    }

    fn node(&mut self) -> usize {
        self.nodes += 1;
        self.nodes - 1
    }

    fn count(&mut self, i: usize) -> Result<()> {
        self.statements += 1;
        if self.statements > MAX_TREE_STATEMENTS {
            return Err(TgsiError::limit(
                self.pos(i),
                format!("more than {MAX_TREE_STATEMENTS} statements after inlining subroutines"),
            ));
        }
        Ok(())
    }

    fn enter(&mut self, i: usize) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(TgsiError::limit(
                self.pos(i),
                format!("control flow nested deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }

    /// Reads statements from `start` until the marker that closes `ctx`; returns them, the
    /// index of that marker (or `insts.len()`) and its opcode. `loops` counts the loops that
    /// enclose this block, including those of callers.
    fn block(
        &mut self,
        start: usize,
        ctx: Context,
        loops: usize,
    ) -> Result<(Vec<Raw>, usize, Option<Opcode>)> {
        let mut out = Vec::new();
        let mut i = start;
        while i < self.insts.len() {
            let inst = &self.insts[i];
            let op = inst.opcode;
            self.count(i)?;
            match op {
                Opcode::END if ctx == Context::Main => {
                    return Ok((push(out, Raw::Stmt(Stmt::Return(i))), i, Some(op)))
                }
                Opcode::END => out.push(Raw::Stmt(Stmt::Return(i))),
                Opcode::ELSE if ctx == Context::Then => return Ok((out, i, Some(op))),
                Opcode::ENDIF if matches!(ctx, Context::Then | Context::Else) => {
                    return Ok((out, i, Some(op)))
                }
                Opcode::ENDLOOP if ctx == Context::Loop => return Ok((out, i, Some(op))),
                Opcode::ENDSUB if ctx == Context::Sub => return Ok((out, i, Some(op))),
                Opcode::ELSE | Opcode::ENDIF | Opcode::ENDLOOP | Opcode::ENDSUB => {
                    return Err(TgsiError::invalid(
                        inst.pos,
                        format!("{} without a matching {}", op.name(), opener(op)),
                    ))
                }
                Opcode::IF | Opcode::UIF => {
                    self.enter(i)?;
                    let (then_, end, closer) = self.block(i + 1, Context::Then, loops)?;
                    let (else_, end) = match closer {
                        Some(Opcode::ELSE) => {
                            let (e, end, closer) = self.block(end + 1, Context::Else, loops)?;
                            self.expect_closer(i, closer, Opcode::ENDIF)?;
                            (e, end)
                        }
                        _ => {
                            self.expect_closer(i, closer, Opcode::ENDIF)?;
                            (Vec::new(), end)
                        }
                    };
                    self.depth -= 1;
                    let node = self.node();
                    out.push(Raw::If {
                        node,
                        inst: i,
                        then_,
                        else_,
                    });
                    i = end;
                }
                Opcode::BGNLOOP => {
                    self.enter(i)?;
                    let (body, end, closer) = self.block(i + 1, Context::Loop, loops + 1)?;
                    self.expect_closer(i, closer, Opcode::ENDLOOP)?;
                    self.depth -= 1;
                    let node = self.node();
                    out.push(Raw::Loop {
                        node,
                        inst: i,
                        body,
                    });
                    i = end;
                }
                Opcode::BRK | Opcode::CONT | Opcode::BREAKC => {
                    if loops == 0 {
                        return Err(TgsiError::invalid(
                            inst.pos,
                            format!("{} outside a loop", op.name()),
                        ));
                    }
                    out.push(Raw::Stmt(match op {
                        Opcode::BRK => Stmt::Break(i),
                        Opcode::CONT => Stmt::Continue(i),
                        _ => Stmt::If {
                            node: self.node(),
                            inst: i,
                            then_: vec![Stmt::Break(i)],
                            else_: Vec::new(),
                        },
                    }));
                }
                Opcode::RET if matches!(ctx, Context::Main) || self.calls.is_empty() => {
                    out.push(Raw::Stmt(Stmt::Return(i)))
                }
                Opcode::RET => out.push(Raw::SubReturn(i)),
                Opcode::CAL => {
                    let body = self.call(i, loops)?;
                    out.extend(body.into_iter().map(Raw::Stmt));
                }
                Opcode::BGNSUB => {
                    // A subroutine body in the instruction stream is only run through CAL.
                    i = self.skip_sub(i)?;
                }
                Opcode::SWITCH | Opcode::CASE | Opcode::DEFAULT | Opcode::ENDSWITCH => {
                    return Err(TgsiError::unsupported(
                        inst.pos,
                        op.name(),
                        "SWITCH (Mesa lowers it to IF chains before TGSI)",
                    ))
                }
                Opcode::BGNFOR | Opcode::ENDFOR | Opcode::REP | Opcode::ENDREP => {
                    return Err(TgsiError::unsupported(
                        inst.pos,
                        op.name(),
                        "the loop-register loops of NV_vertex_program2 (removed from Gallium)",
                    ))
                }
                Opcode::BRA | Opcode::CALLNZ | Opcode::IFC => {
                    return Err(TgsiError::unsupported(
                        inst.pos,
                        op.name(),
                        "unstructured or predicated control flow (removed from Gallium)",
                    ))
                }
                _ => out.push(Raw::Stmt(Stmt::Op(i))),
            }
            i += 1;
        }
        Ok((out, self.insts.len(), None))
    }

    fn expect_closer(&self, opener_at: usize, closer: Option<Opcode>, want: Opcode) -> Result<()> {
        if closer == Some(want) {
            Ok(())
        } else {
            let op = self.insts[opener_at].opcode;
            Err(TgsiError::invalid(
                self.pos(opener_at),
                format!("{} without a matching {}", op.name(), want.name()),
            ))
        }
    }

    /// The index of the ENDSUB matching the BGNSUB at `at`.
    fn skip_sub(&self, at: usize) -> Result<usize> {
        let mut depth = 0usize;
        for (j, inst) in self.insts.iter().enumerate().skip(at) {
            match inst.opcode {
                Opcode::BGNSUB => depth += 1,
                Opcode::ENDSUB => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(j);
                    }
                }
                _ => {}
            }
        }
        Err(TgsiError::invalid(
            self.pos(at),
            "BGNSUB without a matching ENDSUB",
        ))
    }

    /// Inlines the subroutine called by the `CAL` at `at`.
    fn call(&mut self, at: usize, loops: usize) -> Result<Vec<Stmt>> {
        let inst = &self.insts[at];
        let Some(target) = inst.target else {
            return Err(TgsiError::invalid(inst.pos, "CAL needs a `:label` target"));
        };
        let target = target as usize;
        if target >= self.insts.len() {
            return Err(TgsiError::invalid(
                inst.pos,
                format!(
                    "CAL target :{target} is not an instruction (the program has {})",
                    self.insts.len()
                ),
            ));
        }
        let start = if self.insts[target].opcode == Opcode::BGNSUB {
            target + 1
        } else {
            target
        };
        if self.calls.contains(&start) {
            return Err(TgsiError::unsupported(inst.pos, "CAL", "recursion"));
        }
        if self.calls.len() >= MAX_CALL_DEPTH {
            return Err(TgsiError::limit(
                inst.pos,
                format!("subroutine calls nested deeper than {MAX_CALL_DEPTH}"),
            ));
        }
        self.calls.push(start);
        let (raw, _, closer) = self.block(start, Context::Sub, loops)?;
        self.calls.pop();
        if closer != Some(Opcode::ENDSUB) {
            return Err(TgsiError::invalid(
                self.pos(target),
                format!("the subroutine at :{target} has no ENDSUB"),
            ));
        }
        self.enter(at)?;
        let body = finish(raw, true, self).map_err(|e| match e {
            TgsiError::Unsupported { what, .. } => {
                TgsiError::unsupported(self.pos(at), "CAL", what)
            }
            other => other,
        });
        self.depth -= 1;
        let body = body?;
        Ok(body)
    }
}

fn push(mut v: Vec<Raw>, r: Raw) -> Vec<Raw> {
    v.push(r);
    v
}

fn opener(op: Opcode) -> &'static str {
    match op {
        Opcode::ELSE | Opcode::ENDIF => "IF",
        Opcode::ENDLOOP => "BGNLOOP",
        _ => "BGNSUB",
    }
}

/// What a subroutine body's `RET`s need.
#[derive(Default)]
struct RetUse {
    /// A `RET` inside an IF (not inside the subroutine's own loops).
    nested: bool,
    /// A `RET` inside one of the subroutine's own loops.
    in_loop: bool,
    /// A `BRK`/`CONT` that leaves the subroutine (targets a caller's loop).
    escapes: bool,
}

fn scan(raw: &[Raw], in_if: bool, in_loop: bool, use_: &mut RetUse) {
    for r in raw {
        match r {
            Raw::SubReturn(_) if in_loop => use_.in_loop = true,
            Raw::SubReturn(_) if in_if => use_.nested = true,
            Raw::SubReturn(_) => {}
            Raw::If { then_, else_, .. } => {
                scan(then_, true, in_loop, use_);
                scan(else_, true, in_loop, use_);
            }
            Raw::Loop { body, .. } => scan(body, in_if, true, use_),
            Raw::Stmt(s) => {
                if !in_loop && escapes(s) {
                    use_.escapes = true;
                }
            }
        }
    }
}

/// True if the statement breaks or continues a loop outside itself.
fn escapes(s: &Stmt) -> bool {
    match s {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If { then_, else_, .. } => then_.iter().chain(else_).any(escapes),
        _ => false,
    }
}

/// Turns raw statements into final ones. In a subroutine (`sub`), a top-level `RET` ends the
/// body and a nested one needs the run-once wrapper.
fn finish(raw: Vec<Raw>, sub: bool, b: &mut Builder<'_>) -> Result<Vec<Stmt>> {
    if !sub {
        return Ok(convert(raw));
    }
    let mut use_ = RetUse::default();
    scan(&raw, false, false, &mut use_);
    if use_.in_loop {
        return Err(TgsiError::unsupported(
            Pos::default(),
            "CAL",
            "RET inside a loop of a subroutine",
        ));
    }
    // Everything after a top-level RET is dead.
    let cut = raw.iter().position(|r| matches!(r, Raw::SubReturn(_)));
    let raw: Vec<Raw> = match cut {
        Some(i) => raw.into_iter().take(i).collect(),
        None => raw,
    };
    if !use_.nested {
        return Ok(convert(raw));
    }
    if use_.escapes {
        return Err(TgsiError::unsupported(
            Pos::default(),
            "CAL",
            "a subroutine with both a nested RET and a BRK or CONT of the caller's loop",
        ));
    }
    let inst = b.calls.last().copied().unwrap_or(0);
    let node = b.node();
    Ok(vec![Stmt::Loop {
        node,
        inst,
        body: convert(raw),
        once: true,
    }])
}

fn convert(raw: Vec<Raw>) -> Vec<Stmt> {
    raw.into_iter()
        .map(|r| match r {
            Raw::Stmt(s) => s,
            Raw::If {
                node,
                inst,
                then_,
                else_,
            } => Stmt::If {
                node,
                inst,
                then_: convert(then_),
                else_: convert(else_),
            },
            Raw::Loop { node, inst, body } => Stmt::Loop {
                node,
                inst,
                body: convert(body),
                once: false,
            },
            // Only left inside a run-once wrapper (top-level RETs were cut, RETs in loops
            // rejected), where returning from the subroutine is leaving the wrapper.
            Raw::SubReturn(i) => Stmt::Break(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tgsi::parser::parse;

    fn tree(text: &str) -> Result<Tree> {
        structure(&parse(text)?)
    }

    #[test]
    fn nests_if_else_and_loops() {
        let t = tree(
            "COMP\nDCL TEMP[0]\nBGNLOOP\nUIF TEMP[0].xxxx\nBRK\nELSE\nCONT\nENDIF\nENDLOOP\nEND\n",
        )
        .unwrap();
        let [Stmt::Loop {
            body, once: false, ..
        }, Stmt::Return(7)] = &t.body[..]
        else {
            panic!("{t:?}")
        };
        let [Stmt::If { then_, else_, .. }] = &body[..] else {
            panic!("{body:?}")
        };
        assert_eq!(then_, &vec![Stmt::Break(2)]);
        assert_eq!(else_, &vec![Stmt::Continue(4)]);
    }

    #[test]
    fn inlines_subroutines_and_wraps_nested_returns() {
        let t = tree(
            "VERT\nDCL TEMP[0]\nCAL :2\nEND\nBGNSUB\nUIF TEMP[0].xxxx\nRET\nENDIF\nNOP\nRET\nENDSUB\n",
        )
        .unwrap();
        let [Stmt::Loop {
            body, once: true, ..
        }, Stmt::Return(1)] = &t.body[..]
        else {
            panic!("{t:?}")
        };
        assert!(
            matches!(&body[..], [Stmt::If { .. }, Stmt::Op(6)]),
            "{body:?}"
        );
    }

    #[test]
    fn reports_unbalanced_markers_with_positions() {
        assert_eq!(
            tree("FRAG\nDCL TEMP[0]\nENDIF\n").unwrap_err(),
            TgsiError::invalid(Pos::new(3, 1), "ENDIF without a matching IF")
        );
        assert_eq!(
            tree("FRAG\nDCL TEMP[0]\n  UIF TEMP[0].xxxx\nEND\n").unwrap_err(),
            TgsiError::invalid(Pos::new(3, 3), "UIF without a matching ENDIF")
        );
        assert_eq!(
            tree("FRAG\nBRK\n").unwrap_err(),
            TgsiError::invalid(Pos::new(2, 1), "BRK outside a loop")
        );
        assert!(matches!(
            tree("VERT\nCAL :0\nEND\n").unwrap_err(),
            TgsiError::Unsupported { opcode: "CAL", .. }
        ));
    }
}
