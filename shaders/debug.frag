#version 330 core
in Vertex {
  vec4 color;
  float size;
} fragmentIn;

out vec4 fragColor;

void main() { fragColor = fragmentIn.color; }
