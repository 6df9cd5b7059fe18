#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): vector swizzles, partial writes and component-wise construction
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    vec4 t = vec4(0.0);
    t.zx = v.yy * 2.0;
    t.w = v.x - v.z;
    t.y = dot(v.xw, v.wx);
    vec3 u = v.zyx;
    u.xz += vec2(1.0, -1.0);
    r[2u * i] = t;
    r[2u * i + 1u] = vec4(u.zxy, v.w).wzxy;
}
