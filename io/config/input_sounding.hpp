#pragma once
/// A sounding in WRF's `input_sounding` format, the text file WRF's ideal cases (em_quarter_ss,
/// em_squall2d_x, …) read their background from:
///   line 1:        surface pressure (hPa)   surface θ (K)   surface q_v (g/kg)
///   then a level a line, from the ground up:
///                  height (m)   θ (K)   q_v (g/kg)   u (m/s)   v (m/s)
/// numbers separated by white space; blank lines are ignored. θ is the dry potential temperature
/// and q_v the water vapour mixing ratio. The reader returns SI units: hPa → Pa, g/kg → kg/kg.
#include <filesystem>
#include <string_view>

#include "solver/spec/input_sounding.hpp"

namespace simapp::io {

/// The sounding in `file`. Throws simapp::Error(ExitCode::bad_input) whose where is the file
/// (it cannot be read, is not a regular file, or holds no level) or FILE:LINE (a line with
/// other than 3 numbers on the first line or 5 on a level's, a word that is not a finite number,
/// a height not above the one before, a negative q_v, a θ or surface pressure not above 0).
InputSounding read_input_sounding(const std::filesystem::path& file);

/// The sounding whose text, read from `file`, is `text` (read_input_sounding's checks and
/// messages): for ranks that parse the one text a rank read.
InputSounding parse_input_sounding(std::string_view text, const std::filesystem::path& file);

}  // namespace simapp::io
