#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): gl_GlobalInvocationID, gl_LocalInvocationID, gl_LocalInvocationIndex, gl_WorkGroupID, gl_NumWorkGroups, gl_WorkGroupSize in a 3D dispatch
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, binding = 0) writeonly buffer R { uvec4 r[]; };
void main() {
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    uint flat_index = (g.z * n.y + g.y) * n.x + g.x;
    r[3u * flat_index + 0u] = uvec4(g, gl_LocalInvocationIndex);
    r[3u * flat_index + 1u] = uvec4(gl_LocalInvocationID, flat_index);
    r[3u * flat_index + 2u] = uvec4(gl_WorkGroupID, gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y * 10u + gl_NumWorkGroups.z);
}
