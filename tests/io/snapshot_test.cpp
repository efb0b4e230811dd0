#include "io/hdf5/snapshot_writer.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/xdmf/xdmf_writer.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/bitwise_equal.hpp"
#include "tests/support/error_of.hpp"
#include "tests/support/file_size_limit.hpp"
#include "tests/support/hdf5_reading.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::bitwise_equal;
using testing::dims_of;
using testing::error_of;
using testing::read_values;

// More than one 64 × 256 chunk each way, with partial chunks at the ends.
constexpr int nx = 300;
constexpr int nz = 70;
constexpr double xlen = 20000.0;
constexpr double zlen = 10000.0;
constexpr double pi = 3.14159265358979323846;

const std::vector<std::string> all_fields{"rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"};

/// cos²(πL/2) bump of radius 2000 m at (xlen/2, 2000 m), 0 outside.
double bump(double x, double z) {
  const double distance = std::hypot((x - xlen / 2) / 2000.0, (z - 2000.0) / 2000.0);
  return distance <= 1.0 ? std::pow(std::cos(pi * distance / 2), 2) : 0.0;
}

/// A snapshot of analytic values, independent of the solver: a warm, light, rising and
/// swirling bubble over an exponential background.
Snapshot analytic_snapshot() {
  Snapshot snapshot;
  snapshot.step = 1234;
  snapshot.time = 567.25;
  snapshot.nx = nx;
  snapshot.nz = nz;
  snapshot.dx = xlen / nx;
  snapshot.dz = zlen / nz;
  snapshot.case_name = "thermal";
  snapshot.input_yaml = "case: thermal\ngrid:\n  nx: 300\n  nz: 70\n# non-ASCII: \u03c1\u03b8\n";
  snapshot.version = "0.1.0";
  snapshot.git_hash = "0123456789abcdef";
  const std::size_t cells = std::size_t{nx} * nz;
  snapshot.state.resize(4 * cells);
  for (int k = 0; k < nz; ++k) {
    const double z = (k + 0.5) * snapshot.dz;
    const double background = 1.16 * std::exp(-z / 9000.0);
    snapshot.density_cell.push_back(background);
    snapshot.rho_theta_cell.push_back(300.0 * background * (1.0 + 1e-6 * k));
    for (int i = 0; i < nx; ++i) {
      const double x = (i + 0.5) * snapshot.dx;
      const std::size_t cell = std::size_t(k) * nx + i;
      const double b = bump(x, z);
      snapshot.state[cell] = -0.01 * b;
      snapshot.state[cells + cell] = background * 4.0 * b * (z - 2000.0) / 2000.0;
      snapshot.state[2 * cells + cell] = background * (2.0 * b - 4.0 * b * (x - xlen / 2) / 2000.0);
      snapshot.state[3 * cells + cell] = background * 3.0 * b;
    }
  }
  return snapshot;
}

/// The documented value of `field` in `cell` of row k, computed here from the formulas.
double expected_value(const Snapshot& snapshot, const std::string& field, int k, std::size_t cell) {
  const std::size_t cells = std::size_t{nx} * nz;
  const double dens = snapshot.state[cell];
  const double umom = snapshot.state[cells + cell];
  const double wmom = snapshot.state[2 * cells + cell];
  const double rhot = snapshot.state[3 * cells + cell];
  const double rho = snapshot.density_cell[k] + dens;
  const double rho_theta = snapshot.rho_theta_cell[k];
  const std::map<std::string, double> values{
      {"rho_prime", dens}, {"u", umom / rho},
      {"w", wmom / rho},   {"theta_prime", (rho_theta + rhot) / rho - rho_theta / snapshot.density_cell[k]},
      {"dens", dens},      {"umom", umom},
      {"wmom", wmom},      {"rhot", rhot}};
  return values.at(field);
}

std::vector<double> expected_field(const Snapshot& snapshot, const std::string& field) {
  std::vector<double> values;
  for (int k = 0; k < nz; ++k)
    for (int i = 0; i < nx; ++i) values.push_back(expected_value(snapshot, field, k, std::size_t(k) * nx + i));
  return values;
}

std::vector<double> points(int count, double spacing, double shift) {
  std::vector<double> values;
  for (int i = 0; i < count; ++i) values.push_back((i + shift) * spacing);
  return values;
}

// ---- reading through the HDF5 C API ---------------------------------------------------------

FileHandle open_file(const fs::path& path) {
  FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_TRUE(file.valid()) << path;
  return file;
}

/// Attribute `name` of object `path` in `file`, read as `memory_type` into `value`.
void read_attribute(hid_t file, const std::string& path, const std::string& name, hid_t memory_type, void* value) {
  const AttributeHandle attribute(H5Aopen_by_name(file, path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_TRUE(attribute.valid()) << path << " has no attribute " << name;
  EXPECT_GE(H5Aread(attribute.get(), memory_type, value), 0) << name;
}

std::string string_attribute(hid_t file, const std::string& path, const std::string& name) {
  return Hdf5Reader(file, "snapshot", ExitCode::io).read_attribute<std::string>(name, path);
}

double double_attribute(hid_t file, const std::string& name) {
  double value = -1.0;
  read_attribute(file, "/", name, H5T_NATIVE_DOUBLE, &value);
  return value;
}

long long integer_attribute(hid_t file, const std::string& name) {
  long long value = -1;
  read_attribute(file, "/", name, H5T_NATIVE_LLONG, &value);
  return value;
}

/// (layout, number of filters) of a dataset's creation properties.
std::pair<H5D_layout_t, int> storage_of(hid_t file, const std::string& name) {
  const DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const PropertyListHandle properties(H5Dget_create_plist(dataset.get()));
  return {H5Pget_layout(properties.get()), H5Pget_nfilters(properties.get())};
}

// ---- fixture --------------------------------------------------------------------------------

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("simapp_snapshot_test_" + std::to_string(::getpid()) + "_" + test_name);
    fs::create_directories(dir_);
  }

  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }

  /// Writes the analytic snapshot with `fields` to `name` in this test's directory.
  fs::path write(const std::string& name, const std::vector<std::string>& fields = all_fields, int level = 0) const {
    write_snapshot(dir_ / name, snapshot_, fields, level);
    return dir_ / name;
  }

  const Snapshot snapshot_ = analytic_snapshot();
  fs::path dir_;
};

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

// ---- snapshot contents ----------------------------------------------------------------------

TEST_F(SnapshotTest, ListsTheDocumentedFieldsWithUnits) {
  const std::map<std::string, std::string> units{
      {"rho_prime", "kg m-3"}, {"u", "m s-1"},         {"v", "m s-1"},       {"w", "m s-1"},
      {"theta_prime", "K"},    {"p_prime", "Pa"},      {"dens", "kg m-3"},   {"umom", "kg m-2 s-1"},
      {"vmom", "kg m-2 s-1"},  {"wmom", "kg m-2 s-1"}, {"rhot", "kg m-3 K"}, {"rho_bar", "kg m-3"},
      {"theta_bar", "K"},      {"p_bar", "Pa"}};
  std::vector<std::string> names, of_2d;
  for (const FieldInfo& field : snapshot_fields()) {
    names.push_back(field.name);
    if (!is_3d_field(field.name)) of_2d.push_back(field.name);
    EXPECT_EQ(field.unit, units.at(field.name));
    EXPECT_FALSE(field.long_name.empty()) << field.name;
    EXPECT_LE(field.long_name.size() + field.unit.size() + 3, 60u) << field.name << ": a plot's label of two lines";
    EXPECT_EQ(field.profile, field.name.ends_with("_bar")) << field.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"rho_prime", "u", "v", "w", "theta_prime", "p_prime", "dens", "umom",
                                             "vmom", "wmom", "rhot", "rho_bar", "theta_bar", "p_bar"}));
  EXPECT_EQ(of_2d, (std::vector<std::string>{"rho_prime", "u", "w", "theta_prime", "p_prime", "dens", "umom", "wmom",
                                             "rhot", "rho_bar", "theta_bar", "p_bar"}))
      << "v and vmom are the 3-D model's only";
}

TEST_F(SnapshotTest, AFieldOfThe3DModelIsRefusedInA2DSnapshot) {
  for (const std::string name : {"v", "vmom"}) {
    const Error error = error_of([&] { write("refused.h5", {"u", name}); });
    EXPECT_EQ(error.code(), ExitCode::bad_input) << name;
    EXPECT_NE(std::string(error.what()).find("field '" + name + "' is of the 3-D model (grid.ny > 1)"),
              std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "refused.h5"));
}

TEST_F(SnapshotTest, FieldsHoldTheDocumentedFormulasBitForBit) {
  const FileHandle file = open_file(write("fields.h5", all_fields));
  for (const FieldInfo& field : snapshot_fields()) {
    if (is_3d_field(field.name) || !std::ranges::count(all_fields, field.name)) continue;
    EXPECT_EQ(dims_of(file.get(), field.name), (std::vector<hsize_t>{1, nz, nx})) << field.name;  // time, z, x
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), field.name), expected_field(snapshot_, field.name)))
        << field.name;
    EXPECT_EQ(string_attribute(file.get(), field.name, "units"), field.unit);
    EXPECT_EQ(string_attribute(file.get(), field.name, "long_name"), field.long_name);
  }
}

/// C₀ and γ as docs/model.md gives them: p = C₀ (ρθ)^γ.
constexpr double c0 = 27.5629410929725921, gamma = 1004.0 / 717.0;

TEST_F(SnapshotTest, PressureAndBackgroundHoldTheirFormulas) {
  const FileHandle file = open_file(write("pressure.h5", {"p_prime", "rho_bar", "theta_bar", "p_bar"}));
  EXPECT_EQ(dims_of(file.get(), "p_prime"), (std::vector<hsize_t>{1, nz, nx}));
  for (const char* profile : {"rho_bar", "theta_bar", "p_bar"})
    EXPECT_EQ(dims_of(file.get(), profile), std::vector<hsize_t>{nz}) << profile;
  const std::vector<double> p_prime = read_values(file.get(), "p_prime"), rho_bar = read_values(file.get(), "rho_bar"),
                            theta_bar = read_values(file.get(), "theta_bar"), p_bar = read_values(file.get(), "p_bar");
  const std::size_t cells = std::size_t{nx} * nz;
  for (int k = 0; k < nz; ++k) {
    const double density = snapshot_.density_cell[k], rho_theta = snapshot_.rho_theta_cell[k];
    EXPECT_EQ(rho_bar[k], density) << k;
    EXPECT_DOUBLE_EQ(theta_bar[k], rho_theta / density) << k;
    EXPECT_NEAR(p_bar[k], c0 * std::pow(rho_theta, gamma), 1e-12 * p_bar[k]) << k;
    for (int i = 0; i < nx; i += 7) {
      const std::size_t cell = std::size_t(k) * nx + i;
      const double pressure = c0 * std::pow(rho_theta + snapshot_.state[3 * cells + cell], gamma);
      EXPECT_NEAR(p_bar[k] + p_prime[cell], pressure, 1e-11 * pressure) << k << " " << i;
    }
  }
}

TEST_F(SnapshotTest, HoldsOnlyTheSelectedFields) {
  const FileHandle file = open_file(write("some.h5", {"theta_prime", "w"}));
  EXPECT_GT(H5Lexists(file.get(), "theta_prime", H5P_DEFAULT), 0);
  EXPECT_GT(H5Lexists(file.get(), "w", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(file.get(), "u", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(file.get(), "dens", H5P_DEFAULT), 0);
}

TEST_F(SnapshotTest, HoldsCellCentresAndEdges) {
  const FileHandle file = open_file(write("grid.h5"));
  const double dx = xlen / nx, dz = zlen / nz;
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "x"), points(nx, dx, 0.5)));
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "z"), points(nz, dz, 0.5)));
  // CF cell bounds: each cell's two edges, [cells][2].
  const std::vector<double> x_edges = points(nx + 1, dx, 0.0), z_edges = points(nz + 1, dz, 0.0);
  const std::vector<double> x_bounds = read_values(file.get(), "x_bnds"), z_bounds = read_values(file.get(), "z_bnds");
  ASSERT_EQ(x_bounds.size(), 2u * nx);
  ASSERT_EQ(z_bounds.size(), 2u * nz);
  for (std::size_t i = 0; i < nx; ++i) {
    EXPECT_EQ(x_bounds[2 * i], x_edges[i]) << i;
    EXPECT_EQ(x_bounds[2 * i + 1], x_edges[i + 1]) << i;
  }
  for (std::size_t k = 0; k < nz; ++k) {
    EXPECT_EQ(z_bounds[2 * k], z_edges[k]) << k;
    EXPECT_EQ(z_bounds[2 * k + 1], z_edges[k + 1]) << k;
  }
  for (const std::string name : {"x", "z", "x_bnds", "z_bnds"}) {
    EXPECT_EQ(string_attribute(file.get(), name, "units"), "m") << name;
    EXPECT_FALSE(string_attribute(file.get(), name, "long_name").empty()) << name;
  }
  EXPECT_EQ(string_attribute(file.get(), "x", "bounds"), "x_bnds");
  EXPECT_EQ(string_attribute(file.get(), "z", "bounds"), "z_bnds");
}

TEST_F(SnapshotTest, TimeAndStepAreVariablesOnTime) {
  Snapshot started = snapshot_;
  started.time_start = "1999-12-31T23:00:00Z";
  write_snapshot(dir_ / "time.h5", started, all_fields, 0);
  const FileHandle file = open_file(dir_ / "time.h5");
  EXPECT_EQ(read_values(file.get(), "time"), std::vector<double>{snapshot_.time});
  EXPECT_EQ(read_values(file.get(), "step"), std::vector<double>{static_cast<double>(snapshot_.step)});
  EXPECT_EQ(dims_of(file.get(), "step"), std::vector<hsize_t>{1});
  EXPECT_EQ(string_attribute(file.get(), "time", "units"), "seconds since 1999-12-31 23:00:00");
  EXPECT_EQ(string_attribute(file.get(), "time", "calendar"), "proleptic_gregorian");
  for (const char* per_time : {"time", "step"})
    EXPECT_EQ(H5Aexists(file.get(), per_time), 0) << "a root attribute " << per_time << " would label a whole run";
  EXPECT_EQ(string_attribute(file.get(), "/", "title"), "simapp thermal");
}

TEST_F(SnapshotTest, EveryTextAttributeIsNetcdfCharacterData) {
  const FileHandle file = open_file(write("text.h5", all_fields));
  std::vector<std::string> texts;
  const auto each_attribute = [](hid_t object, const char* name, const H5A_info_t*, void* found) -> herr_t {
    const AttributeHandle attribute(H5Aopen(object, name, H5P_DEFAULT));
    const DatatypeHandle type(H5Aget_type(attribute.get()));
    if (H5Tget_class(type.get()) == H5T_STRING) {
      static_cast<std::vector<std::string>*>(found)->push_back(name);
      EXPECT_EQ(H5Tis_variable_str(type.get()), 0) << name << ": a netCDF-4 string (NC_STRING), not NC_CHAR";
      EXPECT_EQ(H5Tget_cset(type.get()), H5T_CSET_ASCII) << name;
    }
    return 0;
  };
  H5Aiterate2(file.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, each_attribute, &texts);
  for (const std::string& name : std::vector<std::string>{"time", "x", "z", "x_bnds", "theta_prime"}) {
    const DatasetHandle dataset(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT));
    ASSERT_GE(H5Aiterate2(dataset.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, each_attribute, &texts), 0)
        << name << ": attributes not indexed in creation order";
  }
  EXPECT_GE(texts.size(), 20u);
}

TEST_F(SnapshotTest, BndsIsADimensionWithoutAVariable) {
  const FileHandle file = open_file(write("bnds.h5"));
  const DatasetHandle bnds(H5Dopen2(file.get(), "bnds", H5P_DEFAULT));
  char name[128] = {};
  ASSERT_GT(H5DSget_scale_name(bnds.get(), name, sizeof name), 0);
  EXPECT_EQ(std::string(name), "This is a netCDF dimension but not a netCDF variable.         2");
  EXPECT_EQ(H5Dget_storage_size(bnds.get()), 0u) << "no values";
}

TEST_F(SnapshotTest, RootAttributesDescribeTheRun) {
  const FileHandle file = open_file(write("attributes.h5"));
  EXPECT_EQ(double_attribute(file.get(), "dx"), snapshot_.dx);
  EXPECT_EQ(double_attribute(file.get(), "dz"), snapshot_.dz);
  EXPECT_EQ(integer_attribute(file.get(), "nx"), nx);
  EXPECT_EQ(integer_attribute(file.get(), "nz"), nz);
  EXPECT_EQ(string_attribute(file.get(), "/", "case"), "thermal");
  EXPECT_EQ(string_attribute(file.get(), "/", "simapp_version"), snapshot_.version);
  EXPECT_EQ(string_attribute(file.get(), "/", "git_hash"), snapshot_.git_hash);
  EXPECT_EQ(string_attribute(file.get(), "/", "input_yaml"), snapshot_.input_yaml);
}

TEST_F(SnapshotTest, CompressionChangesStorageNotData) {
  const FileHandle plain = open_file(write("plain.h5", all_fields, 0));
  const FileHandle packed = open_file(write("packed.h5", all_fields, 6));
  for (const std::string& name : all_fields) {
    EXPECT_TRUE(bitwise_equal(read_values(plain.get(), name), read_values(packed.get(), name))) << name;
    EXPECT_EQ(storage_of(plain.get(), name), std::make_pair(H5D_CONTIGUOUS, 0)) << name;
    EXPECT_EQ(storage_of(packed.get(), name), std::make_pair(H5D_CHUNKED, 2)) << name;  // shuffle, deflate
  }
  EXPECT_LT(fs::file_size(dir_ / "packed.h5"), fs::file_size(dir_ / "plain.h5"));
}

TEST_F(SnapshotTest, ReadDatasetReturnsTheStoredValues) {
  const fs::path path = write("read.h5");
  const FileHandle file = open_file(path);
  EXPECT_TRUE(bitwise_equal(read_dataset(path, "theta_prime"), read_values(file.get(), "theta_prime")));
  EXPECT_TRUE(bitwise_equal(read_dataset(path, "x"), points(nx, xlen / nx, 0.5)));
  const Error missing_dataset = error_of([&] { read_dataset(path, "pressure"); });
  EXPECT_EQ(missing_dataset.code(), ExitCode::io);
  EXPECT_EQ(missing_dataset.where(), path.string());
  EXPECT_EQ(error_of([&] { read_dataset(dir_ / "absent.h5", "u"); }).code(), ExitCode::io);
}

// ---- failures -------------------------------------------------------------------------------

TEST_F(SnapshotTest, RefusesToOverwriteAndKeepsTheExistingFile) {
  const fs::path path = dir_ / "existing.h5";
  std::ofstream(path) << "precious";
  const Error error = error_of([&] { write_snapshot(path, snapshot_, all_fields, 0); });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(error.where(), path.string());
  EXPECT_EQ(testing::read_text(path), "precious");
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"existing.h5"});
}

TEST_F(SnapshotTest, ReadOnlyDirectoryFailsWithoutLeavingFiles) {
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(dir_.c_str(), W_OK) == 0) GTEST_SKIP() << "directory permissions do not bind this user (root)";
  const Error error = error_of([&] { write("denied.h5"); });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(error.where(), (dir_ / "denied.h5").string());
  EXPECT_TRUE(files_in(dir_).empty());
}

using testing::FileSizeLimit;

TEST_F(SnapshotTest, FailedWriteRemovesTheTemporaryFile) {
  const Error error = error_of([&] {
    const FileSizeLimit limit(64 * 1024);  // less than one field
    write("full.h5");
  });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_NE(std::string(error.what()).find("File too large"), std::string::npos) << error.what();
  EXPECT_TRUE(files_in(dir_).empty());
}

TEST_F(SnapshotTest, RejectsBadRequestsBeforeWriting) {
  EXPECT_EQ(error_of([&] { write("a.h5", {"pressure"}); }).code(), ExitCode::bad_input);
  EXPECT_EQ(error_of([&] { write("b.h5", {"u", "u"}); }).code(), ExitCode::bad_input);
  EXPECT_EQ(error_of([&] { write("c.h5", {"u"}, 10); }).code(), ExitCode::bad_input);
  Snapshot short_state = snapshot_;
  short_state.state.pop_back();
  EXPECT_EQ(error_of([&] { write_snapshot(dir_ / "d.h5", short_state, {"u"}, 0); }).code(), ExitCode::internal);
  EXPECT_TRUE(files_in(dir_).empty());
}

// ---- XDMF -----------------------------------------------------------------------------------

const std::vector<std::string> xdmf_fields{"theta_prime", "u", "w"};

/// Writes snapshots of three output times and, after each, the series' XDMF index.
fs::path write_series(const fs::path& dir, Snapshot snapshot) {
  std::vector<XdmfEntry> entries;
  for (long step : {0L, 100L, 200L}) {
    snapshot.step = step;
    snapshot.time = 0.5 * static_cast<double>(step);
    const std::string name = "thermal_" + std::to_string(step) + ".h5";
    write_snapshot(dir / name, snapshot, xdmf_fields, 1);
    entries.push_back({name, snapshot.time});
    write_xdmf(dir / "thermal.xmf", XdmfMesh{nx, nz, xlen / nx, zlen / nz}, xdmf_fields, entries);
  }
  return dir / "thermal.xmf";
}

std::vector<hsize_t> parse_dims(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<hsize_t>(in), std::istream_iterator<hsize_t>()};
}

TEST_F(SnapshotTest, XdmfReferencesDatasetsOfMatchingShape) {
  const fs::path xmf = write_series(dir_, snapshot_);
  const std::string xml = testing::read_text(xmf);
  EXPECT_EQ(xml.rfind("<?xml", 0), 0u);
  EXPECT_FALSE(fs::exists(xmf.string() + ".tmp"));
  const std::regex topology(R"(<Topology TopologyType="3DCoRectMesh" Dimensions="2 71 301"/>)");
  EXPECT_EQ(std::distance(std::sregex_iterator(xml.begin(), xml.end(), topology), std::sregex_iterator()), 3);
  const std::regex item(R"re(<DataItem Dimensions="([0-9 ]+)"[^>]*>([^<:]+):/([^<]+)</DataItem>)re");
  int items = 0;
  for (auto match = std::sregex_iterator(xml.begin(), xml.end(), item); match != std::sregex_iterator(); ++match) {
    ++items;
    const fs::path file = dir_ / (*match)[2].str();
    ASSERT_TRUE(fs::exists(file)) << file;
    const FileHandle snapshot_file = open_file(file);
    EXPECT_GT(H5Lexists(snapshot_file.get(), (*match)[3].str().c_str(), H5P_DEFAULT), 0) << (*match)[0];
    EXPECT_EQ(dims_of(snapshot_file.get(), (*match)[3].str()), parse_dims((*match)[1].str())) << (*match)[0];
  }
  EXPECT_EQ(items, 3 * static_cast<int>(xdmf_fields.size()));  // the mesh is given inline
}

TEST_F(SnapshotTest, XdmfIsWellFormedXml) {
  const char* python = "/usr/bin/python3";
  if (::access(python, X_OK) != 0) GTEST_SKIP() << python << " not found";
  const fs::path xmf = dir_ / "odd.xmf";
  write_xdmf(xmf, XdmfMesh{nx, nz, 62.5, 125.0}, {"u", "w"}, {{"a&b<1>.h5", 0.0}, {"c\"d'.h5", 1e-3}});
  std::ofstream(dir_ / "check.py") << R"(import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
series = root.find("Domain/Grid")
grids = series.findall("Grid")
assert root.tag == "Xdmf" and series.get("CollectionType") == "Temporal" and len(grids) == 2
assert all(g.find("Topology").get("TopologyType") == "3DCoRectMesh" for g in grids)
assert all(g.find("Topology").get("Dimensions") == "2 71 301" for g in grids)
assert all(g.find("Geometry").get("GeometryType") == "ORIGIN_DXDYDZ" for g in grids)
assert all([d.text for d in g.findall("Geometry/DataItem")] == ["0 0 0", "0 125 62.5"] for g in grids)
assert [g.find("Time").get("Value") for g in grids] == ["0", "0.001"]
assert grids[0].find("Attribute/DataItem").text == "a&b<1>.h5:/u"
assert grids[1].find("Attribute/DataItem").text == "c\"d'.h5:/u"
assert all(g.find("Attribute/DataItem").get("Dimensions") == "1 70 300" for g in grids)
)";
  const std::string command = std::string(python) + " " + (dir_ / "check.py").string() + " " + xmf.string();
  EXPECT_EQ(std::system(command.c_str()), 0) << testing::read_text(xmf);
}

}  // namespace
}  // namespace simapp::io
