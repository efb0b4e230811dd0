#pragma once
/// The XDMF index of a snapshot series, so ParaView and VisIt open the HDF5 files directly.
#include <filesystem>
#include <string>
#include <vector>

namespace simapp::io {

/// One output time of the series.
struct XdmfEntry {
  std::string file;   ///< the snapshot, relative to the .xmf
  double time = 0.0;  ///< s
};

/// The uniform mesh of the series: nx × nz cells of dx × dz m from (0, 0); in the 3-D model
/// (ny > 1) nx × ny × nz cells of dx × dy × dz m from (0, 0, 0).
struct XdmfMesh {
  int nx = 0, nz = 0;
  double dx = 0.0, dz = 0.0;
  int ny = 1;
  double dy = 0.0;
  int value_bytes = 8;  ///< of a field's values: 8, or 4 in a float32 run (execution.precision)
};

/// Writes `path`, an XDMF 3 temporal collection with one grid per entry, and one cell-centred
/// scalar attribute per field: the snapshot's /<field> (nz × nx) as 1 × nz × nx cells, floats of
/// the mesh's value_bytes. The
/// mesh is a 3DCoRectMesh of 2 × (nz + 1) × (nx + 1) nodes with ORIGIN_DXDYDZ (0, 0, 0) and
/// (0, dz, dx), slowest axis first: ParaView and VisIt show x along their x axis and z along
/// their y axis, a single layer of nz × nx cells of zero thickness, with the true node
/// coordinates and bounds (ParaView 5.11 reads a 2DRectMesh's VXVY coordinates wrongly, all
/// bounds 0, and lays a 2DCoRectMesh on its y–z plane). ParaView shows a mesh two nodes thick as
/// a volume, its outline, until the Surface representation is chosen; a flat mesh (1 node thick)
/// would show its cells at once in the Xdmf3 readers, but the legacy XDMF Reader selects no cell
/// of a flat extent and reads no field. In the 3-D model the mesh is a
/// 3DCoRectMesh of (nz + 1) × (ny + 1) × (nx + 1) nodes with spacing (dz, dy, dx), and each
/// attribute the snapshot's 1 × nz × ny × nx dataset: x, y and z along ParaView's x, y and z.
/// Replaces `path` atomically
/// (temporary file, then rename), as the series grows. Throws an internal Error for an empty
/// grid and an I/O Error when writing fails.
void write_xdmf(const std::filesystem::path& path, const XdmfMesh& mesh, const std::vector<std::string>& fields,
                const std::vector<XdmfEntry>& entries);

/// True when `path` is an XDMF index simapp wrote (it carries simapp's mark near its start).
bool is_simapp_xdmf(const std::filesystem::path& path);

}  // namespace simapp::io
