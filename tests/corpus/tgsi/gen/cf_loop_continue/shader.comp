#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): for loop with continue and a float accumulator
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer R { vec2 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float sum = 0.0;
    float skipped = 0.0;
    for (uint k = 0u; k < 16u; k++) {
        float v = a[(i + k) % 64u];
        if (v < 0.0) {
            skipped += 1.0;
            continue;
        }
        sum += v * float(k + 1u);
    }
    r[i] = vec2(sum, skipped);
}
