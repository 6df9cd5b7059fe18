#version 450
// A vertex shader: attributes, a uniform matrix, gl_VertexIndex, gl_Position, gl_PointSize and
// two varyings (one an array).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(set = 0, binding = 0) uniform Camera { mat4 mvp; float size; } cam;
layout(location = 0) out vec2 v_uv;
layout(location = 1) out float v_tint[2];

void main() {
    gl_Position = cam.mvp * vec4(pos, 1.0);
    gl_PointSize = cam.size + float(gl_VertexIndex);
    v_uv = uv * 2.0;
    v_tint[0] = float(gl_VertexIndex & 1);
    v_tint[1] = pos.z;
}
