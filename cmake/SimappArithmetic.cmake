# Floating-point code generation for every target.
# Host code: plain IEEE arithmetic, never contracted into FMA (-ffp-contract=off), so a host
# result does not depend on the processor the build tunes for; SIMAPP_NATIVE=ON tunes for the
# build machine (vector width, instruction set), off for binaries that must run elsewhere.
# Device code keeps nvcc's default contraction (--fmad=true): `physics::pressure` rounds the one
# product whose rounding a state at rest relies on.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off>)
if(SIMAPP_NATIVE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-march=native> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-march=native>)
endif()
