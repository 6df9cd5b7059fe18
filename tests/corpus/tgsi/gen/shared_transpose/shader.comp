#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): 8x8 tile transpose through shared memory with 2D workgroups
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) writeonly buffer R { uint r[]; };
shared uint tile[64];
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    uint width = gl_NumWorkGroups.x * 8u;
    tile[l.y * 8u + l.x] = a[g.y * width + g.x];
    barrier();
    memoryBarrierShared();
    uvec2 block = gl_WorkGroupID.xy * 8u;
    uvec2 dst = uvec2(block.y + l.x, block.x + l.y);
    r[dst.y * width + dst.x] = tile[l.x * 8u + l.y] + gl_LocalInvocationIndex * 0x10000u;
}
