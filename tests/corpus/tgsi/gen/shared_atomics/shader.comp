#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): atomic operations on shared memory, then one write per workgroup
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { int a[]; };
layout(std430, binding = 1) writeonly buffer R { ivec4 r[]; };
shared int s_sum;
shared int s_min;
shared uint s_xor;
void main() {
    if (gl_LocalInvocationIndex == 0u) {
        s_sum = 0;
        s_min = 0x7fffffff;
        s_xor = 0u;
    }
    barrier();
    memoryBarrierShared();
    int v = a[gl_GlobalInvocationID.x];
    atomicAdd(s_sum, v);
    atomicMin(s_min, v);
    atomicXor(s_xor, uint(v) * 2654435761u);
    barrier();
    memoryBarrierShared();
    if (gl_LocalInvocationIndex == 0u) {
        r[gl_WorkGroupID.x] = ivec4(s_sum, s_min, int(s_xor), int(gl_WorkGroupID.x));
    }
}
