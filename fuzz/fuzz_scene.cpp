// libFuzzer target: glTF 2.0 (.gltf, .glb) and FBX levels through importScene.
// Assimp reads files by name, so each input is written to a scratch file whose
// extension follows the input's own magic: "glTF" a .glb, "Kaydara" or ';'
// (binary or ASCII FBX) an .fbx, anything else a .gltf. The file sits in a
// folder of this process's own, so a buffer a .gltf names by a relative path
// finds nothing another process wrote.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "nav/scene_import.h"

namespace {

class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "navscope_fuzz_XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror("fuzz_scene: mkdtemp");
      std::abort();
    }
    m_path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

std::string scratchFile(std::string_view bytes) {
  static const ScratchFolder folder;
  const char* name = "level.gltf";
  if (bytes.starts_with("glTF")) name = "level.glb";
  if (bytes.starts_with("Kaydara") || bytes.starts_with(";")) name = "level.fbx";
  return (folder.path() / name).string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string path = scratchFile(bytes);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), std::streamsize(size));
  file.close();
  if (!file) {
    // Reading a stale file instead would fuzz nothing.
    std::fprintf(stderr, "fuzz_scene: cannot write %s\n", path.c_str());
    std::abort();
  }
  nav::LoadLimits limits;
  limits.maxTriangles = 100'000;
  limits.maxFileBytes = 1 << 20;
  nav::importScene(path, limits);
  std::remove(path.c_str());
  return 0;
}
