#include "io/checkpoint/checkpoint.hpp"

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <sstream>
#include <string_view>
#include <system_error>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "foundation/error.hpp"
#include "foundation/fnv1a.hpp"
#include "foundation/printable_text.hpp"
#include "io/files/numbered_name.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/rank_written_file.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/grid/state_variables.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// The format described in checkpoint.hpp, for either model; files without format_version are
/// the format before 5.
constexpr int format_version = 7;
/// The formats before, which this simapp reads too: the 2-D model's (5) and the 3-D model's (6),
/// each of its model's dry variables without naming them.
constexpr int earlier_format_2d = 5;
constexpr int earlier_format_3d = 6;

/// The variables of the checkpoint's model and its tracers, in the order /state holds them.
StateVariables variables_of(const CheckpointHeader& header) {
  return StateVariables(model_dimensions(header.ny), header.tracers);
}

/// The tracers and how they started, as the hashes spell them; nothing without tracers.
std::string tracers_text(const std::vector<std::string>& tracers, TracerInit init) {
  if (tracers.empty()) return "";
  return fmt::format(";tracers={};tracer_init={}", fmt::join(tracers, ","), name_in(tracer_init_names, init));
}

/// Their stored names, separated by spaces: the attribute `variables`.
std::string variable_list(const CheckpointHeader& header) {
  std::string names;
  for (const VariableInfo& variable : variables_of(header)) {
    if (!names.empty()) names += ' ';
    names += variable.stored.name;
  }
  return names;
}

/// The tracers a `variables` attribute names after the dry variables `dry` ("rho" + each
/// tracer's name); none when it names no more, or not as a tracer is named.
std::vector<std::string> tracers_after(const std::string& variables, const std::string& dry) {
  if (!variables.starts_with(dry + " ")) return {};
  std::vector<std::string> tracers;
  std::istringstream names(variables.substr(dry.size() + 1));
  for (std::string name; names >> name;) {
    if (!name.starts_with("rho") || name.size() == 3) return {};
    tracers.push_back(name.substr(3));
  }
  return tracers;
}

Error io_error(const fs::path& path, const std::string& what) { return Error(ExitCode::io, path.string(), what); }
Error bad_input(const fs::path& path, const std::string& what) {
  return Error(ExitCode::bad_input, path.string(), what);
}

std::uint64_t bits(double value) { return std::bit_cast<std::uint64_t>(value); }

/// A configured bump's values as `text` spells each (its y only in the 3-D model, ny > 1):
/// amplitude, x0, (y0,) z0, xr, (yr,) zr.
template <class Text>
std::string bump_text(const Bump<3>& bump, int ny, Text text) {
  if (ny > 1)
    return fmt::format("{},{},{},{},{},{},{}", text(bump.amplitude), text(bump.x0), text(bump.y0), text(bump.z0),
                       text(bump.xr), text(bump.yr), text(bump.zr));
  return fmt::format("{},{},{},{},{}", text(bump.amplitude), text(bump.x0), text(bump.z0), text(bump.xr),
                     text(bump.zr));
}

/// ";diffusivity=" and physics.diffusivity as `text` spells it where it differs from the
/// viscosity, then ";diffusion_reference=initial_state" where that is θ's reference; nothing where
/// neither (every checkpoint before the keys).
template <class Text>
std::string diffusivity_text(const Dissipation& physics, Text text) {
  return (physics.diffusivity != physics.viscosity ? ";diffusivity=" + text(physics.diffusivity) : std::string()) +
         (physics.reference == DiffusionReference::initial_state ? ";diffusion_reference=initial_state" : "");
}

/// The 3-D model's grid (ny > 1) adds its y, a configured bump its values, a diffusivity other
/// than the viscosity its value; the hash of a 2-D run of the case's own bump is the same as
/// before any of them.
std::uint64_t physics_hash(std::string_view case_name, int nx, int nz, double xlen, double zlen,
                           const Dissipation& physics, double cfl, int ny, double ylen,
                           const std::optional<Bump<3>>& perturbation, const std::string& tracers) {
  const std::string y = ny > 1 ? fmt::format(";ny={};ylen={:a}", ny, ylen) : std::string();
  const std::string bump =
      perturbation ? ";perturbation=" + bump_text(*perturbation, ny, [](double v) { return fmt::format("{:a}", v); })
                   : std::string();
  return fnv1a(
      fmt::format("case={};nx={};nz={};xlen={:a};zlen={:a};viscosity={:a};hyperviscosity={:a}{};cfl={:a}{}{}{}",
                  case_name, nx, nz, xlen, zlen, physics.viscosity, physics.hyperviscosity,
                  diffusivity_text(physics, [](double v) { return fmt::format("{:a}", v); }), cfl, y, bump, tracers));
}

/// ";precision=float32" for a float32 checkpoint, as header_checksum spells it; nothing for a
/// float64 one (every checkpoint before the attribute).
std::string precision_text(Precision precision) {
  return precision == Precision::float64 ? std::string() : fmt::format(";precision={}", to_string(precision));
}

/// The tracers' masses at t = 0, as header_checksum spells them; nothing without tracers.
std::string tracer_masses_text(const std::vector<double>& masses) {
  std::string text;
  for (const double mass : masses) text += fmt::format(";initial_tracer_mass={:016x}", bits(mass));
  return text;
}

/// FNV-1a of every header value, exactly (doubles by their bits), and of `format`: with the
/// variables from format 7 on, and a float32 checkpoint's precision.
std::uint64_t header_checksum(const CheckpointHeader& header, int format = format_version) {
  const std::string y =
      header.ny > 1 ? fmt::format(";ny={};ylen={:016x}", header.ny, bits(header.ylen)) : std::string();
  const std::string bump = header.perturbation
                               ? ";perturbation=" + bump_text(*header.perturbation, header.ny,
                                                              [](double v) { return fmt::format("{:016x}", bits(v)); })
                               : std::string();
  const std::string variables = format >= format_version ? ";variables=" + variable_list(header) : std::string();
  return fnv1a(fmt::format("format_version={};step={};time={:016x};config_hash={};case={}:{};nx={};nz={};xlen={:016x};"
                           "zlen={:016x};initial_mass={:016x};initial_total_energy={:016x};viscosity={:016x};"
                           "hyperviscosity={:016x}{};cfl={:016x}",
                           format, header.step, bits(header.time), header.config_hash, header.case_name.size(),
                           header.case_name, header.nx, header.nz, bits(header.xlen), bits(header.zlen),
                           bits(header.initial_mass), bits(header.initial_total_energy), bits(header.physics.viscosity),
                           bits(header.physics.hyperviscosity),
                           diffusivity_text(header.physics, [](double v) { return fmt::format("{:016x}", bits(v)); }),
                           bits(header.cfl)) +
               y + bump + variables + tracers_text(header.tracers, header.tracer_init) +
               tracer_masses_text(header.initial_tracer_mass) + precision_text(header.precision));
}

/// The enumerator `names` gives the text of the checkpoint's attribute `attribute`; a bad-input
/// Error naming the table's names for another text.
template <class Enum, std::size_t N>
Enum enumerator_of(const fs::path& path, std::string_view attribute,
                   const std::array<std::pair<Enum, std::string_view>, N>& names, const std::string& text) {
  std::vector<std::string_view> known;
  for (const auto& [value, name] : names) {
    if (text == name) return value;
    known.push_back(name);
  }
  throw bad_input(
      path, fmt::format("attribute {} is '{}', not one of {}", attribute, printable(text), fmt::join(known, ", ")));
}

/// The step in a checkpoint's file name; nullopt for other names and steps that do not fit a long.
std::optional<long> step_of(const fs::path& file) {
  const std::optional<long> step = numbered_name_step(file.filename().string(), "checkpoint_");
  return step && *step >= 0 ? step : std::nullopt;
}

/// "a named pipe", "a directory", …: what a path that is not a regular file is.
std::string_view kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::fifo: return "a named pipe";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::block: return "a block device";
    case fs::file_type::character: return "a character device";
    default: return "of an unknown kind";
  }
}

/// A bad-input Error unless `path` is a regular file (or a link to one), before anything opens
/// it: opening a named pipe would wait for a writer forever.
void require_regular_file(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) throw bad_input(path, "no such checkpoint file");
  if (error) throw bad_input(path, "cannot inspect the checkpoint: " + error.message());
  if (!fs::is_regular_file(status))
    throw bad_input(path, fmt::format("not a regular file ({}); a checkpoint is an HDF5 file", kind_of(status.type())));
}

/// The header's values that cannot be right: "" when there is none.
std::string header_problem(const CheckpointHeader& header) {
  for (const auto& [name, value] :
       {std::pair{"time", header.time}, std::pair{"xlen", header.xlen}, std::pair{"zlen", header.zlen},
        std::pair{"initial_mass", header.initial_mass}, std::pair{"initial_total_energy", header.initial_total_energy},
        std::pair{"viscosity", header.physics.viscosity}, std::pair{"hyperviscosity", header.physics.hyperviscosity},
        std::pair{"cfl", header.cfl}})
    if (!std::isfinite(value)) return fmt::format("attribute {} is not finite ({})", name, value);
  if (header.step < 0) return fmt::format("attribute step is {}; expected a step >= 0", header.step);
  for (const auto& [name, value] : {std::pair{"nx", header.nx}, std::pair{"ny", header.ny}, std::pair{"nz", header.nz}})
    if (value <= 0) return fmt::format("attribute {} is {}; expected a positive number of cells", name, value);
  if (header.ny > 1 && !(std::isfinite(header.ylen) && header.ylen > 0.0))
    return fmt::format("attribute ylen is {} m; expected a positive length", header.ylen);
  for (const auto& [name, value] : {std::pair{"xlen", header.xlen}, std::pair{"zlen", header.zlen}})
    if (value <= 0.0) return fmt::format("attribute {} is {} m; expected a positive length", name, value);
  for (const auto& [name, value] :
       {std::pair{"viscosity", header.physics.viscosity}, std::pair{"hyperviscosity", header.physics.hyperviscosity}})
    if (value < 0.0) return fmt::format("attribute {} is {}; expected a value >= 0", name, value);
  if (header.cfl <= 0.0) return fmt::format("attribute cfl is {}; expected a Courant number > 0", header.cfl);
  if (header.perturbation) {
    const Bump<3>& bump = *header.perturbation;
    for (const auto& [name, value] :
         {std::pair{"perturbation_amplitude", bump.amplitude}, std::pair{"perturbation_x0", bump.x0},
          std::pair{"perturbation_y0", bump.y0}, std::pair{"perturbation_z0", bump.z0}})
      if (!std::isfinite(value)) return fmt::format("attribute {} is not finite ({})", name, value);
    for (const auto& [name, value] : {std::pair{"perturbation_xr", bump.xr}, std::pair{"perturbation_yr", bump.yr},
                                      std::pair{"perturbation_zr", bump.zr}})
      if (!(value > 0.0)) return fmt::format("attribute {} is {} m; expected a radius > 0", name, value);
  }
  return "";
}

/// Where the first value of `values` [var][k][i] ([var][k][j][i] in the 3-D model of `header`)
/// over `box` that is not finite is; "" when all are.
template <class T>
std::string first_non_finite(std::span<const T> values, const RankBox& box, const CheckpointHeader& header) {
  const auto found = std::ranges::find_if(values, [](double value) { return !std::isfinite(value); });
  if (found == values.end()) return "";
  const auto index = static_cast<std::size_t>(found - values.begin());
  const std::size_t per_var = static_cast<std::size_t>(box.nz) * box.ny * box.nx;
  const std::size_t in_var = index % per_var;
  const long i = box.i_offset + static_cast<long>(in_var % box.nx);
  const long j = box.j_offset + static_cast<long>(in_var / box.nx % box.ny);
  const long k = box.k_offset + static_cast<long>(in_var / (static_cast<std::size_t>(box.nx) * box.ny));
  const char* name = variables_of(header)[static_cast<int>(index / per_var)].stored.name;
  if (header.ny > 1)
    return fmt::format("{} is not finite ({}) at cell (i, j, k) = ({}, {}, {})", name, *found, i, j, k);
  return fmt::format("{} is not finite ({}) at cell (i, k) = ({}, {})", name, *found, i, k);
}

/// Whether `box` holds at least one cell and lies in the grid of `header`.
bool box_fits(const RankBox& box, const CheckpointHeader& header) {
  return box.nx > 0 && box.ny > 0 && box.nz > 0 && box.i_offset >= 0 && box.j_offset >= 0 && box.k_offset >= 0 &&
         box.i_offset + box.nx <= header.nx && box.j_offset + box.ny <= header.ny && box.k_offset + box.nz <= header.nz;
}

/// The values of the model's variables on the cells of `box`.
std::size_t box_values(const RankBox& box, const CheckpointHeader& header) {
  return static_cast<std::size_t>(variables_of(header).size()) * static_cast<std::size_t>(box.nz) * box.ny * box.nx;
}

/// The checksum segments of a row of `nx` cells.
int segments_of(int nx) { return (nx + checksum_columns - 1) / checksum_columns; }

/// The checksums [var][k][segment] ([var][k][j][segment] in 3-D) over the whole grid of what
/// `block` (this rank's cells [var][k][(j)][i] over `box`, as stored: doubles, or floats of a
/// float32 checkpoint, each checksummed as the double it reads back as) contributes: zero for
/// segments it has no cell of.
template <class T>
std::vector<std::uint64_t> checksums_of(std::span<const T> block, const RankBox& box, const CheckpointHeader& header) {
  const auto segments = static_cast<std::size_t>(segments_of(header.nx));
  const int variables = variables_of(header).size();
  std::vector<std::uint64_t> sums(variables * static_cast<std::size_t>(header.nz) * header.ny * segments, 0);
  std::size_t n = 0;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int j = 0; j < box.ny; ++j) {
        const std::size_t global_row =
            (static_cast<std::size_t>(v) * header.nz + box.k_offset + k) * header.ny + box.j_offset + j;
        std::uint64_t* row = sums.data() + global_row * segments;
        for (int i = 0; i < box.nx; ++i, ++n) {
          const int column = box.i_offset + i;
          row[column / checksum_columns] +=
              checksum_share(static_cast<double>(block[n]), static_cast<std::uint64_t>(column));
        }
      }
  return sums;
}

/// The shape of /state: [variables][nz][nx], or [variables][nz][ny][nx] in 3-D; of
/// /state_checksums the same with segments for columns.
std::vector<hsize_t> state_dims(const CheckpointHeader& header, int columns) {
  const auto variables = static_cast<hsize_t>(variables_of(header).size());
  if (header.ny > 1)
    return {variables, static_cast<hsize_t>(header.nz), static_cast<hsize_t>(header.ny), static_cast<hsize_t>(columns)};
  return {variables, static_cast<hsize_t>(header.nz), static_cast<hsize_t>(columns)};
}

std::string dims_text(const std::vector<hsize_t>& dims) { return fmt::format("{}", fmt::join(dims, " x ")); }

/// Creates dataset `name` of `type` and shape `dims`, reserved for the ranks to fill.
void reserve_dataset(hid_t file, const char* name, hid_t type, const std::vector<hsize_t>& dims) {
  const PropertyListHandle creation = reserved_dataset_properties();
  const DataspaceHandle space(checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                                      std::string("cannot create the dataspace of /") + name));
  check(DatasetHandle(checked(H5Dcreate2(file, name, type, space.get(), H5P_DEFAULT, creation.get(), H5P_DEFAULT),
                              std::string("cannot create dataset /") + name))
            .close(),
        std::string("cannot close dataset /") + name);
}

/// The attributes that record a configured bump, by name: its y only in the 3-D model (ny > 1).
std::vector<std::pair<std::string, double>> perturbation_attributes(const Bump<3>& bump, int ny) {
  std::vector<std::pair<std::string, double>> attributes{{"perturbation_amplitude", bump.amplitude},
                                                         {"perturbation_x0", bump.x0},
                                                         {"perturbation_z0", bump.z0},
                                                         {"perturbation_xr", bump.xr},
                                                         {"perturbation_zr", bump.zr}};
  if (ny > 1) {
    attributes.emplace_back("perturbation_y0", bump.y0);
    attributes.emplace_back("perturbation_yr", bump.yr);
  }
  return attributes;
}

/// The shape of /surface_water: [field][nx], in the 3-D model [field][ny][nx].
std::vector<hsize_t> surface_dims(const CheckpointHeader& header) {
  const auto fields = static_cast<hsize_t>(surface_water_fields), nx = static_cast<hsize_t>(header.nx);
  if (header.ny > 1) return {fields, static_cast<hsize_t>(header.ny), nx};
  return {fields, nx};
}

/// The checksum of the surface fields: the sum modulo 2^64 of each value's checksum_share with
/// its place in /surface_water.
std::uint64_t surface_checksum(std::span<const double> surface) {
  std::uint64_t sum = 0;
  for (std::size_t n = 0; n < surface.size(); ++n) sum += checksum_share(surface[n], n);
  return sum;
}

/// Writes /surface_water, the surface fields of a run with water, and its checksum attribute.
void write_surface_water(hid_t file, const CheckpointHeader& header, std::span<const double> surface) {
  const std::vector<hsize_t> dims = surface_dims(header);
  const DataspaceHandle space(checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                                      "cannot create the dataspace of /surface_water"));
  DatasetHandle dataset(checked(H5Dcreate2(file, "surface_water", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                           dataset_creation_properties().get(), H5P_DEFAULT),
                                "cannot create dataset /surface_water"));
  check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, surface.data()),
        "cannot write dataset /surface_water");
  write_attribute(dataset.get(), "checksum", static_cast<unsigned long>(surface_checksum(surface)));
  check(dataset.close(), "cannot close dataset /surface_water");
}

/// The checkpoint's layout, into the scratch HDF5 file that write_layout gives: /state and
/// /state_checksums reserved, with water /surface_water written whole, the header as attributes.
void lay_out_checkpoint(hid_t file, const CheckpointHeader& header, const std::string& input_yaml,
                        std::span<const double> surface) {
  reserve_dataset(file, "state", stored_float_type(header.precision), state_dims(header, header.nx));
  reserve_dataset(file, "state_checksums", H5T_STD_U64LE, state_dims(header, segments_of(header.nx)));
  if (!surface.empty()) write_surface_water(file, header, surface);
  write_attribute(file, "format_version", format_version);
  write_attribute(file, "variables", variable_list(header));
  write_attribute(file, "precision", std::string(to_string(header.precision)));
  if (!header.tracers.empty())
    write_attribute(file, "tracer_init", std::string(name_in(tracer_init_names, header.tracer_init)));
  write_attribute(file, "step", header.step);
  write_attribute(file, "time", header.time);
  write_attribute(file, "config_hash", static_cast<unsigned long>(header.config_hash));
  write_attribute(file, "case", header.case_name);
  write_attribute(file, "nx", header.nx);
  write_attribute(file, "nz", header.nz);
  write_attribute(file, "xlen", header.xlen);
  write_attribute(file, "zlen", header.zlen);
  if (header.ny > 1) {  // the 3-D model
    write_attribute(file, "ny", header.ny);
    write_attribute(file, "ylen", header.ylen);
  }
  write_attribute(file, "initial_mass", header.initial_mass);
  write_attribute(file, "initial_total_energy", header.initial_total_energy);
  for (std::size_t t = 0; t < header.tracers.size(); ++t)
    write_attribute(file, "initial_mass_" + header.tracers[t], header.initial_tracer_mass.at(t));
  write_attribute(file, "viscosity", header.physics.viscosity);
  write_attribute(file, "hyperviscosity", header.physics.hyperviscosity);
  if (header.physics.diffusivity != header.physics.viscosity)
    write_attribute(file, "diffusivity", header.physics.diffusivity);
  if (header.physics.reference == DiffusionReference::initial_state)
    write_attribute(file, "diffusion_reference",
                    std::string(name_in(diffusion_reference_names, header.physics.reference)));
  write_attribute(file, "cfl", header.cfl);
  if (header.perturbation)
    for (const auto& [name, value] : perturbation_attributes(*header.perturbation, header.ny))
      write_attribute(file, name, value);
  write_attribute(file, "header_checksum", static_cast<unsigned long>(header_checksum(header)));
  write_attribute(file, "input_yaml", input_yaml);
}

/// More than the bytes of the checkpoint file: its datasets (`surface_values` of the surface
/// fields), the input YAML, and room for the metadata.
long long checkpoint_size_bound(const CheckpointHeader& header, const std::string& input_yaml,
                                std::size_t surface_values) {
  const long long rows = static_cast<long long>(variables_of(header).size()) * header.nz * header.ny;
  return rows * (static_cast<long long>(header.nx) * static_cast<long long>(value_bytes(header.precision)) +
                 8LL * segments_of(header.nx)) +
         static_cast<long long>(surface_values) * 8 + static_cast<long long>(input_yaml.size()) + (64LL << 10);
}

/// Writes this rank's cells [var][k][(j)][i] over `box` (doubles, or floats in a float32
/// checkpoint) into /state's bytes, which start at `first`: each variable's rows in one run a file
/// row apart where the box spans the grid's y (always in 2-D), else each layer's.
template <class T>
void write_state_rows(const RowSink& sink, std::span<const T> block, const RankBox& box, const CheckpointHeader& header,
                      long long first) {
  static_assert(std::endian::native == std::endian::little, "the state is stored as little-endian floats");
  constexpr auto value_bytes = static_cast<long long>(sizeof(T));
  const auto row_values = static_cast<std::size_t>(box.nx);
  const bool spans_y = box.ny == header.ny;
  const int runs = spans_y ? 1 : box.nz;
  const auto run_rows = static_cast<std::size_t>(spans_y ? box.nz * box.ny : box.ny);
  const T* values = block.data();
  for (int v = 0; v < variables_of(header).size(); ++v)
    for (int run = 0; run < runs; ++run, values += run_rows * row_values) {
      const long long row = (static_cast<long long>(v) * header.nz + box.k_offset + run) * header.ny + box.j_offset;
      write_rows(sink, values, row_values, run_rows, static_cast<std::size_t>(header.nx),
                 first + (row * header.nx + box.i_offset) * value_bytes);
    }
}

/// Sums `values` over the ranks into rank 0's, in messages whose counts fit an int.
void sum_to_root(std::vector<std::uint64_t>& values, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::size_t done = 0;
  for (const int size : message_sizes(values.size())) {
    void* send = rank == 0 ? MPI_IN_PLACE : static_cast<void*>(values.data() + done);
    MPI_Reduce(send, values.data() + done, size, MPI_UINT64_T, MPI_SUM, 0, comm);
    done += static_cast<std::size_t>(size);
  }
}

/// Removes the checkpoints in `directory` other than `kept`: regular files named like one that
/// are simapp checkpoints. Anything else (a user's file of that name, a link, a pipe) stays.
void remove_other_checkpoints(const fs::path& directory, const fs::path& kept) {
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(directory, ignored))
    if (entry.path() != kept && step_of(entry.path()) && is_simapp_checkpoint(entry.path()))
      fs::remove(entry.path(), ignored);
}

/// The bump of `spec`'s run: the 3-D model's, or the 2-D model's uniform in y.
Bump<3> bump_of(const RunSpec& spec) {
  return spec.grid.ny > 1 ? configured_bump<3>(spec) : uniform_in_y(configured_bump<2>(spec));
}

/// The case's own bump, likewise.
Bump<3> own_bump(const RunSpec& spec) {
  const Bump<2> own = case_bump(spec.case_name, spec.grid.xlen);
  return spec.grid.ny > 1 ? model_bump<3>(own, spec.grid.ylen) : uniform_in_y(own);
}

/// Adds to `add` how bump `recorded` differs from `configured` by the key that sets it:
/// perturbation.amplitude, center, radii (lists [x, z], or [x, y, z] in the 3-D model).
template <class Add>
void add_bump_differences(const Bump<3>& recorded, const Bump<3>& configured, int ny, const Add& add) {
  if (recorded.amplitude != configured.amplitude)
    add(fmt::format("perturbation.amplitude {} vs {}", recorded.amplitude, configured.amplitude));
  const auto centre = [ny](const Bump<3>& b) {
    return ny > 1 ? std::vector{b.x0, b.y0, b.z0} : std::vector{b.x0, b.z0};
  };
  const auto radii = [ny](const Bump<3>& b) {
    return ny > 1 ? std::vector{b.xr, b.yr, b.zr} : std::vector{b.xr, b.zr};
  };
  if (centre(recorded) != centre(configured))
    add(fmt::format("perturbation.center [{}] vs [{}]", fmt::join(centre(recorded), ", "),
                    fmt::join(centre(configured), ", ")));
  if (radii(recorded) != radii(configured))
    add(fmt::format("perturbation.radii [{}] vs [{}]", fmt::join(radii(recorded), ", "),
                    fmt::join(radii(configured), ", ")));
}

}  // namespace

std::uint64_t checksum_share(double value, std::uint64_t column) {
  // The bits mixed with the column by splitmix64's finalizer, a bijection.
  std::uint64_t x = bits(value) ^ (column * 0x9E3779B97F4A7C15ull);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::optional<Bump<3>> configured_perturbation(const RunSpec& spec) {
  const Bump<3> configured = bump_of(spec);
  const Bump<3> own = own_bump(spec);
  const auto values = [](const Bump<3>& b) { return std::array{b.amplitude, b.x0, b.y0, b.z0, b.xr, b.yr, b.zr}; };
  return values(configured) == values(own) ? std::nullopt : std::optional(configured);
}

std::uint64_t physics_hash(const RunSpec& spec) {
  return physics_hash(to_string(spec.case_name), spec.grid.nx, spec.grid.nz, spec.grid.xlen, spec.grid.zlen,
                      spec.physics, spec.time.cfl, spec.grid.ny, spec.grid.ylen, configured_perturbation(spec),
                      tracers_text(state_tracers(spec.grid), spec.grid.tracer_init));
}

fs::path checkpoint_path(const fs::path& directory, long step) {
  return directory / fmt::format("checkpoint_{:06}.h5", step);
}

void write_checkpoint(const fs::path& directory, const CheckpointHeader& header, const RankBox& box,
                      std::span<const double> block, const std::string& input_yaml, MPI_Comm comm,
                      std::span<const double> surface) {
  const fs::path path = checkpoint_path(directory, header.step);
  if (physics_hash(header.case_name, header.nx, header.nz, header.xlen, header.zlen, header.physics, header.cfl,
                   header.ny, header.ylen, header.perturbation,
                   tracers_text(header.tracers, header.tracer_init)) != header.config_hash)
    throw Error(ExitCode::internal, path.string(),
                "the checkpoint's case, grid, domain, physics, cfl and bump do not give its config_hash");
  if (!box_fits(box, header) || block.size() != box_values(box, header))
    throw Error(ExitCode::internal, path.string(), "the rank's block does not match the checkpoint's grid");
  // A state that is not finite could never be restarted: keep the earlier checkpoints instead.
  if (const std::string problem = header_problem(header); !problem.empty())
    throw Error(ExitCode::numerical, path.string(), "not written: " + problem);
  // A float32 checkpoint stores the state rounded to floats (exactly the state of a float32 run);
  // what it stores is checked, checksummed and written.
  const std::vector<float> floats = header.precision == Precision::float32 ? as_floats(block) : std::vector<float>();
  const auto stored_problem = [&] {
    return header.precision == Precision::float32 ? first_non_finite(std::span<const float>(floats), box, header)
                                                  : first_non_finite(block, box, header);
  };
  run_agreed(comm, [&] {
    if (const std::string problem = stored_problem(); !problem.empty())
      throw Error(ExitCode::numerical, path.string(), "not written: the state's " + problem);
    if (!surface.empty() && !std::ranges::all_of(surface, [](double value) { return std::isfinite(value); }))
      throw Error(ExitCode::numerical, path.string(), "not written: a surface field holds a value that is not finite");
  });
  const auto surface_values = static_cast<std::size_t>(surface_water_fields) * header.nx * header.ny;
  if (!surface.empty() && surface.size() != surface_values)
    throw Error(ExitCode::internal, path.string(), "the surface fields do not match the checkpoint's grid");
  std::vector<std::uint64_t> checksums = header.precision == Precision::float32
                                             ? checksums_of(std::span<const float>(floats), box, header)
                                             : checksums_of(block, box, header);
  sum_to_root(checksums, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  RankWrittenFile file(
      path, checkpoint_size_bound(header, input_yaml, surface_values), {"state", "state_checksums"},
      [&](hid_t layout) { lay_out_checkpoint(layout, header, input_yaml, surface); }, comm);
  run_agreed(comm, [&] {
    file.write_part([&](const RowSink& sink) {
      if (header.precision == Precision::float32)
        write_state_rows(sink, std::span<const float>(floats), box, header, file.ranges()[0].offset);
      else
        write_state_rows(sink, block, box, header, file.ranges()[0].offset);
      if (rank == 0)
        sink(checksums.data(), checksums.size() * sizeof(std::uint64_t), static_cast<off_t>(file.ranges()[1].offset));
    });
  });
  run_on_root_agreed(comm, [&] {
    file.publish();
    // Read back before trusting it; only then are older checkpoints removed.
    try {
      const CheckpointHeader written = read_checkpoint_header(path);
      if (header_checksum(written) != header_checksum(header))
        throw io_error(path, "reads back differently from what was written");
    } catch (const Error& e) {
      if (e.code() != ExitCode::bad_input) throw;
      throw io_error(path, std::string("does not read back: ") + e.what());
    }
    remove_other_checkpoints(directory, path);
  });
}

void write_checkpoint(const fs::path& directory, const CheckpointHeader& header,
                      const std::vector<double>& global_state, const std::string& input_yaml,
                      std::span<const double> surface) {
  write_checkpoint(directory, header, RankBox{header.nx, header.nz, 0, 0, header.ny, 0}, global_state, input_yaml,
                   MPI_COMM_SELF, surface);
}

bool is_simapp_checkpoint(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(path, error)) || error) return false;
  return has_root_attributes(path, {"config_hash", "input_yaml"});
}

std::optional<fs::path> latest_checkpoint(const fs::path& directory) {
  // Of two spellings of one step (checkpoint_7.h5, checkpoint_000007.h5), the canonical one.
  const auto order = [&](long step, const fs::path& path) {
    return std::pair{step, path == checkpoint_path(directory, step)};
  };
  std::optional<std::pair<long, fs::path>> newest;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::optional<long> step = step_of(entry.path());
    std::error_code ignored;
    if (!step || !entry.is_regular_file(ignored)) continue;  // pipes, directories, dangling links
    if (!newest || order(*step, entry.path()) > order(newest->first, newest->second)) newest = {*step, entry.path()};
  }
  if (!newest) return std::nullopt;
  return newest->second;
}

CheckpointHeader read_checkpoint_header(const fs::path& path) {
  require_regular_file(path);
  const Hdf5Reader file(path, ExitCode::bad_input);
  for (const char* name : {"config_hash", "input_yaml"})
    if (!file.has_attribute(name))
      throw bad_input(path, fmt::format("not a simapp checkpoint (no attribute {})", name));
  if (!file.has_attribute("format_version") || !file.has_attribute("header_checksum"))
    throw bad_input(path, "written by an older simapp without checksums; cannot be verified");
  const int format = file.read_attribute<int>("format_version");
  if (format != format_version && format != earlier_format_2d && format != earlier_format_3d)
    throw bad_input(path, fmt::format("checkpoint format {}; this simapp reads format {} (and formats {} and {}, of "
                                      "the 2-D and the 3-D model, which simapp wrote before)",
                                      format, format_version, earlier_format_2d, earlier_format_3d));

  CheckpointHeader header;
  header.step = file.read_attribute<long>("step");
  header.time = file.read_attribute<double>("time");
  header.config_hash = file.read_attribute<unsigned long>("config_hash");
  header.case_name = file.read_attribute<std::string>("case");
  header.nx = file.read_attribute<int>("nx");
  header.nz = file.read_attribute<int>("nz");
  header.xlen = file.read_attribute<double>("xlen");
  header.zlen = file.read_attribute<double>("zlen");
  // The 3-D model's checkpoint has a y: format 6, or format 7 with either of ny and ylen.
  const bool three_d = format == earlier_format_3d ||
                       (format == format_version && (file.has_attribute("ny") || file.has_attribute("ylen")));
  if (three_d) {
    for (const char* name : {"ny", "ylen"})
      if (!file.has_attribute(name)) throw bad_input(path, fmt::format("a 3-D checkpoint without attribute {}", name));
    header.ny = file.read_attribute<int>("ny");
    header.ylen = file.read_attribute<double>("ylen");
    if (header.ny <= 1)
      throw bad_input(path, fmt::format("attribute ny is {}; a 3-D checkpoint has more than one cell in y", header.ny));
  }
  if (format == format_version) {
    // Formats 5 and 6 hold their model's variables unnamed; this one names those it holds.
    const std::string variables = file.read_attribute<std::string>("variables");
    header.tracers = tracers_after(variables, variable_list(header));
    if (!header.tracers.empty())
      header.tracer_init =
          enumerator_of(path, "tracer_init", tracer_init_names, file.read_attribute<std::string>("tracer_init"));
    if (variables != variable_list(header))
      throw bad_input(path, fmt::format("checkpoint of the variables {}; the {}-D model's are {}", variables,
                                        model_dimensions(header.ny), variable_list(header)));
  }
  // Checkpoints before the attribute hold doubles.
  if (file.has_attribute("precision"))
    header.precision = enumerator_of(path, "precision", precision_names, file.read_attribute<std::string>("precision"));
  header.initial_mass = file.read_attribute<double>("initial_mass");
  header.initial_total_energy = file.read_attribute<double>("initial_total_energy");
  for (const std::string& tracer : header.tracers)
    header.initial_tracer_mass.push_back(file.read_attribute<double>("initial_mass_" + tracer));
  header.physics.viscosity = file.read_attribute<double>("viscosity");
  header.physics.hyperviscosity = file.read_attribute<double>("hyperviscosity");
  header.physics.diffusivity =
      file.has_attribute("diffusivity") ? file.read_attribute<double>("diffusivity") : header.physics.viscosity;
  if (file.has_attribute("diffusion_reference"))
    header.physics.reference = enumerator_of(path, "diffusion_reference", diffusion_reference_names,
                                             file.read_attribute<std::string>("diffusion_reference"));
  header.cfl = file.read_attribute<double>("cfl");
  if (file.has_attribute("perturbation_amplitude")) {
    Bump<3>& bump = header.perturbation.emplace(uniform_in_y(Bump<2>{}));
    bump.amplitude = file.read_attribute<double>("perturbation_amplitude");
    bump.x0 = file.read_attribute<double>("perturbation_x0");
    bump.z0 = file.read_attribute<double>("perturbation_z0");
    bump.xr = file.read_attribute<double>("perturbation_xr");
    bump.zr = file.read_attribute<double>("perturbation_zr");
    if (three_d) {
      bump.y0 = file.read_attribute<double>("perturbation_y0");
      bump.yr = file.read_attribute<double>("perturbation_yr");
    }
  }
  const std::uint64_t checksum = file.read_attribute<unsigned long>("header_checksum");
  // Values that cannot be right are named before the checksum, which they also fail.
  if (const std::string problem = header_problem(header); !problem.empty()) throw bad_input(path, problem);
  if (checksum != header_checksum(header, format))
    throw bad_input(path, "header attributes fail their checksum (corrupted)");
  return header;
}

std::vector<double> read_checkpoint_block(const fs::path& path, const RankBox& box) {
  const CheckpointHeader header = read_checkpoint_header(path);
  if (!box_fits(box, header))
    throw Error(ExitCode::internal, path.string(), "the cells asked for are not all in the checkpoint's grid");
  const bool three_d = header.ny > 1;
  const int variables = variables_of(header).size();
  const Hdf5Reader file(path, ExitCode::bad_input);
  const DatasetShape state = file.dataset_shape("state");
  const bool floats = header.precision == Precision::float32;
  if (state.type != (floats ? StoredType::float32 : StoredType::float64))
    throw bad_input(
        path, fmt::format("/state holds {} values; expected {}-bit IEEE floats", state.type_name, floats ? 32 : 64));
  const std::vector<hsize_t> expected = state_dims(header, header.nx);
  if (state.dims != expected)
    throw bad_input(path, fmt::format("/state has shape {}; expected {} (the variables on its {} cells)",
                                      state.dims_text(), dims_text(expected), three_d ? "nz x ny x nx" : "nz x nx"));
  const auto segments = segments_of(header.nx);
  const std::vector<hsize_t> expected_sums = state_dims(header, segments);
  const auto has_checksums = [&] {
    if (!file.has_dataset("state_checksums")) return false;
    const DatasetShape sums = file.dataset_shape("state_checksums");
    return (sums.type == StoredType::int64 || sums.type == StoredType::uint64) && sums.dims == expected_sums;
  };
  if (!has_checksums())
    throw bad_input(path, fmt::format("/state carries no checksums of shape {} (/state_checksums); cannot be verified",
                                      dims_text(expected_sums)));

  // The whole checksum segments this rank's columns lie in, read and checked, then its columns kept.
  const hsize_t first_segment = static_cast<hsize_t>(box.i_offset / checksum_columns);
  const hsize_t last_segment = static_cast<hsize_t>((box.i_offset + box.nx - 1) / checksum_columns);
  const hsize_t column0 = first_segment * checksum_columns;
  const hsize_t columns =
      std::min<hsize_t>((last_segment + 1) * checksum_columns, static_cast<hsize_t>(header.nx)) - column0;
  const hsize_t rows = static_cast<hsize_t>(box.nz) * static_cast<hsize_t>(box.ny);  // (k, j) in order
  const hsize_t segments_read = last_segment - first_segment + 1;
  // The hyperslab of variable v: its rows of the box, starting at `column`, `count` wide.
  const auto slab = [&](int v, hsize_t column, hsize_t count) -> Hyperslab {
    if (three_d)
      return {{static_cast<hsize_t>(v), static_cast<hsize_t>(box.k_offset), static_cast<hsize_t>(box.j_offset), column},
              {1, static_cast<hsize_t>(box.nz), static_cast<hsize_t>(box.ny), count}};
    return {{static_cast<hsize_t>(v), static_cast<hsize_t>(box.k_offset), column}, {1, rows, count}};
  };
  std::vector<double> block(box_values(box, header));
  for (int v = 0; v < variables; ++v) {
    const std::vector<double> stored = file.read_dataset<double>("state", slab(v, column0, columns));
    const std::vector<unsigned long> stored_sums =
        file.read_dataset<unsigned long>("state_checksums", slab(v, first_segment, segments_read));
    for (hsize_t r = 0; r < rows; ++r) {
      std::vector<std::uint64_t> found(segments_read, 0);
      for (hsize_t i = 0; i < columns; ++i)
        found[(column0 + i) / checksum_columns - first_segment] += checksum_share(stored[r * columns + i], column0 + i);
      if (!std::equal(found.begin(), found.end(), stored_sums.begin() + static_cast<std::ptrdiff_t>(r * found.size())))
        throw bad_input(path, "/state fails its checksum (corrupted)");
      std::copy_n(stored.data() + r * columns + (static_cast<hsize_t>(box.i_offset) - column0), box.nx,
                  block.data() + (static_cast<std::size_t>(v) * rows + r) * box.nx);
    }
  }
  if (const std::string problem = first_non_finite(std::span<const double>(block), box, header); !problem.empty())
    throw bad_input(path, "/state: " + problem);
  return block;
}

std::vector<double> read_checkpoint_surface(const fs::path& path, const RankBox& box) {
  const CheckpointHeader header = read_checkpoint_header(path);
  if (!box_fits(box, header))
    throw Error(ExitCode::internal, path.string(), "the columns asked for are not all in the checkpoint's grid");
  const Hdf5Reader file(path, ExitCode::bad_input);
  if (!file.has_dataset("surface_water"))
    throw bad_input(path,
                    "holds no surface fields of the microphysics (/surface_water): not a checkpoint of a run "
                    "with water, or one of a simapp that did not keep them");
  const DatasetShape shape = file.dataset_shape("surface_water");
  const std::vector<hsize_t> expected = surface_dims(header);
  if (shape.type != StoredType::float64 || shape.dims != expected)
    throw bad_input(path, fmt::format("/surface_water holds {} values of shape {}; expected 64-bit IEEE floats of "
                                      "shape {} (precipitation, rain rate, clipped water on its columns)",
                                      shape.type_name, shape.dims_text(), dims_text(expected)));
  const std::vector<double> surface = file.read_dataset<double>("surface_water");
  if (surface_checksum(surface) != file.read_attribute<unsigned long>("checksum", "surface_water"))
    throw bad_input(path, "/surface_water fails its checksum (corrupted)");
  if (!std::ranges::all_of(surface, [](double value) { return std::isfinite(value); }))
    throw bad_input(path, "/surface_water holds a value that is not finite");
  // The box's columns of each field, [field][j][i].
  const auto nx = static_cast<std::size_t>(header.nx), ny = static_cast<std::size_t>(header.ny);
  std::vector<double> columns;
  columns.reserve(static_cast<std::size_t>(surface_water_fields) * box.ny * box.nx);
  for (std::size_t field = 0; field < static_cast<std::size_t>(surface_water_fields); ++field)
    for (int j = 0; j < box.ny; ++j) {
      const auto first = surface.begin() + static_cast<std::ptrdiff_t>((field * ny + box.j_offset + j) * nx +
                                                                       static_cast<std::size_t>(box.i_offset));
      columns.insert(columns.end(), first, first + box.nx);
    }
  return columns;
}

void check_restart_compatible(const fs::path& path, const CheckpointHeader& header, const RunSpec& spec,
                              const TimeStepping& stepping) {
  const std::string_view case_name = to_string(spec.case_name);
  const GridSpec& grid = spec.grid;
  if (header.precision != spec.execution.precision)
    throw bad_input(path, fmt::format("holds a {} state; this run's execution.precision is {} (restart with --set "
                                      "execution.precision={})",
                                      to_string(header.precision), to_string(spec.execution.precision),
                                      to_string(header.precision)));
  if ((header.ny > 1) != (grid.ny > 1))
    throw bad_input(path, header.ny > 1 ? fmt::format("a checkpoint of the 3-D model (ny = {}); this run is 2-D "
                                                      "(grid.ny = 1)",
                                                      header.ny)
                                        : fmt::format("a checkpoint of the 2-D model (ny = 1); this run is 3-D "
                                                      "(grid.ny = {})",
                                                      grid.ny));
  std::string differences;
  const auto add = [&](const std::string& difference) {
    differences += (differences.empty() ? "" : "; ") + difference;
  };
  if (header.nx != grid.nx || header.nz != grid.nz || header.ny != grid.ny) {
    const auto cells = [](int nx, int ny, int nz) {
      return ny > 1 ? fmt::format("{} x {} x {}", nx, ny, nz) : fmt::format("{} x {}", nx, nz);
    };
    add(fmt::format("grid {} vs {}", cells(header.nx, header.ny, header.nz), cells(grid.nx, grid.ny, grid.nz)));
  }
  if (grid.ny > 1 && header.ylen != grid.ylen) add(fmt::format("ylen {} m vs {} m", header.ylen, grid.ylen));
  if (header.xlen != grid.xlen || header.zlen != grid.zlen)
    add(fmt::format("domain {} x {} m vs {} x {} m", header.xlen, header.zlen, grid.xlen, grid.zlen));
  if (header.physics.viscosity != spec.physics.viscosity)
    add(fmt::format("physics.viscosity {} vs {} m²/s", header.physics.viscosity, spec.physics.viscosity));
  // A diffusivity that is either side's viscosity differs as the viscosity does, which says it already.
  const auto own_diffusivity = [](const Dissipation& physics) { return physics.diffusivity != physics.viscosity; };
  if (header.physics.diffusivity != spec.physics.diffusivity &&
      (own_diffusivity(header.physics) || own_diffusivity(spec.physics)))
    add(fmt::format("physics.diffusivity {} vs {} m²/s", header.physics.diffusivity, spec.physics.diffusivity));
  if (header.physics.hyperviscosity != spec.physics.hyperviscosity)
    add(fmt::format("physics.hyperviscosity {} vs {}", header.physics.hyperviscosity, spec.physics.hyperviscosity));
  if (header.cfl != spec.time.cfl) add(fmt::format("time.cfl {} vs {}", header.cfl, spec.time.cfl));
  if (const std::vector<std::string> tracers = state_tracers(grid); header.tracers != tracers) {
    // A checkpoint with water holds the water's tracers first.
    const bool water = grid.microphysics != Microphysics::none ||
                       (!header.tracers.empty() && header.tracers.front() == water_tracer_names[0]);
    add(fmt::format("{} [{}] vs [{}]", water ? "tracers (physics.microphysics, physics.tracers)" : "physics.tracers",
                    fmt::join(header.tracers, ", "), fmt::join(tracers, ", ")));
  } else if (!grid.tracers.empty() && header.tracer_init != grid.tracer_init)
    add(fmt::format("physics.tracer_init {} vs {}", name_in(tracer_init_names, header.tracer_init),
                    name_in(tracer_init_names, grid.tracer_init)));
  // Either side's bump is the case's own when not recorded or not configured; the case's own is
  // the configuration's, since a checkpoint of another case or domain is refused anyway.
  if (const std::optional<Bump<3>> configured = configured_perturbation(spec); header.perturbation || configured) {
    const Bump<3> own = own_bump(spec);
    add_bump_differences(header.perturbation.value_or(own), configured.value_or(own), grid.ny, add);
  }
  if (!differences.empty()) differences += " (checkpoint vs configuration)";
  if (header.case_name != case_name) {
    const std::string what =
        fmt::format("checkpoint of case {}, but the configuration's case is {}", header.case_name, case_name);
    throw bad_input(path, differences.empty() ? what : what + "; " + differences);
  }
  if (!differences.empty()) throw bad_input(path, "checkpoint of an incompatible configuration: " + differences);
  if (header.config_hash != physics_hash(spec))
    throw bad_input(path,
                    fmt::format("checkpoint of an incompatible configuration: its config_hash {:016x} is not the "
                                "configuration's {:016x}, although case, grid, domain, physics, cfl and bump match",
                                header.config_hash, physics_hash(spec)));
  if (header.time >= stepping.sim_time() && restart_origin(header, stepping).step != 0)
    throw bad_input(
        path, fmt::format("checkpoint at step {} (t = {:.6g} s) does not fit this run's {} steps: it is at or past "
                          "the run's sim_time = {:g} s",
                          header.step, header.time, stepping.num_steps(), stepping.sim_time()));
}

TimeOrigin restart_origin(const CheckpointHeader& header, const TimeStepping& stepping) {
  if (header.step <= stepping.num_steps() && stepping.time_after(header.step) == header.time) return {};
  return {header.step, header.time};
}

}  // namespace simapp::io
