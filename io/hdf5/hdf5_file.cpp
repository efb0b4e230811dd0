#include "io/hdf5/hdf5_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <limits>
#include <system_error>
#include <utility>

#include "foundation/error.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// The innermost message on HDF5's error stack: the system's own words when HDF5 quotes them.
std::string hdf5_reason() {
  std::string reason;
  const auto innermost = [](unsigned depth, const H5E_error2_t* error, void* text) -> herr_t {
    if (depth == 0 && error->desc) *static_cast<std::string*>(text) = error->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &reason);
  const std::string quoted = "error message = '";
  const std::size_t start = reason.find(quoted);
  if (start == std::string::npos) return reason;
  const std::size_t end = reason.find('\'', start + quoted.size());
  return reason.substr(start + quoted.size(), end - start - quoted.size());
}

/// The type of a text attribute of `length` bytes as netCDF-C writes NC_CHAR: a fixed-length C
/// string (at least one byte: an empty text is one NUL), null-terminated padding, ASCII.
DatatypeHandle text_type(std::size_t length) {
  DatatypeHandle type(checked(H5Tcopy(H5T_C_S1), "cannot create a string type"));
  check(H5Tset_size(type.get(), std::max<std::size_t>(length, 1)), "cannot size a string type");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), "cannot set a string type's padding");
  check(H5Tset_cset(type.get(), H5T_CSET_ASCII), "cannot set a string type's character set");
  return type;
}

/// Attaches scalar attribute `name` of `file_type` to `object`, read from `value` as `memory_type`.
void write_scalar_attribute(hid_t object, const std::string& name, hid_t file_type, hid_t memory_type,
                            const void* value) {
  const DataspaceHandle space(checked(H5Screate(H5S_SCALAR), "cannot create a scalar dataspace"));
  const AttributeHandle attribute(
      checked(H5Acreate2(object, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              "cannot create attribute " + name));
  check(H5Awrite(attribute.get(), memory_type, value), "cannot write attribute " + name);
}

/// An HDF5 file that lives in memory only (the core driver without backing store), with room
/// for about `bytes`. HDF5 never touches the disk: 1.10's library cannot recover from a failed
/// H5Fclose of a disk file (closing it again, even at exit, crashes), so simapp does the I/O.
FileHandle create_memory_file(const std::string& name, std::size_t bytes) {
  const PropertyListHandle access(checked(H5Pcreate(H5P_FILE_ACCESS), "cannot create file access properties"));
  check(H5Pset_fapl_core(access.get(), bytes, false), "cannot select the in-memory file driver");
  return FileHandle(checked(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, file_creation_properties().get(), access.get()),
                            "cannot create the in-memory file"));
}

/// The bytes of the finished file.
std::string file_image(hid_t file) {
  check(H5Fflush(file, H5F_SCOPE_GLOBAL), "cannot flush the in-memory file");
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size < 0) fail("cannot get the size of the in-memory file");
  std::string image(static_cast<std::size_t>(size), '\0');
  if (H5Fget_file_image(file, image.data(), image.size()) != size) fail("cannot copy the in-memory file");
  return image;
}

/// A scratch file for HDF5 to build a layout of at most `size` bytes in: in /dev/shm (memory)
/// where there is one, else in the temporary directory; pages never written take no space.
/// It is proven to take that size (a file-size limit, say, fails here and not when HDF5 closes
/// the file, which HDF5 1.10 cannot recover from). Removed from its directory as soon as HDF5
/// has it open; its descriptor stays for reading the result.
class ScratchFile {
 public:
  explicit ScratchFile(long long size) {
    std::error_code error;
    const fs::path folder = fs::is_directory("/dev/shm", error) && ::access("/dev/shm", W_OK) == 0
                                ? fs::path("/dev/shm")
                                : fs::temp_directory_path(error);
    std::string name = (folder / "simapp-layout-XXXXXX").string();
    descriptor_ = ::mkstemp(name.data());
    if (descriptor_ < 0) fail_system("cannot create a scratch file in " + folder.string());
    path_ = name;
    const std::string metadata(static_cast<std::size_t>(std::min(size, 1LL << 16)), '\0');
    if (::ftruncate(descriptor_, size) != 0 || ::pwrite(descriptor_, metadata.data(), metadata.size(), 0) < 0) {
      const int reason = errno;
      remove_name();
      ::close(descriptor_);
      errno = reason;
      fail_system("cannot lay out a file of " + std::to_string(size) + " bytes in " + folder.string());
    }
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() {
    remove_name();
    ::close(descriptor_);
  }

  const fs::path& path() const { return path_; }
  int descriptor() const { return descriptor_; }
  void remove_name() {
    if (!path_.empty()) ::unlink(path_.c_str());
    path_.clear();
  }

 private:
  fs::path path_;
  int descriptor_ = -1;
};

/// Copies bytes [begin, end) of `from` to the same place in `to`.
void copy_range(const ScratchFile& from, NewFile& to, long long begin, long long end) {
  std::string buffer(std::size_t{1} << 22, '\0');
  for (long long position = begin; position < end;) {
    const auto wanted =
        static_cast<std::size_t>(std::min<long long>(end - position, static_cast<long long>(buffer.size())));
    const ssize_t count = ::pread(from.descriptor(), buffer.data(), wanted, position);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) fail_system("cannot read the file layout");
    to.write_at(buffer.data(), static_cast<std::size_t>(count), position);
    position += count;
  }
}

}  // namespace

std::string with_hdf5_reason(const std::string& what) {
  const std::string reason = hdf5_reason();
  return reason.empty() ? what : what + ": " + reason;
}

[[noreturn]] void fail(const std::string& what) { throw FileFailure(with_hdf5_reason(what)); }

hid_t checked(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  const DatatypeHandle type = text_type(value.size());
  const std::string padded = value + '\0';  // an empty text's one byte
  write_scalar_attribute(object, name, type.get(), type.get(), padded.data());
}

void write_attribute(hid_t object, const std::string& name, double value) {
  write_scalar_attribute(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void write_attribute(hid_t object, const std::string& name, long value) {
  write_scalar_attribute(object, name, H5T_STD_I64LE, H5T_NATIVE_LONG, &value);
}

void write_attribute(hid_t object, const std::string& name, int value) {
  write_scalar_attribute(object, name, H5T_STD_I32LE, H5T_NATIVE_INT, &value);
}

void write_attribute(hid_t object, const std::string& name, unsigned long value) {
  write_scalar_attribute(object, name, H5T_STD_U64LE, H5T_NATIVE_ULONG, &value);
}

hid_t stored_float_type(Precision precision) {
  return precision == Precision::float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
}

std::vector<float> as_floats(std::span<const double> values) {
  static_assert(std::numeric_limits<float>::is_iec559, "a float32 dataset holds IEEE floats");
  std::vector<float> floats(values.size());
  std::ranges::transform(values, floats.begin(), [](double value) { return static_cast<float>(value); });
  return floats;
}

void write_new_file(const fs::path& path, std::size_t size_estimate, const std::function<void(hid_t file)>& fill,
                    Replace replace) {
  const QuietHdf5Errors quiet;
  std::string image;
  {
    FileHandle file = create_memory_file(path.string(), size_estimate);
    fill(file.get());
    image = file_image(file.get());
    check(file.close(), "cannot close the in-memory file");
  }
  NewFile output(path);
  output.write(image);
  output.sync_and_close();
  output.publish(replace);
}

PropertyListHandle file_creation_properties() {
  PropertyListHandle properties(checked(H5Pcreate(H5P_FILE_CREATE), "cannot create file creation properties"));
  constexpr unsigned tracked_and_indexed = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
  check(H5Pset_link_creation_order(properties.get(), tracked_and_indexed), "cannot track the links' creation order");
  check(H5Pset_attr_creation_order(properties.get(), tracked_and_indexed),
        "cannot track the attributes' creation order");
  return properties;
}

PropertyListHandle dataset_creation_properties() {
  PropertyListHandle properties(checked(H5Pcreate(H5P_DATASET_CREATE), "cannot create dataset properties"));
  check(H5Pset_attr_creation_order(properties.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
        "cannot track the attributes' creation order");
  return properties;
}

PropertyListHandle reserved_dataset_properties() {
  PropertyListHandle properties = dataset_creation_properties();
  check(H5Pset_layout(properties.get(), H5D_CONTIGUOUS), "cannot select contiguous storage");
  check(H5Pset_alloc_time(properties.get(), H5D_ALLOC_TIME_EARLY), "cannot allocate storage at creation");
  check(H5Pset_fill_time(properties.get(), H5D_FILL_TIME_NEVER), "cannot turn fill values off");
  return properties;
}

std::vector<ReservedRange> write_layout(NewFile& out, long long size_bound, const std::vector<std::string>& reserved,
                                        const std::function<void(hid_t file)>& fill) {
  const QuietHdf5Errors quiet;
  ScratchFile memory(size_bound);
  std::vector<ReservedRange> ranges;
  {
    FileHandle file(
        checked(H5Fcreate(memory.path().c_str(), H5F_ACC_TRUNC, file_creation_properties().get(), H5P_DEFAULT),
                "cannot create the file layout in " + memory.path().string()));
    memory.remove_name();
    fill(file.get());
    for (const std::string& name : reserved) {
      const DatasetHandle dataset(checked(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), "no dataset " + name));
      const haddr_t offset = H5Dget_offset(dataset.get());
      if (offset == HADDR_UNDEF) fail("dataset " + name + " has no contiguous storage");
      ranges.push_back({static_cast<long long>(offset), static_cast<long long>(H5Dget_storage_size(dataset.get()))});
    }
    check(file.close(), "cannot close the file layout");
  }
  struct stat status {};
  if (::fstat(memory.descriptor(), &status) != 0) fail_system("cannot size the file layout");
  std::vector<ReservedRange> in_order = ranges;
  std::ranges::sort(in_order, {}, &ReservedRange::offset);
  long long position = 0;
  for (const ReservedRange& range : in_order) {
    copy_range(memory, out, position, range.offset);
    position = range.offset + range.size;
  }
  if (status.st_size > size_bound) fail("the file layout is larger than its bound");
  copy_range(memory, out, position, status.st_size);
  out.resize(std::max<off_t>(status.st_size, position));
  return ranges;
}

}  // namespace simapp::io
