#version 330 core
// Round dots with a dark rim, so markers stay readable on any background.
in Vertex {
  vec4 color;
  float size;
} fragmentIn;

out vec4 fragColor;

void main() {
  vec2 offset = gl_PointCoord * 2.0 - 1.0;
  float radiusSquared = dot(offset, offset);
  if (radiusSquared > 1.0) discard;
  float rimStart = (fragmentIn.size - 3.0) / fragmentIn.size;
  bool rim = fragmentIn.size >= 6.0 && radiusSquared > rimStart * rimStart;
  fragColor = rim ? vec4(fragmentIn.color.rgb * 0.25, fragmentIn.color.a) : fragmentIn.color;
}
