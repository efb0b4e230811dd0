#include "io/hdf5/hdf5_reader.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/hdf5/hdf5_file.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

static_assert(sizeof(long) == 8, "long is read as int64, unsigned long as uint64");

/// How a value of type T is stored (its StoredType) and read (HDF5's native type for T).
template <class T>
struct Stored;
template <>
struct Stored<int> {
  static constexpr StoredType type = StoredType::int32;
  static hid_t memory_type() { return H5T_NATIVE_INT; }
};
template <>
struct Stored<long> {
  static constexpr StoredType type = StoredType::int64;
  static hid_t memory_type() { return H5T_NATIVE_LONG; }
};
template <>
struct Stored<unsigned long> {
  static constexpr StoredType type = StoredType::uint64;
  static hid_t memory_type() { return H5T_NATIVE_ULONG; }
};
template <>
struct Stored<double> {
  static constexpr StoredType type = StoredType::float64;
  static hid_t memory_type() { return H5T_NATIVE_DOUBLE; }
};
template <>
struct Stored<std::string> {
  static constexpr StoredType type = StoredType::string;
};

std::string_view name_of(StoredType type) {
  switch (type) {
    case StoredType::int32: return "int32";
    case StoredType::int64: return "int64";
    case StoredType::uint64: return "uint64";
    case StoredType::float32: return "float32";
    case StoredType::float64: return "float64";
    case StoredType::string: return "a string";
    case StoredType::other: return "another type";
  }
  return "";
}

bool is_ieee_float64(hid_t type) { return H5Tequal(type, H5T_IEEE_F64LE) > 0 || H5Tequal(type, H5T_IEEE_F64BE) > 0; }
bool is_ieee_float32(hid_t type) { return H5Tequal(type, H5T_IEEE_F32LE) > 0 || H5Tequal(type, H5T_IEEE_F32BE) > 0; }

StoredType stored_type(hid_t type) {
  const std::size_t size = H5Tget_size(type);
  const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      if (size == 4 && is_signed) return StoredType::int32;
      if (size == 8) return is_signed ? StoredType::int64 : StoredType::uint64;
      return StoredType::other;
    case H5T_FLOAT:
      if (is_ieee_float64(type)) return StoredType::float64;
      return is_ieee_float32(type) ? StoredType::float32 : StoredType::other;
    case H5T_STRING: return StoredType::string;
    default: return StoredType::other;
  }
}

/// "int32", "uint64", "float64", "a string", …: an HDF5 datatype in a message.
std::string type_name(hid_t type) {
  const std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: return fmt::format("{}int{}", H5Tget_sign(type) == H5T_SGN_NONE ? "u" : "", 8 * size);
    case H5T_FLOAT: return fmt::format("float{}", 8 * size);
    case H5T_STRING: return "a string";
    case H5T_COMPOUND: return "a compound type";
    case H5T_ARRAY: return "an array type";
    case H5T_ENUM: return "an enumeration";
    case H5T_VLEN: return "a variable-length sequence";
    default: return "an HDF5 type of another class";
  }
}

/// Dataset `name` as messages name it: by its path from the root ("/state").
std::string dataset_name(const std::string& name) { return name.starts_with('/') ? name : "/" + name; }

/// A file opened read-only, or why it did not open.
struct OpenedFile {
  FileHandle file;
  std::string failure;  ///< "cannot open as an HDF5 file: <HDF5's reason>" when it did not open
};

OpenedFile open_to_read(const fs::path& path) {
  const QuietHdf5Errors quiet;
  OpenedFile opened{FileHandle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)), ""};
  if (opened.file.valid()) return opened;
  opened.failure = with_hdf5_reason("cannot open as an HDF5 file");
  // Each piece of metadata read once: SWMR readers otherwise read one whose checksum fails again
  // and again, for minutes, waiting for a writer to finish it.
  const PropertyListHandle access(H5Pcreate(H5P_FILE_ACCESS));
  if (access.valid() && H5Pset_metadata_read_attempts(access.get(), 1) >= 0)
    opened.file = FileHandle(H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, access.get()));
  return opened;
}

}  // namespace

std::string DatasetShape::dims_text() const {
  return dims.empty() ? "scalar" : fmt::format("{}", fmt::join(dims, " x "));
}

Hdf5Reader::Hdf5Reader(fs::path path, ExitCode failure)
    : path_(std::move(path)), failure_(failure), owned_(H5I_INVALID_HID), file_(H5I_INVALID_HID) {
  OpenedFile opened = open_to_read(path_);
  if (!opened.file.valid()) throw error(opened.failure);
  owned_ = std::move(opened.file);
  file_ = owned_.get();
}

Hdf5Reader::Hdf5Reader(hid_t file, fs::path path, ExitCode failure)
    : path_(std::move(path)), failure_(failure), owned_(H5I_INVALID_HID), file_(file) {}

Error Hdf5Reader::error(const std::string& what) const { return Error(failure_, path_.string(), what); }

Error Hdf5Reader::hdf5_error(const std::string& what) const { return error(with_hdf5_reason(what)); }

bool Hdf5Reader::has_attribute(const std::string& name) const {
  const QuietHdf5Errors quiet;
  return H5Aexists(file_, name.c_str()) > 0;
}

bool Hdf5Reader::has_dataset(const std::string& name) const {
  const QuietHdf5Errors quiet;
  return DatasetHandle(H5Dopen2(file_, name.c_str(), H5P_DEFAULT)).valid();
}

AttributeHandle Hdf5Reader::open_attribute(const std::string& object, const std::string& attribute_name,
                                           StoredType expected) const {
  const std::string name = object == "." ? attribute_name : object + ":" + attribute_name;
  if (H5Aexists_by_name(file_, object.c_str(), attribute_name.c_str(), H5P_DEFAULT) <= 0)
    throw error("no attribute " + name);
  AttributeHandle attribute(H5Aopen_by_name(file_, object.c_str(), attribute_name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  const DatatypeHandle type(H5Aget_type(attribute.get()));
  const DataspaceHandle space(H5Aget_space(attribute.get()));
  if (!attribute.valid() || !type.valid() || !space.valid()) throw hdf5_error("cannot open attribute " + name);
  if (stored_type(type.get()) != expected)
    throw error(fmt::format("attribute {} is {}; expected {}", name, type_name(type.get()), name_of(expected)));
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count != 1) throw error(fmt::format("attribute {} holds {} values; expected one", name, count));
  return attribute;
}

template <class T>
T Hdf5Reader::read_attribute(const std::string& name, const std::string& object) const {
  const QuietHdf5Errors quiet;
  const AttributeHandle attribute = open_attribute(object, name, Stored<T>::type);
  if constexpr (std::is_same_v<T, std::string>) {
    const DatatypeHandle type(H5Aget_type(attribute.get()));
    if (H5Tis_variable_str(type.get()) > 0) {
      char* value = nullptr;
      if (H5Aread(attribute.get(), type.get(), &value) < 0 || value == nullptr)
        throw hdf5_error("cannot read attribute " + name);
      std::string text(value);
      H5free_memory(value);
      return text;
    }
    std::string value(H5Tget_size(type.get()), '\0');
    if (H5Aread(attribute.get(), type.get(), value.data()) < 0) throw hdf5_error("cannot read attribute " + name);
    return value.substr(0, value.find('\0'));
  } else {
    T value{};
    if (H5Aread(attribute.get(), Stored<T>::memory_type(), &value) < 0)
      throw hdf5_error("cannot read attribute " + name);
    return value;
  }
}

template int Hdf5Reader::read_attribute<int>(const std::string&, const std::string&) const;
template long Hdf5Reader::read_attribute<long>(const std::string&, const std::string&) const;
template unsigned long Hdf5Reader::read_attribute<unsigned long>(const std::string&, const std::string&) const;
template double Hdf5Reader::read_attribute<double>(const std::string&, const std::string&) const;
template std::string Hdf5Reader::read_attribute<std::string>(const std::string&, const std::string&) const;

DatasetHandle Hdf5Reader::open_dataset(const std::string& name) const {
  if (H5Lexists(file_, name.c_str(), H5P_DEFAULT) <= 0) throw error("no dataset " + dataset_name(name));
  DatasetHandle dataset(H5Dopen2(file_, name.c_str(), H5P_DEFAULT));
  if (!dataset.valid()) throw hdf5_error("cannot open dataset " + dataset_name(name));
  return dataset;
}

DatasetShape Hdf5Reader::dataset_shape(const std::string& name) const {
  const QuietHdf5Errors quiet;
  const DatasetHandle dataset = open_dataset(name);
  const DatatypeHandle type(H5Dget_type(dataset.get()));
  if (!type.valid()) throw hdf5_error("cannot get the type of dataset " + dataset_name(name));
  const DataspaceHandle space(H5Dget_space(dataset.get()));
  const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0))), max_dims(dims.size());
  if (rank < 0 || H5Sget_simple_extent_dims(space.get(), dims.data(), max_dims.data()) < 0)
    throw hdf5_error("cannot get the shape of dataset " + dataset_name(name));
  return {stored_type(type.get()), type_name(type.get()), std::move(dims), std::move(max_dims)};
}

template <class T>
DatasetHandle Hdf5Reader::open_numbers(const std::string& name) const {
  DatasetHandle dataset = open_dataset(name);
  const DatatypeHandle type(H5Dget_type(dataset.get()));
  if (!type.valid()) throw hdf5_error("cannot get the type of dataset " + dataset_name(name));
  const H5T_class_t type_class = H5Tget_class(type.get());
  constexpr bool integers_only = std::is_integral_v<T>;
  if (type_class != H5T_INTEGER && (integers_only || type_class != H5T_FLOAT))
    throw error(fmt::format("dataset {} is {}; expected {}", dataset_name(name), type_name(type.get()),
                            integers_only ? "integers" : "numbers"));
  return dataset;
}

template <class T>
std::vector<T> Hdf5Reader::read_dataset(const std::string& name) const {
  const QuietHdf5Errors quiet;
  const DatasetHandle dataset = open_numbers<T>(name);
  const DataspaceHandle space(H5Dget_space(dataset.get()));
  const hssize_t count = space.valid() ? H5Sget_simple_extent_npoints(space.get()) : -1;
  if (count < 0) throw hdf5_error("cannot get the size of dataset " + dataset_name(name));
  std::vector<T> values(static_cast<std::size_t>(count));
  if (count > 0 && H5Dread(dataset.get(), Stored<T>::memory_type(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    throw hdf5_error("cannot read dataset " + dataset_name(name));
  return values;
}

template <class T>
std::vector<T> Hdf5Reader::read_dataset(const std::string& name, const Hyperslab& block) const {
  const QuietHdf5Errors quiet;
  const DatasetShape shape = dataset_shape(name);
  const DatasetHandle dataset = open_numbers<T>(name);
  const std::size_t rank = shape.dims.size();
  bool within = block.start.size() == rank && block.count.size() == rank;
  for (std::size_t d = 0; within && d < rank; ++d)
    within = block.start[d] <= shape.dims[d] && block.count[d] <= shape.dims[d] - block.start[d];
  if (!within)
    throw error(fmt::format("the block from ({}) of ({}) entries is not within dataset {} of shape {}",
                            fmt::join(block.start, ", "), fmt::join(block.count, ", "), dataset_name(name),
                            shape.dims_text()));
  const DataspaceHandle file_space(H5Dget_space(dataset.get()));
  const DataspaceHandle memory(H5Screate_simple(static_cast<int>(rank), block.count.data(), nullptr));
  std::vector<T> values(std::accumulate(block.count.begin(), block.count.end(), std::size_t{1}, std::multiplies<>()));
  if (!file_space.valid() || !memory.valid() ||
      H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, block.start.data(), nullptr, block.count.data(), nullptr) <
          0 ||
      H5Dread(dataset.get(), Stored<T>::memory_type(), memory.get(), file_space.get(), H5P_DEFAULT, values.data()) < 0)
    throw hdf5_error("cannot read dataset " + dataset_name(name));
  return values;
}

template std::vector<double> Hdf5Reader::read_dataset<double>(const std::string&) const;
template std::vector<long> Hdf5Reader::read_dataset<long>(const std::string&) const;
template std::vector<unsigned long> Hdf5Reader::read_dataset<unsigned long>(const std::string&) const;
template std::vector<double> Hdf5Reader::read_dataset<double>(const std::string&, const Hyperslab&) const;
template std::vector<long> Hdf5Reader::read_dataset<long>(const std::string&, const Hyperslab&) const;
template std::vector<unsigned long> Hdf5Reader::read_dataset<unsigned long>(const std::string&, const Hyperslab&) const;

std::vector<double> read_dataset(const fs::path& path, const std::string& name) {
  return Hdf5Reader(path, ExitCode::io).read_dataset<double>(name);
}

bool has_root_attributes(const fs::path& path, std::initializer_list<const char*> names) {
  const QuietHdf5Errors quiet;
  const OpenedFile opened = open_to_read(path);
  if (!opened.file.valid()) return false;
  return std::all_of(names.begin(), names.end(), [&](const char* name) {
    return H5Aexists_by_name(opened.file.get(), ".", name, H5P_DEFAULT) > 0;
  });
}

}  // namespace simapp::io
