#pragma once
/// Reading HDF5 files: the one way simapp opens a file to read, reads its root attributes and
/// reads its datasets, whole or a block of one. Every type and shape is checked before a value
/// is read, and every failure is one simapp Error whose `where` is the file and whose `what`
/// names the object ("attribute nx is float64; expected int32", "no dataset /state"), with
/// HDF5's own reason where a call fails.
#include <hdf5.h>

#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_handle.hpp"

namespace simapp::io {

/// The element types simapp stores, by the names messages give them; `other` for any else.
enum class StoredType { int32, int64, uint64, float32, float64, string, other };

/// What a dataset holds: its element type and its dimensions.
struct DatasetShape {
  StoredType type = StoredType::other;
  std::string type_name;          ///< "float64", "int16", "a string", "a compound type", …
  std::vector<hsize_t> dims;      ///< none for a scalar
  std::vector<hsize_t> max_dims;  ///< the most each dimension may grow to; H5S_UNLIMITED where it has no bound

  /// The dimensions as messages give them: "4 x 7 x 12", or "scalar".
  std::string dims_text() const;
};

/// A block of a dataset: `count` entries from `start` along each of its dimensions.
struct Hyperslab {
  std::vector<hsize_t> start, count;
};

/// An HDF5 file being read. Every failure is an Error(`failure`, the file, what failed):
/// bad_input for a file the user gives (a checkpoint), io for one simapp wrote (a snapshot).
class Hdf5Reader {
 public:
  /// Opens `path` read-only; a file that a writer in SWMR mode (single writer, multiple
  /// readers) left marked as being written, killed in an append, is opened as SWMR readers open
  /// it. Throws "cannot open as an HDF5 file: <HDF5's reason>". The caller makes sure `path` is
  /// a regular file (opening a named pipe would block).
  Hdf5Reader(std::filesystem::path path, ExitCode failure);
  /// Reads `file`, which the caller opened (a series open for writing, say) and keeps open
  /// while this reader is used; its errors name `path`.
  Hdf5Reader(hid_t file, std::filesystem::path path, ExitCode failure);

  const std::filesystem::path& path() const { return path_; }

  /// Whether the root group has attribute `name`.
  bool has_attribute(const std::string& name) const;
  /// Whether `name` opens as a dataset.
  bool has_dataset(const std::string& name) const;

  /// Attribute `name` of `object` (the root group, or a dataset's name): one value, stored as
  /// T's type: int as int32, long as int64, unsigned long as uint64, double as float64,
  /// std::string as a string (variable or fixed length). Throws "no attribute N", "attribute N
  /// is int32; expected float64", "attribute N holds 3 values; expected one" or "cannot read
  /// attribute N" (N: the name, or object:name for a dataset's).
  template <class T>
  T read_attribute(const std::string& name, const std::string& object = ".") const;

  /// The element type and dimensions of dataset `name`. Throws "no dataset /N".
  DatasetShape dataset_shape(const std::string& name) const;

  /// Every value of dataset `name`, row-major, as T: double from any integer or floating-point
  /// type, long and unsigned long from an integer type. Throws "no dataset /N", "dataset /N is
  /// a string; expected numbers" (or "…; expected integers") or "cannot read dataset /N: …".
  template <class T>
  std::vector<T> read_dataset(const std::string& name) const;
  /// The values of `block` of dataset `name`, row-major over block.count, converted as above.
  /// Throws as above, and "the block from (…) of (…) entries is not within dataset /N of shape
  /// …" when it is not.
  template <class T>
  std::vector<T> read_dataset(const std::string& name, const Hyperslab& block) const;

 private:
  Error error(const std::string& what) const;
  /// error(what + HDF5's reason for the call that just failed).
  Error hdf5_error(const std::string& what) const;
  DatasetHandle open_dataset(const std::string& name) const;
  AttributeHandle open_attribute(const std::string& object, const std::string& name, StoredType expected) const;
  /// Dataset `name` opened, refused unless its values convert to T.
  template <class T>
  DatasetHandle open_numbers(const std::string& name) const;

  std::filesystem::path path_;
  ExitCode failure_;
  FileHandle owned_;  ///< the file when this reader opened it
  hid_t file_;
};

/// Every value of dataset `name` of a snapshot file or series (a series killed in an append as
/// SWMR readers do), as doubles, row-major: nz*nx for a field of a snapshot, times*nz*nx of a
/// series. For tests and tools. Throws an I/O Error naming the file and the dataset.
std::vector<double> read_dataset(const std::filesystem::path& path, const std::string& name);

/// True when `path` opens (as Hdf5Reader opens it) as an HDF5 file whose root group has every
/// attribute in `names`. Never throws; the caller makes sure `path` is a regular file.
bool has_root_attributes(const std::filesystem::path& path, std::initializer_list<const char*> names);

}  // namespace simapp::io
