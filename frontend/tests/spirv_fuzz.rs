//! Property: lifting a mutated valid module never panics (it lifts, or returns an error).

use agxc_frontend::spirv::{lift, LiftOptions};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use std::sync::OnceLock;

const SEEDS: [&str; 7] = [
    "control", "memory", "glsl", "glsl2", "matrix", "loops", "vertex",
];

fn seed_words(name: &str) -> Vec<u32> {
    let path = format!("{}/tests/data/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// One change to a word stream; positions are taken modulo its length.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit {
        at: usize,
        bit: u8,
    },
    Replace {
        at: usize,
        word: u32,
    },
    /// Keeps the opcode, changes the word count of the instruction word.
    WordCount {
        at: usize,
        count: u16,
    },
    Insert {
        at: usize,
        word: u32,
    },
    Delete {
        at: usize,
    },
    Truncate {
        len: usize,
    },
    /// Replaces an operand word of an instruction (the stream stays decodable more often).
    Operand {
        inst: usize,
        slot: usize,
        word: u32,
    },
    /// Removes or duplicates a whole instruction.
    DropInst {
        inst: usize,
    },
    DupInst {
        inst: usize,
    },
}

/// Words that often mean something: small ids and literals, opcodes with counts, extremes.
fn interesting(g: &mut Gen) -> u32 {
    match u8::arbitrary(g) % 4 {
        0 => u32::arbitrary(g) % 64,
        1 => ((u32::arbitrary(g) % 8) << 16) | (u32::arbitrary(g) % 400),
        2 => *g
            .choose(&[0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xffff])
            .expect("non-empty"),
        _ => u32::arbitrary(g),
    }
}

impl Arbitrary for Mutation {
    fn arbitrary(g: &mut Gen) -> Mutation {
        let at = usize::arbitrary(g);
        match u8::arbitrary(g) % 12 {
            0 => Mutation::FlipBit {
                at,
                bit: u8::arbitrary(g) % 32,
            },
            1 => Mutation::Replace {
                at,
                word: interesting(g),
            },
            2 => Mutation::WordCount {
                at,
                count: u16::arbitrary(g) % 12,
            },
            3 => Mutation::Insert {
                at,
                word: interesting(g),
            },
            4 => Mutation::Delete { at },
            5 => Mutation::Truncate { len: at },
            6 => Mutation::DropInst { inst: at },
            7 => Mutation::DupInst { inst: at },
            _ => Mutation::Operand {
                inst: at,
                slot: usize::arbitrary(g),
                word: interesting(g),
            },
        }
    }
}

#[derive(Clone, Debug)]
struct Case {
    seed: usize,
    mutations: Vec<Mutation>,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let n = 1 + usize::arbitrary(g) % 3;
        Case {
            seed: usize::arbitrary(g) % SEEDS.len(),
            mutations: (0..n).map(|_| Mutation::arbitrary(g)).collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Case>> {
        let seed = self.seed;
        Box::new(
            self.mutations
                .shrink()
                .filter(|m| !m.is_empty())
                .map(move |mutations| Case { seed, mutations }),
        )
    }
}

/// Start and word count of every instruction (as far as the stream is well formed).
fn instructions(words: &[u32]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            break;
        }
        out.push((at, count));
        at += count;
    }
    out
}

fn apply(words: &mut Vec<u32>, m: &Mutation) {
    let insts = instructions(words);
    // Leave the magic number alone: without it nothing past the header check runs.
    let body = words.len().saturating_sub(1).max(1);
    let pos = |at: usize| 1 + at % body;
    match *m {
        Mutation::FlipBit { at, bit } => {
            let i = pos(at);
            if let Some(w) = words.get_mut(i) {
                *w ^= 1 << bit;
            }
        }
        Mutation::Replace { at, word } => {
            let i = pos(at);
            if let Some(w) = words.get_mut(i) {
                *w = word;
            }
        }
        Mutation::WordCount { at, count } => {
            let i = 5 + at % words.len().saturating_sub(5).max(1);
            if let Some(w) = words.get_mut(i) {
                *w = (*w & 0xffff) | (count as u32) << 16;
            }
        }
        Mutation::Insert { at, word } => {
            let i = pos(at).min(words.len());
            words.insert(i, word);
        }
        Mutation::Delete { at } => {
            let i = pos(at);
            if i < words.len() {
                words.remove(i);
            }
        }
        Mutation::Truncate { len } => {
            let keep = 1 + len % body;
            words.truncate(keep);
        }
        Mutation::Operand { inst, slot, word } => {
            if let Some(&(start, count)) = insts.get(inst % insts.len().max(1)) {
                if count > 1 {
                    words[start + 1 + slot % (count - 1)] = word;
                }
            }
        }
        Mutation::DropInst { inst } => {
            if let Some(&(start, count)) = insts.get(inst % insts.len().max(1)) {
                words.drain(start..start + count);
            }
        }
        Mutation::DupInst { inst } => {
            if let Some(&(start, count)) = insts.get(inst % insts.len().max(1)) {
                let copy: Vec<u32> = words[start..start + count].to_vec();
                words.splice(start..start, copy);
            }
        }
    }
}

fn seeds() -> &'static [Vec<u32>] {
    static SEED_WORDS: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    SEED_WORDS.get_or_init(|| SEEDS.iter().map(|s| seed_words(s)).collect())
}

fn lifts_or_fails_cleanly(case: Case) -> bool {
    let mut words = seeds()[case.seed].clone();
    for m in &case.mutations {
        apply(&mut words, m);
    }
    // Either outcome is fine; a panic fails the property.
    let _ = lift(&words, &LiftOptions::default());
    true
}

#[test]
fn mutated_modules_never_panic() {
    for s in seeds() {
        lift(s, &LiftOptions::default()).expect("the unmutated seeds lift");
    }
    let prop = lifts_or_fails_cleanly;
    QuickCheck::new()
        .tests(4000)
        .max_tests(8000)
        .quickcheck(prop as fn(Case) -> bool);
}
