//! The report's text: one line per shader, totals, and the comparison with Mesa.

use std::fmt;

use super::{MesaFigures, MesaReference, Row, ShaderStats};

/// Sums of the per-shader figures over some shaders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Shaders summed.
    pub shaders: u32,
    /// Main-program instructions.
    pub inst: u64,
    /// Preamble instructions.
    pub preamble: u64,
    /// 16-bit registers.
    pub halves: u64,
    /// Spill instructions.
    pub spills: u64,
    /// Fill instructions.
    pub fills: u64,
    /// Code bytes.
    pub bytes: u64,
}

impl Totals {
    fn add(&mut self, s: &ShaderStats) {
        self.shaders += 1;
        self.inst += u64::from(s.inst);
        self.preamble += u64::from(s.preamble);
        self.halves += u64::from(s.halves);
        self.spills += u64::from(s.spills);
        self.fills += u64::from(s.fills);
        self.bytes += u64::from(s.bytes);
    }
}

/// The geometric mean of `xs` (`None` for an empty list or a non-positive element).
pub fn geometric_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() || xs.iter().any(|&x| x <= 0.0 || !x.is_finite()) {
        return None;
    }
    Some((xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// A compiled shader paired with Mesa's figures for it.
#[derive(Clone, Debug)]
pub struct Compared<'a> {
    /// The shader's name.
    pub name: &'a str,
    /// agxc's figures.
    pub agxc: &'a ShaderStats,
    /// Mesa's.
    pub mesa: &'a MesaFigures,
}

impl Compared<'_> {
    /// agxc's instructions over Mesa's.
    pub fn inst_ratio(&self) -> f64 {
        f64::from(self.agxc.inst) / f64::from(self.mesa.inst.max(1))
    }

    /// agxc's 16-bit registers over Mesa's.
    pub fn halves_ratio(&self) -> f64 {
        f64::from(self.agxc.halves) / f64::from(self.mesa.halves.max(1))
    }
}

/// The whole report.
pub struct Report<'a> {
    /// Every shader, in directory order.
    pub rows: Vec<Row>,
    /// Mesa's figures, when available.
    pub mesa: Option<&'a MesaReference>,
}

impl<'a> Report<'a> {
    /// A report of `rows`, compared with `mesa` when given.
    pub fn new(rows: Vec<Row>, mesa: Option<&'a MesaReference>) -> Self {
        Report { rows, mesa }
    }

    /// Totals over every shader that compiled.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for s in self.rows.iter().filter_map(|r| r.result.as_ref().ok()) {
            t.add(s);
        }
        t
    }

    /// Shaders that failed to compile, with the error.
    pub fn failures(&self) -> Vec<(&str, &str)> {
        self.rows
            .iter()
            .filter_map(|r| match &r.result {
                Err(e) => Some((r.file.name.as_str(), e.as_str())),
                Ok(_) => None,
            })
            .collect()
    }

    /// Compiled shaders that have Mesa figures, paired with them.
    pub fn compared(&self) -> Vec<Compared<'_>> {
        let Some(mesa) = self.mesa else {
            return Vec::new();
        };
        self.rows
            .iter()
            .filter_map(|r| {
                let agxc = r.result.as_ref().ok()?;
                let mesa = mesa.get(&r.file.name)?;
                Some(Compared {
                    name: &r.file.name,
                    agxc,
                    mesa,
                })
            })
            .collect()
    }

    /// Compiled shaders without Mesa figures (listed in the report, not dropped).
    pub fn without_mesa(&self) -> Vec<&str> {
        let Some(mesa) = self.mesa else {
            return Vec::new();
        };
        self.rows
            .iter()
            .filter(|r| r.result.is_ok() && mesa.get(&r.file.name).is_none())
            .map(|r| r.file.name.as_str())
            .collect()
    }

    /// Geometric means of agxc over Mesa: (instructions, 16-bit registers).
    pub fn geometric_means(&self) -> Option<(f64, f64)> {
        let c = self.compared();
        let inst: Vec<f64> = c.iter().map(Compared::inst_ratio).collect();
        let halves: Vec<f64> = c.iter().map(Compared::halves_ratio).collect();
        Some((geometric_mean(&inst)?, geometric_mean(&halves)?))
    }
}

const HEAD: &str = "shader                     stage      inst   pre halves threads sp:fi  bytes";

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mesa {
            Some(m) => writeln!(
                f,
                "agxc shader-db: {} shaders; Mesa 25.0.7 (asahi) figures from {}",
                self.rows.len(),
                m.source.display()
            )?,
            None => writeln!(
                f,
                "agxc shader-db: {} shaders; no Mesa figures (../shared/mesa-reference/stats.json \
                 not found; set AGXC_MESA_REFERENCE)",
                self.rows.len()
            )?,
        }
        write!(f, "{HEAD}")?;
        if self.mesa.is_some() {
            write!(f, " | mesa inst halves threads |  inst x halves x")?;
        }
        writeln!(f)?;
        for row in &self.rows {
            let name = &row.file.name;
            let s = match &row.result {
                Ok(s) => s,
                Err(e) => {
                    writeln!(f, "{name:<26} FAILED: {e}")?;
                    continue;
                }
            };
            write!(
                f,
                "{name:<26} {:<9} {:5} {:5} {:6} {:7} {:>5} {:6}",
                s.stage,
                s.inst,
                s.preamble,
                s.halves,
                s.threads,
                format!("{}:{}", s.spills, s.fills),
                s.bytes
            )?;
            if let Some(m) = self.mesa.and_then(|m| m.get(name)) {
                let c = Compared {
                    name,
                    agxc: s,
                    mesa: m,
                };
                write!(
                    f,
                    " | {:9} {:6} {:7} | {:6.2} {:8.2}",
                    m.inst,
                    m.halves,
                    m.threads,
                    c.inst_ratio(),
                    c.halves_ratio()
                )?;
            } else if self.mesa.is_some() {
                write!(f, " | no Mesa figures")?;
            }
            writeln!(f)?;
        }
        let t = self.totals();
        writeln!(
            f,
            "{:<36} {:5} {:5} {:6} {:7} {:>5} {:6}",
            format!("total ({} compiled)", t.shaders),
            t.inst,
            t.preamble,
            t.halves,
            "",
            format!("{}:{}", t.spills, t.fills),
            t.bytes
        )?;
        if self.mesa.is_some() {
            let c = self.compared();
            let (mut ai, mut ah, mut mi, mut mh) = (0u64, 0u64, 0u64, 0u64);
            for x in &c {
                ai += u64::from(x.agxc.inst);
                ah += u64::from(x.agxc.halves);
                mi += u64::from(x.mesa.inst);
                mh += u64::from(x.mesa.halves);
            }
            writeln!(
                f,
                "{} shaders with Mesa figures: agxc {ai} instructions, {ah} halves; \
                 Mesa {mi} instructions, {mh} halves",
                c.len()
            )?;
            match self.geometric_means() {
                Some((gi, gh)) => writeln!(
                    f,
                    "geometric mean agxc/Mesa over {} shaders: instructions {gi:.3}x, \
                     registers {gh:.3}x",
                    c.len()
                )?,
                None => writeln!(f, "geometric mean agxc/Mesa: no shader to compare")?,
            }
            let missing = self.without_mesa();
            writeln!(
                f,
                "without Mesa figures ({}): {}",
                missing.len(),
                missing.join(", ")
            )?;
        }
        let failed = self.failures();
        if !failed.is_empty() {
            let names: Vec<&str> = failed.iter().map(|x| x.0).collect();
            writeln!(
                f,
                "failed to compile ({}): {}",
                failed.len(),
                names.join(", ")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometric_mean_of_known_values() {
        let g = geometric_mean(&[2.0, 8.0]).unwrap();
        assert!((g - 4.0).abs() < 1e-12);
        assert_eq!(geometric_mean(&[]), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
    }
}
