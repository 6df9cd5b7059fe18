#!/bin/sh
# Installs what the softpipe oracle needs ahead of time: Mesa's GL/EGL drivers (Debian packages) and a
# Python virtualenv with moderngl (tests/softpipe/requirements.txt). Optional: with the README's apt
# line installed, the tests make the same venv themselves on first use (tests/src/softpipe/venv.rs).
#
#   tests/softpipe/install.sh            # venv in $SOFTPIPE_VENV, default <repo>/target/softpipe-venv
#   SOFTPIPE_SKIP_APT=1 tests/softpipe/install.sh   # packages already present (or no root)
#
# Afterwards `$SOFTPIPE_VENV/bin/python tests/softpipe/run_cases.py --probe` prints the renderer,
# which must be softpipe with GL 3.3 and compute shaders.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
venv=${SOFTPIPE_VENV:-"$repo/target/softpipe-venv"}

if [ "${SOFTPIPE_SKIP_APT:-0}" != 1 ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        sudo=sudo
    fi
    $sudo apt-get update
    # libgl1-mesa-dri holds softpipe (swrast_dri.so / the gallium megadriver); libegl-mesa0 is
    # Mesa's EGL with the surfaceless platform; libegl1 is the GLVND loader moderngl's glcontext
    # opens; python3-venv provides `python3 -m venv` on Debian.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends \
        libgl1-mesa-dri libegl1 libegl-mesa0 libgbm1 libgl1 libglx-mesa0 libglapi-mesa \
        python3 python3-venv
fi

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
# The stamp the tests' set-up checks (tests/src/softpipe/venv.rs): these requirements are in.
cp "$here/requirements.txt" "$venv/agxc-requirements.txt"
"$venv/bin/python" "$here/run_cases.py" --probe
