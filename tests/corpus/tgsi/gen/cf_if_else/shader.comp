#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): nested divergent if/else chains
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec2 a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i].x;
    float y = a[i].y;
    float result;
    if (x > 0.0) {
        if (y > x) {
            result = y - x;
        } else if (y < -x) {
            result = x * y;
        } else {
            result = 1.0;
        }
    } else {
        result = (i & 1u) == 0u ? -x : x + y;
        if (y > 0.5) {
            result *= 3.0;
        }
    }
    r[i] = result;
}
