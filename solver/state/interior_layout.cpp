#include "solver/state/interior_layout.hpp"

#include <algorithm>

#include "foundation/error.hpp"

namespace simapp {

std::size_t InteriorLayout::rows() const {
  std::size_t rows = 0;
  for (const RowRun& run : runs) rows += run.rows;
  return rows;
}

InteriorLayout interior_layout(const FieldShape<2>& shape) {
  InteriorLayout layout{
      static_cast<std::size_t>(shape.nx), static_cast<std::size_t>(shape.padded_nx()), shape.size(), {}};
  for (int v = 0; v < shape.num_vars; ++v) layout.runs.push_back({shape.offset(v, 0, 0), std::size_t(shape.nz)});
  return layout;
}

InteriorLayout interior_layout(const FieldShape<3>& shape) {
  InteriorLayout layout{static_cast<std::size_t>(shape.nx), shape.row_stride(), shape.size(), {}};
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k) layout.runs.push_back({shape.offset(v, k, 0, 0), std::size_t(shape.ny)});
  return layout;
}

std::vector<double> interior_of(const InteriorLayout& layout, std::span<const double> padded) {
  std::vector<double> interior(layout.values());
  double* out = interior.data();
  for (const RowRun& run : layout.runs)
    for (std::size_t r = 0; r < run.rows; ++r, out += layout.row_length)
      std::copy_n(padded.data() + run.first + r * layout.row_pitch, layout.row_length, out);
  return interior;
}

std::vector<double> padded_from(const InteriorLayout& layout, std::span<const double> interior) {
  if (interior.size() != layout.values())
    throw Error(ExitCode::internal, "interior state",
                std::to_string(interior.size()) + " values for " + std::to_string(layout.values()) + " interior cells");
  std::vector<double> padded(layout.padded_size, 0.0);
  const double* in = interior.data();
  for (const RowRun& run : layout.runs)
    for (std::size_t r = 0; r < run.rows; ++r, in += layout.row_length)
      std::copy_n(in, layout.row_length, padded.data() + run.first + r * layout.row_pitch);
  return padded;
}

}  // namespace simapp
