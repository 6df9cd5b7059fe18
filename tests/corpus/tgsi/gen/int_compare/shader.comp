#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): signed and unsigned <, <=, >, >=, ==, != as selects and masks
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { ivec4 a[]; };
layout(std430, binding = 1) writeonly buffer R { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 v = a[i];
    int x = v.x;
    int y = v.y;
    uint ux = uint(v.z);
    uint uy = uint(v.w);
    uint m = 0u;
    m |= uint(x < y) << 0;
    m |= uint(x <= y) << 1;
    m |= uint(x > y) << 2;
    m |= uint(x >= y) << 3;
    m |= uint(x == y) << 4;
    m |= uint(x != y) << 5;
    m |= uint(ux < uy) << 6;
    m |= uint(ux >= uy) << 7;
    m |= uint(ux == uy) << 8;
    m |= uint(ux != uy) << 9;
    m |= uint(x < 0) << 10;
    m |= uint(ux > 0x80000000u) << 11;
    r[2u * i] = m;
    r[2u * i + 1u] = x < y ? ux : uy;
}
