//! Geometric and matrix functions: `Length`, `Distance`, `Cross`, `Normalize`, `FaceForward`,
//! `Reflect`, `Refract`, `Determinant`, `MatrixInverse` (2x2, 3x3 and 4x4, by cofactors).

use super::Comps;
use crate::spirv::context::Lowerer;
use crate::spirv::error::SpirvError;
use crate::spirv::module::Inst;
use crate::spirv::value::Agg;
use agxc_egraph::ir::{PureOp as P, Value};

impl<'m> Lowerer<'m> {
    /// a0*b0 + a1*b1 + ... (operands already checked).
    fn dot(&mut self, a: &[Value], b: &[Value]) -> Value {
        let mut acc = self.p(P::Fmul, &[a[0], b[0]]);
        for (&x, &y) in a.iter().zip(b).skip(1) {
            let m = self.p(P::Fmul, &[x, y]);
            acc = self.p(P::Fadd, &[acc, m]);
        }
        acc
    }

    fn float_vector(&mut self, inst: &Inst, i: usize) -> Result<Comps, SpirvError> {
        let v = self.operand_components(inst, 2 + i)?;
        self.float_args(inst, &v)?;
        Ok(v)
    }

    fn same_size(inst: &Inst, a: &[Value], b: &[Value]) -> Result<(), SpirvError> {
        if a.len() != b.len() {
            return Err(inst.mismatch("vectors of different sizes"));
        }
        Ok(())
    }

    fn length_of(&mut self, v: &[Value]) -> Value {
        if v.len() == 1 {
            return self.p(P::Fabs, &[v[0]]);
        }
        let d = self.dot(v, v);
        self.p(P::Sqrt, &[d])
    }

    pub(super) fn length(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let v = self.float_vector(inst, 0)?;
        let l = self.length_of(&v);
        self.bind_components(inst, &[l])
    }

    pub(super) fn distance(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let a = self.float_vector(inst, 0)?;
        let b = self.float_vector(inst, 1)?;
        Self::same_size(inst, &a, &b)?;
        let d: Vec<Value> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| self.p(P::Fsub, &[x, y]))
            .collect();
        let l = self.length_of(&d);
        self.bind_components(inst, &[l])
    }

    pub(super) fn cross(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let a = self.float_vector(inst, 0)?;
        let b = self.float_vector(inst, 1)?;
        if a.len() != 3 || b.len() != 3 {
            return Err(inst.mismatch("Cross expects two 3-component vectors"));
        }
        let mut out = Vec::new();
        for (i, j) in [(1, 2), (2, 0), (0, 1)] {
            let l = self.p(P::Fmul, &[a[i], b[j]]);
            let r = self.p(P::Fmul, &[a[j], b[i]]);
            out.push(self.p(P::Fsub, &[l, r]));
        }
        self.bind_components(inst, &out)
    }

    pub(super) fn normalize(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let v = self.float_vector(inst, 0)?;
        let d = self.dot(&v, &v);
        let r = self.p(P::Rsqrt, &[d]);
        let out: Vec<Value> = v.iter().map(|&x| self.p(P::Fmul, &[x, r])).collect();
        self.bind_components(inst, &out)
    }

    /// `dot(Nref, I) < 0 ? N : -N`.
    pub(super) fn face_forward(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let n = self.float_vector(inst, 0)?;
        let i = self.float_vector(inst, 1)?;
        let nref = self.float_vector(inst, 2)?;
        Self::same_size(inst, &n, &i)?;
        Self::same_size(inst, &n, &nref)?;
        let d = self.dot(&nref, &i);
        let zero = self.fk(d, 0.0);
        let front = self.p(P::Flt, &[d, zero]);
        // `N` times one sign picked once, rather than a negation and a select per component:
        // the product folds into a following add (`refract(..) + faceforward(..)` is one
        // `fma` per component) and the two constants come from the uniform pool. It differs
        // from `-N` only in a NaN's payload.
        let one = self.fk(d, 1.0);
        let minus_one = self.fk(d, -1.0);
        let sign = self.p(P::Select, &[front, one, minus_one]);
        let out: Vec<Value> = n.iter().map(|&x| self.p(P::Fmul, &[x, sign])).collect();
        self.bind_components(inst, &out)
    }

    /// `I - 2 * dot(N, I) * N`.
    pub(super) fn reflect(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let i = self.float_vector(inst, 0)?;
        let n = self.float_vector(inst, 1)?;
        Self::same_size(inst, &i, &n)?;
        let d = self.dot(&n, &i);
        let two = self.fk(d, 2.0);
        let d2 = self.p(P::Fmul, &[d, two]);
        let out: Vec<Value> = i
            .iter()
            .zip(&n)
            .map(|(&x, &y)| {
                let m = self.p(P::Fmul, &[d2, y]);
                self.p(P::Fsub, &[x, m])
            })
            .collect();
        self.bind_components(inst, &out)
    }

    /// `k = 1 - eta^2 (1 - dot(N, I)^2)`; `k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N`.
    pub(super) fn refract(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let i = self.float_vector(inst, 0)?;
        let n = self.float_vector(inst, 1)?;
        Self::same_size(inst, &i, &n)?;
        let eta = self.operand_scalar(inst, 4)?;
        let ty = self.ty(i[0]);
        if !self.ty(eta).is_float() {
            return Err(inst.mismatch("eta is not a float"));
        }
        let eta = if self.ty(eta) == ty {
            eta
        } else {
            self.convert(P::Fcvt, eta, ty)
        };
        let d = self.dot(&n, &i);
        let one = self.fk(d, 1.0);
        let dd = self.p(P::Fmul, &[d, d]);
        let t = self.p(P::Fsub, &[one, dd]);
        let ee = self.p(P::Fmul, &[eta, eta]);
        let et = self.p(P::Fmul, &[ee, t]);
        let k = self.p(P::Fsub, &[one, et]);
        let zero = self.fk(d, 0.0);
        let total = self.p(P::Flt, &[k, zero]);
        let sk = self.p(P::Sqrt, &[k]);
        let ed = self.p(P::Fmul, &[eta, d]);
        let f = self.p(P::Fadd, &[ed, sk]);
        let out: Vec<Value> = i
            .iter()
            .zip(&n)
            .map(|(&x, &y)| {
                let a = self.p(P::Fmul, &[eta, x]);
                let b = self.p(P::Fmul, &[f, y]);
                let r = self.p(P::Fsub, &[a, b]);
                self.p(P::Select, &[total, zero, r])
            })
            .collect();
        self.bind_components(inst, &out)
    }

    /// Operand 2 as a square float matrix: `m[col][row]`.
    fn square_matrix(&mut self, inst: &Inst) -> Result<Vec<Comps>, SpirvError> {
        let m = self.operand(inst, 2)?;
        let cols: Vec<Comps> = m
            .children()
            .ok_or_else(|| inst.mismatch("expects a matrix"))?
            .iter()
            .map(|c| {
                c.components()
                    .ok_or_else(|| inst.mismatch("expects a matrix"))
            })
            .collect::<Result<_, _>>()?;
        let n = cols.len();
        if !(2..=4).contains(&n) || cols.iter().any(|c| c.len() != n) {
            return Err(inst.mismatch("expects a square matrix of size 2, 3 or 4"));
        }
        for c in &cols {
            self.float_args(inst, c)?;
        }
        Ok(cols)
    }

    /// The determinant of the submatrix of `m` keeping `rows` and `cols` (Laplace expansion
    /// along the first kept column).
    fn minor(&mut self, m: &[Comps], rows: &[usize], cols: &[usize]) -> Value {
        if rows.len() == 1 {
            return m[cols[0]][rows[0]];
        }
        let mut acc: Option<Value> = None;
        for (k, &r) in rows.iter().enumerate() {
            let sub_rows: Vec<usize> = rows.iter().copied().filter(|&x| x != r).collect();
            let sub = self.minor(m, &sub_rows, &cols[1..]);
            let term = self.p(P::Fmul, &[m[cols[0]][r], sub]);
            acc = Some(match acc {
                None => term,
                Some(a) if k % 2 == 1 => self.p(P::Fsub, &[a, term]),
                Some(a) => self.p(P::Fadd, &[a, term]),
            });
        }
        acc.expect("a minor has at least one row")
    }

    pub(super) fn determinant(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let m = self.square_matrix(inst)?;
        let all: Vec<usize> = (0..m.len()).collect();
        let d = self.minor(&m, &all, &all);
        self.bind_components(inst, &[d])
    }

    /// The adjugate divided by the determinant.
    pub(super) fn matrix_inverse(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let m = self.square_matrix(inst)?;
        let n = m.len();
        let all: Vec<usize> = (0..n).collect();
        let det = self.minor(&m, &all, &all);
        let one = self.fk(det, 1.0);
        let inv_det = self.p(P::Fdiv, &[one, det]);
        let mut cols = Vec::new();
        for c in 0..n {
            let mut col = Vec::new();
            for r in 0..n {
                // inverse[c][r] = cofactor(row c, column r) / det.
                let rows: Vec<usize> = all.iter().copied().filter(|&x| x != c).collect();
                let kept: Vec<usize> = all.iter().copied().filter(|&x| x != r).collect();
                let minor = self.minor(&m, &rows, &kept);
                let signed = if (r + c) % 2 == 1 {
                    self.p(P::Fneg, &[minor])
                } else {
                    minor
                };
                col.push(self.p(P::Fmul, &[signed, inv_det]));
            }
            cols.push(Agg::vector(col));
        }
        self.bind_checked(inst, Agg::composite(cols))
    }
}
