#!/usr/bin/env bash
# Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/ from the committed
# shaders: SPIR-V binaries, TGSI text, the IR every corpus shader lifts to, the G13 code each
# compiles to, and one corpus_buffers input per corpus case and level. Builds the agxc binary
# (debug) first. Run from anywhere; existing seeds are kept.
set -euo pipefail
fuzz="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$fuzz")"
cargo build --quiet --manifest-path "$root/Cargo.toml" --bin agxc
agxc="$root/target/debug/agxc"
out="$fuzz/corpus"
mkdir -p "$out"/{spirv_compile,tgsi_compile,ir_compile,g13_run,corpus_buffers}

n=0
spirv=$(find "$root/tests/corpus/spirv" "$root/frontend/tests/data" -name '*.spv' | sort)
tgsi=$(find "$root/tests/corpus/tgsi" -name '*.tgsi' | sort)
for f in $spirv; do
    n=$((n + 1))
    cp "$f" "$out/spirv_compile/$n.spv"
done
for f in $tgsi; do
    n=$((n + 1))
    cp "$f" "$out/tgsi_compile/$n.tgsi"
done
cp "$root"/examples/*.ir "$out/ir_compile/"
for f in $spirv $tgsi; do
    n=$((n + 1))
    # Shaders the front ends or the backend refuse give no IR or no code; that is fine.
    "$agxc" compile "$f" -O0 --emit ir -o "$out/ir_compile/$n.ir" 2>/dev/null || rm -f "$out/ir_compile/$n.ir"
    if "$agxc" compile "$f" -O2 --emit bin -o "$fuzz/bin.tmp" 2>/dev/null; then
        # Byte 0 of a g13_run input: bit 0 picks the stage (0 compute, 1 fragment).
        for stage in 0 1; do
            { printf "\\x0$stage"; cat "$fuzz/bin.tmp"; } > "$out/g13_run/$n-$stage.bin"
        done
    fi
done
rm -f "$fuzz/bin.tmp"
# corpus_buffers: byte 0 the case, byte 1 the level; no buffer bytes (the manifest's inputs).
for case in $(seq 0 199); do
    for level in 0 1; do
        printf "\\x$(printf %02x "$case")\\x0$level" > "$out/corpus_buffers/case$case-O$level.bin"
    done
done
for t in "$out"/*/; do
    echo "$(basename "$t"): $(find "$t" -type f | wc -l) seeds"
done
