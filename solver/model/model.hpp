#pragma once
/// The part of a run that depends on the model: AtmosphereModel<2>, the 2-D x–z slice, or
/// AtmosphereModel<3>, the 3-D model (grid.ny > 1). A model owns the step's arrays, its step
/// values, the resources its programs are built from and the chunk programs; it sets the
/// initial state and reduces its statistics (mass and energy among them). The Simulation owns
/// the clock, the executor and the pacing, the same for both.
#include <memory>
#include <span>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "solver/column/column_background.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/diagnostics/diagnostics.hpp"
#include "solver/executor/chunk_programs.hpp"
#include "solver/grid/grid.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/spec/run_spec.hpp"
#include "solver/state/interior_layout.hpp"
#include "solver/step/step_program.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp {

/// What a model is made for; every reference must outlive the model.
struct ModelContext {
  const RunSpec& spec;
  ExecutionMode mode;  ///< how its steps are launched: the step-value slots it needs
  const Decomposition& decomposition;
  const Grid& grid;
  const TimeStepping& time;
  const Stream& stream;
  HydrostaticView background;
  const ColumnBackground* column;  ///< the background's sounding integration, if it has one (else null)
  HaloPath halo_path;
  HealthCheckOps health;
};

class Model {
 public:
  virtual ~Model() = default;

  /// The run's chunk programs.
  virtual ChunkPrograms& chunks() = 0;
  /// The run's first step, built with its buffers: what reports and the steps per graph count.
  virtual const StepProgram& first_step() const = 0;
  /// Queues setting the state to the case's initial state (and the surface fields to 0).
  virtual void set_initial_state(const Stream& stream) const = 0;
  /// The state array, every cell with its halos (qⁿ): values of the run's execution.precision
  /// where the state is.
  virtual const void* state_data() const = 0;
  /// The state array as doubles on the host (a float32 state's values exactly; waits for queued work).
  virtual std::vector<double> state_on_host(const Stream& stream) const = 0;
  /// Sets the state array to `padded` (laid out as state_on_host() returns it), each value rounded
  /// to the state's type, and waits.
  virtual void set_state(const Stream& stream, std::span<const double> padded) const = 0;
  /// Where this rank's interior cells lie in the state array.
  virtual const InteriorLayout& interior() const = 0;
  /// The microphysics' surface fields on this rank's columns, [field][j][i]: precipitation_amount
  /// (kg m⁻²), the rain rate (m s⁻¹), the clipped water (kg m⁻²); empty in a dry run (waits for queued work).
  virtual std::vector<double> surface_water_on_host(const Stream& stream) const = 0;
  /// The same fields where the state is (empty in a dry run).
  virtual std::span<double> surface_water() const = 0;
  /// Sets them to `values`, laid out as surface_water_on_host() returns them, and waits.
  virtual void set_surface_water(const Stream& stream, std::span<const double> values) const = 0;
  /// Mass (with water the dry air's), total energy, the tracers' masses and the water of the
  /// state (collective; waits for the stream).
  virtual Diagnostics diagnostics(const Stream& stream) const = 0;
  /// Queues the reduction of the state's statistics on `stream`, without waiting; the steps
  /// queued after it may change the state.
  virtual void begin_statistics(const Stream& stream) const = 0;
  /// The statistics begin_statistics() queued last (collective; waits for them).
  virtual FlowStatistics finish_statistics() const = 0;
};

/// The model of `context.spec`: the 3-D one when grid.ny > 1.
std::unique_ptr<Model> make_model(const ModelContext& context);

/// Bytes the arrays of the model of `spec` take on this rank (small ones aside).
std::size_t model_memory_needed(const RunSpec& spec, const Grid& grid);

}  // namespace simapp
