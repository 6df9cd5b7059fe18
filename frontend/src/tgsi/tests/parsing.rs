//! The parser: what each construct reads as, and errors with their line and column.

use crate::tgsi::ast::{
    ImmType, Index, Indirect, InterpLocation, InterpMode, MemoryType, Range, RegFile, ReturnType,
    Semantic, TextureTarget,
};
use crate::tgsi::opcode::Opcode;
use crate::tgsi::{lift, parse, LiftOptions, Pos, TgsiError};

fn err(text: &str) -> TgsiError {
    match parse(text) {
        Ok(p) => panic!("parsed: {p:?}"),
        Err(e) => e,
    }
}

fn lift_err(text: &str) -> TgsiError {
    match lift(text, &LiftOptions::default()) {
        Ok(f) => panic!("lifted:\n{f}"),
        Err(e) => e,
    }
}

#[test]
fn headers_with_and_without_versions() {
    assert_eq!(
        parse("FRAG\n").unwrap().processor,
        crate::tgsi::ast::Processor::Fragment
    );
    assert_eq!(
        parse("  vert1.1\n\nEND\n").unwrap().processor,
        crate::tgsi::ast::Processor::Vertex
    );
    assert_eq!(
        parse("COMP").unwrap().processor,
        crate::tgsi::ast::Processor::Compute
    );
    assert_eq!(
        err("FRAGMENT\n"),
        TgsiError::UnknownHeader {
            pos: Pos::new(1, 1),
            name: "FRAGMENT".into()
        }
    );
    assert_eq!(
        err("\n\n"),
        TgsiError::Expected {
            pos: Pos::new(1, 1),
            expected: "a shader header".into(),
            found: "end of input".into()
        }
    );
    // Tessellation parses, and is refused with a clear error by the lifter.
    let e = lift_err("TESS_CTRL\nEND\n");
    assert_eq!(e.to_string(), "1:1: TESS_CTRL shaders are not supported: the graph IR has compute, fragment, vertex and geometry stages");
}

#[test]
fn immediates_of_every_type() {
    let p = parse(
        "COMP
IMM[0] FLT32 {1.5, 0x1.8p+1, 0x3f800000, -0.0}
IMM[1] UINT32 {0, 4294967295, 0x10, 7}
IMM[2] INT32 {-2147483648, -1, +5, 0}
IMM FLT64 {1.5, -2.0}
IMM[4] UINT64 {0x100000002, 3}
IMM[5] INT64 {-1, 1}
IMM[6] FLT32 {inf, -inf, 1e-3, .5}
",
    )
    .unwrap();
    let s = |k: usize| p.imms[k].slots;
    assert_eq!(p.imms[0].ty, ImmType::Flt32);
    assert_eq!(
        s(0),
        [1.5f32.to_bits(), 3.0f32.to_bits(), 0x3f80_0000, 0x8000_0000]
    );
    assert_eq!(s(1), [0, u32::MAX, 16, 7]);
    assert_eq!(s(2), [0x8000_0000, u32::MAX, 5, 0]);
    let (a, b) = (1.5f64.to_bits(), (-2.0f64).to_bits());
    assert_eq!(
        s(3),
        [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
    );
    assert_eq!(s(4), [2, 1, 3, 0]);
    assert_eq!(s(5), [u32::MAX, u32::MAX, 1, 0]);
    assert_eq!(
        s(6),
        [
            f32::INFINITY.to_bits(),
            f32::NEG_INFINITY.to_bits(),
            1e-3f32.to_bits(),
            0.5f32.to_bits()
        ]
    );
}

#[test]
fn declarations() {
    let p = parse(
        "FRAG
DCL CONST[1][0..3]
DCL TEMP[0..7], ARRAY(1), LOCAL
DCL IN[0].xy, GENERIC[3], LINEAR, CENTROID, INVARIANT
DCL IN[1], COLOR, COLOR
DCL SVIEW[0], 2D_ARRAY, FLOAT
DCL SVIEW[1], CUBE_ARRAY, UINT, UINT, UINT, UINT
DCL MEMORY[0], SHARED
DCL BUFFER[2], ATOMIC
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
",
    )
    .unwrap();
    let d = &p.decls;
    assert_eq!(
        (d[0].file, d[0].dimension, d[0].range),
        (
            RegFile::Const,
            Some(Some(Range { first: 1, last: 1 })),
            Range { first: 0, last: 3 }
        )
    );
    assert_eq!((d[1].array_id, d[1].local), (Some(1), true));
    assert_eq!(d[2].usage_mask, 0b0011);
    assert_eq!(
        d[2].semantic.map(|s| (s.name, s.index)),
        Some((Semantic::Generic, 3))
    );
    assert_eq!(
        (d[2].interp, d[2].interp_location, d[2].invariant),
        (
            Some(InterpMode::Linear),
            Some(InterpLocation::Centroid),
            true
        )
    );
    // COLOR is a semantic first, then an interpolation mode.
    assert_eq!(
        (d[3].semantic.map(|s| s.name), d[3].interp),
        (Some(Semantic::Color), Some(InterpMode::Color))
    );
    assert_eq!(
        (d[4].texture, d[4].return_types),
        (Some(TextureTarget::Array2D), Some([ReturnType::Float; 4]))
    );
    assert_eq!(
        (d[5].texture, d[5].return_types),
        (Some(TextureTarget::CubeArray), Some([ReturnType::Uint; 4]))
    );
    assert_eq!(d[6].memory, Some(MemoryType::Shared));
    assert!(d[7].atomic);
    assert_eq!(
        (
            d[8].texture,
            d[8].image_writable,
            d[8].image_format.as_deref()
        ),
        (Some(TextureTarget::D2), true, Some("PIPE_FORMAT_R32_UINT"))
    );
    let g = parse("GEOM\nDCL IN[][0], POSITION, CONSTANT\nEMIT\nENDPRIM\nEND\n").unwrap();
    assert_eq!(
        (g.decls[0].dimension, g.decls[0].range),
        (Some(None), Range { first: 0, last: 0 })
    );
    assert_eq!(g.insts[0].opcode, Opcode::EMIT);
}

#[test]
fn instructions_operands_and_modifiers() {
    let p = parse(
        "COMP
  12: UIF TEMP[2].xxxx :6
MAD_SAT_PRECISE TEMP[0].xw, -|TEMP[1].y|, TEMP[ADDR[0].x+8](2).wzyx, CONST[1][ADDR[0].z - 2]
TEX TEMP[0], IN[1].xyyy, SAMP[0], 2D, IMM[0].xyx
STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[1]
BGNLOOP :0
",
    )
    .unwrap();
    let i = &p.insts;
    assert_eq!(
        (i[0].label, i[0].opcode, i[0].target),
        (Some(12), Opcode::UIF, Some(6))
    );
    assert_eq!(
        (i[1].opcode, i[1].saturate, i[1].precise),
        (Opcode::MAD, true, true)
    );
    assert_eq!(i[1].dsts[0].mask, 0b1001);
    let s = &i[1].srcs;
    assert!(s[0].negate && s[0].absolute);
    assert_eq!(s[0].swizzle, [1; 4], "a one-letter swizzle repeats");
    let ind = |file, index, comp, col| {
        Some(Indirect {
            file,
            index,
            comp,
            pos: Pos::new(3, col),
        })
    };
    assert_eq!(
        s[1].reg.index,
        Index {
            offset: 8,
            indirect: ind(RegFile::Address, 0, 0, 48)
        }
    );
    assert_eq!((s[1].reg.array_id, s[1].swizzle), (Some(2), [3, 2, 1, 0]));
    assert_eq!(
        s[2].reg.dimension,
        Some(Index {
            offset: 1,
            indirect: None
        })
    );
    assert_eq!(
        s[2].reg.index,
        Index {
            offset: -2,
            indirect: ind(RegFile::Address, 0, 2, 79)
        }
    );
    assert_eq!(
        (i[2].texture, i[2].tex_offsets[0].swizzle),
        (Some(TextureTarget::D2), [0, 1, 0])
    );
    assert_eq!(
        (i[3].dsts[0].reg.file, i[3].dsts[0].mask),
        (RegFile::Buffer, 1)
    );
    assert_eq!(i[4].target, Some(0));
}

#[test]
fn syntax_errors_say_where() {
    let at = |line, col| Pos::new(line, col);
    assert_eq!(
        err("FRAG\n\n  FOO TEMP[0]\n"),
        TgsiError::UnknownOpcode {
            pos: at(3, 3),
            name: "FOO".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0] TEMP[1]\n"),
        TgsiError::Expected {
            pos: at(2, 13),
            expected: "`,`".into(),
            found: "`TEMP`".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0], TEMP[1].xyzq\n"),
        TgsiError::Expected {
            pos: at(2, 22),
            expected: "a swizzle of 1 to 4 letters from `xyzw`".into(),
            found: "`xyzq`".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0].yx, TEMP[1]\n"),
        TgsiError::Expected {
            pos: at(2, 13),
            expected: "a write mask (an ordered subset of `xyzw`)".into(),
            found: "`yx`".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV FOO[0], TEMP[1]\n"),
        TgsiError::UnknownFile {
            pos: at(2, 5),
            name: "FOO".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0], -|TEMP[1]\n"),
        TgsiError::Expected {
            pos: at(2, 23),
            expected: "`|`".into(),
            found: "end of line".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0], TEMP[1\n"),
        TgsiError::Expected {
            pos: at(2, 20),
            expected: "`]`".into(),
            found: "end of line".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0], TEMP[1] TEMP[2]\n"),
        TgsiError::Expected {
            pos: at(2, 22),
            expected: "end of line".into(),
            found: "`TEMP`".into()
        }
    );
    assert_eq!(
        err("FRAG\nTEX TEMP[0], TEMP[1], SAMP[0], 4D\n"),
        TgsiError::UnknownName {
            pos: at(2, 32),
            what: "texture target",
            name: "4D".into()
        }
    );
    assert_eq!(
        err("FRAG\nMOV TEMP[0], TEMP[1] @\n"),
        TgsiError::UnexpectedChar {
            pos: at(2, 22),
            ch: '@'
        }
    );
}

#[test]
fn declaration_and_immediate_errors_say_where() {
    let at = |line, col| Pos::new(line, col);
    assert_eq!(
        err("FRAG\nDCL IN[0], BANANA\n"),
        TgsiError::UnknownName {
            pos: at(2, 12),
            what: "declaration attribute",
            name: "BANANA".into()
        }
    );
    assert_eq!(
        err("FRAG\nDCL TEMP[4..2]\n"),
        TgsiError::invalid(at(2, 13), "empty register range 4..2")
    );
    assert_eq!(
        err("FRAG\nIMM[1] FLT32 {1, 2, 3, 4}\n"),
        TgsiError::invalid(
            at(2, 5),
            "immediates must be numbered in order: expected IMM[0], found IMM[1]"
        )
    );
    assert_eq!(
        err("FRAG\nIMM FLT32 {1.0, abc, 0, 0}\n"),
        TgsiError::InvalidNumber {
            pos: at(2, 17),
            what: "FLT32 immediate",
            text: "abc".into()
        }
    );
    assert_eq!(
        err("FRAG\nIMM UINT32 {1, 2, 3, -4}\n"),
        TgsiError::InvalidNumber {
            pos: at(2, 22),
            what: "UINT32 immediate",
            text: "-4".into()
        }
    );
    assert_eq!(
        err("FRAG\nIMM FLT32 {1, 2, 3}\n"),
        TgsiError::Expected {
            pos: at(2, 19),
            expected: "`,`".into(),
            found: "`}`".into()
        }
    );
    assert_eq!(
        err("FRAG\nIMM FLT16 {1, 2, 3, 4}\n"),
        TgsiError::UnknownName {
            pos: at(2, 5),
            what: "immediate type",
            name: "FLT16".into()
        }
    );
    // `RES` is read as the sampler-view file; its later compute form is refused.
    // `DCL RES[0], 2D, RAW`: `RAW` starts at column 17.
    assert_eq!(
        err("COMP\nDCL RES[0], 2D, RAW\n"),
        TgsiError::UnknownName {
            pos: at(2, 17),
            what: "declaration attribute",
            name: "RAW".into()
        }
    );
    assert_eq!(
        err("COMP\nPROPERTY CS_BLOCK 64\n"),
        TgsiError::UnknownName {
            pos: at(2, 10),
            what: "property",
            name: "CS_BLOCK".into()
        }
    );
}

#[test]
fn semantic_errors_of_the_lifter_say_where() {
    assert_eq!(
        lift_err("COMP\nDCL TEMP[0]\nMOV TEMP[0], TEMP[1]\nEND\n").to_string(),
        "3:14: TEMP[1] is not declared"
    );
    assert_eq!(
        lift_err("COMP\nDCL TEMP[0]\nMOV TEMP[0], IMM[3]\nEND\n").to_string(),
        "3:14: IMM[3] does not exist (0 immediates)"
    );
    assert_eq!(
        lift_err("COMP\nDCL TEMP[0]\nENDLOOP\n").to_string(),
        "3:1: ENDLOOP without a matching BGNLOOP"
    );
    assert_eq!(
        lift_err("COMP\nDCL TEMP[0]\nDCL BUFFER[0]\nATOMFADD TEMP[0], BUFFER[0], TEMP[0], TEMP[0]\nEND\n").to_string(),
        "4:1: ATOMFADD: f32 atomic add (the graph IR's atomics are 32-bit integer operations) is not supported"
    );
    assert_eq!(
        lift_err("COMP\nDCL TEMP[0]\nDADD TEMP[0], TEMP[0], TEMP[0]\nEND\n").to_string(),
        "3:1: DADD: 64-bit arithmetic (TGSI keeps 64-bit values in register pairs; this lifter does not) is not supported"
    );
    assert_eq!(
        lift_err("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 0\nEND\n").to_string(),
        "2:10: CS_FIXED_BLOCK_WIDTH must not be 0"
    );
    // Every error from the input carries its position.
    assert!(lift_err("COMP\nDCL SV[0], FACE\nEND\n").pos().is_some());
}
