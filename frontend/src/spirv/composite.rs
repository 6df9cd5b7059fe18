//! Composite and matrix instructions: construction, extraction and insertion, shuffles, dynamic
//! vector indexing, and the linear-algebra instructions (dot products and matrix products, in
//! component order: `a0*b0 + a1*b1 + ...`, each product and sum its own operation).

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use super::value::{Agg, Index};
use agxc_egraph::ir::{PureOp, Value};
use smallvec::SmallVec;
use spirv::Op;

type Column = SmallVec<[Value; 4]>;

impl<'m> Lowerer<'m> {
    /// Binds a composite result after checking its scalars against the result type.
    pub fn bind_checked(&mut self, inst: &Inst, value: Agg) -> Result<(), SpirvError> {
        let mut leaves = Vec::new();
        value.leaves(&mut leaves);
        let expected = self.types.leaf_types(inst.result_ty()?, inst)?;
        if leaves
            .iter()
            .map(|&v| self.ty(v))
            .ne(expected.iter().copied())
        {
            return Err(inst.mismatch("the computed value does not match the result type"));
        }
        self.bind(inst, value)
    }

    /// Lifts a composite or matrix instruction; `false` if `inst` is not one.
    pub fn lower_composite(&mut self, inst: &Inst) -> Result<bool, SpirvError> {
        match inst.opcode {
            Op::CompositeConstruct => self.construct(inst)?,
            Op::CompositeExtract => {
                let whole = self.operand(inst, 0)?;
                let path = self.literal_path(inst, 1)?;
                let part = self.extract_path(inst, &whole, &path)?;
                self.bind_checked(inst, part)?;
            }
            Op::CompositeInsert => {
                let object = self.operand(inst, 0)?;
                let whole = self.operand(inst, 1)?;
                let path = self.literal_path(inst, 2)?;
                let new = self.replace_path(inst, &whole, &path, object)?;
                self.bind_checked(inst, new)?;
            }
            Op::VectorShuffle => self.shuffle(inst)?,
            Op::VectorExtractDynamic => {
                let v = self.operand_components(inst, 0)?;
                let ix = self.operand_scalar(inst, 1)?;
                if !self.ty(ix).is_int() {
                    return Err(inst.mismatch("the index is not an integer"));
                }
                let items: Vec<Agg> = v.iter().map(|&x| Agg::Scalar(x)).collect();
                let picked = self.select_dynamic(inst, ix, &items)?;
                self.bind_checked(inst, picked)?;
            }
            Op::VectorInsertDynamic => {
                let v = self.operand_components(inst, 0)?;
                let c = self.operand_scalar(inst, 1)?;
                let ix = self.operand_scalar(inst, 2)?;
                let ty = self.ty(ix);
                if !ty.is_int() {
                    return Err(inst.mismatch("the index is not an integer"));
                }
                let mut out = Vec::new();
                for (j, &x) in v.iter().enumerate() {
                    let k = self.iconst(ty, j as i64);
                    let hit = self.pure(PureOp::Ieq, &[ix, k]);
                    out.push(self.pure_checked(inst, PureOp::Select, &[hit, c, x])?);
                }
                self.bind_components(inst, &out)?;
            }
            Op::CopyObject | Op::CopyLogical => {
                let v = self.operand(inst, 0)?;
                self.bind(inst, v)?;
            }
            Op::Transpose => {
                let m = self.matrix(inst, 0)?;
                let rows = m.first().map_or(0, |c| c.len());
                let t: Vec<Agg> = (0..rows)
                    .map(|r| Agg::vector(m.iter().map(|col| col[r])))
                    .collect();
                self.bind_checked(inst, Agg::composite(t))?;
            }
            Op::Dot => {
                let a = self.operand_components(inst, 0)?;
                let b = self.operand_components(inst, 1)?;
                let d = self.dot_checked(inst, &a, &b)?;
                self.bind_components(inst, &[d])?;
            }
            Op::VectorTimesScalar => {
                let v = self.operand_components(inst, 0)?;
                let s = self.operand_scalar(inst, 1)?;
                let mut out = Vec::new();
                for &x in &v {
                    out.push(self.pure_checked(inst, PureOp::Fmul, &[x, s])?);
                }
                self.bind_components(inst, &out)?;
            }
            Op::MatrixTimesScalar => {
                let m = self.matrix(inst, 0)?;
                let s = self.operand_scalar(inst, 1)?;
                let mut cols = Vec::new();
                for col in &m {
                    let mut out = Vec::new();
                    for &x in col {
                        out.push(self.pure_checked(inst, PureOp::Fmul, &[x, s])?);
                    }
                    cols.push(Agg::vector(out));
                }
                self.bind_checked(inst, Agg::composite(cols))?;
            }
            Op::VectorTimesMatrix => {
                let v = self.operand_components(inst, 0)?;
                let m = self.matrix(inst, 1)?;
                let mut out = Vec::new();
                for col in &m {
                    out.push(self.dot_checked(inst, &v, col)?);
                }
                self.bind_components(inst, &out)?;
            }
            Op::MatrixTimesVector => {
                let m = self.matrix(inst, 0)?;
                let v = self.operand_components(inst, 1)?;
                let out = self.matrix_times_vector(inst, &m, &v)?;
                self.bind_components(inst, &out)?;
            }
            Op::MatrixTimesMatrix => {
                let a = self.matrix(inst, 0)?;
                let b = self.matrix(inst, 1)?;
                let mut cols = Vec::new();
                for col in &b {
                    cols.push(Agg::vector(self.matrix_times_vector(inst, &a, col)?));
                }
                self.bind_checked(inst, Agg::composite(cols))?;
            }
            Op::OuterProduct => {
                let a = self.operand_components(inst, 0)?;
                let b = self.operand_components(inst, 1)?;
                let mut cols = Vec::new();
                for &y in &b {
                    let mut col = Vec::new();
                    for &x in &a {
                        col.push(self.pure_checked(inst, PureOp::Fmul, &[x, y])?);
                    }
                    cols.push(Agg::vector(col));
                }
                self.bind_checked(inst, Agg::composite(cols))?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn literal_path(&self, inst: &Inst, from: usize) -> Result<Vec<Index>, SpirvError> {
        (from..inst.operands.len())
            .map(|i| inst.literal(i).map(Index::Const))
            .collect()
    }

    fn construct(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let ty = inst.result_ty()?;
        let mut parts = Vec::new();
        for i in 0..inst.operands.len() {
            parts.push(self.operand(inst, i)?);
        }
        if self.types.is_vector(ty) {
            // Vector constituents are scalars or vectors, concatenated.
            let mut comps = Vec::new();
            for p in &parts {
                comps.extend(p.components().ok_or_else(|| {
                    inst.mismatch("vector constituent is not a scalar or vector")
                })?);
            }
            return self.bind_components(inst, &comps);
        }
        self.bind_checked(inst, Agg::composite(parts))
    }

    fn shuffle(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let mut all = self.operand_components(inst, 0)?;
        all.extend(self.operand_components(inst, 1)?);
        let (scalar, _) = self.types.components(inst.result_ty()?, inst)?;
        let mut out = Vec::new();
        for i in 2..inst.operands.len() {
            let c = inst.literal(i)?;
            // 0xFFFFFFFF selects an undefined component.
            let v = match all.get(c as usize) {
                Some(&v) => v,
                None if c == u32::MAX => self.zero(scalar),
                None => return Err(inst.invalid(format!("shuffle component {c} out of range"))),
            };
            out.push(v);
        }
        self.bind_components(inst, &out)
    }

    /// Operand `i` as a matrix: its columns.
    fn matrix(&mut self, inst: &Inst, i: usize) -> Result<Vec<Column>, SpirvError> {
        let m = self.operand(inst, i)?;
        let cols = m
            .children()
            .ok_or_else(|| inst.mismatch(format!("operand {i} is not a matrix")))?;
        let cols: Vec<Column> = cols
            .iter()
            .map(|c| {
                c.components()
                    .ok_or_else(|| inst.mismatch(format!("operand {i} is not a matrix")))
            })
            .collect::<Result<_, _>>()?;
        let rows = cols.first().map_or(0, |c| c.len());
        if cols.is_empty() || cols.iter().any(|c| c.len() != rows) {
            return Err(inst.mismatch(format!("operand {i} is not a matrix")));
        }
        Ok(cols)
    }

    /// `sum_c m[c] * v[c]`.
    pub fn matrix_times_vector(
        &mut self,
        inst: &Inst,
        m: &[Column],
        v: &[Value],
    ) -> Result<Vec<Value>, SpirvError> {
        if m.len() != v.len() {
            return Err(inst.mismatch("matrix columns and vector size differ"));
        }
        let rows = m.first().map_or(0, |c| c.len());
        let mut out = Vec::with_capacity(rows);
        for r in 0..rows {
            let row: Vec<Value> = m.iter().map(|col| col[r]).collect();
            out.push(self.dot_checked(inst, &row, v)?);
        }
        Ok(out)
    }

    /// A dot product of operands from the module (types checked).
    pub fn dot_checked(
        &mut self,
        inst: &Inst,
        a: &[Value],
        b: &[Value],
    ) -> Result<Value, SpirvError> {
        if a.len() != b.len() || a.is_empty() {
            return Err(inst.mismatch("dot product of vectors of different sizes"));
        }
        let mut acc = self.pure_checked(inst, PureOp::Fmul, &[a[0], b[0]])?;
        for (&x, &y) in a.iter().zip(b).skip(1) {
            let p = self.pure_checked(inst, PureOp::Fmul, &[x, y])?;
            acc = self.pure(PureOp::Fadd, &[acc, p]);
        }
        Ok(acc)
    }
}
