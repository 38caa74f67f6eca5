// libFuzzer target: glTF 2.0 (.gltf, .glb) and FBX levels through importScene.
// Assimp reads files by name, so each input is written to a scratch file whose
// extension follows the input's own magic: "glTF" a .glb, "Kaydara" or ';'
// (binary or ASCII FBX) an .fbx, anything else a .gltf.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "nav/scene_import.h"

namespace {

std::string scratchPath(std::string_view bytes) {
  const char* extension = ".gltf";
  if (bytes.starts_with("glTF")) extension = ".glb";
  if (bytes.starts_with("Kaydara") || bytes.starts_with(";")) extension = ".fbx";
  return (std::filesystem::temp_directory_path() /
          ("navscope_fuzz_scene_" + std::to_string(getpid()) + extension))
      .string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string path = scratchPath(bytes);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(size));
  nav::LoadLimits limits;
  limits.maxTriangles = 100'000;
  limits.maxFileBytes = 1 << 20;
  nav::importScene(path, limits);
  std::remove(path.c_str());
  return 0;
}
