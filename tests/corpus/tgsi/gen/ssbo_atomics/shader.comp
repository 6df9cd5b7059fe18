#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): atomicAdd, atomicMin, atomicMax, atomicOr on storage buffers (order-independent results)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) buffer H { uint histogram[16]; uint lowest; uint highest; uint bits; uint total; };
void main() {
    uint v = a[gl_GlobalInvocationID.x];
    atomicAdd(histogram[v % 16u], 1u);
    atomicMin(lowest, v);
    atomicMax(highest, v);
    atomicOr(bits, 1u << (v % 32u));
    atomicAdd(total, v);
}
