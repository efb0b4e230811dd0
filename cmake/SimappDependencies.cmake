# Third-party dependencies, all from the distribution's packages (scripts/install_dependencies.sh).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
if(SIMAPP_ENABLE_TESTS)
  find_package(GTest REQUIRED)
endif()
