#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): textureLod and texelFetch on a mipmapped 2D texture from a compute shader
layout(local_size_x = 32) in;
layout(binding = 2) uniform sampler2D tex;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 q = a[i];
    r[3u * i + 0u] = textureLod(tex, q.xy, q.z * 3.0);
    r[3u * i + 1u] = texelFetch(tex, ivec2(i % 8u, i / 8u), int(i % 2u));
    r[3u * i + 2u] = vec4(textureSize(tex, 0), textureSize(tex, 2));
}
