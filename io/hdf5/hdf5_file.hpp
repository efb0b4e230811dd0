#pragma once
/// Writing and reading HDF5 files safely: every call checked, failures as one message with
/// HDF5's own reason, and files built in memory (HDF5's core driver) then written by simapp
/// under a temporary name, synced and renamed. HDF5 1.10 cannot recover from a failed
/// H5Fclose of a disk file (closing it again, even at exit, crashes), so HDF5 never writes to
/// the disk itself; a failed write is an ordinary error and leaves no file behind.
#include <hdf5.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

#include "io/hdf5/hdf5_handle.hpp"

namespace simapp::io {

/// A failed step of writing or reading a file; callers report it as an I/O Error naming the file.
class FileFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws FileFailure(what + HDF5's innermost reason).
[[noreturn]] void fail(const std::string& what);
/// `id`, or FileFailure(what) when it is negative.
hid_t checked(hid_t id, const std::string& what);
/// FileFailure(what) when `status` is negative.
void check(herr_t status, const std::string& what);

/// Scalar attributes: UTF-8 strings, 64-bit doubles, 64-bit and 32-bit integers, and unsigned 64-bit.
void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, long value);
void write_attribute(hid_t object, const std::string& name, int value);
void write_attribute(hid_t object, const std::string& name, unsigned long value);

/// Creates `path` (which must not exist): `fill` writes the content into an in-memory HDF5
/// file of about `size_estimate` bytes; its bytes then go to `path`.tmp, are synced, and the
/// file is renamed to `path`. Throws FileFailure; nothing is left behind on failure.
void write_new_file(const std::filesystem::path& path, std::size_t size_estimate,
                    const std::function<void(hid_t file)>& fill);

}  // namespace simapp::io
