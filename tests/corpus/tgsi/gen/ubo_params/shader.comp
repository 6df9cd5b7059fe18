#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): uniform block with scalars, vectors, arrays and a matrix (CONST[x][y] addressing)
layout(local_size_x = 64) in;
layout(std140, binding = 3) uniform Params {
    float scale;
    int count;
    vec2 offset;
    vec4 weights[3];
    mat2 rotation;
    ivec4 selector;
};
layout(std430, binding = 0) readonly buffer A { vec2 a[]; };
layout(std430, binding = 1) writeonly buffer R { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 p = rotation * (a[i] * scale + offset);
    float w = weights[0].x * p.x + weights[1].y * p.y + weights[2].z;
    r[i] = vec4(p, w, float(count + selector.y));
}
