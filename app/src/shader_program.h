#pragma once
// A linked GLSL program, owned (deleted with the object).
#include <glad/gl.h>

#include <string>
#include <string_view>

#include "nav/result.h"

namespace nav::app {

class ShaderProgram {
 public:
  /// Compiles and links; geometrySource may be empty. The message names the failing stage.
  static Result<ShaderProgram> create(std::string_view vertexSource,
                                      std::string_view geometrySource,
                                      std::string_view fragmentSource);

  ShaderProgram(ShaderProgram&& other) noexcept : m_program(other.m_program) {
    other.m_program = 0;
  }
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  ~ShaderProgram();

  GLuint id() const { return m_program; }
  GLint uniform(const char* name) const { return glGetUniformLocation(m_program, name); }

 private:
  explicit ShaderProgram(GLuint program) : m_program(program) {}

  GLuint m_program = 0;
};

}  // namespace nav::app
