/// The conventions every file simapp writes follows so that netCDF-C and its tools treat it as
/// their own, checked on the HDF5 objects themselves: text attributes as netCDF-C's NC_CHAR,
/// links and attributes tracked and indexed in creation order, a dimension without a variable as
/// netCDF-C marks one, and CF time with a reference date.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <filesystem>
#include <string>
#include <variant>

#include "io/hdf5/cf_time.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/netcdf_dimensions.hpp"
#include "tests/support/binary_test.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

constexpr unsigned tracked_and_indexed = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;

class NetcdfConventionsTest : public testing::BinaryTest {
 protected:
  fs::path path() const { return directory_ / "conventions.nc"; }

  /// A file with a text attribute, an empty one, a dataset with one, time, and the bnds dimension.
  void write_example() {
    write_new_file(path(), 1 << 20, [](hid_t file) {
      write_attribute(file, "title", std::string("a title"));
      write_attribute(file, "empty", std::string());
      const hsize_t one = 1;
      const DataspaceHandle space(H5Screate_simple(1, &one, nullptr));
      const DatasetHandle time(H5Dcreate2(file, "time", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                          dataset_creation_properties().get(), H5P_DEFAULT));
      ASSERT_TRUE(time.valid());
      write_time_attributes(time.get(), "1999-12-31T23:30:00Z");
      make_dimension_scale(file, "time");
      write_dimension_without_variable(file, "bnds", 2);
    });
  }
};

/// The type of attribute `name` of `object` (in `file`).
DatatypeHandle attribute_type(hid_t file, const char* object, const char* name) {
  const AttributeHandle attribute(H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT));
  return DatatypeHandle(H5Aget_type(attribute.get()));
}

TEST_F(NetcdfConventionsTest, WritesTextAsNetcdfCharacterAttributes) {
  write_example();
  const FileHandle file(H5Fopen(path().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_TRUE(file.valid());
  const DatatypeHandle title = attribute_type(file.get(), "/", "title");
  EXPECT_EQ(H5Tget_class(title.get()), H5T_STRING);
  EXPECT_EQ(H5Tis_variable_str(title.get()), 0) << "fixed length, as netCDF-C writes NC_CHAR";
  EXPECT_EQ(H5Tget_size(title.get()), 7u) << "the text's bytes, no terminating NUL";
  EXPECT_EQ(H5Tget_strpad(title.get()), H5T_STR_NULLTERM);
  EXPECT_EQ(H5Tget_cset(title.get()), H5T_CSET_ASCII);
  EXPECT_EQ(H5Tget_size(attribute_type(file.get(), "/", "empty").get()), 1u) << "an empty text is one NUL";
  const Hdf5Reader reader(file.get(), path(), ExitCode::io);
  EXPECT_EQ(reader.read_attribute<std::string>("title"), "a title");
  EXPECT_EQ(reader.read_attribute<std::string>("empty"), "");
}

TEST_F(NetcdfConventionsTest, TracksAndIndexesCreationOrderAsNetcdfDoes) {
  write_example();
  const FileHandle file(H5Fopen(path().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const hid_t root = H5Gopen2(file.get(), "/", H5P_DEFAULT);
  const PropertyListHandle group(H5Gget_create_plist(root));
  H5Gclose(root);
  unsigned links = 0, attributes = 0;
  ASSERT_GE(H5Pget_link_creation_order(group.get(), &links), 0);
  ASSERT_GE(H5Pget_attr_creation_order(group.get(), &attributes), 0);
  EXPECT_EQ(links, tracked_and_indexed) << "netCDF-C opens a group without it read-only (NC_ECANTWRITE)";
  EXPECT_EQ(attributes, tracked_and_indexed);
  const DatasetHandle time(H5Dopen2(file.get(), "time", H5P_DEFAULT));
  const PropertyListHandle dataset(H5Dget_create_plist(time.get()));
  unsigned dataset_attributes = 0;
  ASSERT_GE(H5Pget_attr_creation_order(dataset.get(), &dataset_attributes), 0);
  EXPECT_EQ(dataset_attributes, tracked_and_indexed);
}

TEST_F(NetcdfConventionsTest, MarksADimensionWithoutAVariableAsNetcdfDoes) {
  write_example();
  const FileHandle file(H5Fopen(path().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const DatasetHandle bnds(H5Dopen2(file.get(), "bnds", H5P_DEFAULT));
  ASSERT_TRUE(bnds.valid());
  EXPECT_GT(H5DSis_scale(bnds.get()), 0);
  char name[128] = {};
  ASSERT_GT(H5DSget_scale_name(bnds.get(), name, sizeof name), 0);
  EXPECT_EQ(std::string(name), "This is a netCDF dimension but not a netCDF variable.         2");
  const DataspaceHandle space(H5Dget_space(bnds.get()));
  EXPECT_EQ(H5Sget_simple_extent_npoints(space.get()), 2);
}

TEST_F(NetcdfConventionsTest, WritesCfTimeWithTheReferenceDate) {
  write_example();
  const FileHandle file(H5Fopen(path().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const auto text = [&](const char* name) {
    const AttributeHandle attribute(H5Aopen_by_name(file.get(), "time", name, H5P_DEFAULT, H5P_DEFAULT));
    const DatatypeHandle type(H5Aget_type(attribute.get()));
    std::string value(H5Tget_size(type.get()), '\0');
    H5Aread(attribute.get(), type.get(), value.data());
    return value;
  };
  EXPECT_EQ(text("units"), "seconds since 1999-12-31 23:30:00");
  EXPECT_EQ(text("calendar"), "proleptic_gregorian");
  EXPECT_EQ(text("standard_name"), "time");
  EXPECT_EQ(text("axis"), "T");
}

TEST(CfTime, ParsesIsoDatesAndTimesInUtc) {
  const auto parsed = [](const char* text) {
    const auto time = parse_utc_time(text);
    return std::holds_alternative<UtcTime>(time) ? iso_text(std::get<UtcTime>(time)) : std::get<std::string>(time);
  };
  EXPECT_EQ(parsed("2000-01-01T00:00:00Z"), "2000-01-01T00:00:00Z");
  EXPECT_EQ(parsed("2024-02-29"), "2024-02-29T00:00:00Z");
  EXPECT_EQ(parsed("1850-07-04 12:30"), "1850-07-04T12:30:00Z");
  EXPECT_EQ(parsed("0001-01-01T00:00:00"), "0001-01-01T00:00:00Z");
  EXPECT_EQ(parsed("2023-02-29"), "day 29 is not in 2023-02");
  EXPECT_EQ(parsed("1900-02-29"), "day 29 is not in 1900-02");
  EXPECT_EQ(parsed("2000-13-01"), "month 13 is not 1 to 12");
  EXPECT_EQ(parsed("2000-01-01T24:00:00Z"), "24:00:00 is not a time of day (00:00:00 to 23:59:59)");
  EXPECT_EQ(parsed("2000-01-01T00:00:60Z"), "00:00:60 is not a time of day (00:00:00 to 23:59:59)");
  EXPECT_EQ(parsed("0000-01-01"), "the year must be 0001 to 9999");
  EXPECT_EQ(parsed("2000-01-01T00:00:00+02:00"), "the zone +02:00 is not UTC: end the time with Z (or with no zone)");
  for (const char* wrong : {"", "2000", "2000-1-1", "01/01/2000", "2000-01-01T00", "2000-01-01Z", "yesterday",
                            "2000-01-01T00:00:00.5Z", " 2000-01-01"})
    EXPECT_EQ(parsed(wrong), "expected an ISO 8601 date and time in UTC, YYYY-MM-DDTHH:MM:SSZ") << wrong;
  EXPECT_EQ(cf_time_units(UtcTime{1850, 7, 4, 12, 30, 5}), "seconds since 1850-07-04 12:30:05");
}

}  // namespace
}  // namespace simapp::io
