/// Hdf5Reader reads back exactly the values written (by simapp's writers, and by the HDF5 C API
/// for what they never write), and refuses a missing file, attribute or dataset, a wrong type
/// and a block outside a dataset with one Error naming the file and the object.
#include "io/hdf5/hdf5_reader.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/error_of.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::error_of;

/// values(a, b, c) = 100 a + 10 b + c over [3][4][5].
std::vector<double> cube_values() {
  std::vector<double> values;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 5; ++c) values.push_back(100.0 * a + 10.0 * b + c);
  return values;
}

const std::vector<long> steps{0, 4, -8, std::numeric_limits<long>::max()};
const std::vector<unsigned long> sums{0, 1, std::numeric_limits<unsigned long>::max()};

/// Creates dataset `name` of `file_type` and shape `dims` in `file`, holding `values` of `memory_type`.
void write_values(hid_t file, const char* name, hid_t file_type, const std::vector<hsize_t>& dims, hid_t memory_type,
                  const void* values) {
  const DataspaceHandle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  const DatasetHandle dataset(H5Dcreate2(file, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_TRUE(dataset.valid()) << name;
  ASSERT_GE(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), 0) << name;
}

/// A string dataset, a scalar dataset, an empty one along an unlimited dimension, a fixed-length
/// string attribute, an attribute of three values and a group: what simapp's writers never make.
void write_other_objects(hid_t file) {
  const DatatypeHandle fixed(H5Tcopy(H5T_C_S1));
  ASSERT_GE(H5Tset_size(fixed.get(), 8), 0);
  const DataspaceHandle scalar(H5Screate(H5S_SCALAR));
  const AttributeHandle label(H5Acreate2(file, "label", fixed.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Awrite(label.get(), fixed.get(), "fixed\0\0\0"), 0);
  const hsize_t three = 3;
  const DataspaceHandle triple_space(H5Screate_simple(1, &three, nullptr));
  const AttributeHandle triple(H5Acreate2(file, "triple", H5T_STD_I32LE, triple_space.get(), H5P_DEFAULT, H5P_DEFAULT));
  const int triple_values[3] = {1, 2, 3};
  ASSERT_GE(H5Awrite(triple.get(), H5T_NATIVE_INT, triple_values), 0);

  write_values(file, "words", fixed.get(), {2}, fixed.get(), "one\0\0\0\0\0two\0\0\0\0\0");
  const double half = 0.5;
  const DatasetHandle single(
      H5Dcreate2(file, "single", H5T_IEEE_F64LE, scalar.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Dwrite(single.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &half), 0);
  const hsize_t none = 0, unlimited = H5S_UNLIMITED, chunk = 4;
  const DataspaceHandle empty_space(H5Screate_simple(1, &none, &unlimited));
  const PropertyListHandle chunked(H5Pcreate(H5P_DATASET_CREATE));
  ASSERT_GE(H5Pset_chunk(chunked.get(), 1, &chunk), 0);
  ASSERT_TRUE(DatasetHandle(
                  H5Dcreate2(file, "empty", H5T_STD_I64LE, empty_space.get(), H5P_DEFAULT, chunked.get(), H5P_DEFAULT))
                  .valid());
  ASSERT_GE(H5Gclose(H5Gcreate2(file, "group", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), 0);
}

class Hdf5ReaderTest : public testing::BinaryTest {
 protected:
  void SetUp() override {
    BinaryTest::SetUp();
    path_ = directory_ / "values.h5";
    const std::vector<double> cube = cube_values();
    write_new_file(path_, 1 << 20, [&](hid_t file) {
      write_attribute(file, "nx", 300);
      write_attribute(file, "step", -1234L);
      write_attribute(file, "config_hash", std::numeric_limits<unsigned long>::max());
      write_attribute(file, "time", 567.25);
      write_attribute(file, "case", std::string("thermal \u03c1\u03b8"));
      write_values(file, "cube", H5T_IEEE_F64LE, {3, 4, 5}, H5T_NATIVE_DOUBLE, cube.data());
      write_values(file, "steps", H5T_STD_I64LE, {steps.size()}, H5T_NATIVE_LONG, steps.data());
      write_values(file, "sums", H5T_STD_U64LE, {sums.size()}, H5T_NATIVE_ULONG, sums.data());
      write_other_objects(file);
    });
  }

  /// The message of the Error `action` throws, checked to name this test's file and to carry `code`.
  template <class Action>
  std::string refusal(Action action, ExitCode code = ExitCode::bad_input) const {
    const Error error = error_of(action);
    EXPECT_EQ(error.code(), code) << error.what();
    EXPECT_EQ(error.where(), path_.string()) << error.what();
    return error.what();
  }

  fs::path path_;
};

// ---- what was written is read back ----------------------------------------------------------

TEST_F(Hdf5ReaderTest, ReadsEachAttributeAsWritten) {
  const Hdf5Reader file(path_, ExitCode::bad_input);
  EXPECT_EQ(file.path(), path_);
  EXPECT_EQ(file.read_attribute<int>("nx"), 300);
  EXPECT_EQ(file.read_attribute<long>("step"), -1234L);
  EXPECT_EQ(file.read_attribute<unsigned long>("config_hash"), std::numeric_limits<unsigned long>::max());
  EXPECT_EQ(file.read_attribute<double>("time"), 567.25);
  EXPECT_EQ(file.read_attribute<std::string>("case"), "thermal \u03c1\u03b8");
  EXPECT_EQ(file.read_attribute<std::string>("label"), "fixed");
  EXPECT_TRUE(file.has_attribute("nx"));
  EXPECT_FALSE(file.has_attribute("ny"));
}

TEST_F(Hdf5ReaderTest, ReadsWholeDatasetsConvertedToTheTypeAskedFor) {
  const Hdf5Reader file(path_, ExitCode::bad_input);
  EXPECT_EQ(file.read_dataset<double>("cube"), cube_values());
  EXPECT_EQ(file.read_dataset<double>("/cube"), cube_values());
  EXPECT_EQ(file.read_dataset<long>("steps"), steps);
  EXPECT_EQ(file.read_dataset<double>("steps"), (std::vector<double>{0.0, 4.0, -8.0, 9223372036854775807.0}));
  EXPECT_EQ(file.read_dataset<unsigned long>("sums"), sums);
  EXPECT_EQ(file.read_dataset<double>("single"), std::vector<double>{0.5});
  EXPECT_TRUE(file.read_dataset<long>("empty").empty());
  EXPECT_TRUE(file.has_dataset("cube"));
  EXPECT_FALSE(file.has_dataset("group"));
  EXPECT_FALSE(file.has_dataset("absent"));
}

TEST_F(Hdf5ReaderTest, ReadsABlockRowMajor) {
  const Hdf5Reader file(path_, ExitCode::bad_input);
  EXPECT_EQ(file.read_dataset<double>("cube", {{1, 2, 1}, {2, 2, 3}}),
            (std::vector<double>{121, 122, 123, 131, 132, 133, 221, 222, 223, 231, 232, 233}));
  EXPECT_EQ(file.read_dataset<double>("cube", {{0, 0, 0}, {3, 4, 5}}), cube_values());
  EXPECT_EQ(file.read_dataset<unsigned long>("sums", {{1}, {2}}), (std::vector<unsigned long>{1, sums[2]}));
}

TEST_F(Hdf5ReaderTest, DescribesADatasetsTypeAndShape) {
  const Hdf5Reader file(path_, ExitCode::bad_input);
  const DatasetShape cube = file.dataset_shape("cube");
  EXPECT_EQ(cube.type, StoredType::float64);
  EXPECT_EQ(cube.type_name, "float64");
  EXPECT_EQ(cube.dims, (std::vector<hsize_t>{3, 4, 5}));
  EXPECT_EQ(cube.dims_text(), "3 x 4 x 5");
  EXPECT_EQ(file.dataset_shape("steps").type, StoredType::int64);
  EXPECT_EQ(file.dataset_shape("sums").type, StoredType::uint64);
  EXPECT_EQ(file.dataset_shape("words").type, StoredType::string);
  EXPECT_EQ(file.dataset_shape("words").type_name, "a string");
  EXPECT_EQ(file.dataset_shape("single").dims_text(), "scalar");
}

TEST_F(Hdf5ReaderTest, ReadsASnapshotAsItsWriterWroteIt) {
  Snapshot snapshot;
  snapshot.step = 42;
  snapshot.time = 12.5;
  snapshot.nx = 4;
  snapshot.nz = 3;
  snapshot.dx = 250.0;
  snapshot.dz = 100.0;
  snapshot.case_name = "thermal";
  for (int n = 0; n < 4 * 12; ++n) snapshot.state.push_back(0.25 * n - 3.0);
  snapshot.density_cell = {1.2, 1.1, 1.0};
  snapshot.rho_theta_cell = {360.0, 330.0, 300.0};
  const fs::path path = directory_ / "snapshot.h5";
  write_snapshot(path, snapshot, {"dens", "rhot"}, 0);
  EXPECT_EQ(read_dataset(path, "dens"), std::vector<double>(snapshot.state.begin(), snapshot.state.begin() + 12));
  EXPECT_EQ(read_dataset(path, "rhot"), std::vector<double>(snapshot.state.begin() + 36, snapshot.state.end()));
  EXPECT_EQ(read_dataset(path, "x"), (std::vector<double>{125.0, 375.0, 625.0, 875.0}));
  EXPECT_EQ(read_dataset(path, "time"), std::vector<double>{12.5});
  const Hdf5Reader file(path, ExitCode::io);
  EXPECT_EQ(file.read_dataset<long>("step"), std::vector<long>{42});
  EXPECT_EQ(file.read_attribute<std::string>("units", "time"), "seconds since 2000-01-01 00:00:00");
  EXPECT_EQ(file.read_attribute<int>("nz"), 3);
  EXPECT_EQ(file.read_attribute<std::string>("case"), "thermal");
  EXPECT_EQ(file.dataset_shape("dens").dims, (std::vector<hsize_t>{1, 3, 4}));
  EXPECT_TRUE(has_root_attributes(path, {"nx", "case"}));
  EXPECT_FALSE(has_root_attributes(path, {"nx", "config_hash"}));
}

TEST_F(Hdf5ReaderTest, ReadsAFileTheCallerHasOpenNamingTheGivenPath) {
  const FileHandle open(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_TRUE(open.valid());
  const Hdf5Reader file(open.get(), path_, ExitCode::io);
  EXPECT_EQ(file.read_dataset<long>("steps"), steps);
  EXPECT_EQ(refusal([&] { file.read_attribute<int>("nz"); }, ExitCode::io), "no attribute nz");
}

// ---- each failure names the file and the object ---------------------------------------------

TEST_F(Hdf5ReaderTest, RefusesAFileThatIsMissingOrNotHdf5) {
  const fs::path missing = directory_ / "absent.h5";
  const Error absent = error_of([&] { Hdf5Reader(missing, ExitCode::io); });
  EXPECT_EQ(absent.code(), ExitCode::io);
  EXPECT_EQ(absent.where(), missing.string());
  EXPECT_EQ(std::string(absent.what()).rfind("cannot open as an HDF5 file: ", 0), 0u) << absent.what();
  EXPECT_FALSE(has_root_attributes(missing, {}));

  const fs::path text = directory_ / "text.h5";
  std::ofstream(text) << "not HDF5\n";
  const Error not_hdf5 = error_of([&] { Hdf5Reader(text, ExitCode::bad_input); });
  EXPECT_EQ(not_hdf5.code(), ExitCode::bad_input);
  EXPECT_EQ(not_hdf5.where(), text.string());
  EXPECT_EQ(std::string(not_hdf5.what()).rfind("cannot open as an HDF5 file: ", 0), 0u) << not_hdf5.what();
  EXPECT_FALSE(has_root_attributes(text, {}));

  const Error read = error_of([&] { read_dataset(missing, "u"); });
  EXPECT_EQ(read.code(), ExitCode::io);
  EXPECT_EQ(read.where(), missing.string());
}

TEST_F(Hdf5ReaderTest, RefusesAMissingAttributeOrOneOfAnotherTypeOrShape) {
  const Hdf5Reader file(path_, ExitCode::bad_input);
  EXPECT_EQ(refusal([&] { file.read_attribute<double>("absent"); }), "no attribute absent");
  EXPECT_EQ(refusal([&] { file.read_attribute<double>("nx"); }), "attribute nx is int32; expected float64");
  EXPECT_EQ(refusal([&] { file.read_attribute<int>("step"); }), "attribute step is int64; expected int32");
  EXPECT_EQ(refusal([&] { file.read_attribute<long>("config_hash"); }),
            "attribute config_hash is uint64; expected int64");
  EXPECT_EQ(refusal([&] { file.read_attribute<unsigned long>("step"); }), "attribute step is int64; expected uint64");
  EXPECT_EQ(refusal([&] { file.read_attribute<int>("case"); }), "attribute case is a string; expected int32");
  EXPECT_EQ(refusal([&] { file.read_attribute<std::string>("time"); }), "attribute time is float64; expected a string");
  EXPECT_EQ(refusal([&] { file.read_attribute<int>("triple"); }), "attribute triple holds 3 values; expected one");
}

TEST_F(Hdf5ReaderTest, RefusesAMissingDatasetOrOneOfAnotherType) {
  const Hdf5Reader file(path_, ExitCode::io);
  EXPECT_EQ(refusal([&] { file.read_dataset<double>("absent"); }, ExitCode::io), "no dataset /absent");
  EXPECT_EQ(refusal([&] { file.read_dataset<double>("absent/deeper"); }, ExitCode::io), "no dataset /absent/deeper");
  EXPECT_EQ(refusal([&] { file.dataset_shape("absent"); }, ExitCode::io), "no dataset /absent");
  EXPECT_EQ(refusal([&] { file.read_dataset<double>("group"); }, ExitCode::io).rfind("cannot open dataset /group", 0),
            0u);
  EXPECT_EQ(refusal([&] { file.read_dataset<double>("words"); }, ExitCode::io),
            "dataset /words is a string; expected numbers");
  EXPECT_EQ(refusal([&] { file.read_dataset<long>("cube"); }, ExitCode::io),
            "dataset /cube is float64; expected integers");
  EXPECT_EQ(refusal(
                [&] {
                  file.read_dataset<unsigned long>("cube", {{0, 0, 0}, {1, 1, 1}});
                },
                ExitCode::io),
            "dataset /cube is float64; expected integers");

  const Error missing = error_of([&] { read_dataset(path_, "pressure"); });
  EXPECT_EQ(missing.code(), ExitCode::io);
  EXPECT_EQ(missing.where(), path_.string());
  EXPECT_EQ(std::string(missing.what()), "no dataset /pressure");
}

TEST_F(Hdf5ReaderTest, RefusesABlockOutsideTheDataset) {
  const Hdf5Reader file(path_, ExitCode::bad_input);
  EXPECT_EQ(refusal([&] {
              file.read_dataset<double>("cube", {{2, 0, 0}, {2, 1, 1}});
            }),
            "the block from (2, 0, 0) of (2, 1, 1) entries is not within dataset /cube of shape 3 x 4 x 5");
  EXPECT_EQ(refusal([&] {
              file.read_dataset<double>("cube", {{0, 0, 5}, {1, 1, 1}});
            }),
            "the block from (0, 0, 5) of (1, 1, 1) entries is not within dataset /cube of shape 3 x 4 x 5");
  EXPECT_EQ(refusal([&] {
              file.read_dataset<double>("cube", {{0, 0}, {1, 1}});
            }),
            "the block from (0, 0) of (1, 1) entries is not within dataset /cube of shape 3 x 4 x 5");
  EXPECT_EQ(refusal([&] {
              file.read_dataset<long>("steps", {{0}, {5}});
            }),
            "the block from (0) of (5) entries is not within dataset /steps of shape 4");
}

}  // namespace
}  // namespace simapp::io
