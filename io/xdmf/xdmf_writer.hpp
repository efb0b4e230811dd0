#pragma once
/// The XDMF index of a snapshot series, so ParaView and VisIt open the HDF5 files directly.
#include <filesystem>
#include <string>
#include <vector>

namespace simapp::io {

/// One output time of the series.
struct XdmfEntry {
  std::string file;  ///< the snapshot, relative to the .xmf
  double time = 0.0;  ///< s
};

/// Writes `path`, an XDMF 3 temporal collection with one grid per entry: a 2DRectMesh of
/// (nz + 1) × (nx + 1) nodes whose VXVY geometry is the snapshot's /x_nodes and /z_nodes, and one
/// cell-centred scalar attribute (Dimensions "nz nx") per field, read from the snapshot's
/// /<field>. Replaces `path` atomically (temporary file, then rename), as the series grows.
/// Throws an internal Error for an empty grid and an I/O Error when writing fails.
void write_xdmf(const std::filesystem::path& path, int nx, int nz, const std::vector<std::string>& fields,
                const std::vector<XdmfEntry>& entries);

/// True when `path` is an XDMF index simapp wrote (it carries simapp's mark near its start).
bool is_simapp_xdmf(const std::filesystem::path& path);

}  // namespace simapp::io
