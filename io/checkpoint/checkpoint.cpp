#include "io/checkpoint/checkpoint.hpp"

#include <hdf5.h>

#include <optional>
#include <regex>
#include <system_error>

#include <fmt/core.h>

#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "kernels/backend/error.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

Error io_error(const fs::path& path, const std::string& what) { return Error(ExitCode::io, path.string(), what); }

template <class T>
T read_attribute(hid_t object, const char* name, hid_t type, const fs::path& path) {
  T value{};
  const AttributeHandle attribute(H5Aopen(object, name, H5P_DEFAULT));
  if (!attribute.valid() || H5Aread(attribute.get(), type, &value) < 0)
    throw Error(ExitCode::bad_input, path.string(), std::string("not a simapp checkpoint (no attribute ") + name + ")");
  return value;
}

std::optional<long> step_of(const fs::path& file) {
  static const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  std::smatch match;
  const std::string name = file.filename().string();
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  return std::stol(match[1]);
}

/// The checkpoint's content, into an open (in-memory) HDF5 file.
void fill_checkpoint(hid_t file, const CheckpointHeader& header, const std::vector<double>& state,
                     const std::string& input_yaml) {
  const hsize_t dims[3] = {var::count, static_cast<hsize_t>(header.nz), static_cast<hsize_t>(header.nx)};
  const DataspaceHandle space(checked(H5Screate_simple(3, dims, nullptr), "cannot create the state dataspace"));
  const DatasetHandle dataset(checked(
      H5Dcreate2(file, "state", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      "cannot create dataset /state"));
  check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, state.data()), "cannot write /state");
  write_attribute(file, "step", header.step);
  write_attribute(file, "time", header.time);
  write_attribute(file, "config_hash", static_cast<unsigned long>(header.config_hash));
  write_attribute(file, "nx", header.nx);
  write_attribute(file, "nz", header.nz);
  write_attribute(file, "initial_mass", header.initial_mass);
  write_attribute(file, "initial_total_energy", header.initial_total_energy);
  write_attribute(file, "input_yaml", input_yaml);
}

}  // namespace

std::uint64_t physics_hash(const RunSpec& spec) {
  const std::string key = fmt::format("case={};nx={};nz={};xlen={:a};zlen={:a}", to_string(spec.case_name),
                                      spec.grid.nx, spec.grid.nz, spec.grid.xlen, spec.grid.zlen);
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : key) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

fs::path checkpoint_path(const fs::path& directory, long step) {
  return directory / fmt::format("checkpoint_{:06}.h5", step);
}

void write_checkpoint(const fs::path& directory, const CheckpointHeader& header,
                      const std::vector<double>& global_state, const std::string& input_yaml) {
  const fs::path path = checkpoint_path(directory, header.step);
  try {
    write_new_file(path, global_state.size() * sizeof(double) + (std::size_t{1} << 16),
                   [&](hid_t file) { fill_checkpoint(file, header, global_state, input_yaml); });
  } catch (const FileFailure& failure) {
    throw io_error(path, failure.what());
  }
  // Read back before trusting it; only then are older checkpoints removed.
  const CheckpointHeader written = read_checkpoint_header(path);
  if (written.step != header.step || written.nx != header.nx || written.nz != header.nz)
    throw io_error(path, "reads back differently from what was written");
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(directory, ignored))
    if (const auto step = step_of(entry.path()); step && *step != header.step) fs::remove(entry.path(), ignored);
}

fs::path latest_checkpoint(const fs::path& directory) {
  std::optional<long> newest;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error))
    if (const auto step = step_of(entry.path()); step && (!newest || *step > *newest)) newest = step;
  if (!newest) throw Error(ExitCode::bad_input, directory.string(), "no checkpoint_*.h5 to restart from");
  return checkpoint_path(directory, *newest);
}

CheckpointHeader read_checkpoint_header(const fs::path& path) {
  const QuietHdf5Errors quiet;
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid()) throw Error(ExitCode::bad_input, path.string(), "cannot open checkpoint");
  CheckpointHeader header;
  header.step = static_cast<long>(read_attribute<std::int64_t>(file.get(), "step", H5T_NATIVE_INT64, path));
  header.time = read_attribute<double>(file.get(), "time", H5T_NATIVE_DOUBLE, path);
  header.config_hash = read_attribute<std::uint64_t>(file.get(), "config_hash", H5T_NATIVE_UINT64, path);
  header.nx = read_attribute<int>(file.get(), "nx", H5T_NATIVE_INT, path);
  header.nz = read_attribute<int>(file.get(), "nz", H5T_NATIVE_INT, path);
  header.initial_mass = read_attribute<double>(file.get(), "initial_mass", H5T_NATIVE_DOUBLE, path);
  header.initial_total_energy = read_attribute<double>(file.get(), "initial_total_energy", H5T_NATIVE_DOUBLE, path);
  return header;
}

std::vector<double> read_checkpoint_block(const fs::path& path, const RankBox& box) {
  const QuietHdf5Errors quiet;
  try {
    const FileHandle file(checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "cannot open checkpoint"));
    const DatasetHandle dataset(checked(H5Dopen2(file.get(), "state", H5P_DEFAULT), "no dataset /state"));
    const DataspaceHandle space(checked(H5Dget_space(dataset.get()), "cannot get the dataspace of /state"));
    const hsize_t start[3] = {0, static_cast<hsize_t>(box.k_offset), static_cast<hsize_t>(box.i_offset)};
    const hsize_t count[3] = {var::count, static_cast<hsize_t>(box.nz), static_cast<hsize_t>(box.nx)};
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), "bad hyperslab");
    const DataspaceHandle memory(checked(H5Screate_simple(3, count, nullptr), "cannot create a dataspace"));
    std::vector<double> block(var::count * static_cast<std::size_t>(box.nz) * box.nx);
    check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, block.data()),
          "cannot read /state");
    return block;
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::bad_input, path.string(), failure.what());
  }
}

}  // namespace simapp::io
