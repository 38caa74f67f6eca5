#include "nav/scene_export.h"

#include "guarded.h"

#include <assimp/material.h>
#include <assimp/scene.h>
#include <assimp/Exporter.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

namespace nav {
namespace {

/// Assimp's exporter id for the path's extension, or nullptr.
const char* exportFormat(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos) return nullptr;
  std::string extension = path.substr(dot + 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (extension == "glb") return "glb2";
  // ASCII: Assimp 5.2.5's binary FBX exporter writes block offsets its own
  // reader refuses ("FBX-Tokenize ... block offset is out of range").
  if (extension == "fbx") return "fbxa";
  return nullptr;
}

/// One mesh of the triangles [first, last), which share a material; vertices
/// renumbered from 0 in order of first use. `local` maps level vertices to
/// the mesh's (kUnused where not in it) and is left all kUnused again.
constexpr uint32_t kUnused = std::numeric_limits<uint32_t>::max();

aiMesh* runMesh(const Level& level, size_t first, size_t last, float scale,
                std::vector<uint32_t>& local) {
  auto mesh = std::make_unique<aiMesh>();
  const uint16_t material = level.triangles[first].material;
  mesh->mName = level.materials[material].empty() ? "unnamed" : level.materials[material];
  mesh->mMaterialIndex = material;
  mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  std::vector<uint32_t> used;
  for (size_t t = first; t < last; ++t) {
    for (uint32_t corner : level.triangles[t].vertex) {
      if (local[corner] != kUnused) continue;
      local[corner] = uint32_t(used.size());
      used.push_back(corner);
    }
  }
  mesh->mNumVertices = unsigned(used.size());
  mesh->mVertices = new aiVector3D[used.size()];
  for (size_t v = 0; v < used.size(); ++v) {
    const glm::vec3 p = level.vertices[used[v]] * scale;
    mesh->mVertices[v] = aiVector3D(p.x, p.y, p.z);
  }
  mesh->mNumFaces = unsigned(last - first);
  mesh->mFaces = new aiFace[last - first];
  for (size_t t = first; t < last; ++t) {
    aiFace& face = mesh->mFaces[t - first];
    face.mNumIndices = 3;
    face.mIndices = new unsigned[3];
    for (int c = 0; c < 3; ++c)
      face.mIndices[c] = local[level.triangles[t].vertex[c]];
  }
  for (uint32_t corner : used)
    local[corner] = kUnused;
  return mesh.release();
}

/// The level as an Assimp scene (which owns and frees everything it points
/// to), its positions times `scale`.
std::unique_ptr<aiScene> sceneOf(const Level& level, float scale) {
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode("level");
  scene->mMaterials = new aiMaterial*[level.materials.size()];
  for (const std::string& name : level.materials) {
    auto* material = new aiMaterial;
    const aiString text(name);
    material->AddProperty(&text, AI_MATKEY_NAME);
    scene->mMaterials[scene->mNumMaterials++] = material;
  }
  std::vector<aiMesh*> meshes;
  std::vector<uint32_t> local(level.vertices.size(), kUnused);
  for (size_t first = 0; first < level.triangles.size();) {
    size_t last = first + 1;
    while (last < level.triangles.size() &&
           level.triangles[last].material == level.triangles[first].material)
      ++last;
    meshes.push_back(runMesh(level, first, last, scale, local));
    first = last;
  }
  scene->mMeshes = new aiMesh*[meshes.size()];
  scene->mNumMeshes = unsigned(meshes.size());
  std::copy(meshes.begin(), meshes.end(), scene->mMeshes);
  scene->mRootNode->mMeshes = new unsigned[meshes.size()];
  scene->mRootNode->mNumMeshes = unsigned(meshes.size());
  for (unsigned m = 0; m < meshes.size(); ++m)
    scene->mRootNode->mMeshes[m] = m;
  return scene;
}

Result<size_t> writeSceneFileUnchecked(const std::string& path, const Level& level) {
  const char* format = exportFormat(path);
  if (!format) {
    return Result<size_t>::failure(path + ": expected a .glb or .fbx file name");
  }
  if (level.triangles.empty()) {
    return Result<size_t>::failure(path + ": the level has no triangles to write");
  }
  // Assimp's FBX writer declares the unit a centimetre (UnitScaleFactor 1),
  // as engines read an FBX that says nothing else: the metres go in as such.
  const float scale = std::string_view(format) == "fbxa" ? 100.0f : 1.0f;
  const std::unique_ptr<aiScene> scene = sceneOf(level, scale);
  Assimp::Exporter exporter;
  if (exporter.Export(scene.get(), format, path) != AI_SUCCESS) {
    return Result<size_t>::failure(path + ": " + exporter.GetErrorString());
  }
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  if (error)
    return Result<size_t>::failure(path + ": cannot read back its size: " + error.message());
  return Result<size_t>::success(size_t(bytes));
}

}  // namespace

Result<size_t> writeSceneFile(const std::string& path, const Level& level) {
  return guarded<size_t>(path, [&] { return writeSceneFileUnchecked(path, level); });
}

}  // namespace nav
