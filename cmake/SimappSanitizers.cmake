# SIMAPP_SANITIZE: every host source built and linked with AddressSanitizer and
# UndefinedBehaviorSanitizer; any report ends the program (no recovery), so a test that meets
# one fails. Their settings are compiled into every program (kernels/backend/
# sanitizer_settings.cpp). `ctest --preset sanitize` runs the unit and regression labels. The
# CUDA backend is left out: nvcc's host code and the CUDA runtime are not built for the
# sanitizers (compute-sanitizer checks device code instead).
if(NOT SIMAPP_SANITIZE)
  return()
endif()
if(SIMAPP_USE_CUDA)
  message(FATAL_ERROR "SIMAPP_SANITIZE needs SIMAPP_ENABLE_CUDA=OFF (use compute-sanitizer for the CUDA backend)")
endif()
set(simapp_sanitizer_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${simapp_sanitizer_flags}>")
add_link_options(${simapp_sanitizer_flags})
