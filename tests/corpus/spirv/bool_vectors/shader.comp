// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: boolean vector comparisons, any/all/not, mix with boolean selectors, and bools stored in a buffer struct.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 v[]; };
struct Flags { bool a; bool b; uint n; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { Flags fl[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Out2 { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 a = v[i];
    vec4 b = a.wzyx;
    bvec4 lt = lessThan(a, b);
    bvec4 ge = greaterThanEqual(a, vec4(0.0));
    bvec4 x = notEqual(lt, ge);
    fl[i].a = any(x);
    fl[i].b = all(not(lt)) || all(equal(ge, bvec4(true, false, true, false)));
    fl[i].n = uint(x.x) + uint(x.y) * 2u + uint(x.z) * 4u + uint(x.w) * 8u;
    vec4 m = mix(a, b, lt);
    vec4 sel = mix(vec4(-1.0), m, bvec4(ge.x, !ge.y, ge.z && lt.w, ge.w ^^ lt.x));
    o[i] = sel + vec4(lt) * 10.0;
}
