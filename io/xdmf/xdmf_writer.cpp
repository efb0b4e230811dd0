#include "io/xdmf/xdmf_writer.hpp"

#include <fmt/format.h>

#include <fstream>
#include <string_view>

#include "foundation/error.hpp"
#include "io/files/result_file.hpp"

namespace simapp::io {

namespace {

/// The mark that tells simapp's index from a user's file of the same name; indexes of earlier
/// versions are known by their collection's name.
constexpr std::string_view mark = "<Information Name=\"written_by\" Value=\"simapp\"/>";
constexpr std::string_view earlier_mark =
    "<Grid Name=\"snapshots\" GridType=\"Collection\" CollectionType=\"Temporal\">";

/// `text` with XML's special characters escaped, for attribute values and element text.
std::string xml_escaped(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

/// A DataItem reading dataset /`dataset` of `file`, floats of `value_bytes` bytes.
std::string data_item(const std::string& dimensions, int value_bytes, const std::string& file,
                      const std::string& dataset) {
  return fmt::format(
      "          <DataItem Dimensions=\"{}\" NumberType=\"Float\" Precision=\"{}\" Format=\"HDF\">{}:/{}</DataItem>\n",
      dimensions, value_bytes, xml_escaped(file), xml_escaped(dataset));
}

/// A cell field: the 1 × nz × nx dataset (time, z, x) as it is, the mesh's single layer of
/// cells, or in the 3-D model the 1 × nz × ny × nx dataset (time, z, y, x), its nz layers: a
/// plain HDF DataItem, which every XDMF reader takes (ParaView's Xdmf3 readers skip a Function
/// item).
std::string attribute_xml(const XdmfMesh& mesh, const std::string& file, const std::string& field) {
  const std::string dimensions =
      mesh.ny > 1 ? fmt::format("1 {} {} {}", mesh.nz, mesh.ny, mesh.nx) : fmt::format("1 {} {}", mesh.nz, mesh.nx);
  return fmt::format("        <Attribute Name=\"{}\" AttributeType=\"Scalar\" Center=\"Cell\">\n", xml_escaped(field)) +
         data_item(dimensions, mesh.value_bytes, file, field) + "        </Attribute>\n";
}

/// A DataItem holding `values` in the XML itself.
std::string inline_item(const std::string& values) {
  return fmt::format(
      "          <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">{}</DataItem>\n",
      values);
}

/// One output time: the mesh of cell edges and the cell-centred fields.
std::string grid_xml(const XdmfMesh& mesh, const std::vector<std::string>& fields, const XdmfEntry& entry) {
  const bool three_d = mesh.ny > 1;
  std::string xml = fmt::format("      <Grid Name=\"{}\" GridType=\"Uniform\">\n",
                                xml_escaped(std::filesystem::path(entry.file).stem().string())) +
                    fmt::format("        <Time Value=\"{}\"/>\n", entry.time) +
                    fmt::format("        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"{} {} {}\"/>\n",
                                three_d ? mesh.nz + 1 : 2, three_d ? mesh.ny + 1 : mesh.nz + 1, mesh.nx + 1) +
                    "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n" + inline_item("0 0 0") +
                    inline_item(three_d ? fmt::format("{} {} {}", mesh.dz, mesh.dy, mesh.dx)
                                        : fmt::format("0 {} {}", mesh.dz, mesh.dx)) +
                    "        </Geometry>\n";
  for (const std::string& field : fields) xml += attribute_xml(mesh, entry.file, field);
  return xml + "      </Grid>\n";
}

}  // namespace

void write_xdmf(const std::filesystem::path& path, const XdmfMesh& mesh, const std::vector<std::string>& fields,
                const std::vector<XdmfEntry>& entries) {
  if (mesh.nx <= 0 || mesh.nz <= 0 || mesh.ny <= 0 || !(mesh.dx > 0.0) || !(mesh.dz > 0.0) ||
      (mesh.ny > 1 && !(mesh.dy > 0.0)))
    throw Error(ExitCode::internal, path.string(), "XDMF index of an empty grid");
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<Xdmf Version=\"3.0\">\n"
      "  <Domain>\n"
      "    " +
      std::string(mark) +
      "\n"
      "    <Grid Name=\"snapshots\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const XdmfEntry& entry : entries) xml += grid_xml(mesh, fields, entry);
  xml +=
      "    </Grid>\n"
      "  </Domain>\n"
      "</Xdmf>\n";
  write_result_file(path, xml);
}

bool is_simapp_xdmf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("<Xdmf") != std::string::npos &&
         (head.find(mark) != std::string::npos || head.find(earlier_mark) != std::string::npos);
}

}  // namespace simapp::io
