#pragma once
/// Writing HDF5 files safely: every call checked, failures as one message with HDF5's own
/// reason, and files built in memory (HDF5's core driver) then written by simapp
/// as a new file (io/files/new_file.hpp). HDF5 1.10 cannot recover from a failed H5Fclose of
/// a disk file (closing it again, even at exit, crashes), so HDF5 never writes to the disk
/// itself; a failed write is an ordinary error and leaves no file behind.
#include <hdf5.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "io/files/new_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "solver/spec/precision.hpp"

namespace simapp::io {

/// `what`, then ": " and HDF5's innermost reason for the call that just failed (the system's own
/// words where HDF5 quotes them); `what` alone when HDF5 gives none.
std::string with_hdf5_reason(const std::string& what);
/// Throws FileFailure(with_hdf5_reason(what)).
[[noreturn]] void fail(const std::string& what);
/// `id`, or FileFailure(what) when it is negative.
hid_t checked(hid_t id, const std::string& what);
/// FileFailure(what) when `status` is negative.
void check(herr_t status, const std::string& what);

/// Scalar attributes: text, 64-bit doubles, 64-bit and 32-bit integers, and unsigned 64-bit.
/// Text is written as netCDF-C writes an NC_CHAR attribute (a fixed-length string of the text's
/// bytes, null-terminated padding, ASCII character set): netCDF-C, NCO and netCDF4-python then
/// read and change it as their own, where a variable-length string (NC_STRING) makes NCO warn of
/// a CF violation and ignore `bounds`.
void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, long value);
void write_attribute(hid_t object, const std::string& name, int value);
void write_attribute(hid_t object, const std::string& name, unsigned long value);

/// The file type of a value of the state in `precision` (execution.precision): H5T_IEEE_F64LE,
/// or H5T_IEEE_F32LE for float32.
hid_t stored_float_type(Precision precision);
/// `values` rounded to the nearest float, as a dataset of 32-bit floats stores them (exactly,
/// where they are floats already: a float32 run's state).
std::vector<float> as_floats(std::span<const double> values);

/// Creates `path` (which must not exist, unless `replace` allows it to be replaced): `fill`
/// writes the content into an in-memory HDF5 file of about `size_estimate` bytes; its bytes are
/// then written as a NewFile, synced and published as `path` (renamed over it: a reader finds
/// the old file or the new one, whole). Throws FileFailure; nothing is left behind on failure.
void write_new_file(const std::filesystem::path& path, std::size_t size_estimate,
                    const std::function<void(hid_t file)>& fill, Replace replace = Replace::never);

/// File creation properties of every file simapp writes (write_new_file and write_layout use
/// them): links and attributes tracked and indexed in their creation order, as netCDF-C makes a
/// file; netCDF-C opens a file without them read-only (NC_ECANTWRITE: ncatted, netCDF4-python's
/// mode 'a' fail).
PropertyListHandle file_creation_properties();

/// Dataset creation properties that every dataset starts from: attributes tracked and indexed
/// in their creation order, as netCDF-C makes a variable.
PropertyListHandle dataset_creation_properties();

/// Dataset creation properties of a dataset that write_layout reserves: contiguous, allocated
/// at creation, never filled; its values are written by whoever gets its byte range.
PropertyListHandle reserved_dataset_properties();

/// Where a reserved dataset's values go in the file: bytes [offset, offset + size).
struct ReservedRange {
  long long offset = 0;
  long long size = 0;
};

/// Lays a file out for writing by several hands: `fill` builds it with HDF5 (metadata, small
/// datasets, attributes) in a scratch file (in /dev/shm where there is one), creating the
/// datasets named in `reserved` with reserved_dataset_properties() and writing nothing into
/// them, so their storage takes no space. Everything but the reserved ranges is then written into `out`,
/// which is sized to the whole file, at most `size_bound` bytes. Returns the reserved datasets'
/// ranges in `reserved`'s order. Throws FileFailure.
std::vector<ReservedRange> write_layout(NewFile& out, long long size_bound, const std::vector<std::string>& reserved,
                                        const std::function<void(hid_t file)>& fill);

}  // namespace simapp::io
