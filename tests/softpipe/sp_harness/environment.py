"""Selecting softpipe and opening a headless GL context on it.

Mesa reads its driver-selection variables when libEGL is first loaded, so `configure_environment`
must run before moderngl creates a context; `open_context` does both and then checks that the
context really is softpipe with what the corpus needs (GL 3.3, compute shaders, storage buffers).
"""

import os
import re

# GL_ARB_compute_shader and GL_ARB_shader_storage_buffer_object let a GL 3.3 context run
# compute shaders; GL_ARB_shading_language_420pack gives GLSL 3.30 `layout(binding = N)`; and
# GL_ARB_separate_shader_objects gives `layout(location = N)` on varyings.
REQUIRED_EXTENSIONS = (
    "GL_ARB_compute_shader",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_separate_shader_objects",
)


class OracleUnavailable(Exception):
    """softpipe, EGL or moderngl cannot be used on this machine (the caller skips or fails)."""


def configure_environment(dump_stages="fs,cs"):
    """Points Mesa at softpipe on the surfaceless EGL platform, with TGSI dumps on."""
    os.environ["EGL_PLATFORM"] = "surfaceless"
    os.environ["GALLIUM_DRIVER"] = "softpipe"
    os.environ["LIBGL_ALWAYS_SOFTWARE"] = "1"
    # `fs,cs` makes softpipe print the NIR and TGSI of every fragment and compute shader it
    # creates; the harness captures and parses that text (dump.py).
    os.environ["SOFTPIPE_DEBUG"] = dump_stages
    # A cached shader would still be dumped, but a cache directory under $HOME is a side effect
    # the tests should not have.
    os.environ["MESA_SHADER_CACHE_DISABLE"] = "true"


def open_context():
    """A standalone moderngl context on softpipe, checked for the features the corpus uses."""
    configure_environment()
    try:
        import moderngl  # noqa: PLC0415 - must follow configure_environment
    except ImportError as e:
        raise OracleUnavailable(f"moderngl is not installed: {e}") from e
    try:
        ctx = moderngl.create_context(standalone=True, backend="egl", require=330)
    except Exception as e:  # moderngl raises plain Exception subclasses for EGL failures
        raise OracleUnavailable(f"cannot create an EGL context: {e}") from e
    renderer = ctx.info.get("GL_RENDERER", "")
    if "softpipe" not in renderer:
        raise OracleUnavailable(f"the renderer is {renderer!r}, not softpipe")
    missing = [e for e in REQUIRED_EXTENSIONS if e not in ctx.extensions]
    if missing:
        raise OracleUnavailable(f"softpipe lacks {', '.join(missing)}")
    return ctx


def describe(ctx):
    """Renderer, GL version string and Mesa version, for reports and recorded provenance."""
    version = ctx.info.get("GL_VERSION", "")
    match = re.search(r"Mesa (\S+)", version)
    return {
        "renderer": ctx.info.get("GL_RENDERER", ""),
        "gl_version": version,
        "mesa": match.group(1) if match else "",
    }
