# simapp_optimize_lightly(target [DIRECTORIES folder...]): in Release builds, compiles the target's
# sources (those under the given folders of its source directory, or all of them) at -O1 instead of
# -O3. For code that runs once a run or once an output: the command line, configuration, reports,
# run records, file bookkeeping. GCC spends most of such a file's compile time optimising the
# templates of fmt, nlohmann::json and CLI11 at -O3, which buys nothing at run time; -O1 compiles
# those files about 30 % faster, and without -ffast-math both levels compute the same values. The
# kernels, the solver and the code that moves field data keep the build type's level.
function(simapp_optimize_lightly target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DIRECTORIES")
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    set(light ON)
    if(arg_DIRECTORIES)
      set(light OFF)
      foreach(folder IN LISTS arg_DIRECTORIES)
        if(source MATCHES "^${folder}/")
          set(light ON)
        endif()
      endforeach()
    endif()
    if(light)
      set_property(SOURCE ${source} APPEND PROPERTY COMPILE_OPTIONS $<$<CONFIG:Release>:-O1>)
    endif()
  endforeach()
endfunction()
