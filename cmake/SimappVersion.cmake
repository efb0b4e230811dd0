# simapp_version: an INTERFACE target whose header simapp_version.hpp carries the version, the
# git commit the sources are at when they are built (simapp_git_hash.hpp, remade at every build
# by cmake/SimappGitHash.cmake), whether CUDA was built, and how: the compiler, the build type,
# the flags that shape the code and the libraries' versions found when the build was configured.
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
# The flags that shape `language`'s code: CMAKE_<language>_FLAGS, those of the build type and the
# project's own compile options for it (cmake/SimappArithmetic.cmake, SimappSanitizers.cmake), as
# a C string's text.
function(simapp_code_flags language out)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" type)
  get_directory_property(options DIRECTORY ${PROJECT_SOURCE_DIR} COMPILE_OPTIONS)
  string(JOIN " " options ${options})
  string(REGEX REPLACE "\\$<\\$<COMPILE_LANGUAGE:([A-Z,]*,)?${language}(,[A-Z,]*)?>:([^>]*)>" "\\3" options
                       "${options}")
  string(REGEX REPLACE "\\$<\\$<COMPILE_LANGUAGE:[A-Z,]*>:[^>]*>" "" options "${options}")
  string(REGEX REPLACE " +" " " flags "${CMAKE_${language}_FLAGS} ${CMAKE_${language}_FLAGS_${type}} ${options}")
  string(STRIP "${flags}" flags)
  string(REPLACE "\\" "\\\\" flags "${flags}")
  string(REPLACE "\"" "\\\"" flags "${flags}")
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()
simapp_code_flags(CXX SIMAPP_CXX_FLAGS)
set(SIMAPP_CUDA_FLAGS "")
if(SIMAPP_USE_CUDA)
  simapp_code_flags(CUDA SIMAPP_CUDA_FLAGS)
  string(APPEND SIMAPP_CUDA_FLAGS " (architectures ${CMAKE_CUDA_ARCHITECTURES})")
endif()
if(SIMAPP_NATIVE)
  set(SIMAPP_NATIVE_BOOL true)
else()
  set(SIMAPP_NATIVE_BOOL false)
endif()
configure_file(${PROJECT_SOURCE_DIR}/app/version.hpp.in ${PROJECT_BINARY_DIR}/generated/simapp_version.hpp @ONLY)
add_library(simapp_version INTERFACE)
target_include_directories(simapp_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
add_dependencies(simapp_version simapp_git_hash)
