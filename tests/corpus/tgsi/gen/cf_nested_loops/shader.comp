#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// agxc TGSI corpus (MIT OR Apache-2.0): nested while and do-while loops with an early exit from the inner loop
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uvec2 a[]; };
layout(std430, binding = 1) writeonly buffer R { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint rows = a[i].x % 6u;
    uint cols = a[i].y % 9u;
    uint acc = 0u;
    uint y = 0u;
    while (y < rows) {
        uint x = 0u;
        do {
            if (x * y > 20u) {
                break;
            }
            acc += x * 10u + y;
            x++;
        } while (x < cols);
        y++;
    }
    r[i] = acc;
}
