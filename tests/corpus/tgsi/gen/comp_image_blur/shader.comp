#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shader_image_size : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): storage images in a compute shader: a horizontal 3-tap
// blur from one rgba32f image into another with the edges clamped, and a read-modify-write of
// an r32ui image by the one invocation that owns each texel (LOAD/STORE/RESQ on IMAGE)
layout(local_size_x = 8, local_size_y = 4) in;
layout(binding = 0, rgba32f) uniform readonly image2D src;
layout(binding = 1, rgba32f) uniform writeonly image2D dst;
layout(binding = 2, r32ui) uniform uimage2D tally;
layout(std430, binding = 3) writeonly buffer S { ivec4 s; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(src);
    vec4 l = imageLoad(src, ivec2(max(p.x - 1, 0), p.y));
    vec4 c = imageLoad(src, p);
    vec4 r = imageLoad(src, ivec2(min(p.x + 1, size.x - 1), p.y));
    imageStore(dst, p, (l + c + c + r) * 0.25);
    uint t = imageLoad(tally, p).x;
    imageStore(tally, p, uvec4(t * 5u + uint(p.x * 16 + p.y)));
    if (p == ivec2(0)) {
        s = ivec4(size, imageSize(tally));
    }
}
