#pragma once
/// The disk space of a published file that a library changes in place (a snapshot series, which
/// HDF5 appends to): space taken before the library writes, so that its writes cannot fail for
/// want of it, and given back after. Every failure is a FileFailure with the system's reason.
#include <sys/types.h>

#include <filesystem>

namespace simapp::io {

/// Takes the disk space of `bytes` more bytes after the end of `path`, an existing file (never
/// a link), growing it (posix_fallocate): writes there cannot then fail for a full disk or a
/// file-size limit, which fail here instead, the file keeping what it held.
void reserve_space_after_end(const std::filesystem::path& path, off_t bytes);

/// Cuts `path` (never a link) to `size` bytes where it is longer, and syncs it.
void cut_and_sync(const std::filesystem::path& path, off_t size);

}  // namespace simapp::io
