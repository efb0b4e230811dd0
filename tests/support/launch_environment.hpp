#pragma once
/// The machine's own Open MPI and PMIx settings (OMPI_MCA_*, PMIX_MCA_*), as the test program
/// found them before MPI_Init, written as NAME='value' assignments for `env`: a nested mpiexec
/// started with a clean environment keeps them (a machine that launches with plm=isolated, say,
/// has no rsh agent), but none of what MPI_Init sets for the test process itself.
#include <string>

namespace simapp::testing {

extern std::string launch_environment;

}  // namespace simapp::testing
