//! Property: TGSI text mutated at random (characters and words deleted, duplicated, replaced;
//! lines dropped and repeated) never makes the front end panic, and every outcome is either a
//! verified function or an error that points into the text. A `Verify` error would mean the
//! lifter built invalid IR from some input, so it fails the property too.

use agxc_frontend::tgsi::{lift, LiftOptions, TgsiError};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::path::Path;
use std::sync::OnceLock;

/// Valid programs to mutate: the corpus plus a few that exercise the lifter's less common
/// paths (subroutines, arrays, textures, every stage).
fn bases() -> &'static [String] {
    static BASES: OnceLock<Vec<String>> = OnceLock::new();
    BASES.get_or_init(|| {
        let mut out: Vec<String> = EXTRA.iter().map(|s| s.to_string()).collect();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/tgsi");
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "tgsi") {
                    if let Ok(text) = std::fs::read_to_string(&p) {
                        out.push(text);
                    }
                }
            }
        }
        out.sort();
        out
    })
}

const EXTRA: &[&str] = &[
    "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0..3]
DCL TEMP[4..7], ARRAY(1)
DCL ADDR[0]
IMM[0] UINT32 {4, 1, 2, 3}
IMM[1] FLT32 {0x3f800000, 0x1.8p+1, -2.5, 0.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV TEMP[ADDR[0].x+4](1), IMM[1]
  2: CAL :9
  3: BGNLOOP :0
  4:   USGE TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx
  5:   BREAKC TEMP[1].xxxx
  6:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  7: ENDLOOP :3
  8: END
  9: BGNSUB
 10:   UIF TEMP[0].xxxx :12
 11:     RET
 12:   ENDIF
 13:   STORE BUFFER[0].xy, IMM[0].xxxx, TEMP[ADDR[0].x+5](1)
 14:   RET
 15: ENDSUB
",
    "FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], POSITION, LINEAR
DCL IN[2], FACE, CONSTANT
DCL OUT[0], COLOR
DCL OUT[1], POSITION
DCL SAMP[0]
DCL SVIEW[0], 2D_ARRAY, FLOAT
DCL TEMP[0..1]
IMM[0] FLT32 {0.5, 1.0, 0.0, 2.0}
TXB TEMP[0], IN[0], SAMP[0], 2D_ARRAY
DDX_FINE TEMP[1], IN[0]
KILL_IF -TEMP[1].xyzw
TXQ TEMP[1], IMM[0].zzzz, SAMP[0], 2D_ARRAY
MAD_SAT OUT[0], TEMP[0], IN[2].xxxx, IN[1]
MOV OUT[1].z, IMM[0].xxxx
END
",
    "VERT
DCL IN[0]
DCL SV[0], INSTANCEID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..3]
DCL ADDR[0]
DCL TEMP[0]
DP4 OUT[0].x, IN[0], CONST[0]
DP4 OUT[0].y, IN[0], CONST[1]
ARL ADDR[0].x, IN[0].wwww
MOV OUT[1], CONST[ADDR[0].x+2]
LIT TEMP[0], IN[0]
UIF SV[0].xxxx
  MOV OUT[1].w, TEMP[0].zzzz
ENDIF
END
",
];

/// Words a mutation may put in: opcodes, files, keywords, numbers, punctuation.
const VOCABULARY: &[&str] = &[
    "MOV",
    "ADD",
    "UIF",
    "IF",
    "ELSE",
    "ENDIF",
    "BGNLOOP",
    "ENDLOOP",
    "BRK",
    "CONT",
    "CAL",
    "RET",
    "BGNSUB",
    "ENDSUB",
    "END",
    "KILL",
    "TEX",
    "TXF",
    "LOAD",
    "STORE",
    "DCL",
    "IMM",
    "PROPERTY",
    "TEMP",
    "IN",
    "OUT",
    "CONST",
    "ADDR",
    "SV",
    "SAMP",
    "SVIEW",
    "BUFFER",
    "MEMORY",
    "IMAGE",
    "2D",
    "CUBE",
    "SHADOW2D",
    "FLT32",
    "UINT32",
    "FLT64",
    "GENERIC",
    "POSITION",
    "ARRAY(1)",
    "0",
    "1",
    "4294967295",
    "65536",
    "-1",
    "0x7fc00000",
    "[",
    "]",
    "(",
    ")",
    ",",
    ":",
    ".",
    "..",
    "|",
    "-",
    "{",
    "}",
    "xyzw",
    ".x",
    "[ADDR[0].x+1]",
    "[0..4095]",
    "_SAT",
    "DDX",
    "BARRIER",
    "NOP",
];

const CHARS: &[char] = &[
    '[', ']', '(', ')', '.', ',', ':', '-', '|', '{', '}', '0', '9', 'x', 'T', '\n', ' ', '_', '+',
];

#[derive(Clone, Debug)]
enum Mutation {
    DeleteChar(usize),
    InsertChar(usize, usize),
    DuplicateChar(usize),
    DeleteWord(usize),
    DuplicateWord(usize),
    ReplaceWord(usize, usize),
    /// Replaces a word with another word of the same text (keeps more programs well formed).
    CopyWord(usize, usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

impl Arbitrary for Mutation {
    fn arbitrary(g: &mut Gen) -> Mutation {
        let n = usize::arbitrary(g);
        let m = usize::arbitrary(g);
        match u8::arbitrary(g) % 10 {
            0 => Mutation::DeleteChar(n),
            1 => Mutation::InsertChar(n, m),
            2 => Mutation::DuplicateChar(n),
            3 => Mutation::DeleteWord(n),
            4 => Mutation::DuplicateWord(n),
            5 => Mutation::ReplaceWord(n, m),
            6 => Mutation::DeleteLine(n),
            7 => Mutation::DuplicateLine(n),
            8 => Mutation::CopyWord(n, m),
            _ => Mutation::SwapLines(n, m),
        }
    }
}

#[derive(Clone, Debug)]
struct Case {
    base: usize,
    mutations: Vec<Mutation>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let count = 1 + usize::arbitrary(g) % 4;
        Case {
            base: usize::arbitrary(g),
            mutations: (0..count).map(|_| Mutation::arbitrary(g)).collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let base = self.base;
        Box::new(
            self.mutations
                .shrink()
                .map(move |mutations| Case { base, mutations }),
        )
    }
}

/// Splits text into words and the whitespace between them, so words can be edited in place.
fn pieces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_space = None;
    for c in text.chars() {
        let space = c.is_whitespace();
        if in_space.is_some_and(|s| s != space) {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
        in_space = Some(space);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn apply(text: &str, m: &Mutation) -> String {
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut words = pieces(text);
    let word_slots: Vec<usize> = (0..words.len())
        .filter(|&i| !words[i].trim().is_empty())
        .collect();
    let at = |n: usize, len: usize| if len == 0 { 0 } else { n % len };
    match *m {
        Mutation::DeleteChar(n) if !chars.is_empty() => {
            let i = at(n, chars.len());
            chars[..i].iter().chain(&chars[i + 1..]).collect()
        }
        Mutation::InsertChar(n, c) => {
            let i = at(n, chars.len() + 1);
            let mut v = chars.clone();
            v.insert(i, CHARS[c % CHARS.len()]);
            v.into_iter().collect()
        }
        Mutation::DuplicateChar(n) if !chars.is_empty() => {
            let i = at(n, chars.len());
            let mut v = chars.clone();
            v.insert(i, chars[i]);
            v.into_iter().collect()
        }
        Mutation::DeleteWord(n) if !word_slots.is_empty() => {
            words.remove(word_slots[at(n, word_slots.len())]);
            words.concat()
        }
        Mutation::DuplicateWord(n) if !word_slots.is_empty() => {
            let i = word_slots[at(n, word_slots.len())];
            let w = format!("{} ", words[i]);
            words.insert(i, w);
            words.concat()
        }
        Mutation::ReplaceWord(n, v) if !word_slots.is_empty() => {
            let i = word_slots[at(n, word_slots.len())];
            words[i] = VOCABULARY[v % VOCABULARY.len()].to_string();
            words.concat()
        }
        Mutation::CopyWord(n, v) if !word_slots.is_empty() => {
            let i = word_slots[at(n, word_slots.len())];
            words[i] = words[word_slots[at(v, word_slots.len())]].clone();
            words.concat()
        }
        Mutation::DeleteLine(n) => {
            let i = at(n, lines.len());
            lines
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        }
        Mutation::DuplicateLine(n) => {
            let i = at(n, lines.len());
            let mut v = lines.clone();
            v.insert(i, lines[i]);
            v.join("\n")
        }
        Mutation::SwapLines(a, b) => {
            let mut v = lines.clone();
            let (a, b) = (at(a, v.len()), at(b, v.len()));
            v.swap(a, b);
            v.join("\n")
        }
        _ => text.to_string(),
    }
}

fn check(case: Case) -> TestResult {
    let bases = bases();
    let mut text = bases[case.base % bases.len()].clone();
    for m in &case.mutations {
        text = apply(&text, m);
    }
    let lines = text.split('\n').count() as u32;
    match lift(&text, &LiftOptions::default()) {
        Ok(_) => TestResult::passed(),
        Err(TgsiError::Verify(e)) => TestResult::error(format!("invalid IR from\n{text}\n{e}")),
        Err(e) => match e.pos() {
            Some(p) if p.line >= 1 && p.line <= lines.max(1) && p.col >= 1 => TestResult::passed(),
            _ => TestResult::error(format!("error `{e}` points outside the text\n{text}")),
        },
    }
}

#[test]
fn mutated_tgsi_never_panics() {
    // QUICKCHECK_TESTS runs more cases (the default keeps the test quick).
    let tests = std::env::var("QUICKCHECK_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    QuickCheck::new()
        .tests(tests)
        .quickcheck(check as fn(Case) -> TestResult);
}

#[test]
fn the_extra_bases_lift() {
    for text in EXTRA {
        if let Err(e) = lift(text, &LiftOptions::default()) {
            panic!("{e}\n{text}");
        }
    }
}
