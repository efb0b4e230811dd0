#include "io/checkpoint/checkpoint.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <regex>
#include <system_error>

#include <fmt/core.h>

#include "io/hdf5/hdf5_handle.hpp"
#include "kernels/backend/error.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

Error io_error(const fs::path& path, const std::string& what) { return Error(ExitCode::io, path.string(), what); }

void check(herr_t status, const fs::path& path, const std::string& what) {
  if (status < 0) throw io_error(path, what);
}

template <class T>
void write_attribute(hid_t object, const char* name, hid_t type, const T& value, const fs::path& path) {
  const DataspaceHandle scalar(H5Screate(H5S_SCALAR));
  const AttributeHandle attribute(H5Acreate2(object, name, type, scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!attribute.valid()) throw io_error(path, std::string("cannot create attribute ") + name);
  check(H5Awrite(attribute.get(), type, &value), path, std::string("cannot write attribute ") + name);
}

template <class T>
T read_attribute(hid_t object, const char* name, hid_t type, const fs::path& path) {
  T value{};
  const AttributeHandle attribute(H5Aopen(object, name, H5P_DEFAULT));
  if (!attribute.valid() || H5Aread(attribute.get(), type, &value) < 0)
    throw Error(ExitCode::bad_input, path.string(), std::string("not a simapp checkpoint (no attribute ") + name + ")");
  return value;
}

void write_string_attribute(hid_t object, const char* name, const std::string& text, const fs::path& path) {
  const DatatypeHandle type(H5Tcopy(H5T_C_S1));
  check(H5Tset_size(type.get(), H5T_VARIABLE), path, "string type");
  const char* data = text.c_str();
  write_attribute(object, name, type.get(), data, path);
}

std::optional<long> step_of(const fs::path& file) {
  static const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  std::smatch match;
  const std::string name = file.filename().string();
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  return std::stol(match[1]);
}

void write_file(const fs::path& path, const CheckpointHeader& header, const std::vector<double>& state,
                const std::string& input_yaml) {
  FileHandle file(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT));
  if (!file.valid()) throw io_error(path, "cannot create file");
  const hsize_t dims[3] = {var::count, static_cast<hsize_t>(header.nz), static_cast<hsize_t>(header.nx)};
  const DataspaceHandle space(H5Screate_simple(3, dims, nullptr));
  const DatasetHandle dataset(
      H5Dcreate2(file.get(), "state", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!dataset.valid()) throw io_error(path, "cannot create dataset /state");
  check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, state.data()), path,
        "cannot write /state");
  const std::int64_t step = header.step;
  write_attribute(file.get(), "step", H5T_NATIVE_INT64, step, path);
  write_attribute(file.get(), "time", H5T_NATIVE_DOUBLE, header.time, path);
  write_attribute(file.get(), "config_hash", H5T_NATIVE_UINT64, header.config_hash, path);
  write_attribute(file.get(), "nx", H5T_NATIVE_INT, header.nx, path);
  write_attribute(file.get(), "nz", H5T_NATIVE_INT, header.nz, path);
  write_attribute(file.get(), "initial_mass", H5T_NATIVE_DOUBLE, header.initial_mass, path);
  write_attribute(file.get(), "initial_total_energy", H5T_NATIVE_DOUBLE, header.initial_total_energy, path);
  write_string_attribute(file.get(), "input_yaml", input_yaml, path);
  check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), path, "flush failed");
  check(file.close(), path, "close failed");
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
  const QuietHdf5Errors quiet;
  const fs::path path = checkpoint_path(directory, header.step);
  const fs::path temporary = path.string() + ".tmp";
  std::error_code ignored;
  fs::remove(temporary, ignored);
  try {
    write_file(temporary, header, global_state, input_yaml);
    const CheckpointHeader written = read_checkpoint_header(temporary);  // read back before trusting it
    if (written.step != header.step || written.nx != header.nx || written.nz != header.nz)
      throw io_error(temporary, "reads back differently from what was written");
  } catch (const Error&) {
    fs::remove(temporary, ignored);
    throw;
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    fs::remove(temporary, ignored);
    throw io_error(path, "cannot rename from " + temporary.string() + ": " + error.message());
  }
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
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const DatasetHandle dataset(file.valid() ? H5Dopen2(file.get(), "state", H5P_DEFAULT) : H5I_INVALID_HID);
  if (!dataset.valid()) throw Error(ExitCode::bad_input, path.string(), "cannot read /state");
  const DataspaceHandle space(H5Dget_space(dataset.get()));
  const hsize_t start[3] = {0, static_cast<hsize_t>(box.k_offset), static_cast<hsize_t>(box.i_offset)};
  const hsize_t count[3] = {var::count, static_cast<hsize_t>(box.nz), static_cast<hsize_t>(box.nx)};
  check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), path, "bad hyperslab");
  const DataspaceHandle memory(H5Screate_simple(3, count, nullptr));
  std::vector<double> block(var::count * static_cast<std::size_t>(box.nz) * box.nx);
  check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, block.data()), path,
        "cannot read /state");
  return block;
}

}  // namespace simapp::io
