//! Consistency of the encoding tables: no two entries can match the same bits (except the
//! documented `uniform_store`/`device_store` shadowing), segments do not overlap, and every
//! segment fits in its form's longest length.

use super::{decode_raw, encodings, FieldWriter, Length, Opcode, Seg};

#[test]
fn no_two_entries_match_the_same_bits() {
    let all: Vec<_> = encodings().collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let both = a.mask & b.mask;
            let compatible = (a.value ^ b.value) & both == 0;
            let allowed = (a.opcode, b.opcode) == (Opcode::UniformStore, Opcode::DeviceStore);
            assert!(
                !compatible || allowed,
                "{:?} and {:?} can match the same instruction",
                a.opcode,
                b.opcode
            );
        }
    }
}

#[test]
fn segments_do_not_overlap_and_fit_the_form() {
    for e in encodings() {
        let mut used = 0u128;
        for seg in e.segs {
            let (hi, lo, is_const) = match *seg {
                Seg::Const { hi, lo, .. } => (hi, lo, true),
                Seg::Field { hi, lo, .. } => (hi, lo, false),
            };
            assert!(
                u32::from(hi) < u32::from(e.length.max()) * 8,
                "{:?}: bit {hi} past the end",
                e.opcode
            );
            let bits = ((1u128 << (hi - lo + 1)) - 1) << lo;
            // mov_imm's `Dt` spans the constant size bit 8 by design (the diagram's footer row).
            let exempt =
                matches!(e.opcode, Opcode::MovImm16 | Opcode::MovImm32) && is_const && lo == 8;
            assert!(
                exempt || used & bits == 0,
                "{:?}: segment at {hi}:{lo} overlaps",
                e.opcode
            );
            if !exempt {
                used |= bits;
            }
        }
        if let Length::LongBit { bit, short, .. } = e.length {
            assert!(
                u32::from(bit) < u32::from(short) * 8,
                "{:?}: L outside the short form",
                e.opcode
            );
        }
    }
}

#[test]
fn every_opcode_has_exactly_one_entry() {
    let all: Vec<_> = encodings().map(|e| e.opcode).collect();
    for (i, a) in all.iter().enumerate() {
        assert!(!all[i + 1..].contains(a), "{a:?} appears twice");
    }
    assert_eq!(all.len(), 79);
}

#[test]
fn field_writer_sets_fields_the_decoder_reads_back() {
    // Every field of every form, set alone to its lowest and to its highest bit, reads back
    // through `decode_raw` as the same form (the uniform_store/device_store shadowing aside),
    // and the long form is chosen exactly when a bit past the short form is set.
    for e in encodings() {
        for seg in e.segs {
            let Seg::Field { name, hi, lo, .. } = *seg else {
                continue;
            };
            if name == "L" {
                // Set by `finish` from the other fields, never by an encoder.
                continue;
            }
            // mov_imm's `Dt` spans its constant size bit 8 (see above): setting it alone
            // rewrites that bit.
            if name == "Dt" && matches!(e.opcode, Opcode::MovImm16 | Opcode::MovImm32) {
                continue;
            }
            for bit in [lo, hi] {
                let value = 1u32 << (bit - lo);
                let mut w = FieldWriter::new(e.opcode);
                w.set(name, value);
                let (bits, len) = w.finish();
                let bytes = &bits.to_le_bytes()[..usize::from(len)];
                let raw = match decode_raw(bytes) {
                    Ok(raw) => raw,
                    Err(err) => panic!("{:?}.{name} bit {bit}: {err:?}", e.opcode),
                };
                if raw.encoding.opcode != e.opcode {
                    assert_eq!(
                        (e.opcode, raw.encoding.opcode),
                        (Opcode::DeviceStore, Opcode::UniformStore),
                        "{:?}.{name} bit {bit}",
                        e.opcode
                    );
                    continue;
                }
                assert_eq!(raw.field(name), Some(value), "{:?}.{name}", e.opcode);
                if let Length::LongBit { short, long, .. } = e.length {
                    // A constant past the short form (`ceil`'s sub-operation) makes the long
                    // form whatever the field.
                    let constant_long = e.value.checked_shr(u32::from(short) * 8).unwrap_or(0) != 0;
                    let past_short = u32::from(bit) >= u32::from(short) * 8;
                    let expected = if past_short || constant_long {
                        long
                    } else {
                        short
                    };
                    assert_eq!(len, expected, "{:?}.{name} bit {bit}", e.opcode);
                }
            }
        }
    }
}

#[test]
fn lookups_by_key_find_the_fields_a_string_comparison_finds() {
    // The names of every form, plus a few it lacks (one longer than a key holds whole).
    let mut names: Vec<&str> = vec!["", "Q", "Dxx", "nonexistent_field"];
    for e in encodings() {
        for seg in e.segs {
            if let Seg::Field { name, .. } = *seg {
                names.push(name);
            }
        }
    }
    for e in encodings() {
        let w = FieldWriter::new(e.opcode);
        for &name in &names {
            let expected = e.segs.iter().find_map(|seg| match *seg {
                Seg::Field {
                    name: n, hi, lo, ..
                } if n == name => Some((hi, lo)),
                _ => None,
            });
            assert_eq!(w.range_of(name), expected, "{:?}.{name}", e.opcode);
        }
    }
}
