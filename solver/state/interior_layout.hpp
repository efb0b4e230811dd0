#pragma once
/// Where a rank's interior cells lie in its padded state array, for either model: runs of
/// rows of nx values, a row pitch apart, each run starting at an offset. The interior state
/// (outputs, checkpoints, restarts) is these rows in order: [var][k][i] in the 2-D model (one
/// run of nz rows a variable), [var][k][j][i] in the 3-D model (one run of ny rows a layer).
#include <cstddef>
#include <span>
#include <vector>

#include "kernels/backend/field_view.hpp"

namespace simapp {

struct RowRun {
  std::size_t first = 0;  ///< offset of the run's first value in the padded array
  std::size_t rows = 0;
};

struct InteriorLayout {
  std::size_t row_length = 0;  ///< nx
  std::size_t row_pitch = 0;   ///< the padded array's distance between rows
  std::size_t padded_size = 0;
  std::vector<RowRun> runs;

  std::size_t rows() const;
  std::size_t values() const { return rows() * row_length; }
};

InteriorLayout interior_layout(const FieldShape<2>& shape);
InteriorLayout interior_layout(const FieldShape<3>& shape);

/// The interior values of `padded`, row after row.
std::vector<double> interior_of(const InteriorLayout& layout, std::span<const double> padded);
/// A padded array holding `interior` (row after row) in its interior cells and zeros elsewhere.
std::vector<double> padded_from(const InteriorLayout& layout, std::span<const double> interior);

}  // namespace simapp
