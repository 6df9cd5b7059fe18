"""Running one corpus case on softpipe: build the GLSL, bind the inputs, dispatch or draw, read back.

A case arrives as a job (a dict decoded from the JSON the Rust wrapper writes; see
tests/softpipe/README.md); its input bytes are files the wrapper generated with tests/src/corpus,
so softpipe sees exactly the bytes every other consumer sees. Outputs are written next to each
other in the job's `out_dir`, named as tests/src/corpus names expected-output files.
"""

import os
import time

import moderngl

from . import bindings as binding_map
from .dump import CapturedOutput, DumpError, parse_dumps, select_dump
from .resources import Unsupported, make_buffer, make_texture, vertex_array, vertex_shader


class CaseError(Exception):
    """The case could not be run; the message says which part and why."""


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(out_dir, name, data):
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def _check_gl_bindings(job):
    for kind in ("buffers", "textures"):
        for spec in job.get(kind, []):
            if spec.get("set", 0) != 0:
                raise CaseError(f"{kind}: GL has no descriptor sets; set {spec['set']} is not 0")


def _bind_inputs(ctx, job):
    """Creates and binds every buffer and texture; returns the buffers in job order."""
    buffers = [make_buffer(ctx, b, _read(b["input"])) for b in job.get("buffers", [])]
    textures = [make_texture(ctx, t, _read(t["input"])) for t in job.get("textures", [])]
    return buffers, textures


def _read_buffers(job, buffers, out_dir):
    outputs = {}
    for spec, buf in zip(job.get("buffers", []), buffers):
        if spec.get("output"):
            name = f"buffer-s0-b{spec['binding']}.bin"
            outputs[name] = _write(out_dir, name, buf.read())
    return outputs


def _read_images(job, textures, out_dir):
    outputs = {}
    for spec, tex in zip(job.get("textures", []), textures):
        if spec.get("storage") and spec.get("output"):
            name = f"image-s0-b{spec['binding']}.bin"
            # Tightly packed rows (alignment 1), top row first as uploaded.
            outputs[name] = _write(out_dir, name, tex.read(alignment=1))
    return outputs


def run_compute(ctx, job, source):
    """Builds and dispatches a compute case; returns (outputs, dump, program)."""
    with CapturedOutput() as link:
        program = ctx.compute_shader(source)
    buffers, textures = _bind_inputs(ctx, job)
    with CapturedOutput() as run:
        program.run(*job["groups"])
        ctx.finish()
    dump = select_dump(parse_dumps(link.text + run.text), "compute")
    outputs = _read_buffers(job, buffers, job["out_dir"])
    outputs.update(_read_images(job, textures, job["out_dir"]))
    for obj in buffers + textures:
        obj.release()
    return outputs, dump, program


def run_fragment(ctx, job, source):
    """Draws a full-screen triangle with a fragment case; returns (outputs, dump, program)."""
    width, height = job["size"]
    varyings = job.get("varyings", [])
    with CapturedOutput() as link:
        program = ctx.program(vertex_shader=vertex_shader(varyings), fragment_shader=source)
    buffers, textures = _bind_inputs(ctx, job)
    locations = job["targets"]
    # Attachment i is fragment output location i, so every location up to the largest exists.
    attachments = [
        ctx.texture((width, height), 4, dtype="f4") for _ in range(max(locations) + 1)
    ]
    fbo = ctx.framebuffer(color_attachments=attachments)
    fbo.use()
    ctx.viewport = (0, 0, width, height)
    ctx.disable(moderngl.BLEND | moderngl.DEPTH_TEST | moderngl.CULL_FACE)
    fbo.clear(*job.get("clear", [0.0, 0.0, 0.0, 0.0]))
    vbo, vao = vertex_array(ctx, program, varyings, width, height)
    with CapturedOutput() as run:
        vao.render(moderngl.TRIANGLES, vertices=3)
        ctx.finish()
    dump = select_dump(parse_dumps(link.text + run.text), "fragment")
    outputs = dict(_read_buffers(job, buffers, job["out_dir"]))
    for location in locations:
        # Row 0 of the read-back is window y = 0, the first row softpipe stores: the corpus's
        # top row (gl_FragCoord.y = 0.5 there, as in Vulkan).
        data = attachments[location].read()
        name = f"target-{location}.bin"
        outputs[name] = _write(job["out_dir"], name, data)
    for obj in buffers + textures + attachments + [fbo, vbo, vao]:
        obj.release()
    return outputs, dump, program


def run_job(ctx, job):
    """Runs one case; returns its result record (never raises for a problem of the case)."""
    started = time.perf_counter()
    result = {"name": job["name"], "ok": False, "error": None, "outputs": {}}
    try:
        _check_gl_bindings(job)
        with open(job["source"], encoding="utf-8") as f:
            source = f.read()
        if job["stage"] == "compute":
            outputs, dump, program = run_compute(ctx, job, source)
            height = 0
        elif job["stage"] == "fragment":
            outputs, dump, program = run_fragment(ctx, job, source)
            height = job["size"][1]
        else:
            raise CaseError(f"stage {job['stage']} is not run by the softpipe harness")
        result["outputs"] = outputs
        result["tgsi"] = dump.tgsi
        result["bindings"] = binding_map.derive(dump, program, source, height)
        program.release()
        result["ok"] = True
    except (CaseError, DumpError, Unsupported, OSError, KeyError) as e:
        result["error"] = f"{type(e).__name__}: {e}"
    except moderngl.Error as e:
        result["error"] = f"GL: {e}"
    result["seconds"] = round(time.perf_counter() - started, 4)
    return result
