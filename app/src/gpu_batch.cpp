#include "gpu_batch.h"

#include <cstddef>

namespace nav::app {

GpuBatch::GpuBatch() {
  glGenVertexArrays(1, &m_vertexArray);
  glGenBuffers(1, &m_vertexBuffer);
  glBindVertexArray(m_vertexArray);
  glBindBuffer(GL_ARRAY_BUFFER, m_vertexBuffer);
  const GLsizei stride = sizeof(DebugVertex);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(DebugVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                        reinterpret_cast<const void*>(offsetof(DebugVertex, color)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(DebugVertex, size)));
  glBindVertexArray(0);
}

GpuBatch::~GpuBatch() {
  glDeleteBuffers(1, &m_vertexBuffer);
  glDeleteVertexArrays(1, &m_vertexArray);
}

void GpuBatch::upload(const DrawList& list, GLenum usage) {
  const std::vector<DebugVertex>* parts[] = {&list.triangles(), &list.lines(), &list.thickLines(),
                                             &list.points()};
  Range* ranges[] = {&m_triangles, &m_lines, &m_thickLines, &m_points};
  size_t total = 0;
  for (size_t i = 0; i < 4; ++i) {
    *ranges[i] = {GLint(total), GLsizei(parts[i]->size())};
    total += parts[i]->size();
  }
  glBindBuffer(GL_ARRAY_BUFFER, m_vertexBuffer);
  // Re-specifying the whole store lets the driver orphan the old one instead of stalling.
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(total * sizeof(DebugVertex)), nullptr, usage);
  for (size_t i = 0; i < 4; ++i) {
    if (parts[i]->empty()) continue;
    glBufferSubData(GL_ARRAY_BUFFER, GLintptr(ranges[i]->first * sizeof(DebugVertex)),
                    GLsizeiptr(parts[i]->size() * sizeof(DebugVertex)), parts[i]->data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  m_texts = list.texts();
}

}  // namespace nav::app
