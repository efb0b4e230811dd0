#include "app/case_report.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/core.h>

#include "io/case/density_current.hpp"
#include "io/files/result_file.hpp"
#include "io/output/run_outputs.hpp"
#include "simapp_version.hpp"
#include "solver/decomposition/error_agreement.hpp"

namespace simapp::app {

void report_case_measures(io::RunLog& log, const io::LoadedConfig& config, const Simulation& simulation) {
  if (case_measures(config.spec.case_name) != CaseMeasures::density_current) return;
  io::Snapshot snapshot = whole_grid_snapshot(config);
  snapshot.step = simulation.step();
  snapshot.time = simulation.time();
  snapshot.state = simulation.gathered_state();
  const MPI_Comm comm = simulation.decomposition().comm();
  const bool root = simulation.decomposition().rank() == 0;
  const io::DensityCurrentMeasures m = root ? io::density_current_measures(snapshot) : io::DensityCurrentMeasures{};
  if (root)
    log.print(fmt::format(
        "density current at t = {:.6g} s: front {} from the centre (theta' = {} K on the lowest row), theta' {:.4f} "
        "… {:.4f} K, u {:.3f} … {:.3f} m/s, w {:.3f} … {:.3f} m/s",
        m.time, std::isfinite(m.front) ? fmt::format("{:.1f} m", m.front) : std::string("not found"),
        io::front_isotherm, m.theta_min, m.theta_max, m.u_min, m.u_max, m.w_min, m.w_max));
  if (!io::writes_results(config.spec)) return;
  const std::filesystem::path path = std::filesystem::path(config.spec.output.dir) / "diagnostics.json";
  run_on_root_agreed(comm, [&] {
    nlohmann::json report = io::density_current_json(m);
    report["simapp_version"] = build_info::version;
    report["git"] = build_info::git_hash;
    report["case"] = to_string(config.spec.case_name);
    report["nx"] = snapshot.nx;
    report["nz"] = snapshot.nz;
    report["dx_m"] = snapshot.dx;
    report["dz_m"] = snapshot.dz;
    io::write_result_file(path, report.dump(2) + "\n");
  });
}

}  // namespace simapp::app
