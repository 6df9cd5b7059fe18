#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): local arrays written and read with dynamic indices (TEMP arrays)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float table[8];
    for (int k = 0; k < 8; k++) {
        table[k] = float(k * k) - 3.5;
    }
    uint seed = a[i];
    int j = int(seed % 8u);
    table[j] += 100.0;
    table[(j + 3) % 8] *= -2.0;
    vec4 v[4];
    v[0] = vec4(1.0);
    v[1] = vec4(2.0, 3.0, 4.0, 5.0);
    v[2] = vec4(table[1], table[2], table[3], table[4]);
    v[3] = vec4(-1.0);
    int m = int((seed >> 3) % 4u);
    r[2u * i] = table[int((seed >> 5) % 8u)] + table[j];
    r[2u * i + 1u] = v[m][int(seed % 4u)];
}
