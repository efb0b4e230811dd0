#include "kernels/microphysics/microphysics.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/microphysics/microphysics_column.hpp"

namespace simapp {

template <int Dims>
void apply_microphysics(const Stream& stream, const MicrophysicsArguments<Dims>& microphysics,
                        const StepParams<Dims>* params) {
  const MicrophysicsArguments<Dims> m = microphysics;
  parallel_for(
      "microphysics", stream, IndexBox{0, m.state.shape.nx, 0, m.state.shape.ny},
      SIMAPP_LAMBDA(int i, int j) { microphysics_column(m, params->dt_physics, i, j); });
}

template void apply_microphysics<2>(const Stream&, const MicrophysicsArguments<2>&, const StepParams<2>*);
template void apply_microphysics<3>(const Stream&, const MicrophysicsArguments<3>&, const StepParams<3>*);

}  // namespace simapp
