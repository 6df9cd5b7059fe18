//! `agxc run` for vertex shaders: attribute files in, every output printed and, on request,
//! written out.
//!
//! An attribute file (`--attribute LOCATION=FILE`) holds four little-endian f32 per vertex, the
//! layout of the ABI's attribute arrays (`agxc::backend_agx::abi`, "Vertex stage") and of the
//! interpreter's `run_vertex`. `--vertex-out SLOT=FILE` writes four f32 per vertex for
//! `position` and a location (integer outputs as their bit pattern), one per vertex for
//! `point-size`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use agxc::backend_agx::Binary;
use agxc::egraph::interp::Resources;
use agxc::egraph::ir::OutputSlot;
use agxc::runtime_sim::stats::Stats;
use agxc::sim;

use super::resources::{self, ResourceError};
use super::run::CliError;
use super::spec::SpecError;
use super::RunArgs;

/// A vertex output named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputName {
    /// `position`.
    Position,
    /// `point-size`.
    PointSize,
    /// A varying location.
    Location(u32),
}

impl OutputName {
    /// The slot of the simulator's output arrays.
    fn slot(self) -> OutputSlot {
        match self {
            OutputName::Position => OutputSlot::Position(0),
            OutputName::PointSize => OutputSlot::PointSize,
            OutputName::Location(location) => OutputSlot::Location {
                location,
                component: 0,
            },
        }
    }

    fn of_slot(slot: OutputSlot) -> Option<OutputName> {
        match slot {
            OutputSlot::Position(_) => Some(OutputName::Position),
            OutputSlot::PointSize => Some(OutputName::PointSize),
            OutputSlot::Location { location, .. } => Some(OutputName::Location(location)),
            OutputSlot::FragDepth => None,
        }
    }
}

impl std::fmt::Display for OutputName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputName::Position => f.write_str("position"),
            OutputName::PointSize => f.write_str("point-size"),
            OutputName::Location(l) => write!(f, "location {l}"),
        }
    }
}

/// Parses `--vertex-out`: `position=FILE`, `point-size=FILE` or `LOCATION=FILE`.
pub fn output_file(text: &str) -> Result<(OutputName, PathBuf), SpecError> {
    let bad = |reason: &str| SpecError {
        value: text.to_string(),
        reason: reason.to_string(),
    };
    let (name, file) = text
        .split_once('=')
        .ok_or_else(|| bad("expected position=FILE, point-size=FILE or LOCATION=FILE"))?;
    if file.is_empty() {
        return Err(bad("missing file name after `=`"));
    }
    let name = match name.trim() {
        "position" => OutputName::Position,
        "point-size" | "point_size" => OutputName::PointSize,
        n => OutputName::Location(
            n.parse()
                .map_err(|_| bad("the output is position, point-size or a location number"))?,
        ),
    };
    Ok((name, PathBuf::from(file)))
}

/// Attribute arrays by location: four f32 per vertex.
type Attributes = BTreeMap<u32, Vec<[f32; 4]>>;

/// Reads the attribute files, and the vertex count.
fn attributes(args: &RunArgs) -> Result<(Attributes, u32), ResourceError> {
    let mut out = BTreeMap::new();
    let mut count: Option<(u32, &PathBuf)> = None;
    for (location, path) in &args.attributes {
        let bytes = std::fs::read(path).map_err(|source| ResourceError::Io {
            path: path.clone(),
            source,
        })?;
        if bytes.len() % 16 != 0 {
            return Err(ResourceError::Invalid(format!(
                "--attribute {location}={}: {} bytes is not a whole number of 16-byte vertices \
                 (four f32 each)",
                path.display(),
                bytes.len()
            )));
        }
        let vertices: Vec<[f32; 4]> = bytes
            .chunks_exact(16)
            .map(|v| {
                std::array::from_fn(|c| f32::from_le_bytes(std::array::from_fn(|i| v[4 * c + i])))
            })
            .collect();
        let n = u32::try_from(vertices.len()).unwrap_or(u32::MAX);
        if let Some((m, other)) = count {
            if m != n && args.vertices.is_none() {
                return Err(ResourceError::Invalid(format!(
                    "{} holds {m} vertices, {} holds {n}: give --vertices N",
                    other.display(),
                    path.display()
                )));
            }
        }
        count = Some((n, path));
        if out.insert(*location, vertices).is_some() {
            return Err(ResourceError::Invalid(format!(
                "--attribute {location}: given twice"
            )));
        }
    }
    let n = match (args.vertices, count) {
        (Some(n), _) => n,
        (None, Some((n, _))) => n,
        (None, None) => {
            return Err(ResourceError::Invalid(
                "a vertex shader without attributes needs --vertices N".into(),
            ))
        }
    };
    if n == 0 {
        return Err(ResourceError::Invalid("no vertices to shade".into()));
    }
    for (location, a) in &out {
        if a.len() < n as usize {
            return Err(ResourceError::Invalid(format!(
                "--attribute {location}: {} vertices, fewer than the {n} to shade",
                a.len()
            )));
        }
    }
    Ok((out, n))
}

/// Shades the vertices, prints every output's first vertices and writes the `--vertex-out`s.
pub fn run(binary: &Binary, res: &Resources, args: &RunArgs) -> Result<Stats, CliError> {
    let (attributes, n) = attributes(args)?;
    let result = sim::run_vertex_with(binary, res, n, &attributes, &args.sim.options())?;
    println!("{n} vertices");
    for (slot, values) in &result.outputs {
        let Some(name) = OutputName::of_slot(*slot) else {
            continue;
        };
        println!("{name}:");
        for (i, v) in values.iter().take(4).enumerate() {
            if name == OutputName::PointSize {
                println!("  vertex {i} = {}", v[0]);
            } else {
                println!("  vertex {i} = {v:?}");
            }
        }
    }
    for (name, path) in &args.vertex_outs {
        let values = result
            .outputs
            .get(&name.slot())
            .ok_or_else(|| CliError::Usage(format!("--vertex-out: the shader writes no {name}")))?;
        let bytes: Vec<u8> = if *name == OutputName::PointSize {
            values.iter().flat_map(|v| v[0].to_le_bytes()).collect()
        } else {
            values
                .iter()
                .flatten()
                .flat_map(|c| c.to_le_bytes())
                .collect()
        };
        resources::write(path, &bytes)?;
    }
    Ok(result.stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names() {
        assert_eq!(
            output_file("position=p.bin").unwrap(),
            (OutputName::Position, PathBuf::from("p.bin"))
        );
        assert_eq!(
            output_file("point-size=s.bin").unwrap().0,
            OutputName::PointSize
        );
        assert_eq!(output_file("3=v.bin").unwrap().0, OutputName::Location(3));
        assert!(output_file("colour=v.bin").is_err());
        assert!(output_file("3=").is_err());
        assert!(output_file("3").is_err());
    }
}
