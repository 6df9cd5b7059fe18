#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): loops with data-dependent trip counts and break
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) writeonly buffer R { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    // Collatz steps, capped at 200.
    uint n = a[i];
    uint steps = 0u;
    for (;;) {
        if (n <= 1u || steps >= 200u) {
            break;
        }
        n = (n & 1u) == 0u ? n >> 1 : 3u * n + 1u;
        steps++;
    }
    r[2u * i] = steps;
    // Linear search that breaks at the first match.
    uint found = 0xffffffffu;
    for (uint k = 0u; k < 64u; k++) {
        if (a[k] % 7u == a[i] % 7u) {
            found = k;
            break;
        }
    }
    r[2u * i + 1u] = found;
}
