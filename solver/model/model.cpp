#include "solver/model/model.hpp"

#include "solver/model/model_2d.hpp"
#include "solver/model/model_3d.hpp"

namespace simapp {

std::unique_ptr<Model> make_model(const ModelContext& context) {
  if (context.grid.is_3d()) return std::make_unique<Model3d>(context);
  return std::make_unique<Model2d>(context);
}

std::size_t model_memory_needed(const RunSpec& spec, const Grid& grid) {
  if (grid.is_3d()) return step_fields_bytes<3>(grid, spec.execution.granularity);
  const StepFields<2> fields = step_field_shapes<2>(grid, spec.execution.granularity);
  std::size_t values = 0;
  for (const FieldView<double, 2>* view : {&fields.state, &fields.stage1, &fields.stage2, &fields.flux,
                                           &fields.face_value, &fields.face_d3, &fields.tendency})
    values += view->shape.size();
  return values * sizeof(double);
}

}  // namespace simapp
