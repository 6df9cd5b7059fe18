#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): workgroup sum through shared memory with barriers (tree reduction)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer R { float r[]; };
shared float partial[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    partial[l] = a[gl_GlobalInvocationID.x];
    barrier();
    memoryBarrierShared();
    for (uint stride = 32u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            partial[l] += partial[l + stride];
        }
        barrier();
        memoryBarrierShared();
    }
    if (l == 0u) {
        r[gl_WorkGroupID.x] = partial[0];
    }
}
