#pragma once
// Writing a level as a binary glTF 2.0 (.glb) or FBX (.fbx) file through
// Assimp's exporters, so levels made in code (the city and terrain
// generators) can be handed to tools that read those formats.
#include <cstddef>
#include <string>

#include "nav/level.h"
#include "nav/result.h"

namespace nav {

/// Writes the level to `path`, as .glb or .fbx by its extension (any case):
/// one node with no transform, one mesh per run of consecutive triangles of one
/// material (in the level's triangle order), one material per level material
/// named as it. importScene gives back the same materials and order, each
/// triangle its own face, and from a .glb the same corner positions bit for
/// bit; an .fbx is ASCII FBX 7.5 in centimetres, the unit it declares
/// (positions in decimal, within a float's last bits once read back in
/// metres; it holds the time it was written, so its bytes differ from run to
/// run). Returns the bytes written; fails,
/// naming the file, on another extension, a level with no triangles, or a
/// failed export or write.
Result<size_t> writeSceneFile(const std::string& path, const Level& level);

}  // namespace nav
