#!/usr/bin/env bash
# Per-shader code figures for regression checks against an earlier compiler: compiles every
# corpus shader (the same list as scripts/corpus-hashes.sh) at -O0 and -O2 with a built agxc
# binary and prints one line per shader and level: the path, the level, the main program's
# instructions (with `wait` and `stop`, as the shader-db report counts them) and its 16-bit
# register halves, from `--emit report`; `refused` for a shader that binary does not compile.
#
#   scripts/corpus-figures.sh [AGXC_BINARY] > now.txt     # default target/release/agxc
#   scripts/corpus-figures.sh --compare OLD.txt NEW.txt    # the shaders NEW makes worse
#
# scripts/figures/before-issue-13.txt holds the figures of ae58fbe, the compiler before the
# code-quality issues 13-15 (their acceptance compares each shader with it); rebuild it with
# `git worktree add /tmp/base ae58fbe && (cd /tmp/base && cargo build -p agxc)` and this script
# on /tmp/base/target/debug/agxc.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--compare" ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --compare OLD NEW" >&2; exit 2; }
    # Both tables are keyed by shader and level; a line for each pair compiled by both where
    # NEW has more instructions or more halves, then the counts.
    awk '
        NR == FNR { if ($3 != "refused") old[$1 " " $2] = $3 " " $4; next }
        $3 != "refused" && ($1 " " $2) in old {
            split(old[$1 " " $2], o, " ")
            n++
            longer = $3 > o[1]; wider = $4 > o[2]
            if (longer || wider) {
                bad++
                printf "%s %s: %s/%s -> %s/%s%s%s\n", $1, $2, o[1], o[2], $3, $4,
                    longer ? " longer" : "", wider ? " wider" : ""
            }
        }
        END { printf "%d shader/level pairs compiled by both; %d with more instructions or halves\n", n, bad }
    ' "$2" "$3"
    exit 0
fi

agxc=${1:-target/release/agxc}
[ -x "$agxc" ] || { echo "no agxc binary at $agxc (cargo build --release)" >&2; exit 1; }

shaders=$( { ls tests/corpus/spirv/*/shader.spv tests/corpus/tgsi/gen/*/shader.tgsi;
             find tests/corpus/tgsi/graw -name '*.tgsi'; } | LC_ALL=C sort)
for s in $shaders; do
    for level in 0 2; do
        if report=$("$agxc" compile "$s" -O"$level" --emit report 2>/dev/null); then
            inst=$(printf '%s\n' "$report" | awk '/^instructions:/ { print $2; exit }')
            halves=$(printf '%s\n' "$report" | awk '/^registers:/ { print $2; exit }')
            echo "$s -O$level $inst $halves"
        else
            echo "$s -O$level refused"
        fi
    done
done
