//! `agxc asm`: the round trip with `agxc compile` and `agxc disasm` through files, labels
//! resolved to the offsets the disassembler prints, and one-line errors naming line and column.

use super::{agxc, scratch, SAXPY_SIN};

/// compile -> disasm -> asm gives the compiled bytes back, at -O0 and -O2.
#[test]
fn asm_of_disasm_gives_the_compiled_bytes() {
    let dir = scratch("asm_round_trip");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, SAXPY_SIN).unwrap();
    for level in ["-O0", "-O2"] {
        let bin = dir.join(format!("a{level}.bin"));
        let o = agxc(&[
            "compile",
            shader.to_str().unwrap(),
            level,
            "-o",
            bin.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = agxc(&["disasm", bin.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let listing = dir.join(format!("a{level}.s"));
        std::fs::write(&listing, &o.stdout).unwrap();
        let again = dir.join(format!("b{level}.bin"));
        let o = agxc(&[
            "asm",
            listing.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&bin).unwrap());
        // Without -o the bytes go to standard output.
        let o = agxc(&["asm", listing.to_str().unwrap()]);
        assert!(o.status.success());
        assert_eq!(o.stdout, std::fs::read(&bin).unwrap());
    }
}

/// A hand-written loop with labels: the disassembly of the result shows each jump's offset as
/// the distance between the byte offsets the disassembler prints for the jump and its target.
#[test]
fn labels_become_the_offsets_disasm_prints() {
    let dir = scratch("asm_labels");
    let source = dir.join("loop.s");
    std::fs::write(
        &source,
        "; count r1 down from 10
        mov_imm r1, 10
loop:   iadd r1, r1, 1.neg          // r1 -= 1
        while_icmp r0l, une, r1, 0, 1
        jmp_exec_any loop
        pop_exec r0l, 1
        jmp_exec_none end
        wait 0
end:    stop
",
    )
    .unwrap();
    let bin = dir.join("loop.bin");
    let o = agxc(&["asm", source.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = agxc(&["disasm", bin.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<(i64, &str)> = text
        .lines()
        .map(|l| {
            let (pc, rest) = l.split_once(':').unwrap();
            let asm = rest.trim_start().split_once(' ').unwrap().1.trim();
            (i64::from_str_radix(pc.trim(), 16).unwrap(), asm)
        })
        .collect();
    let asm: Vec<&str> = lines.iter().map(|(_, a)| *a).collect();
    assert_eq!(asm[0], "mov_imm r1, 10");
    assert_eq!(asm[1], "iadd r1, r1, 1.neg");
    assert_eq!(asm.len(), 8, "{text}");
    let offset = |i: usize, target: usize| lines[target].0 - lines[i].0;
    assert_eq!(asm[3], format!("jmp_exec_any {:+}", offset(3, 1)), "{text}");
    assert_eq!(
        asm[5],
        format!("jmp_exec_none {:+}", offset(5, 7)),
        "{text}"
    );
    assert!(offset(3, 1) < 0 && offset(5, 7) > 0);
}

fn asm_error(name: &str, text: impl AsRef<[u8]>) -> String {
    let dir = scratch("asm_errors");
    let source = dir.join(name);
    std::fs::write(&source, text).unwrap();
    let o = agxc(&["asm", source.to_str().unwrap()]);
    assert!(!o.status.success(), "{name} assembled");
    assert!(o.stdout.is_empty());
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err.replace(&source.display().to_string(), name)
}

#[test]
fn errors_are_one_line_naming_file_line_and_column() {
    let e = asm_error("mnemonic.s", "stop\n    fadd33 r0, r1, r2\n");
    assert_eq!(
        e.trim(),
        "agxc: error: mnemonic.s:2:5: unknown instruction `fadd33`"
    );
    let e = asm_error("reg.s", "fadd32 r0, r1, r200\n");
    assert!(
        e.starts_with("agxc: error: reg.s:1:17: register 200 does not exist"),
        "{e}"
    );
    let e = asm_error("label.s", "jmp_exec_none out\nstop\n");
    assert!(
        e.starts_with("agxc: error: label.s:1:15: label `out` is not defined"),
        "{e}"
    );
    let e = asm_error("encode.s", "stop\n  convert r0_r1, u32_to_f, r2, rte\n");
    assert!(
        e.starts_with("agxc: error: encode.s:2:3: cannot encode"),
        "{e}"
    );
    let e = asm_error(
        "listing.s",
        "     0: 8800   stop\n     2: error: unknown opcode\n",
    );
    assert!(
        e.starts_with("agxc: error: listing.s:2:9: the listing records a decode error"),
        "{e}"
    );
    let e = asm_error("binary.s", b"stop\nstop\n\xff\xfe");
    assert!(
        e.starts_with("agxc: error: binary.s:3:1: the file is not UTF-8"),
        "{e}"
    );
}
