#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): &&, ||, ^^, !, any, all, not, equal on bvec
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    bvec4 p = notEqual(a[i] & 1u, uvec4(0u));
    bvec4 q = notEqual(a[i] & 2u, uvec4(0u));
    uint m = 0u;
    m |= uint(p.x && q.y) << 0;
    m |= uint(p.y || q.z) << 1;
    m |= uint(p.z ^^ q.w) << 2;
    m |= uint(!p.w) << 3;
    m |= uint(any(p)) << 4;
    m |= uint(all(q)) << 5;
    m |= uint(any(not(q))) << 6;
    m |= uint(all(equal(p, q))) << 7;
    r[i] = m;
}
