//! The words of the text form that name attributes (built-ins, texture targets, address spaces,
//! flags, ...), shared by the printer and the parser.
//!
//! Each finite vocabulary is printed by one function and parsed by searching an enumeration of
//! its values for the printed word, so the two directions cannot disagree.

use crate::ir::effects::{
    AddressSpace, BarrierKind, Binding, Builtin, DerivPrecision, Interp, LodMode, OutputSlot,
    TexDim, TexTarget,
};
use crate::ir::function::{InstFlags, Stage};

/// Component letters of vector slots (`global_id.x`, `input 0.w`).
const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The letter of a component; out-of-range components (malformed IR) print as digits, which the
/// parser rejects.
pub(crate) fn component(c: u8) -> String {
    match COMPONENTS.get(c as usize) {
        Some(l) => l.to_string(),
        None => c.to_string(),
    }
}

/// Parses a component letter.
pub(crate) fn parse_component(s: &str) -> Option<u8> {
    let mut chars = s.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    COMPONENTS.iter().position(|&l| l == c).map(|i| i as u8)
}

/// Instruction flags and their `.suffix`, in printing order.
pub(crate) const INST_FLAGS: [(InstFlags, &str); 2] = [
    (InstFlags::NO_CONTRACT, "nocontract"),
    (InstFlags::RELAXED, "relaxed"),
];

/// The stages without modes of their own, by name; `geometry` is followed by its modes.
pub(crate) const PLAIN_STAGES: [Stage; 3] = [Stage::Compute, Stage::Fragment, Stage::Vertex];

/// The geometry header's keywords, in printing order: `input(PRIM) output(PRIM)
/// max_vertices(N) invocations(N)`.
pub(crate) const GEOMETRY_INPUT: &str = "input";
/// See [`GEOMETRY_INPUT`].
pub(crate) const GEOMETRY_OUTPUT: &str = "output";
/// See [`GEOMETRY_INPUT`].
pub(crate) const GEOMETRY_MAX_VERTICES: &str = "max_vertices";
/// See [`GEOMETRY_INPUT`].
pub(crate) const GEOMETRY_INVOCATIONS: &str = "invocations";

/// The suffix of a derivative precision (`ddx.fine`); `None` for the default.
pub(crate) fn precision(p: DerivPrecision) -> Option<&'static str> {
    match p {
        DerivPrecision::Default => None,
        DerivPrecision::Fine => Some("fine"),
        DerivPrecision::Coarse => Some("coarse"),
    }
}

/// Parses a derivative precision suffix.
pub(crate) fn parse_precision(s: &str) -> Option<DerivPrecision> {
    [DerivPrecision::Fine, DerivPrecision::Coarse]
        .into_iter()
        .find(|&p| precision(p) == Some(s))
}

/// The word of a barrier kind.
pub(crate) fn barrier(k: BarrierKind) -> &'static str {
    match k {
        BarrierKind::Workgroup => "workgroup",
        BarrierKind::Memory => "memory",
    }
}

/// Parses a barrier kind.
pub(crate) fn parse_barrier(s: &str) -> Option<BarrierKind> {
    [BarrierKind::Workgroup, BarrierKind::Memory]
        .into_iter()
        .find(|&k| barrier(k) == s)
}

/// The word of an interpolation mode.
pub(crate) fn interp(i: Interp) -> &'static str {
    match i {
        Interp::Perspective => "perspective",
        Interp::Linear => "linear",
        Interp::Flat => "flat",
    }
}

/// Parses an interpolation mode.
pub(crate) fn parse_interp(s: &str) -> Option<Interp> {
    [Interp::Perspective, Interp::Linear, Interp::Flat]
        .into_iter()
        .find(|&i| interp(i) == s)
}

/// The word of a LOD mode.
pub(crate) fn lod(m: LodMode) -> &'static str {
    match m {
        LodMode::Implicit => "implicit",
        LodMode::Bias => "bias",
        LodMode::Explicit => "explicit",
        LodMode::Grad => "grad",
        LodMode::Gather(0) => "gather_x",
        LodMode::Gather(1) => "gather_y",
        LodMode::Gather(2) => "gather_z",
        LodMode::Gather(3) => "gather_w",
        // The verifier refuses other components; the printer still names them.
        LodMode::Gather(_) => "gather_invalid",
    }
}

/// Parses a LOD mode.
pub(crate) fn parse_lod(s: &str) -> Option<LodMode> {
    [
        LodMode::Implicit,
        LodMode::Bias,
        LodMode::Explicit,
        LodMode::Grad,
        LodMode::Gather(0),
        LodMode::Gather(1),
        LodMode::Gather(2),
        LodMode::Gather(3),
    ]
    .into_iter()
    .find(|&m| lod(m) == s)
}

/// The word of a texture target (`2d`, `cube_array`).
pub(crate) fn target(t: TexTarget) -> String {
    if t.arrayed {
        format!("{}_array", t.dim.name())
    } else {
        t.dim.name().to_string()
    }
}

/// Parses a texture target.
pub(crate) fn parse_target(s: &str) -> Option<TexTarget> {
    [TexDim::D1, TexDim::D2, TexDim::D3, TexDim::Cube]
        .into_iter()
        .flat_map(|dim| [false, true].map(|arrayed| TexTarget { dim, arrayed }))
        .find(|&t| target(t) == s)
}

/// The text of a built-in (`global_id.x`, `front_facing`).
pub(crate) fn builtin(b: Builtin) -> String {
    let (name, c) = builtin_parts(b);
    match c {
        Some(c) => format!("{name}.{}", component(c)),
        None => name.to_string(),
    }
}

fn builtin_parts(b: Builtin) -> (&'static str, Option<u8>) {
    match b {
        Builtin::GlobalId(c) => ("global_id", Some(c)),
        Builtin::LocalId(c) => ("local_id", Some(c)),
        Builtin::WorkgroupId(c) => ("workgroup_id", Some(c)),
        Builtin::WorkgroupSize(c) => ("workgroup_size", Some(c)),
        Builtin::NumWorkgroups(c) => ("num_workgroups", Some(c)),
        Builtin::LocalIndex => ("local_index", None),
        Builtin::FragCoord(c) => ("frag_coord", Some(c)),
        Builtin::FrontFacing => ("front_facing", None),
        Builtin::HelperInvocation => ("helper_invocation", None),
        Builtin::VertexIndex => ("vertex_index", None),
        Builtin::InstanceIndex => ("instance_index", None),
        Builtin::PrimitiveId => ("primitive_id", None),
        Builtin::InvocationId => ("invocation_id", None),
    }
}

/// Every well-formed built-in (three components for the compute vectors, four for `frag_coord`).
pub(crate) fn all_builtins() -> Vec<Builtin> {
    let mut all = Vec::new();
    for c in 0..3 {
        all.extend([
            Builtin::GlobalId(c),
            Builtin::LocalId(c),
            Builtin::WorkgroupId(c),
            Builtin::WorkgroupSize(c),
            Builtin::NumWorkgroups(c),
        ]);
    }
    all.extend((0..4).map(Builtin::FragCoord));
    all.extend([
        Builtin::LocalIndex,
        Builtin::FrontFacing,
        Builtin::HelperInvocation,
        Builtin::VertexIndex,
        Builtin::InstanceIndex,
        Builtin::PrimitiveId,
        Builtin::InvocationId,
    ]);
    all
}

/// Parses a built-in.
pub(crate) fn parse_builtin(s: &str) -> Option<Builtin> {
    all_builtins().into_iter().find(|&b| builtin(b) == s)
}

/// The text of an output slot other than a user location (`position.x`, `point_size`,
/// `frag_depth`); user locations print as `LOC.C`.
pub(crate) fn output(slot: OutputSlot) -> String {
    match slot {
        OutputSlot::Location {
            location,
            component: c,
        } => format!("{location}.{}", component(c)),
        OutputSlot::Position(c) => format!("position.{}", component(c)),
        OutputSlot::PointSize => "point_size".into(),
        OutputSlot::FragDepth => "frag_depth".into(),
    }
}

/// Parses a named output slot (not a user location).
pub(crate) fn parse_named_output(s: &str) -> Option<OutputSlot> {
    (0..4)
        .map(OutputSlot::Position)
        .chain([OutputSlot::PointSize, OutputSlot::FragDepth])
        .find(|&slot| output(slot) == s)
}

/// Parses `LOC.C` (a user location and component, as in `input 0.x` and `output 1.w`).
pub(crate) fn parse_location(s: &str) -> Option<(u32, u8)> {
    let (loc, c) = s.split_once('.')?;
    if loc.is_empty() || !loc.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((loc.parse().ok()?, parse_component(c)?))
}

/// The text of an address space without its brackets (`storage(0, 1)`, `push`).
pub(crate) fn space(s: AddressSpace) -> String {
    match s {
        AddressSpace::Storage(b) => format!("storage{b}"),
        AddressSpace::Uniform(b) => format!("uniform{b}"),
        AddressSpace::PushConstant => "push".into(),
        AddressSpace::Workgroup => "shared".into(),
        AddressSpace::Constant => "constant".into(),
        AddressSpace::Private => "private".into(),
    }
}

/// Address-space keywords: those followed by a binding and those standing alone.
pub(crate) enum SpaceWord {
    /// `storage` or `uniform`: a `(set, binding)` follows.
    WithBinding(fn(Binding) -> AddressSpace),
    /// `push`, `shared`, `constant` or `private`.
    Plain(AddressSpace),
}

/// Parses an address-space keyword.
pub(crate) fn parse_space_word(s: &str) -> Option<SpaceWord> {
    Some(match s {
        "storage" => SpaceWord::WithBinding(AddressSpace::Storage),
        "uniform" => SpaceWord::WithBinding(AddressSpace::Uniform),
        "push" => SpaceWord::Plain(AddressSpace::PushConstant),
        "shared" => SpaceWord::Plain(AddressSpace::Workgroup),
        "constant" => SpaceWord::Plain(AddressSpace::Constant),
        "private" => SpaceWord::Plain(AddressSpace::Private),
        _ => return None,
    })
}

/// Fragment execution-mode keywords, in printing order.
pub(crate) const ORIGIN_LOWER_LEFT: &str = "origin_lower_left";
/// See [`ORIGIN_LOWER_LEFT`].
pub(crate) const PIXEL_CENTER_INTEGER: &str = "pixel_center_integer";
/// See [`ORIGIN_LOWER_LEFT`].
pub(crate) const DEPTH_REPLACING: &str = "depth_replacing";
/// See [`ORIGIN_LOWER_LEFT`].
pub(crate) const EARLY_FRAGMENT_TESTS: &str = "early_fragment_tests";

/// True if `s` is an identifier the text form can print bare (`[A-Za-z_][A-Za-z0-9_.]*`).
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_round_trip_and_are_distinct() {
        let all = all_builtins();
        let mut seen = std::collections::HashSet::new();
        for b in all {
            assert!(seen.insert(builtin(b)), "{}", builtin(b));
            assert_eq!(parse_builtin(&builtin(b)), Some(b));
        }
        assert_eq!(parse_builtin("global_id.w"), None);
        assert_eq!(parse_builtin("frag_coord.w"), Some(Builtin::FragCoord(3)));
    }

    #[test]
    fn targets_round_trip() {
        assert_eq!(
            parse_target("cube_array"),
            Some(TexTarget {
                dim: TexDim::Cube,
                arrayed: true
            })
        );
        assert_eq!(parse_target("2d_arrays"), None);
    }

    #[test]
    fn locations() {
        assert_eq!(parse_location("3.w"), Some((3, 3)));
        assert_eq!(parse_location("3.q"), None);
        assert_eq!(parse_location(".x"), None);
        assert_eq!(parse_location("-1.x"), None);
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("main"));
        assert!(is_identifier("_a.b1"));
        assert!(!is_identifier("1a"));
        assert!(!is_identifier("a b"));
        assert!(!is_identifier(""));
    }
}
