"""Capturing softpipe's shader dumps and picking out the TGSI of the corpus shader.

With `SOFTPIPE_DEBUG=fs,cs` softpipe prints, for every fragment and compute shader it creates,
the NIR it was given (`shader: MESA_SHADER_FRAGMENT`, `name: GLSL1`, `decl_var ...` lines and the
body) followed by the TGSI that Mesa's nir_to_tgsi made of it (a `FRAG`/`COMP` header line through
the `N: END` line). Mesa's own internal shaders (blits, clears) are printed as TGSI without a NIR
block named `GLSL<n>`, which is how they are told apart from the application's shaders.
"""

import ctypes
import os
import re
import tempfile

TGSI_HEADERS = {"fragment": "FRAG", "compute": "COMP"}
NIR_STAGES = {"MESA_SHADER_FRAGMENT": "fragment", "MESA_SHADER_COMPUTE": "compute"}

_END_LINE = re.compile(r"^\s*\d+: END\s*$")
# nir_print prints a variable as `decl_var <mode> <interp> <type> <name> (<location>,
# <driver_location>, <binding>)`; the location may be a name such as VARYING_SLOT_VAR0.xyzw.
_DECL_VAR = re.compile(
    r"^decl_var (?P<mode>\S+) (?:\S+ )*?(?P<type>\S+) (?P<name>[A-Za-z_][A-Za-z0-9_]*) "
    r"\((?P<location>[^,]*), (?P<driver>\d+), (?P<binding>\d+)\)"
)


class DumpError(Exception):
    """softpipe's output did not hold exactly the expected shader dump."""


class CapturedOutput:
    """Redirects the process's stdout and stderr file descriptors (where Mesa prints) to a file.

    Python-level `print` goes through the same descriptors, so nothing else may print while a
    capture is open.
    """

    def __init__(self):
        self.text = ""
        self._file = None
        self._saved = {}

    def __enter__(self):
        self._flush()
        self._file = tempfile.TemporaryFile(mode="w+b")
        for fd in (1, 2):
            self._saved[fd] = os.dup(fd)
            os.dup2(self._file.fileno(), fd)
        return self

    def __exit__(self, *exc):
        self._flush()
        for fd, saved in self._saved.items():
            os.dup2(saved, fd)
            os.close(saved)
        self._file.seek(0)
        self.text = self._file.read().decode("utf-8", errors="replace")
        self._file.close()
        return False

    @staticmethod
    def _flush():
        # Mesa writes through C stdio, whose buffers must be emptied before the descriptors move.
        ctypes.CDLL(None).fflush(None)


class ShaderDump:
    """One application shader as softpipe printed it."""

    def __init__(self, stage, name, decls, tgsi):
        self.stage = stage
        self.name = name
        # Each: dict(mode, type, name, location, driver, binding).
        self.decls = decls
        self.tgsi = tgsi


def parse_dumps(text):
    """Every application (`GLSL<n>`) shader in `text`, in the order softpipe created them."""
    lines = text.splitlines()
    dumps = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("shader: "):
            i += 1
            continue
        stage = NIR_STAGES.get(line[len("shader: "):].strip())
        name = None
        decls = []
        i += 1
        # The NIR block runs until the TGSI header of the same stage.
        while i < len(lines) and not (stage and lines[i].strip() == TGSI_HEADERS[stage]):
            if lines[i].startswith("name: "):
                name = lines[i][len("name: "):].strip()
            match = _DECL_VAR.match(lines[i])
            if match:
                decls.append(
                    {
                        "mode": match["mode"],
                        "type": match["type"],
                        "name": match["name"],
                        "location": match["location"],
                        "driver": int(match["driver"]),
                        "binding": int(match["binding"]),
                    }
                )
            i += 1
        if stage is None or i >= len(lines):
            continue
        start = i
        while i < len(lines) and not _END_LINE.match(lines[i]):
            i += 1
        if i >= len(lines):
            raise DumpError(f"the TGSI of {name or 'a shader'} has no END line")
        tgsi = "\n".join(lines[start : i + 1]) + "\n"
        if name and re.fullmatch(r"GLSL\d+", name):
            dumps.append(ShaderDump(stage, name, decls, tgsi))
        i += 1
    return dumps


def select_dump(dumps, stage):
    """The one application shader of `stage`; several identical variants count as one."""
    found = [d for d in dumps if d.stage == stage]
    if not found:
        raise DumpError(f"softpipe printed no {stage} shader (is SOFTPIPE_DEBUG honoured?)")
    if any(d.tgsi != found[0].tgsi for d in found[1:]):
        raise DumpError(
            f"softpipe compiled {len(found)} different {stage} variants; the corpus needs one"
        )
    return found[0]
