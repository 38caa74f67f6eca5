#include "nav/scene_import.h"

#include "guarded.h"
#include "nav/file_reading.h"
#include "polygon_triangulation.h"

#include <assimp/BaseImporter.h>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>

namespace nav {
namespace {

/// Level materials get uint16_t indices and index 0 is the unnamed material.
constexpr size_t kMaxMaterials = 65535;
/// As for OBJ: ear clipping is worst-case cubic in the polygon's size.
constexpr size_t kMaxFaceVertices = 4096;
/// Walking more nodes than this is refused: instancing (one subtree under many
/// parents) could otherwise make the walk as long as the file is deep.
constexpr uint64_t kMaxNodeVisits = 10'000'000;

/// A little-endian u32 at `at` (the caller checked that four bytes are there).
uint32_t readU32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i)
    value |= uint32_t(uint8_t(bytes[at + i])) << (8 * i);
  return value;
}

/// What is wrong with a binary glTF's container (header and chunk lengths),
/// "" when it is sound. Assimp allocates the length a chunk states before it
/// reads it, so a few changed bytes could ask it for gigabytes.
std::string glbContainerProblem(std::string_view bytes) {
  constexpr size_t kHeader = 12, kChunkHeader = 8;
  if (bytes.size() < kHeader) return "shorter than a binary glTF header (12 bytes)";
  const uint32_t version = readU32(bytes, 4), length = readU32(bytes, 8);
  if (version != 2) return "binary glTF version " + std::to_string(version) + ", not 2";
  if (length != bytes.size()) {
    return "the header says " + std::to_string(length) + " bytes, the file has " +
           std::to_string(bytes.size());
  }
  for (size_t at = kHeader; at < bytes.size();) {
    if (bytes.size() - at < kChunkHeader) {
      return "the chunk at byte " + std::to_string(at) + " is cut short";
    }
    const uint32_t chunk = readU32(bytes, at);
    if (chunk > bytes.size() - at - kChunkHeader) {
      return "the chunk at byte " + std::to_string(at) + " says " + std::to_string(chunk) +
             " bytes, past the end of the file";
    }
    at += kChunkHeader + chunk;
  }
  return "";
}

/// Assimp's file access, routed through readRegularFile so the scene and every
/// file it names (a .gltf's buffers) get the same checks as an OBJ: regular
/// files only, never a blocking open, size bounded. Each file is read once and
/// kept until the import ends, since importers open a file several times.
class RegularFiles : public Assimp::IOSystem {
 public:
  explicit RegularFiles(uint64_t maxBytes) : m_maxBytes(maxBytes) {}

  /// The first file that could not be read, as readRegularFile put it; "" if none.
  const std::string& error() const { return m_error; }

  // Every file "exists", so Open can say why one cannot be read (not found,
  // a FIFO, a directory) instead of Assimp's bare "Unable to open file".
  bool Exists(const char*) const override { return true; }

  char getOsSeparator() const override { return '/'; }

  Assimp::IOStream* Open(const char* path, const char* mode) override {
    if (std::string_view(mode).find_first_of("wa+") != std::string_view::npos) return nullptr;
    // One entry per file however its path is spelled (x.bin, ./x.bin).
    std::error_code ignored;
    const std::string key = std::filesystem::weakly_canonical(path, ignored).string();
    auto cached = m_files.find(key.empty() ? std::string(path) : key);
    if (cached == m_files.end()) {
      Result<std::string> bytes =
          readRegularFile(path, m_maxBytes - m_totalBytes, "LoadLimits::maxFileBytes");
      if (!bytes) {
        if (m_error.empty()) {
          m_error =
              m_totalBytes == 0 ? bytes.error() : bytes.error() + " (the scene's files together)";
        }
        return nullptr;
      }
      m_totalBytes += bytes.value().size();
      if (bytes.value().starts_with("glTF")) {
        const std::string problem = glbContainerProblem(bytes.value());
        if (!problem.empty()) {
          if (m_error.empty()) m_error = std::string(path) + ": " + problem;
          return nullptr;
        }
      }
      cached =
          m_files.emplace(key.empty() ? std::string(path) : key, std::move(bytes).value()).first;
    }
    const std::string& bytes = cached->second;
    return new Assimp::MemoryIOStream(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }

  void Close(Assimp::IOStream* stream) override { delete stream; }

 private:
  /// For the scene and every file it names together.
  uint64_t m_maxBytes;
  uint64_t m_totalBytes = 0;
  std::map<std::string, std::string> m_files;
  std::string m_error;
};

/// Names the node in messages: its names from the scene's root down, '/' between.
std::string nodePath(const aiNode& node) {
  std::vector<std::string_view> names;
  for (const aiNode* n = &node; n; n = n->mParent)
    names.emplace_back(n->mName.C_Str());
  std::string path;
  for (auto name = names.rbegin(); name != names.rend(); ++name) {
    if (!path.empty()) path += '/';
    path += *name;
  }
  return path;
}

/// glm's matrices are column-major and Assimp's row-major; both map column vectors.
glm::dmat4 toMatrix(const aiMatrix4x4& m) {
  glm::dmat4 result;
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 4; ++column)
      result[column][row] = m[row][column];
  }
  return result;
}

/// An integer or real entry of the scene's metadata (what Assimp's FBX reader
/// puts there from the file's GlobalSettings), as a double.
std::optional<double> metadataNumber(const aiScene& scene, const char* key) {
  const aiMetadata* data = scene.mMetaData;
  if (!data) return std::nullopt;
  for (unsigned i = 0; i < data->mNumProperties; ++i) {
    if (std::string_view(data->mKeys[i].C_Str()) != key || !data->mValues[i].mData) continue;
    const aiMetadataEntry& entry = data->mValues[i];
    switch (entry.mType) {
      case AI_INT32:
        return double(*static_cast<const int32_t*>(entry.mData));
      case AI_UINT64:
        return double(*static_cast<const uint64_t*>(entry.mData));
      case AI_FLOAT:
        return double(*static_cast<const float*>(entry.mData));
      case AI_DOUBLE:
        return *static_cast<const double*>(entry.mData);
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The transform from the axes and unit an FBX file declares in its
/// GlobalSettings (which Assimp reads but does not apply) into navscope's:
/// Y up, metres. The file's coordinate axis becomes X, its up axis Y and its
/// front axis Z, each with its sign; the unit is UnitScaleFactor
/// centimetres (1: centimetres, 100: metres). A file that declares nothing
/// (glTF) gets the identity; one whose axes or unit make no sense gets an
/// error.
Result<glm::dmat4> declaredFrame(const aiScene& scene, const std::string& path) {
  const auto axis = [&](const char* key, int fallback) {
    return metadataNumber(scene, key).value_or(double(fallback));
  };
  const double up = axis("UpAxis", 1), front = axis("FrontAxis", 2), coord = axis("CoordAxis", 0);
  const double axes[3] = {coord, up, front};
  const double signs[3] = {axis("CoordAxisSign", 1), axis("UpAxisSign", 1),
                           axis("FrontAxisSign", 1)};
  const auto named = [](double a) { return a == 0.0 || a == 1.0 || a == 2.0; };
  if (!named(up) || !named(front) || !named(coord) || up == front || up == coord ||
      front == coord) {
    std::ostringstream message;
    message << path << ": GlobalSettings' UpAxis " << up << ", FrontAxis " << front
            << " and CoordAxis " << coord << " do not name three different axes (0, 1, 2)";
    return Result<glm::dmat4>::failure(message.str());
  }
  for (const double sign : signs) {
    if (sign != 1.0 && sign != -1.0) {
      std::ostringstream message;
      message << path << ": GlobalSettings' axis signs must be 1 or -1, not " << sign;
      return Result<glm::dmat4>::failure(message.str());
    }
  }
  const double centimetres = metadataNumber(scene, "UnitScaleFactor").value_or(100.0);
  if (!(centimetres > 0.0 && centimetres <= 1e6)) {
    std::ostringstream message;
    message << path << ": GlobalSettings' UnitScaleFactor " << centimetres
            << " is no unit (centimetres a unit, above 0 and at most 1e6)";
    return Result<glm::dmat4>::failure(message.str());
  }
  glm::dmat4 frame(0.0);
  for (int row = 0; row < 3; ++row)
    frame[int(axes[row])][row] = signs[row] * centimetres / 100.0;
  frame[3][3] = 1.0;
  return Result<glm::dmat4>::success(frame);
}

/// What the declared frame did, for people: "" for none (Y up in metres),
/// else the file's axis that became up and the metres of its unit, say
/// "Z up, 0.01 m a unit (FBX GlobalSettings)".
std::string describeFrame(const aiScene& scene, const glm::dmat4& frame) {
  if (frame == glm::dmat4(1.0)) return "";
  int up = 0;
  for (int column = 0; column < 3; ++column) {
    if (frame[column][1] != 0.0) up = column;
  }
  std::ostringstream text;
  text << (frame[up][1] < 0.0 ? "-" : "") << "XYZ"[up] << " up, "
       << metadataNumber(scene, "UnitScaleFactor").value_or(100.0) / 100.0 << " m a unit"
       << (glm::determinant(glm::dmat3(frame)) < 0.0 ? ", left-handed" : "")
       << " (FBX GlobalSettings)";
  return text.str();
}

/// True when the transform mirrors. A node's transform that mirrors a mesh
/// turns its faces over, so its polygons' corners are read in reverse to keep
/// each face turned as it was (as glTF states for a node whose transform's
/// determinant is negative). The declared frame is no such transform: it
/// names the axes the file's numbers are in, left-handed ones too, and the
/// faces it holds are turned as their corners say in those axes.
bool mirrors(const glm::dmat4& transform) {
  return glm::determinant(glm::dmat3(transform)) < 0.0;
}

/// Builds the level from the node tree; the first error stops it.
class SceneReader {
 public:
  SceneReader(const aiScene& scene, std::string_view path, const LoadLimits& limits)
      : m_scene(scene),
        m_path(path),
        m_limits(limits),
        m_materialOfSceneMaterial(scene.mNumMaterials) {
    m_level.source = std::string(path);
  }

  Result<Level> read() {
    if (!m_scene.mRootNode) return fail(m_path + ": the scene has no nodes");
    const Result<glm::dmat4> frame = declaredFrame(m_scene, m_path);
    if (!frame) return fail(frame.error());
    struct Visit {
      const aiNode* node;
      glm::dmat4 world;
      /// Every transform up to here is the identity: the file's floats are kept
      /// untouched (adding the product's +0 terms would turn -0 into +0).
      bool identity;
    };
    const bool declaresOurs = frame.value() == glm::dmat4(1.0);
    m_frameMirrors = mirrors(frame.value());
    m_level.declaredFrame = describeFrame(m_scene, frame.value());
    std::vector<Visit> pending{{m_scene.mRootNode, frame.value(), declaresOurs}};
    uint64_t visits = 0;
    while (!pending.empty()) {
      const Visit visit = pending.back();
      pending.pop_back();
      if (++visits > kMaxNodeVisits) {
        return fail(m_path + ": more than " + std::to_string(kMaxNodeVisits) + " node visits");
      }
      const aiNode& node = *visit.node;
      // Exactly: Assimp's IsIdentity lets 0.01 off pass, a 5 mm shift.
      const bool identity = visit.identity && node.mTransformation == aiMatrix4x4();
      const glm::dmat4 world =
          identity ? visit.world : visit.world * toMatrix(node.mTransformation);
      for (unsigned i = 0; i < node.mNumMeshes; ++i) {
        if (node.mMeshes[i] >= m_scene.mNumMeshes || !m_scene.mMeshes[node.mMeshes[i]]) {
          return fail(m_path + ": node '" + nodePath(node) + "' names mesh " +
                      std::to_string(node.mMeshes[i]) + " of " +
                      std::to_string(m_scene.mNumMeshes));
        }
        const aiMesh& mesh = *m_scene.mMeshes[node.mMeshes[i]];
        if (std::optional<std::string> problem = addMesh(mesh, world, identity)) {
          return fail(m_path + ": mesh '" + mesh.mName.C_Str() + "' (node '" + nodePath(node) +
                      "'): " + *problem);
        }
      }
      // Reversed, so children are walked in their order.
      for (unsigned i = node.mNumChildren; i-- > 0;) {
        if (node.mChildren[i]) pending.push_back({node.mChildren[i], world, identity});
      }
    }
    if (m_level.triangles.empty()) {
      return fail(m_path + ": the level has no triangles" +
                  (m_faces == 0 ? " (no mesh has a polygon)" : " (every face has zero area)"));
    }
    for (const LevelTriangle& triangle : m_level.triangles) {
      for (uint32_t corner : triangle.vertex)
        m_level.bounds.grow(m_level.vertices[corner]);
    }
    return Result<Level>::success(std::move(m_level));
  }

 private:
  static Result<Level> fail(std::string message) {
    return Result<Level>::failure(std::move(message));
  }

  std::optional<std::string> addMesh(const aiMesh& mesh, const glm::dmat4& world, bool identity) {
    const size_t base = m_level.vertices.size();
    // Each placement of a mesh adds its vertices again: bounded as triangles are.
    const uint64_t maxVertices =
        std::min<uint64_t>(std::numeric_limits<uint32_t>::max(), 3 * m_limits.maxTriangles);
    if (mesh.mNumVertices > maxVertices - std::min<uint64_t>(base, maxVertices)) {
      return "more than " + std::to_string(maxVertices) +
             " vertices in the level (3 x LoadLimits::maxTriangles)";
    }
    if (mesh.mNumVertices > 0 && !mesh.mVertices) return std::string("no vertex positions");
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D& p = mesh.mVertices[v];
      const glm::vec3 position =
          identity ? glm::vec3(p.x, p.y, p.z)
                   : glm::vec3(world * glm::dvec4(double(p.x), double(p.y), double(p.z), 1.0));
      const std::string after = identity ? "" : " after the node transforms";
      if (!isFinite(position)) return "vertex " + std::to_string(v) + " is not finite" + after;
      if (!inWorld(position)) {
        return "vertex " + std::to_string(v) + " lies more than 1e8 m from the origin" + after;
      }
      m_level.vertices.push_back(position);
    }
    const bool mirrored = !identity && mirrors(world) != m_frameMirrors;
    const std::optional<uint16_t> material = levelMaterial(mesh.mMaterialIndex);
    if (!material) {
      return m_materialError.empty()
                 ? "material " + std::to_string(mesh.mMaterialIndex) + " does not exist (" +
                       std::to_string(m_scene.mNumMaterials) + " materials)"
                 : m_materialError;
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      // Every face read counts, kept or not: a mesh placed by many nodes
      // repeats its faces, and dropped ones cost time all the same.
      if (++m_facesRead > m_limits.maxTriangles) {
        return "more than " + std::to_string(m_limits.maxTriangles) +
               " faces read from the scene's nodes (LoadLimits::maxTriangles)";
      }
      // Points and lines are not ground or walls.
      if (face.mNumIndices < 3) continue;
      if (face.mNumIndices > kMaxFaceVertices) {
        return "face " + std::to_string(f) + " has " + std::to_string(face.mNumIndices) +
               " vertices; at most " + std::to_string(kMaxFaceVertices) + " are supported";
      }
      m_polygon.clear();
      for (unsigned c = 0; c < face.mNumIndices; ++c) {
        if (face.mIndices[c] >= mesh.mNumVertices) {
          return "face " + std::to_string(f) + " uses vertex " + std::to_string(face.mIndices[c]) +
                 " of " + std::to_string(mesh.mNumVertices);
        }
        m_polygon.push_back(uint32_t(base + face.mIndices[c]));
      }
      if (mirrored) std::reverse(m_polygon.begin(), m_polygon.end());
      const uint64_t ordinal = m_faces++;
      m_pieces.clear();
      triangulate(m_level.vertices, m_polygon, m_pieces);
      for (const auto& piece : m_pieces) {
        const auto& v = m_level.vertices;
        if (zeroArea(v[piece[0]], v[piece[1]], v[piece[2]])) continue;
        if (m_level.triangles.size() >= m_limits.maxTriangles) {
          return "more than " + std::to_string(m_limits.maxTriangles) +
                 " triangles in the level (LoadLimits::maxTriangles)";
        }
        m_level.triangles.push_back({{piece[0], piece[1], piece[2]}, *material, uint32_t(ordinal)});
      }
    }
    return std::nullopt;
  }

  /// The level material of a scene material, named when first used.
  std::optional<uint16_t> levelMaterial(unsigned sceneMaterial) {
    if (sceneMaterial >= m_scene.mNumMaterials || !m_scene.mMaterials[sceneMaterial]) {
      return std::nullopt;
    }
    std::optional<uint16_t>& known = m_materialOfSceneMaterial[sceneMaterial];
    if (known) return known;
    aiString name;
    std::string text;
    if (m_scene.mMaterials[sceneMaterial]->Get(AI_MATKEY_NAME, name) == AI_SUCCESS) {
      text = name.C_Str();
    }
    if (text == AI_DEFAULT_MATERIAL_NAME) text.clear();
    const auto found = std::find(m_level.materials.begin(), m_level.materials.end(), text);
    if (found != m_level.materials.end()) {
      known = uint16_t(found - m_level.materials.begin());
    } else if (m_level.materials.size() > kMaxMaterials) {
      m_materialError = "more than " + std::to_string(kMaxMaterials) + " materials";
      return std::nullopt;
    } else {
      known = uint16_t(m_level.materials.size());
      m_level.materials.push_back(std::move(text));
    }
    return known;
  }

  const aiScene& m_scene;
  std::string m_path;
  const LoadLimits& m_limits;
  Level m_level;
  std::vector<std::optional<uint16_t>> m_materialOfSceneMaterial;
  std::string m_materialError;
  /// The file's declared axes are left-handed (declaredFrame).
  bool m_frameMirrors = false;
  uint64_t m_faces = 0;
  uint64_t m_facesRead = 0;
  std::vector<uint32_t> m_polygon;
  std::vector<std::array<uint32_t, 3>> m_pieces;
};

/// Leaves the importer only the importers of a scene file's extensions
/// (isSceneFile). Assimp tries every importer it has, each by the file's
/// contents, on a file its extension's importer cannot read, and some of
/// them read past their buffers on hostile input (OpenGEX text in a .gltf:
/// fuzz/regressions/scene). An importer unregistered is the caller's to delete.
void keepSceneImporters(Assimp::Importer& importer) {
  std::vector<Assimp::BaseImporter*> others;
  for (size_t i = 0; i < importer.GetImporterCount(); ++i) {
    const aiImporterDesc* info = importer.GetImporterInfo(i);
    std::istringstream extensions(info && info->mFileExtensions ? info->mFileExtensions : "");
    bool ours = false;
    for (std::string extension; extensions >> extension;)
      ours = ours || isSceneFile("." + extension);
    if (!ours) others.push_back(importer.GetImporter(i));
  }
  for (Assimp::BaseImporter* other : others) {
    if (importer.UnregisterLoader(other) == aiReturn_SUCCESS) delete other;
  }
}

Result<Level> importSceneUnchecked(const std::string& path, const LoadLimits& limits) {
  Assimp::Importer importer;
  keepSceneImporters(importer);
  // The importer owns its IO system. Assimp's default logger is a silent
  // NullLogger unless someone creates one, so nothing is printed.
  auto* files = new RegularFiles(limits.maxFileBytes);
  importer.SetIOHandler(files);
  // No post-processing: polygons stay whole so each is one face, and the
  // checks below name the mesh and node where Assimp's validation would not.
  const aiScene* scene = importer.ReadFile(path, 0);
  if (!scene) {
    // A file that could not be read says more than the importer's complaint.
    // A buffer it names is reported after the scene: "level.gltf: level.bin: ...".
    const std::string& error = files->error();
    return Result<Level>::failure(error.empty() ? path + ": " + importer.GetErrorString()
                                  : error.starts_with(path) ? error
                                                            : path + ": " + error);
  }
  return SceneReader(*scene, path, limits).read();
}

}  // namespace

bool isSceneFile(std::string_view path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string extension(path.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return extension == "gltf" || extension == "glb" || extension == "fbx";
}

Result<Level> importScene(const std::string& path, const LoadLimits& limits) {
  return guarded<Level>(path, [&] { return importSceneUnchecked(path, limits); });
}

}  // namespace nav
