#version 450
// Memory: promoted local arrays with dynamic indices, std140/std430 structure layouts with
// row-major matrices, shared memory with a barrier, runtime array length, push constants.
layout(local_size_x = 8) in;
struct Item { vec3 pos; float w; ivec2 idx; };
layout(std140, set = 0, binding = 0) uniform U { mat3 rot; layout(row_major) mat2x3 rm; vec4 bias[2]; } u;
layout(std430, set = 0, binding = 1) readonly buffer Items { Item items[]; } src;
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 res[]; } dst;
layout(push_constant) uniform P { int shift; } pc;
shared float tile[8];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    Item it = src.items[g];
    float table[5] = float[5](1.0, 2.0, 4.0, 8.0, 16.0);
    int k = (it.idx.x + pc.shift) % 5;
    table[(k + 1) % 5] += it.w;
    vec3 p = u.rot * it.pos + u.rm * vec2(it.w, 1.0);
    tile[l] = p.x + table[k] + table[(k + 1) % 5];
    barrier();
    float n = tile[(l + 1u) % 8u];
    dst.res[g] = vec4(p.yz, n, float(src.items.length())) + u.bias[it.idx.y & 1];
}
