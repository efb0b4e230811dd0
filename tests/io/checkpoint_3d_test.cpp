/// Checkpoints of the 3-D model (format 6): the state [5][nz][ny][nx] reads back bit for bit,
/// whole and by boxes; damage fails its checksum; ny and ylen are part of the header and of the
/// configuration hash; a 2-D checkpoint is refused for a 3-D run and the other way round.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/checkpoint/checkpoint.hpp"
#include "tests/support/checkpoint_files.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

constexpr int nx = 6, ny = 4, nz = 3, variables = 5;

RunSpec spec_3d() {
  RunSpec spec;
  spec.grid.nx = nx;
  spec.grid.ny = ny;
  spec.grid.nz = nz;
  spec.grid.ylen = 8000.0;
  return spec;
}

/// state(v, k, j, i) = 1000 v + 100 k + 10 j + i / 100: distinct and finite.
double value_of(int v, int k, int j, int i) { return 1000.0 * v + 100.0 * k + 10.0 * j + i / 100.0; }

std::vector<double> state_3d() {
  std::vector<double> values;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) values.push_back(value_of(v, k, j, i));
  return values;
}

CheckpointHeader header_3d(long step) {
  const RunSpec spec = spec_3d();
  CheckpointHeader header{step,
                          2.0 * static_cast<double>(step),
                          physics_hash(spec),
                          nx,
                          nz,
                          1.5e12,
                          2.5e17,
                          "thermal",
                          spec.grid.xlen,
                          spec.grid.zlen};
  header.ny = ny;
  header.ylen = spec.grid.ylen;
  return header;
}

/// FNV-1a, as checkpoint.hpp documents the hashes.
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

template <class Action>
std::string refusal(Action action) {
  try {
    action();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input) << e.what();
    return e.what();
  }
  return "no refusal";
}

class Checkpoint3dTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ =
        fs::temp_directory_path() /
        ("simapp_Checkpoint3dTest_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
         "_" + std::to_string(::getpid()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  fs::path write(long step) const {
    write_checkpoint(directory_, header_3d(step), state_3d(), "grid:\n  ny: 4\n");
    return checkpoint_path(directory_, step);
  }

  fs::path directory_;
};

TEST_F(Checkpoint3dTest, TheStateReadsBackBitForBitWholeAndByBoxes) {
  const fs::path path = write(12);
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.ny, ny);
  EXPECT_EQ(header.ylen, 8000.0);
  EXPECT_EQ(testing::attribute(path, "format_version"), 6.0);
  EXPECT_EQ(read_checkpoint_block(path, RankBox{nx, nz, 0, 0, ny, 0}), state_3d());
  for (const RankBox& box : {RankBox{3, 2, 2, 1, 2, 1}, RankBox{nx, 1, 0, 2, 1, 3}, RankBox{1, nz, 5, 0, ny, 0}}) {
    std::vector<double> expected;
    for (int v = 0; v < variables; ++v)
      for (int k = 0; k < box.nz; ++k)
        for (int j = 0; j < box.ny; ++j)
          for (int i = 0; i < box.nx; ++i)
            expected.push_back(value_of(v, box.k_offset + k, box.j_offset + j, box.i_offset + i));
    EXPECT_EQ(read_checkpoint_block(path, box), expected)
        << "box " << box.nx << "x" << box.ny << "x" << box.nz << " at " << box.i_offset << "," << box.j_offset << ","
        << box.k_offset;
  }
}

TEST_F(Checkpoint3dTest, ADamagedStateFailsItsChecksum) {
  const fs::path path = write(3);
  testing::flip_state_bit(path);
  EXPECT_NE(refusal([&] {
              read_checkpoint_block(path, RankBox{nx, nz, 0, 0, ny, 0});
            }).find("/state fails its checksum (corrupted)"),
            std::string::npos);
}

TEST_F(Checkpoint3dTest, NyAndYlenArePartOfTheConfigurationHash) {
  const RunSpec spec = spec_3d();
  const std::string common = fmt::format(
      "case=thermal;nx={};nz={};xlen={:a};zlen={:a};viscosity={:a};"
      "hyperviscosity={:a};cfl={:a}",
      nx, nz, spec.grid.xlen, spec.grid.zlen, spec.physics.viscosity, spec.physics.hyperviscosity, spec.time.cfl);
  EXPECT_EQ(physics_hash(spec), fnv1a(common + fmt::format(";ny={};ylen={:a}", ny, spec.grid.ylen)));
  RunSpec flat = spec;
  flat.grid.ny = 1;
  EXPECT_EQ(physics_hash(flat), fnv1a(common)) << "the 2-D model's hash has no y";
  flat.grid.ylen = 123.0;
  EXPECT_EQ(physics_hash(flat), fnv1a(common)) << "grid.ylen has no effect in 2-D";
}

TEST_F(Checkpoint3dTest, TheOtherModelsCheckpointIsRefusedByName) {
  const fs::path path = write(4);
  const CheckpointHeader header = read_checkpoint_header(path);
  RunSpec flat = spec_3d();
  flat.grid.ny = 1;
  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  EXPECT_NE(refusal([&] {
              check_restart_compatible(path, header, flat, stepping);
            }).find("a checkpoint of the 3-D model (ny = 4); this run is 2-D (grid.ny = 1)"),
            std::string::npos);

  CheckpointHeader header_2d = header;
  header_2d.ny = 1;
  EXPECT_NE(refusal([&] {
              check_restart_compatible(path, header_2d, spec_3d(), stepping);
            }).find("a checkpoint of the 2-D model (ny = 1); this run is 3-D (grid.ny = 4)"),
            std::string::npos);

  RunSpec other = spec_3d();
  other.grid.ny = 8;
  other.grid.ylen = 9000.0;
  const std::string message = refusal([&] { check_restart_compatible(path, header, other, stepping); });
  EXPECT_NE(message.find("grid 6 x 4 x 3 vs 6 x 8 x 3"), std::string::npos) << message;
  EXPECT_NE(message.find("ylen 8000 m vs 9000 m"), std::string::npos) << message;
}

}  // namespace
}  // namespace simapp::io
