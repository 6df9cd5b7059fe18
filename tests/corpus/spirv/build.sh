#!/usr/bin/env bash
# Rebuilds shader.spv in every SPIR-V corpus case (or the named ones) by running the `build`
# command recorded in its case.toml, from inside the case directory, then validates the result
# with spirv-val. Needs glslangValidator and/or spirv-as, and spirv-val (Debian: glslang-tools,
# spirv-tools).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$root"
if [ "$#" -gt 0 ]; then cases=("$@"); else cases=(*/); fi
built=0
for c in "${cases[@]}"; do
    c="${c%/}"
    [ -f "$c/case.toml" ] || { echo "skipping $c: no case.toml" >&2; continue; }
    cmd="$(sed -n 's/^build *= *"\(.*\)" *$/\1/p' "$c/case.toml")"
    [ -n "$cmd" ] || { echo "error: $c/case.toml has no build line" >&2; exit 1; }
    # Only the two tools of the corpus format are allowed: the line is run by the shell.
    case "$cmd" in
        "glslangValidator "*|"spirv-as "*) ;;
        *) echo "error: $c: unexpected build command: $cmd" >&2; exit 1 ;;
    esac
    (cd "$c" && eval "$cmd" >/dev/null) || { echo "error: $c: build failed: $cmd" >&2; exit 1; }
    spirv-val --target-env vulkan1.1 "$c/shader.spv" || { echo "error: $c: spirv-val failed" >&2; exit 1; }
    built=$((built + 1))
done
echo "built $built case(s)"
