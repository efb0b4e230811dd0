# simapp_set_warnings(target): the project's warning set for C++ and CUDA sources. CUDA sources
# get the same host-compiler warnings (less -Wpedantic, which code nvcc generates trips), and with
# SIMAPP_WARNINGS_AS_ERRORS nvcc's own warnings are errors too.
function(simapp_set_warnings target)
  set(common_warnings -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion)
  set(cxx_warnings ${common_warnings} -Wpedantic)
  set(cuda_warnings ${common_warnings})
  set(cuda_errors "")
  if(SIMAPP_WARNINGS_AS_ERRORS)
    list(APPEND cxx_warnings -Werror)
    list(APPEND cuda_warnings -Werror)
    set(cuda_errors "SHELL:-Werror all-warnings")
  endif()
  list(JOIN cuda_warnings "," cuda_host_warnings)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${cxx_warnings}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${cuda_host_warnings}>
    $<$<COMPILE_LANGUAGE:CUDA>:${cuda_errors}>)
endfunction()
