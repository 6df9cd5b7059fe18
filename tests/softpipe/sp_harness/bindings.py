"""How the GLSL interface of a case lands in TGSI register files, read from softpipe's dump.

Mesa renumbers on the way to TGSI: storage blocks become `BUFFER[block index]` (not the GLSL
binding), uniform blocks become `CONST[1 + block index][...]` (CONST[0] is the default uniform
block), samplers become `SAMP[i]`/`SVIEW[i]` in the order the linker numbered them, and varyings
become `IN[i]` with a `GENERIC[location]` semantic. Mesa also adds state uniforms of its own to
CONST[0]: the fragment-coordinate transform `gl_FbWposYTransform` whenever a fragment shader reads
`gl_FragCoord` or takes a y derivative. A consumer that runs `shader.tgsi` on the case's data needs
all of this, so the harness records it (as `tgsi.toml`, written by the Rust recorder) and checks
that every register the TGSI declares is accounted for.
"""

import re

from .dump import DumpError

_DCL = re.compile(
    r"^DCL (?P<file>[A-Z]+)\[(?P<first>\d+)(?:\.\.(?P<last>\d+))?\]"
    r"(?:\[(?P<first2>\d+)(?:\.\.(?P<last2>\d+))?\])?(?P<rest>.*)$"
)
_VAR_SLOT = re.compile(r"^VARYING_SLOT_VAR(\d+)")
_DATA_SLOT = re.compile(r"^FRAG_RESULT_DATA(\d+)")
# Built-in inputs and outputs by their NIR slot name, as the TGSI semantic they turn into.
_BUILTIN_SLOTS = {
    "VARYING_SLOT_POS": "POSITION",
    "VARYING_SLOT_FACE": "FACE",
    "VARYING_SLOT_PNTC": "PCOORD",
    "FRAG_RESULT_DEPTH": "POSITION",
}


# `DCL OUT[i], COLOR[n]`: an output register and its semantic (an absent index means 0).
_OUT_SEMANTIC = re.compile(r"^DCL OUT\[(?P<index>\d+)\], (?P<name>[A-Z]+)(?:\[(?P<sem>\d+)\])?")


def output_registers(tgsi):
    """`{(semantic name, semantic index): OUT index}` of the TGSI's output declarations.

    NIR's driver_location of a fragment output is not its TGSI register: Mesa 22.3.6 declares
    `layout(location = 1)` as `DCL OUT[0], COLOR[1]` when it is written first, so outputs are
    placed by their semantic, which is what the rasterizer routes to a render target.
    """
    out = {}
    for line in tgsi.splitlines():
        m = _OUT_SEMANTIC.match(line.strip())
        if m:
            out[(m["name"], int(m["sem"] or 0))] = int(m["index"])
    return out


def declared(tgsi):
    """`{file: set of first-dimension indices}` of the TGSI's declarations."""
    out = {}
    for line in tgsi.splitlines():
        m = _DCL.match(line.strip())
        if not m:
            continue
        first = int(m["first"])
        last = int(m["last"]) if m["last"] else first
        out.setdefault(m["file"], set()).update(range(first, last + 1))
    return out


def state_value(name, framebuffer_height):
    """The value Mesa gives one of its own state uniforms in the harness's setup, or None.

    `gl_FbWposYTransform` for a framebuffer object (no y flip) is (1, 0, -1, height): Mesa's
    `STATE_FB_WPOS_Y_TRANSFORM` in src/mesa/program/prog_statevars.c; the shader multiplies
    y derivatives by .x and maps softpipe's lower-left window y to GL's with .z * y + .w.
    """
    if name == "gl_FbWposYTransform":
        return [1.0, 0.0, -1.0, float(framebuffer_height)]
    return None


# `layout(location = N) [flat] in|out <type> <name>;` in a corpus shader.
_GLSL_LOCATION = re.compile(
    r"layout\s*\(\s*location\s*=\s*(\d+)\s*\)\s*(?:(?:flat|smooth|noperspective)\s+)*"
    r"(in|out)\s+\w+\s+(\w+)\s*;"
)


def glsl_locations(source):
    """`{("in" | "out", name): location}` of the explicitly placed variables in `source`."""
    return {(m.group(2), m.group(3)): int(m.group(1)) for m in _GLSL_LOCATION.finditer(source)}


def derive(dump, program, source, framebuffer_height=0):
    """The binding map of one shader: `dump` from softpipe, `program` from moderngl and the
    GLSL `source` (for the locations of inputs and outputs, which Mesa's varying packing does not
    keep: two small varyings can share one `IN` register).
    """
    decls = dump.decls
    storage = {}
    for d in (d for d in decls if d["mode"] == "ssbo"):
        # A block without an instance name has one decl per member, all with the same slots.
        storage[d["driver"]] = d["binding"]
    uniform_blocks = {}
    for name in program:
        member = program[name]
        if type(member).__name__ == "UniformBlock":
            uniform_blocks[1 + member.index] = member.binding
    textures = {}
    images = {}
    state = []
    for d in (d for d in decls if d["mode"] == "image"):
        # `decl_var image ... (location, driver, binding)`: IMAGE[driver] is image unit binding.
        images[d["driver"]] = d["binding"]
    for d in (d for d in decls if d["mode"] == "uniform"):
        if d["type"].startswith(("sampler", "isampler", "usampler")):
            if d["name"] not in program:
                raise DumpError(f"sampler {d['name']} is in the NIR but not in the program")
            textures[d["driver"]] = program[d["name"]].value
        elif d["name"].startswith("gl_"):
            value = state_value(d["name"], framebuffer_height)
            if value is None:
                raise DumpError(f"Mesa added state uniform {d['name']}, which the harness cannot set")
            state.append({"name": d["name"], "const": [0, d["driver"]], "value": value})
        else:
            raise DumpError(
                f"uniform {d['name']} is outside a block; corpus shaders keep data in blocks"
            )
    locations = glsl_locations(source)
    out_registers = output_registers(dump.tgsi)
    inputs = []
    outputs = []
    for d in decls:
        if d["mode"] not in ("shader_in", "shader_out"):
            continue
        slot, _, mask = d["location"].partition(".")
        entry = {"index": d["driver"], "components": mask or "xyzw"}
        direction = "in" if d["mode"] == "shader_in" else "out"
        if _VAR_SLOT.match(slot) or _DATA_SLOT.match(slot):
            location = locations.get((direction, d["name"]))
            if location is None:
                raise DumpError(f"{direction}put {d['name']} has no layout(location = N)")
            entry["location"] = location
            entry["name"] = d["name"]
        elif slot in _BUILTIN_SLOTS:
            entry["builtin"] = d["name"]
        else:
            raise DumpError(f"{d['name']} uses slot {slot}, which the harness does not map")
        if direction == "out":
            entry["index"] = output_register(out_registers, slot, d["name"])
        (inputs if d["mode"] == "shader_in" else outputs).append(entry)
    result = {
        "storage": [{"binding": b, "buffer": k} for k, b in sorted(storage.items())],
        "uniform": [{"binding": b, "const": k} for k, b in sorted(uniform_blocks.items())],
        "texture": [{"binding": b, "sampler": k} for k, b in sorted(textures.items())],
        "image": [{"binding": b, "image": k} for k, b in sorted(images.items())],
        "input": sorted(inputs, key=lambda e: e["index"]),
        "output": sorted(outputs, key=lambda e: e["index"]),
        "state": state,
    }
    check_complete(dump.tgsi, result)
    return result


def output_register(out_registers, slot, name):
    """The OUT register of the fragment output in NIR slot `slot` (FRAG_RESULT_DATAn is
    `COLOR[n]`, FRAG_RESULT_DEPTH is `POSITION`)."""
    data = _DATA_SLOT.match(slot)
    semantic = ("COLOR", int(data.group(1))) if data else (_BUILTIN_SLOTS.get(slot), 0)
    index = out_registers.get(semantic)
    if index is None:
        raise DumpError(f"output {name} ({slot}) has no `DCL OUT[i], {semantic[0]}[{semantic[1]}]`")
    return index


def check_complete(tgsi, bindings):
    """Every declared BUFFER, CONST, SAMP, SVIEW, IN and OUT register has a binding entry."""
    dcl = declared(tgsi)
    known = {
        "BUFFER": {e["buffer"] for e in bindings["storage"]},
        "CONST": {e["const"] for e in bindings["uniform"]}
        | ({0} if bindings["state"] else set()),
        "SAMP": {e["sampler"] for e in bindings["texture"]},
        "SVIEW": {e["sampler"] for e in bindings["texture"]},
        "IMAGE": {e["image"] for e in bindings["image"]},
        "IN": {e["index"] for e in bindings["input"]},
        "OUT": {e["index"] for e in bindings["output"]},
    }
    for file, indices in dcl.items():
        if file not in known:
            continue
        unknown = sorted(indices - known[file])
        if unknown:
            raise DumpError(f"TGSI declares {file}{unknown} but the harness has no binding for it")
