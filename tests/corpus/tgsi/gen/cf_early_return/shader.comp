#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): a conditional return from main leaves some outputs untouched
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) buffer R { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    if (x < 0.0) {
        return;
    }
    r[i] = sqrt(x) + r[i];
}
