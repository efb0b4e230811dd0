#include "io/hdf5/hdf5_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

#include "kernels/backend/error.hpp"

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

DatatypeHandle utf8_string_type() {
  DatatypeHandle type(checked(H5Tcopy(H5T_C_S1), "cannot create a string type"));
  check(H5Tset_size(type.get(), H5T_VARIABLE), "cannot make a variable-length string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "cannot make a UTF-8 string type");
  return type;
}

/// Attaches scalar attribute `name` of `file_type` to `object`, read from `value` as `memory_type`.
void write_scalar_attribute(hid_t object, const std::string& name, hid_t file_type, hid_t memory_type,
                            const void* value) {
  const DataspaceHandle space(checked(H5Screate(H5S_SCALAR), "cannot create a scalar dataspace"));
  const AttributeHandle attribute(checked(
      H5Acreate2(object, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
      "cannot create attribute " + name));
  check(H5Awrite(attribute.get(), memory_type, value), "cannot write attribute " + name);
}

/// An HDF5 file that lives in memory only (the core driver without backing store), with room
/// for about `bytes`. HDF5 never touches the disk: 1.10's library cannot recover from a failed
/// H5Fclose of a disk file (closing it again, even at exit, crashes), so simapp does the I/O.
FileHandle create_memory_file(const std::string& name, std::size_t bytes) {
  const PropertyListHandle access(checked(H5Pcreate(H5P_FILE_ACCESS), "cannot create file access properties"));
  check(H5Pset_fapl_core(access.get(), bytes, false), "cannot select the in-memory file driver");
  return FileHandle(checked(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
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

[[noreturn]] void fail_system(const std::string& what) {
  throw FileFailure(what + ": " + std::generic_category().message(errno));
}

void write_all(int descriptor, const std::string& bytes, const fs::path& path) {
  for (std::size_t written = 0; written < bytes.size();) {
    const ssize_t count = ::write(descriptor, bytes.data() + written, bytes.size() - written);
    if (count < 0 && errno != EINTR) fail_system("cannot write " + path.string());
    written += static_cast<std::size_t>(std::max<ssize_t>(count, 0));
  }
}

/// Writes `bytes` to `path` (created or truncated) and waits until they are on the disk.
void write_bytes(const fs::path& path, const std::string& bytes) {
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (descriptor < 0) fail_system("cannot create " + path.string());
  try {
    write_all(descriptor, bytes, path);
    if (::fsync(descriptor) != 0) fail_system("cannot sync " + path.string());
  } catch (...) {
    ::close(descriptor);
    throw;
  }
  if (::close(descriptor) != 0) fail_system("cannot close " + path.string());
}

void refuse_existing(const fs::path& path) {
  if (fs::exists(fs::symlink_status(path))) throw Error(ExitCode::io, path.string(), "exists; result files are never overwritten");
}

/// A file written under a temporary name; removed when it goes out of scope unless published.
class TemporaryFile {
 public:
  explicit TemporaryFile(fs::path path) : path_(std::move(path)) {}
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    std::error_code ignored;
    if (!published_) fs::remove(path_, ignored);
  }

  const fs::path& path() const { return path_; }

  /// Gives the finished file its final name, which must not exist.
  void publish_as(const fs::path& target) {
    refuse_existing(target);
    std::error_code error;
    fs::rename(path_, target, error);
    if (error) throw FileFailure("cannot rename from " + path_.string() + ": " + error.message());
    published_ = true;
  }

 private:
  fs::path path_;
  bool published_ = false;
};

}  // namespace

[[noreturn]] void fail(const std::string& what) {
  const std::string reason = hdf5_reason();
  throw FileFailure(reason.empty() ? what : what + ": " + reason);
}

hid_t checked(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  const DatatypeHandle type = utf8_string_type();
  const char* text = value.c_str();
  write_scalar_attribute(object, name, type.get(), type.get(), &text);
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

void write_new_file(const fs::path& path, std::size_t size_estimate, const std::function<void(hid_t file)>& fill) {
  refuse_existing(path);
  const QuietHdf5Errors quiet;
  TemporaryFile temporary(path.string() + ".tmp");
  FileHandle file = create_memory_file(path.string(), size_estimate);
  fill(file.get());
  const std::string image = file_image(file.get());
  check(file.close(), "cannot close the in-memory file");
  write_bytes(temporary.path(), image);
  temporary.publish_as(path);
}

}  // namespace simapp::io
