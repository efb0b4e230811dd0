#include "solver/model/model.hpp"

#include "solver/model/atmosphere_model.hpp"
#include "solver/state/water_fields.hpp"

namespace simapp {

std::unique_ptr<Model> make_model(const ModelContext& context) {
  return with_precision(context.spec.execution.precision, [&](auto real) -> std::unique_ptr<Model> {
    using Real = decltype(real);
    if (context.grid.is_3d()) return std::make_unique<AtmosphereModel<3, Real>>(context);
    return std::make_unique<AtmosphereModel<2, Real>>(context);
  });
}

std::size_t model_memory_needed(const RunSpec& spec, const Grid& grid) {
  const bool water = spec.grid.microphysics != Microphysics::none;
  if (grid.is_3d())
    return step_fields_bytes<3>(grid, spec.execution.granularity, spec.execution.precision) +
           WaterFields<3>::bytes(grid.cell_shape<3>(), water);
  return step_fields_bytes<2>(grid, spec.execution.granularity, spec.execution.precision) +
         WaterFields<2>::bytes(grid.cell_shape<2>(), water);
}

}  // namespace simapp
