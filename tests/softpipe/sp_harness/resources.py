"""GL objects for a case's inputs: buffers, textures and the fragment vertex data.

Data layouts follow tests/corpus/README.md: texel bytes go level by level, then layer (slice,
cube face +X, -X, +Y, -Y, +Z, -Z) by layer, rows top to bottom. GL's first row of a texture
image is t = 0, which is the corpus's top row, so the bytes are uploaded as they are.
"""

import struct

import moderngl

# Corpus texel format -> (components, moderngl dtype).
FORMATS = {
    "rgba8": (4, "f1"),
    "rgba16f": (4, "f2"),
    "rgba32f": (4, "f4"),
    "r32f": (1, "f4"),
    "rgba32ui": (4, "u4"),
    "rgba32i": (4, "i4"),
    "r32ui": (1, "u4"),
    "r32i": (1, "i4"),
}
BYTES_PER_COMPONENT = {"f1": 1, "f2": 2, "f4": 4, "u4": 4, "i4": 4}


class Unsupported(Exception):
    """The case asks for something this GL harness cannot express."""


def make_buffer(ctx, spec, data):
    """A buffer holding `data`, bound to its GLSL binding as a storage or uniform block."""
    buf = ctx.buffer(data)
    if spec["kind"] == "storage":
        buf.bind_to_storage_buffer(spec["binding"])
    elif spec["kind"] == "uniform":
        buf.bind_to_uniform_block(spec["binding"])
    else:
        raise Unsupported(f"buffer kind {spec['kind']}")
    return buf


def _min_filter(spec):
    linear = spec["filter"] == "linear"
    return {
        "none": moderngl.LINEAR if linear else moderngl.NEAREST,
        "nearest": moderngl.LINEAR_MIPMAP_NEAREST if linear else moderngl.NEAREST_MIPMAP_NEAREST,
        "linear": moderngl.LINEAR_MIPMAP_LINEAR if linear else moderngl.NEAREST_MIPMAP_LINEAR,
    }[spec["mip"]]


def _level_extent(size, level):
    w = max(size[0] >> level, 1)
    h = max(size[1] >> level, 1) if len(size) > 1 else 1
    return w, h


def make_texture(ctx, spec, data):
    """A texture with the case's texels, filter and wrap, bound to unit `binding`."""
    if spec["format"] not in FORMATS:
        raise Unsupported(f"texture format {spec['format']}")
    if spec.get("compare"):
        raise Unsupported("shadow samplers")
    components, dtype = FORMATS[spec["format"]]
    dim, size, levels = spec["dim"], spec["size"], spec["levels"]
    texel = components * BYTES_PER_COMPONENT[dtype]
    if dim != "2d" and levels != 1:
        # moderngl uploads extra levels only for 2D textures.
        raise Unsupported(f"{levels} mip levels on a {dim} texture")
    if dim == "2d":
        tex = ctx.texture((size[0], size[1]), components, dtype=dtype)
        if levels > 1:
            # Allocate the chain (and set GL_TEXTURE_MAX_LEVEL), then overwrite every level.
            tex.build_mipmaps(0, levels - 1)
        offset = 0
        for level in range(levels):
            w, h = _level_extent(size, level)
            n = w * h * texel
            tex.write(data[offset : offset + n], level=level)
            offset += n
    elif dim == "3d":
        tex = ctx.texture3d(tuple(size), components, data, dtype=dtype)
    elif dim == "2d_array":
        tex = ctx.texture_array(tuple(size), components, data, dtype=dtype)
    elif dim == "cube":
        tex = ctx.texture_cube((size[0], size[1]), components, data, dtype=dtype)
    else:
        raise Unsupported(f"texture dimensionality {dim}")
    mag = moderngl.LINEAR if spec["filter"] == "linear" else moderngl.NEAREST
    tex.filter = (_min_filter(spec), mag)
    if spec["wrap"] == "mirror":
        raise Unsupported("mirrored-repeat wrapping (moderngl has no setting for it)")
    if dim != "cube":
        # Cube maps always clamp at face edges; their wrap setting is irrelevant.
        repeat = spec["wrap"] == "repeat"
        tex.repeat_x = repeat
        tex.repeat_y = repeat
        if dim == "3d":
            tex.repeat_z = repeat
    if spec.get("storage"):
        # A storage image: image unit `binding`, level 0, read and write.
        if dim != "2d":
            raise Unsupported(f"{dim} storage images")
        tex.bind_to_image(spec["binding"], read=True, write=True)
    else:
        tex.use(location=spec["binding"])
    return tex


# The full-screen triangle, in NDC and in window coordinates of a w x h target: the window
# position of NDC (x, y) is ((x + 1) * w / 2, (y + 1) * h / 2).
TRIANGLE_NDC = ((-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0))


def varying_at(varying, wx, wy):
    """The affine varying at window position (wx, wy): base + ddx * wx + ddy * wy."""
    n = varying["components"]
    base = varying["base"]
    if varying.get("flat"):
        return [base[c] for c in range(n)]
    ddx = varying.get("ddx") or [0.0] * n
    ddy = varying.get("ddy") or [0.0] * n
    return [base[c] + ddx[c] * wx + ddy[c] * wy for c in range(n)]


GLSL_TYPES = {
    ("f32", 1): "float", ("f32", 2): "vec2", ("f32", 3): "vec3", ("f32", 4): "vec4",
    ("i32", 1): "int", ("i32", 2): "ivec2", ("i32", 3): "ivec3", ("i32", 4): "ivec4",
    ("u32", 1): "uint", ("u32", 2): "uvec2", ("u32", 3): "uvec3", ("u32", 4): "uvec4",
}
# struct-module codes for packing vertex data, and moderngl attribute-format codes.
PACK = {"f32": "f", "i32": "i", "u32": "I"}
ATTRIBUTE_FORMAT = {"f32": "f", "i32": "i", "u32": "u"}


def vertex_shader(varyings):
    """A pass-through vertex shader feeding each varying from a vertex attribute `a<location>`."""
    lines = [
        "#version 330",
        "#extension GL_ARB_separate_shader_objects : require",
        "in vec2 agxc_position;",
    ]
    body = ["    gl_Position = vec4(agxc_position, 0.0, 1.0);"]
    for v in varyings:
        t = GLSL_TYPES[(v.get("type", "f32"), v["components"])]
        flat = "flat " if v.get("flat") or v.get("type", "f32") != "f32" else ""
        lines.append(f"in {t} a{v['location']};")
        lines.append(f"layout(location = {v['location']}) {flat}out {t} v{v['location']};")
        body.append(f"    v{v['location']} = a{v['location']};")
    return "\n".join(lines + ["void main() {"] + body + ["}"]) + "\n"


def vertex_array(ctx, program, varyings, width, height):
    """The triangle's vertex buffer and array; attributes the linker removed are skipped."""
    formats = ["2f"]
    names = ["agxc_position"]
    rows = [[] for _ in TRIANGLE_NDC]
    for i, (x, y) in enumerate(TRIANGLE_NDC):
        rows[i].append(struct.pack("<2f", x, y))
    for v in varyings:
        ty = v.get("type", "f32")
        n = v["components"]
        name = f"a{v['location']}"
        present = name in program
        # An attribute the linker removed still occupies its bytes: skip them as padding.
        formats.append(f"{n}{ATTRIBUTE_FORMAT[ty]}" if present else f"{4 * n}x")
        if present:
            names.append(name)
        for i, (x, y) in enumerate(TRIANGLE_NDC):
            values = varying_at(v, (x + 1.0) * width / 2.0, (y + 1.0) * height / 2.0)
            if ty != "f32":
                values = [int(c) for c in values]  # truncation, as the Rust model does
            rows[i].append(struct.pack(f"<{n}{PACK[ty]}", *values))
    vbo = ctx.buffer(b"".join(b"".join(r) for r in rows))
    return vbo, ctx.vertex_array(program, [(vbo, " ".join(formats), *names)])
