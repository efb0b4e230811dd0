# simapp_set_warnings(target): the project's warning set for C++ and CUDA sources.
function(simapp_set_warnings target)
  set(cxx_warnings -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
  if(SIMAPP_WARNINGS_AS_ERRORS)
    list(APPEND cxx_warnings -Werror)
  endif()
  list(JOIN cxx_warnings "," cuda_host_warnings)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${cxx_warnings}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
endfunction()
