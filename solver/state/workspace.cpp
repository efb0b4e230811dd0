#include "solver/state/workspace.hpp"

namespace simapp {

StepFields step_field_shapes(const Grid& grid, Granularity granularity) {
  const FieldShape<2> cells = grid.cell_shape();
  const FieldShape<2> faces = grid.face_shape();
  const FieldShape<2> interior{grid.nx(), 1, grid.nz(), 0, var::count};
  const bool fine = granularity == Granularity::fine;
  const bool stage = keeps_fluxes_on_chip(granularity);
  return {{nullptr, cells},
          {nullptr, cells},
          {nullptr, cells},
          {nullptr, stage ? FieldShape<2>{} : faces},
          {nullptr, fine ? faces : FieldShape<2>{}},
          {nullptr, fine ? faces : FieldShape<2>{}},
          {nullptr, fine ? interior : FieldShape<2>{}}};
}

namespace {
DeviceBuffer<double> allocate_for(Backend backend, FieldView<double, 2>& view) {
  DeviceBuffer<double> buffer(backend, view.shape.size());
  view.data = buffer.data();
  return buffer;
}
}  // namespace

Workspace::Workspace(Backend backend, const Grid& grid, Granularity granularity)
    : fields_(step_field_shapes(grid, granularity)) {
  state_ = allocate_for(backend, fields_.state);
  stage1_ = allocate_for(backend, fields_.stage1);
  stage2_ = allocate_for(backend, fields_.stage2);
  flux_ = allocate_for(backend, fields_.flux);
  face_value_ = allocate_for(backend, fields_.face_value);
  face_d3_ = allocate_for(backend, fields_.face_d3);
  tendency_ = allocate_for(backend, fields_.tendency);
}

}  // namespace simapp
