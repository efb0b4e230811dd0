#include "solver/state/workspace_3d.hpp"

#include <initializer_list>

#include "kernels/flux/fluxes.hpp"

namespace simapp {

StepFields3d step_field_shapes_3d(const Grid& grid, Granularity granularity) {
  const FieldShape<3> cells = grid.cell_shape_3d();
  const FieldShape<3> faces = face_shape(cells);
  const FieldShape<3> interior{cells.nx, cells.ny, cells.nz, 0, cells.num_vars};
  const bool fine = granularity == Granularity::fine;
  const bool stage = keeps_fluxes_on_chip(granularity);
  return {{nullptr, cells},
          {nullptr, cells},
          {nullptr, cells},
          {nullptr, stage ? FieldShape<3>{} : faces},
          {nullptr, fine ? faces : FieldShape<3>{}},
          {nullptr, fine ? faces : FieldShape<3>{}},
          {nullptr, fine ? interior : FieldShape<3>{}}};
}

std::size_t step_fields_3d_bytes(const Grid& grid, Granularity granularity) {
  const StepFields3d f = step_field_shapes_3d(grid, granularity);
  std::size_t values = 0;
  for (const FieldView<double, 3>& view : {f.state, f.stage1, f.stage2, f.flux, f.face_value, f.face_d3, f.tendency})
    values += view.shape.size();
  return values * sizeof(double);
}

namespace {
DeviceBuffer<double> allocate_for(Backend backend, FieldView<double, 3>& view) {
  DeviceBuffer<double> buffer(backend, view.shape.size());
  view.data = buffer.data();
  return buffer;
}
}  // namespace

Workspace3d::Workspace3d(Backend backend, const Grid& grid, Granularity granularity)
    : fields_(step_field_shapes_3d(grid, granularity)) {
  state_ = allocate_for(backend, fields_.state);
  stage1_ = allocate_for(backend, fields_.stage1);
  stage2_ = allocate_for(backend, fields_.stage2);
  flux_ = allocate_for(backend, fields_.flux);
  face_value_ = allocate_for(backend, fields_.face_value);
  face_d3_ = allocate_for(backend, fields_.face_d3);
  tendency_ = allocate_for(backend, fields_.tendency);
}

}  // namespace simapp
