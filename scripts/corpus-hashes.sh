#!/usr/bin/env bash
# Byte-identity check for the backend and optimizer: compiles every corpus shader
# (tests/corpus/spirv/*/shader.spv, tests/corpus/tgsi/gen/*/shader.tgsi and
# tests/corpus/tgsi/graw/**/*.tgsi) at -O0 and -O2 with a built agxc binary and prints one line
# per shader and level: the SHA-256 of the disassembly (`--emit asm`: every instruction's bytes)
# and of the report (`--emit report`: registers, occupancy, stack, statistics and the
# optimizer's report without its `time:` line, which is measured), or of the one-line error for
# shaders agxc refuses.
#
#   scripts/corpus-hashes.sh [AGXC_BINARY] > before.txt   # default target/release/agxc
#   ... change the compiler, rebuild ...
#   scripts/corpus-hashes.sh > after.txt && diff before.txt after.txt
#
# No output from diff means every binary, its metadata and statistics are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
agxc=${1:-target/release/agxc}
[ -x "$agxc" ] || { echo "no agxc binary at $agxc (cargo build --release)" >&2; exit 1; }

hash() { sha256sum | cut -c1-16; }

shaders=$( { ls tests/corpus/spirv/*/shader.spv tests/corpus/tgsi/gen/*/shader.tgsi;
             find tests/corpus/tgsi/graw -name '*.tgsi'; } | LC_ALL=C sort)
for s in $shaders; do
    for level in 0 2; do
        line="$s -O$level"
        for emit in asm report; do
            if out=$("$agxc" compile "$s" -O"$level" --emit "$emit" 2>&1 | grep -v '^  time: '); then
                line="$line $emit=$(printf '%s' "$out" | hash)"
            else
                line="$line $emit=error:$(printf '%s' "$out" | hash)"
            fi
        done
        echo "$line"
    done
done
