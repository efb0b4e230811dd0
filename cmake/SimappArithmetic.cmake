# Floating-point code generation for every target: plain IEEE arithmetic, no contraction of
# a*b+c into FMA, on the host (-ffp-contract=off) and the device (--fmad=false). Each
# granularity is then bit-identical to the others and to any rank count: with contraction
# the compiler fuses differently in the kernels that split the same point functions (measured
# on the H200: fine and fused then differ for thermal, gravity_waves and injection, for a
# 0.5 % faster step), and p′ = C₀(ρθ)^γ − p̄ is no longer exactly 0 at rest. A host result
# does not depend on the processor the build tunes for: SIMAPP_NATIVE=ON (-march=native)
# changes speed only; turn it off for binaries that must run on other machines. Where a fused
# multiply-add pays, the point functions write it themselves (fma(a, b, c)), so every kernel and
# the host fuse alike (a host build without -march=native calls the C library's fma, which
# glibc runs on the processor's FMA instruction where it has one).
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>
                    $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off>)
if(SIMAPP_NATIVE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-march=native> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-march=native>)
endif()
