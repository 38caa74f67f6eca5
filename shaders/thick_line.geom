#version 330 core
// Expands each line into a screen-aligned quad of the vertex's width: core
// profiles may refuse glLineWidth above 1.
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

uniform vec2 uViewportSize;

in Vertex {
  vec4 color;
  float size;
} lineIn[];

out Vertex {
  vec4 color;
  float size;
} lineOut;

void emitCorner(vec4 clip, vec2 offsetPixels, vec4 color) {
  gl_Position = clip + vec4(offsetPixels * 2.0 / uViewportSize * clip.w, 0.0, 0.0);
  lineOut.color = color;
  lineOut.size = lineIn[0].size;
  EmitVertex();
}

void main() {
  vec4 a = gl_in[0].gl_Position;
  vec4 b = gl_in[1].gl_Position;
  vec4 colorA = lineIn[0].color;
  vec4 colorB = lineIn[1].color;
  // Clip against the near plane (z >= -w) before dividing by w.
  float distanceA = a.z + a.w;
  float distanceB = b.z + b.w;
  if (distanceA < 0.0 && distanceB < 0.0) return;
  if (distanceA < 0.0) {
    float t = distanceA / (distanceA - distanceB);
    a = mix(a, b, t);
    colorA = mix(colorA, colorB, t);
  } else if (distanceB < 0.0) {
    float t = distanceB / (distanceB - distanceA);
    b = mix(b, a, t);
    colorB = mix(colorB, colorA, t);
  }
  vec2 screenA = a.xy / a.w * 0.5 * uViewportSize;
  vec2 screenB = b.xy / b.w * 0.5 * uViewportSize;
  vec2 along = screenB - screenA;
  float segmentLength = length(along);
  along = segmentLength > 1e-4 ? along / segmentLength : vec2(1.0, 0.0);
  float halfWidth = 0.5 * lineIn[0].size;
  // Extending each end by half the width closes the gaps where segments meet.
  vec2 extend = along * halfWidth;
  vec2 across = vec2(-along.y, along.x) * halfWidth;
  emitCorner(a, -extend + across, colorA);
  emitCorner(a, -extend - across, colorA);
  emitCorner(b, extend + across, colorB);
  emitCorner(b, extend - across, colorB);
  EndPrimitive();
}
