# simapp_version: an INTERFACE target whose header simapp_version.hpp carries the version,
# the git commit the build was configured from, and whether CUDA was built.
find_package(Git QUIET)
set(SIMAPP_GIT_HASH "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE git_hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_status)
  if(git_status EQUAL 0 AND git_hash)
    set(SIMAPP_GIT_HASH ${git_hash})
  endif()
endif()
if(SIMAPP_USE_CUDA)
  set(SIMAPP_USE_CUDA_BOOL true)
else()
  set(SIMAPP_USE_CUDA_BOOL false)
endif()
configure_file(${PROJECT_SOURCE_DIR}/app/version.hpp.in ${PROJECT_BINARY_DIR}/generated/simapp_version.hpp @ONLY)
add_library(simapp_version INTERFACE)
target_include_directories(simapp_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
