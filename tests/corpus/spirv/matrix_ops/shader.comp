// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: matrix arithmetic on column-major std430 matrices: products with vectors and
// matrices, transpose, determinant, inverse, outer product and component-wise product.
#version 450
layout(local_size_x = 16) in;
struct Pair { mat4 a; mat4 b; vec4 v; };
layout(set = 0, binding = 0, std430) readonly buffer In { Pair p[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { mat4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Diagonally dominant, so the inverse is well conditioned.
    mat4 a = p[i].a + mat4(6.0);
    mat4 b = p[i].b;
    vec4 v = p[i].v;
    mat3 a3 = mat3(a);
    o[i * 6u + 0u] = a * b;
    o[i * 6u + 1u] = mat4(a * v, v * a, b * (a * v), vec4(determinant(a), determinant(a3), determinant(mat2(b)), 0.0));
    o[i * 6u + 2u] = transpose(b) + matrixCompMult(a, b);
    o[i * 6u + 3u] = inverse(a);
    o[i * 6u + 4u] = outerProduct(v, v.wzyx) - 2.0 * b;
    o[i * 6u + 5u] = mat4(inverse(a3) * transpose(a3)) + mat4(inverse(mat2(a)));
}
