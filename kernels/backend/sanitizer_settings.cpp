// The sanitizers' settings of a SIMAPP_SANITIZE build, compiled into every program so that they
// hold however it is started (ctest, GoogleTest's test discovery at build time, mpiexec, by
// hand); ASAN_OPTIONS and UBSAN_OPTIONS still override them. Any report ends the program with an
// error. LeakSanitizer is off: Open MPI's plugins, unloaded at MPI_Finalize, leave thousands of
// allocations it cannot attribute (simapp's own memory is owned by RAII types).

extern "C" const char* __asan_default_options();
extern "C" const char* __ubsan_default_options();

extern "C" const char* __asan_default_options() {
  return "detect_leaks=0:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1";
}

extern "C" const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }
