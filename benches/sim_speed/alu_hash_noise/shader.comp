// SPDX-License-Identifier: MIT OR Apache-2.0
// agxc original: an ALU-heavy kernel for the sim_speed benchmark. Integer hashing (PCG output
// permutation, murmur finaliser) feeding four octaves of 2D value noise with smoothstep
// interpolation: a few hundred integer and float instructions per invocation, no loads.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { vec2 o[]; };
layout(push_constant) uniform P { uint seed; float scale; } pc;

uint pcg(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

uint murmur(uint h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

float lattice(ivec2 p, uint salt) {
    uint h = pcg(uint(p.x) * 1973u + uint(p.y) * 9277u + salt);
    return float(h >> 8) * (1.0 / 16777216.0);
}

float value_noise(vec2 p, uint salt) {
    vec2 f = floor(p);
    vec2 t = p - f;
    ivec2 i = ivec2(f);
    vec2 s = t * t * (3.0 - 2.0 * t);
    float a = lattice(i, salt);
    float b = lattice(i + ivec2(1, 0), salt);
    float c = lattice(i + ivec2(0, 1), salt);
    float d = lattice(i + ivec2(1, 1), salt);
    return mix(mix(a, b, s.x), mix(c, d, s.x), s.y);
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    uint h = murmur(id ^ pc.seed);
    vec2 p = vec2(float(id & 1023u), float(id >> 10)) * pc.scale;
    float sum = 0.0;
    float amp = 0.5;
    for (int octave = 0; octave < 4; octave++) {
        sum += amp * value_noise(p, uint(octave) * 0x9e3779b9u);
        p = p * 2.03 + vec2(17.0, 3.0);
        amp *= 0.5;
    }
    o[id] = vec2(sum, float(h >> 8) * (1.0 / 16777216.0));
}
