#include "solver/state/workspace.hpp"

#include <initializer_list>

#include "kernels/flux/fluxes.hpp"

namespace simapp {

template <int Dims, class Real>
StepFields<Dims, Real> step_field_shapes(const Grid& grid, Granularity granularity) {
  const FieldShape<Dims> cells = grid.cell_shape<Dims>();
  // The dry variables' fluxes, face values and tendencies: the tracers' stay inside their kernel.
  FieldShape<Dims> dry = cells;
  dry.num_vars = ModelVariables<Dims>::count;
  const FieldShape<Dims> faces = face_shape(dry);
  const FieldShape<Dims> interior{cells.nx, cells.ny, cells.nz, 0, dry.num_vars};
  const bool fine = granularity == Granularity::fine;
  const bool stage = keeps_fluxes_on_chip(granularity);
  return {{nullptr, cells},
          {nullptr, cells},
          {nullptr, cells},
          {nullptr, stage ? FieldShape<Dims>{} : faces},
          {nullptr, fine ? faces : FieldShape<Dims>{}},
          {nullptr, fine ? faces : FieldShape<Dims>{}},
          {nullptr, fine ? interior : FieldShape<Dims>{}}};
}

template <int Dims>
std::size_t step_fields_bytes(const Grid& grid, Granularity granularity, Precision precision) {
  const StepFields<Dims> f = step_field_shapes<Dims>(grid, granularity);
  std::size_t values = 0;
  for (const FieldView<double, Dims>& view : {f.state, f.stage1, f.stage2, f.flux, f.face_value, f.face_d3, f.tendency})
    values += view.shape.size();
  return values * value_bytes(precision);
}

namespace {

template <class Real, int Dims>
DeviceBuffer<Real> allocate_for(Backend backend, FieldView<Real, Dims>& view) {
  DeviceBuffer<Real> buffer(backend, view.shape.size());
  view.data = buffer.data();
  return buffer;
}

}  // namespace

template <int Dims, class Real>
Workspace<Dims, Real>::Workspace(Backend backend, const Grid& grid, Granularity granularity)
    : fields_(step_field_shapes<Dims, Real>(grid, granularity)) {
  state_ = allocate_for(backend, fields_.state);
  stage1_ = allocate_for(backend, fields_.stage1);
  stage2_ = allocate_for(backend, fields_.stage2);
  flux_ = allocate_for(backend, fields_.flux);
  face_value_ = allocate_for(backend, fields_.face_value);
  face_d3_ = allocate_for(backend, fields_.face_d3);
  tendency_ = allocate_for(backend, fields_.tendency);
}

template StepFields<2, double> step_field_shapes<2, double>(const Grid&, Granularity);
template StepFields<3, double> step_field_shapes<3, double>(const Grid&, Granularity);
template StepFields<2, float> step_field_shapes<2, float>(const Grid&, Granularity);
template StepFields<3, float> step_field_shapes<3, float>(const Grid&, Granularity);
template std::size_t step_fields_bytes<2>(const Grid&, Granularity, Precision);
template std::size_t step_fields_bytes<3>(const Grid&, Granularity, Precision);
template class Workspace<2, double>;
template class Workspace<3, double>;
template class Workspace<2, float>;
template class Workspace<3, float>;

}  // namespace simapp
