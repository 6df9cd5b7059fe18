#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): scalar and vector selects: ?:, mix with bvec, conditional assignment
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) readonly buffer B { ivec4 b[]; };
layout(std430, binding = 2) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    ivec4 k = b[i];
    bvec4 c = greaterThan(x, vec4(0.0));
    r[3u * i + 0u] = mix(x * 2.0, -x, c);
    r[3u * i + 1u] = k.x > k.y ? x.wzyx : x;
    vec4 t = x;
    if (k.z == 0) {
        t.y = 7.5;
    }
    t.w = lessThan(k, ivec4(0)) == bvec4(true, false, true, false) ? 1.0 : -1.0;
    r[3u * i + 2u] = t;
}
