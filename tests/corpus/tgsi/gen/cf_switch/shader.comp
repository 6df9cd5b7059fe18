#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): switch with fallthrough and default
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { int a[]; };
layout(std430, binding = 1) writeonly buffer R { int r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int v = a[i];
    int out_value = 0;
    switch (v) {
    case 0:
        out_value = 100;
        break;
    case 1:
    case 2:
        out_value = v * 7;
        break;
    case 3:
        out_value = -1;
        // fall through
    case 4:
        out_value += 40;
        break;
    default:
        out_value = v * v;
        break;
    }
    r[i] = out_value;
}
