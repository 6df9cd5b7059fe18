#version 450
// Points in, points out on two streams, with the point size and lines of gl_in.
layout(points) in;
layout(points, max_vertices = 4) out;
layout(location = 0) in vec2 offset[];
layout(location = 0, stream = 0) out vec4 first;
layout(location = 1, stream = 1) out vec4 second;
void main() {
    vec4 p = gl_in[0].gl_Position;
    gl_PointSize = gl_in[0].gl_PointSize * 2.0;
    gl_Position = p + vec4(offset[0], 0.0, 0.0);
    first = vec4(1.0, 2.0, 3.0, 4.0);
    EmitStreamVertex(0);
    second = p * 3.0;
    EmitStreamVertex(1);
    EndStreamPrimitive(1);
    EndStreamPrimitive(0);
}
