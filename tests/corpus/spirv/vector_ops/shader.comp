// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: swizzles, component-wise comparisons and boolean vectors (any, all, not,
// mix with a bvec selector), and dynamic component indexing for reads and writes.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 p = a[2u * i];
    vec4 q = a[2u * i + 1u];
    bvec4 lt = lessThan(p, q);
    bvec4 ge = greaterThanEqual(p.wzyx, q.xxyy);
    bvec4 ne = notEqual(floor(p), floor(q));
    vec4 sel = mix(p, q, lt);
    uint k = uint(abs(p.x) * 7.0) & 3u;
    vec4 w = q;
    w[k] = p[3u - k] + sel[k];
    o[i * 3u + 0u] = sel.zyxw + p.xxzz * q.yyww;
    o[i * 3u + 1u] = vec4(any(lt), all(ge), any(not(ne)), all(equal(lt, not(ge))));
    o[i * 3u + 2u] = w + vec4(lt) * 2.0 + vec4(ge.xy, ne.zw);
}
