#include "shader_program.h"

#include <algorithm>
#include <vector>

namespace nav::app {
namespace {

std::string infoLog(GLuint object, bool isProgram) {
  GLint length = 0;
  if (isProgram) {
    glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  } else {
    glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  }
  std::vector<char> log(size_t(std::max(length, 1)), '\0');
  if (isProgram) {
    glGetProgramInfoLog(object, length, nullptr, log.data());
  } else {
    glGetShaderInfoLog(object, length, nullptr, log.data());
  }
  return log.data();
}

Result<GLuint> compile(GLenum stage, std::string_view source, const char* stageName) {
  const GLuint shader = glCreateShader(stage);
  const GLchar* text = source.data();
  const GLint length = GLint(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    std::string message = std::string(stageName) + " shader: " + infoLog(shader, false);
    glDeleteShader(shader);
    return Result<GLuint>::failure(std::move(message));
  }
  return Result<GLuint>::success(shader);
}

}  // namespace

Result<ShaderProgram> ShaderProgram::create(std::string_view vertexSource,
                                            std::string_view geometrySource,
                                            std::string_view fragmentSource) {
  struct Stage {
    GLenum type;
    std::string_view source;
    const char* name;
  };
  const Stage stages[] = {{GL_VERTEX_SHADER, vertexSource, "vertex"},
                          {GL_GEOMETRY_SHADER, geometrySource, "geometry"},
                          {GL_FRAGMENT_SHADER, fragmentSource, "fragment"}};
  std::vector<GLuint> shaders;
  std::string error;
  for (const Stage& stage : stages) {
    if (stage.source.empty() && stage.type == GL_GEOMETRY_SHADER) continue;
    auto shader = compile(stage.type, stage.source, stage.name);
    if (!shader) {
      error = shader.error();
      break;
    }
    shaders.push_back(shader.value());
  }
  const GLuint program = error.empty() ? glCreateProgram() : 0;
  if (program != 0) {
    for (GLuint shader : shaders)
      glAttachShader(program, shader);
    glLinkProgram(program);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) error = "link: " + infoLog(program, true);
  }
  for (GLuint shader : shaders)
    glDeleteShader(shader);
  if (!error.empty()) {
    if (program != 0) glDeleteProgram(program);
    return Result<ShaderProgram>::failure(std::move(error));
  }
  return Result<ShaderProgram>::success(ShaderProgram(program));
}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (m_program != 0) glDeleteProgram(m_program);
    m_program = other.m_program;
    other.m_program = 0;
  }
  return *this;
}

ShaderProgram::~ShaderProgram() {
  if (m_program != 0) glDeleteProgram(m_program);
}

}  // namespace nav::app
