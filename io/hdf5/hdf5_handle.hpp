#pragma once
/// Owning wrappers for HDF5 identifiers (each closed by its own H5?close) and a guard that
/// keeps HDF5 from printing its error stack, so failures surface as one simapp Error.
#include <hdf5.h>

#include <utility>

namespace simapp::io {

/// Owns one HDF5 identifier and closes it with `Close`; an id < 0 (a failed call) owns nothing.
template <herr_t (*Close)(hid_t)>
class Hdf5Handle {
 public:
  explicit Hdf5Handle(hid_t id) : id_(id) {}
  Hdf5Handle(Hdf5Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
    std::swap(id_, other.id_);
    return *this;
  }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  ~Hdf5Handle() { close(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

  /// Closes now and returns Close's result (0 when nothing was owned); for callers that must
  /// know the close succeeded, as with a file whose data is flushed on close.
  herr_t close() {
    const hid_t id = std::exchange(id_, H5I_INVALID_HID);
    return id >= 0 ? Close(id) : 0;
  }

 private:
  hid_t id_;
};

using FileHandle = Hdf5Handle<H5Fclose>;
using DatasetHandle = Hdf5Handle<H5Dclose>;
using DataspaceHandle = Hdf5Handle<H5Sclose>;
using PropertyListHandle = Hdf5Handle<H5Pclose>;
using AttributeHandle = Hdf5Handle<H5Aclose>;
using DatatypeHandle = Hdf5Handle<H5Tclose>;

/// While alive, HDF5 prints nothing on errors (the caller checks every return value);
/// restores the previous error handler when it ends.
class QuietHdf5Errors {
 public:
  QuietHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &handler_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  QuietHdf5Errors(const QuietHdf5Errors&) = delete;
  QuietHdf5Errors& operator=(const QuietHdf5Errors&) = delete;
  ~QuietHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, handler_, data_); }

 private:
  H5E_auto2_t handler_ = nullptr;
  void* data_ = nullptr;
};

}  // namespace simapp::io
