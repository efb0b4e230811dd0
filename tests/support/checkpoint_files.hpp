#pragma once
/// Damaging checkpoint files the ways disks, networks and people do, through the HDF5 C API
/// and plain file I/O, for the tests that check such files are refused.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/checkpoint/checkpoint.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"

namespace simapp::testing {

/// Where the stored (possibly filtered) bytes of a dataset's first chunk, or of its one
/// contiguous block, lie in the file.
struct StoredBytes {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

inline StoredBytes stored_state_bytes(const std::filesystem::path& path) {
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const io::DatasetHandle dataset(H5Dopen2(file.get(), "state", H5P_DEFAULT));
  const io::PropertyListHandle creation(H5Dget_create_plist(dataset.get()));
  EXPECT_TRUE(dataset.valid() && creation.valid()) << path;
  if (H5Pget_layout(creation.get()) == H5D_CHUNKED) {
    hsize_t chunk_offset[3];
    unsigned filter_mask = 0;
    haddr_t address = HADDR_UNDEF;
    hsize_t size = 0;
    const io::DataspaceHandle space(H5Dget_space(dataset.get()));
    EXPECT_GE(H5Dget_chunk_info(dataset.get(), space.get(), 0, chunk_offset, &filter_mask, &address, &size), 0);
    return {address, size};
  }
  return {H5Dget_offset(dataset.get()), H5Dget_storage_size(dataset.get())};
}

/// Overwrites `count` bytes at `offset` of `path` with what `change` makes of them.
template <class Change>
void change_bytes(const std::filesystem::path& path, std::uint64_t offset, std::size_t count, Change change) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  std::vector<char> bytes(count);
  file.seekg(static_cast<std::streamoff>(offset));
  file.read(bytes.data(), static_cast<std::streamsize>(count));
  for (char& byte : bytes) byte = static_cast<char>(change(static_cast<unsigned char>(byte)));
  file.seekp(static_cast<std::streamoff>(offset));
  file.write(bytes.data(), static_cast<std::streamsize>(count));
  ASSERT_TRUE(file.good()) << path;
}

/// Flips one bit in the middle of the state's first stored chunk.
inline void flip_state_bit(const std::filesystem::path& path) {
  const StoredBytes stored = stored_state_bytes(path);
  ASSERT_GT(stored.size, 64u);
  change_bytes(path, stored.offset + stored.size / 2, 1, [](unsigned char byte) { return byte ^ 0x08u; });
}

/// Zeroes 32 bytes in the middle of the state's first stored chunk.
inline void zero_state_bytes(const std::filesystem::path& path) {
  const StoredBytes stored = stored_state_bytes(path);
  ASSERT_GT(stored.size, 64u);
  change_bytes(path, stored.offset + stored.size / 2 - 16, 32, [](unsigned char) { return 0u; });
}

/// The state as doubles and its shape.
inline std::vector<double> read_state(const std::filesystem::path& path, std::vector<hsize_t>& dims) {
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const io::DatasetHandle dataset(H5Dopen2(file.get(), "state", H5P_DEFAULT));
  const io::DataspaceHandle space(H5Dget_space(dataset.get()));
  dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())), 0);
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
  EXPECT_GE(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << path;
  return values;
}

/// Replaces /state by a contiguous dataset of `file_type` and shape `dims` holding the old
/// values (converted by HDF5; cut or padded with zeros); the attributes stay.
inline void replace_state(const std::filesystem::path& path, hid_t file_type, const std::vector<hsize_t>& dims) {
  std::vector<hsize_t> old_dims;
  std::vector<double> values = read_state(path, old_dims);
  hsize_t count = 1;
  for (hsize_t n : dims) count *= n;
  values.resize(count, 0.0);
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_GE(H5Ldelete(file.get(), "state", H5P_DEFAULT), 0);
  const io::DataspaceHandle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  const io::DatasetHandle dataset(
      H5Dcreate2(file.get(), "state", file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

/// /state rewritten with the same values and shape as `file_type` (H5T_IEEE_F32LE, H5T_STD_I32LE …).
inline void rewrite_state_as(const std::filesystem::path& path, hid_t file_type) {
  std::vector<hsize_t> dims;
  read_state(path, dims);
  replace_state(path, file_type, dims);
}

/// Overwrites the existing root attribute `name` with `value` (converted to its stored type).
inline void set_attribute(const std::filesystem::path& path, const char* name, double value) {
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  const io::AttributeHandle attribute(H5Aopen(file.get(), name, H5P_DEFAULT));
  ASSERT_TRUE(attribute.valid()) << name;
  ASSERT_GE(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value), 0) << name;
}

/// The root attribute `name` as a double.
inline double attribute(const std::filesystem::path& path, const char* name) {
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const io::AttributeHandle attribute(H5Aopen(file.get(), name, H5P_DEFAULT));
  double value = 0.0;
  EXPECT_GE(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value), 0) << name;
  return value;
}

/// Replaces the root attribute `name` by one of `file_type` holding `value`.
inline void retype_attribute(const std::filesystem::path& path, const char* name, hid_t file_type, double value) {
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_GE(H5Adelete(file.get(), name), 0) << name;
  const io::DataspaceHandle space(H5Screate(H5S_SCALAR));
  const io::AttributeHandle attribute(H5Acreate2(file.get(), name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value), 0) << name;
}

/// Reads (`write` false) or writes one element at `start` of dataset `name` as `memory_type`.
inline void access_element(hid_t file, const char* name, const std::vector<hsize_t>& start, hid_t memory_type,
                           void* value, bool write) {
  const io::DatasetHandle dataset(H5Dopen2(file, name, H5P_DEFAULT));
  const io::DataspaceHandle space(H5Dget_space(dataset.get()));
  const std::vector<hsize_t> one(start.size(), 1);
  ASSERT_GE(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, one.data(), nullptr), 0) << name;
  const io::DataspaceHandle memory(H5Screate_simple(static_cast<int>(one.size()), one.data(), nullptr));
  ASSERT_GE(write ? H5Dwrite(dataset.get(), memory_type, memory.get(), space.get(), H5P_DEFAULT, value)
                  : H5Dread(dataset.get(), memory_type, memory.get(), space.get(), H5P_DEFAULT, value),
            0)
      << name;
}

/// Whether /state_checksums is kept in step with a value a test writes into /state.
enum class Checksum { kept, stale };

/// Writes `value` into /state at variable `var`, cell (i, j, k) (j = 0 in a 2-D checkpoint, whose
/// state has no y); with Checksum::kept its segment's checksum too, so that the file stays intact,
/// as a writer that wrote that value would have left it.
inline void set_state_value(const std::filesystem::path& path, int var, int k, int j, int i, double value,
                            Checksum checksum = Checksum::kept) {
  std::vector<hsize_t> dims;
  read_state(path, dims);
  const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  std::vector<hsize_t> cell{static_cast<hsize_t>(var), static_cast<hsize_t>(k)};
  if (dims.size() == 4) cell.push_back(static_cast<hsize_t>(j));
  cell.push_back(static_cast<hsize_t>(i));
  std::vector<hsize_t> segment = cell;
  segment.back() = static_cast<hsize_t>(i / io::checksum_columns);
  double old_value = 0.0;
  std::uint64_t sum = 0;
  access_element(file.get(), "state", cell, H5T_NATIVE_DOUBLE, &old_value, false);
  access_element(file.get(), "state_checksums", segment, H5T_NATIVE_UINT64, &sum, false);
  access_element(file.get(), "state", cell, H5T_NATIVE_DOUBLE, &value, true);
  if (checksum == Checksum::stale) return;
  sum += io::checksum_share(value, static_cast<std::uint64_t>(i)) -
         io::checksum_share(old_value, static_cast<std::uint64_t>(i));
  access_element(file.get(), "state_checksums", segment, H5T_NATIVE_UINT64, &sum, true);
}

/// The same in a 2-D checkpoint: cell (i, k).
inline void set_state_value(const std::filesystem::path& path, int var, int k, int i, double value) {
  set_state_value(path, var, k, 0, i, value);
}

/// Rewrites the checkpoint `path` as simapp wrote checkpoints before they carried checksums:
/// a contiguous /state and the attributes step, time, config_hash, nx, nz, initial_mass,
/// initial_total_energy and input_yaml only.
inline void rewrite_in_older_format(const std::filesystem::path& path) {
  std::vector<hsize_t> dims;
  const std::vector<double> state = read_state(path, dims);
  std::int64_t step = 0;
  std::uint64_t config_hash = 0;
  int nx = 0, nz = 0;
  double time = 0, initial_mass = 0, initial_total_energy = 0;
  std::string input_yaml;
  {
    const io::FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    const auto read = [&](const char* name, hid_t type, void* value) {
      const io::AttributeHandle attribute(H5Aopen(file.get(), name, H5P_DEFAULT));
      EXPECT_GE(H5Aread(attribute.get(), type, value), 0) << name;
    };
    read("step", H5T_NATIVE_INT64, &step);
    read("time", H5T_NATIVE_DOUBLE, &time);
    read("config_hash", H5T_NATIVE_UINT64, &config_hash);
    read("nx", H5T_NATIVE_INT, &nx);
    read("nz", H5T_NATIVE_INT, &nz);
    read("initial_mass", H5T_NATIVE_DOUBLE, &initial_mass);
    read("initial_total_energy", H5T_NATIVE_DOUBLE, &initial_total_energy);
    input_yaml = io::Hdf5Reader(file.get(), path, ExitCode::io).read_attribute<std::string>("input_yaml");
  }
  std::filesystem::remove(path);
  const io::FileHandle file(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT));
  const io::DataspaceHandle space(H5Screate_simple(3, dims.data(), nullptr));
  const io::DatasetHandle dataset(
      H5Dcreate2(file.get(), "state", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, state.data()), 0);
  const io::DataspaceHandle scalar(H5Screate(H5S_SCALAR));
  const auto write = [&](const char* name, hid_t file_type, hid_t memory_type, const void* value) {
    const io::AttributeHandle attribute(
        H5Acreate2(file.get(), name, file_type, scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
    EXPECT_GE(H5Awrite(attribute.get(), memory_type, value), 0) << name;
  };
  write("step", H5T_STD_I64LE, H5T_NATIVE_INT64, &step);
  write("time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &time);
  write("config_hash", H5T_STD_U64LE, H5T_NATIVE_UINT64, &config_hash);
  write("nx", H5T_STD_I32LE, H5T_NATIVE_INT, &nx);
  write("nz", H5T_STD_I32LE, H5T_NATIVE_INT, &nz);
  write("initial_mass", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &initial_mass);
  write("initial_total_energy", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &initial_total_energy);
  const io::DatatypeHandle string_type(H5Tcopy(H5T_C_S1));
  H5Tset_size(string_type.get(), H5T_VARIABLE);
  H5Tset_cset(string_type.get(), H5T_CSET_UTF8);
  const char* text = input_yaml.c_str();
  write("input_yaml", string_type.get(), string_type.get(), &text);
}

/// An HDF5 file holding one small dataset and no attributes.
inline void write_plain_hdf5(const std::filesystem::path& path) {
  const io::FileHandle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  const hsize_t dims[1] = {3};
  const double values[3] = {1.0, 2.0, 3.0};
  const io::DataspaceHandle space(H5Screate_simple(1, dims, nullptr));
  const io::DatasetHandle dataset(
      H5Dcreate2(file.get(), "data", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), 0);
}

/// A named pipe at `path`: opening it for reading blocks until a writer comes.
inline void make_fifo(const std::filesystem::path& path) { ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0) << path; }

}  // namespace simapp::testing
