//! The shader-db report's invariants on the SPIR-V corpus (never its numbers): every case is
//! compiled through the report's own code (`agxc_tests::shaderdb::collect`) and appears once;
//! each line's figures agree with the binary compiled directly (instructions = disassembly
//! lines ending in `stop`, spills and fills = stack stores and loads of spill slots in it,
//! threads from the register count); totals are the sums of the lines; with Mesa's figures, every compiled
//! shader is either compared or listed as missing, and the geometric means lie between the
//! smallest and largest ratio.

use agxc::backend_agx::regalloc::occupancy;
use agxc::{compile, OptLevel, Options};
use agxc_tests::corpus::{corpus_dir, load_corpus};
use agxc_tests::shaderdb::{collect, MesaReference, Report};

/// The immediate byte offset of a `stack_load`/`stack_store` line (`stack_store r2, 32, i32,
/// 0b0001`, or a register run `{r0, r1}` as the data), `None` for a register offset.
fn spill_slot(line: &str) -> Option<u32> {
    let (_, operands) = line.split_once("stack_")?;
    let after_data = match operands.find('}') {
        Some(close) => &operands[close + 1..],
        None => operands.split_once(',')?.1,
    };
    let offset = after_data.trim_start_matches(',').split(',').next()?.trim();
    offset.parse().ok()
}

#[test]
fn the_report_covers_the_corpus_and_its_figures_hold_together() {
    let dir = corpus_dir("spirv");
    let cases = load_corpus(&dir).expect("corpus loads");
    let rows = collect(std::slice::from_ref(&dir), OptLevel::O2).expect("corpus readable");
    let names: Vec<String> = rows.iter().map(|r| r.file.name.clone()).collect();
    let case_names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, case_names, "one row per corpus case, in order");

    for (row, case) in rows.iter().zip(&cases) {
        let s = row
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", row.file.name));
        let source = std::fs::read(&row.file.path).unwrap();
        let direct = compile(
            &source,
            &Options {
                entry: Some(case.manifest.entry.clone()),
                opt_level: OptLevel::O2,
                ..Options::default()
            },
        )
        .unwrap();
        let listing: Vec<&str> = direct.binary.disassembly.lines().collect();
        let name = &row.file.name;
        assert_eq!(s.inst as usize, listing.len(), "{name}: instructions");
        assert!(
            listing.last().is_some_and(|l| l.ends_with(" stop")),
            "{name}: the counted program ends in stop"
        );
        // Spill code addresses its slots with immediates at or above the private memory
        // (the bottom of the stack frame, 16-byte aligned); the rest is the program's own.
        let spill_base = direct.ir.private_bytes.next_multiple_of(16);
        let count = |m: &str| {
            listing
                .iter()
                .filter(|l| l.contains(m) && spill_slot(l).is_some_and(|o| o >= spill_base))
                .count() as u32
        };
        assert_eq!(s.spills, count(" stack_store "), "{name}: spills");
        assert_eq!(s.fills, count(" stack_load "), "{name}: fills");
        assert_eq!(s.bytes as usize, direct.binary.code.len(), "{name}: bytes");
        assert!((1..=256).contains(&s.halves), "{name}: halves");
        assert_eq!(s.threads, occupancy(s.halves), "{name}: threads");
        assert_eq!(s.stage, case.manifest.stage.name(), "{name}: stage");
        // The preamble is counted from its own listing, apart from the main program.
        let preamble = direct
            .binary
            .preamble
            .as_ref()
            .map_or(0, |p| p.disassembly.lines().count() as u32);
        assert_eq!(s.preamble, preamble, "{name}: preamble");
    }

    let mesa = MesaReference::locate().map(|p| MesaReference::load(&p).expect("stats.json parses"));
    let report = Report::new(rows, mesa.as_ref());
    let totals = report.totals();
    let ok: Vec<_> = report
        .rows
        .iter()
        .filter_map(|r| r.result.as_ref().ok())
        .collect();
    assert_eq!(totals.shaders as usize, ok.len());
    assert_eq!(
        totals.inst,
        ok.iter().map(|s| u64::from(s.inst)).sum::<u64>()
    );
    assert_eq!(
        totals.halves,
        ok.iter().map(|s| u64::from(s.halves)).sum::<u64>()
    );
    assert_eq!(
        totals.bytes,
        ok.iter().map(|s| u64::from(s.bytes)).sum::<u64>()
    );

    let text = report.to_string();
    for name in &names {
        let lines = text
            .lines()
            .filter(|l| {
                let mut words = l.split_whitespace();
                words.next() == Some(name.as_str())
                    && matches!(words.next(), Some("compute" | "fragment"))
            })
            .count();
        assert_eq!(lines, 1, "{name} has one line in:\n{text}");
    }
    assert!(text.contains(&format!("total ({} compiled)", ok.len())));

    let Some(mesa) = mesa.as_ref() else {
        eprintln!("shaderdb: no Mesa reference found; the comparison is not checked");
        assert!(text.contains("no Mesa figures"));
        return;
    };
    let compared = report.compared();
    let missing = report.without_mesa();
    assert_eq!(compared.len() + missing.len(), ok.len());
    for m in &missing {
        assert!(mesa.get(m).is_none());
        assert!(text.contains(&format!("{m:<26}")), "{m} is listed");
    }
    let (gi, gh) = report.geometric_means().expect("shaders to compare");
    let within = |g: f64, xs: Vec<f64>| {
        let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().copied().fold(0.0, f64::max);
        lo <= g + 1e-9 && g <= hi + 1e-9
    };
    assert!(within(
        gi,
        compared.iter().map(|c| c.inst_ratio()).collect()
    ));
    assert!(within(
        gh,
        compared.iter().map(|c| c.halves_ratio()).collect()
    ));
    assert!(text.contains(&format!("instructions {gi:.3}x, registers {gh:.3}x")));
}
