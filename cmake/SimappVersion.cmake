# simapp_version: an INTERFACE target whose header simapp_version.hpp carries the version, the
# git commit the sources are at when they are built (simapp_git_hash.hpp, remade at every build
# by cmake/SimappGitHash.cmake), and whether CUDA was built.
set(simapp_git_hash_header ${PROJECT_BINARY_DIR}/generated/simapp_git_hash.hpp)
add_custom_target(simapp_git_hash
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${simapp_git_hash_header}
          -P ${PROJECT_SOURCE_DIR}/cmake/SimappGitHash.cmake
  BYPRODUCTS ${simapp_git_hash_header}
  COMMENT "Reading the git commit of the sources"
  VERBATIM)
if(SIMAPP_USE_CUDA)
  set(SIMAPP_USE_CUDA_BOOL true)
else()
  set(SIMAPP_USE_CUDA_BOOL false)
endif()
configure_file(${PROJECT_SOURCE_DIR}/app/version.hpp.in ${PROJECT_BINARY_DIR}/generated/simapp_version.hpp @ONLY)
add_library(simapp_version INTERFACE)
target_include_directories(simapp_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
add_dependencies(simapp_version simapp_git_hash)
