#pragma once
// glTF 2.0 (.gltf, .glb) and FBX (.fbx) levels, read through Assimp. The node
// tree's transforms are applied, every mesh a node holds becomes triangles
// (polygons are cut as OBJ faces are, each one face), and material names
// become surfaces as OBJ's `usemtl` names do. Y is up and a unit a metre,
// as in glTF; an FBX file's points are put in those from the axes and unit
// its GlobalSettings declare (Z up in centimetres, say). A transform that
// mirrors reads each polygon's corners in reverse,
// so faces stay turned as they were.
#include <string>
#include <string_view>

#include "nav/level.h"
#include "nav/result.h"

namespace nav {

/// True when the path ends in .gltf, .glb or .fbx (any case): a level importScene reads.
bool isSceneFile(std::string_view path);

/// Reads the scene at `path` as a level, without its sidecar (loadLevel adds
/// that). Every file it opens (the scene, a .gltf's buffers) is read as
/// readRegularFile reads, each within limits.maxFileBytes. Assimp's material
/// "DefaultMaterial" (what it gives parts with no material) is the unnamed
/// material 0. LevelTriangle::face counts the polygons met walking the nodes
/// depth first, children in order. Errors name the file and, for bad geometry,
/// the mesh and its node path: "level.glb: mesh 'Floor' (node 'Room/Floor'):
/// vertex 12 is not finite after the node transforms".
Result<Level> importScene(const std::string& path, const LoadLimits& limits = {});

}  // namespace nav
