# Script mode (cmake -DSOURCE_DIR=… -DOUTPUT=… -P SimappGitHash.cmake), run at every build:
# writes OUTPUT, a header defining SIMAPP_GIT_HASH as the commit the sources are at (12 hex
# digits, "-dirty" when tracked files differ from it; "unknown" outside a git checkout), and
# rewrites it only when that changes, so an unchanged commit rebuilds nothing.
set(hash "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
  if(status EQUAL 0 AND commit)
    set(hash ${commit})
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                    WORKING_DIRECTORY ${SOURCE_DIR}
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
    if(status EQUAL 0 AND changes)
      string(APPEND hash "-dirty")
    endif()
  endif()
endif()
file(WRITE ${OUTPUT}.new "#pragma once\n/// Generated at build time by cmake/SimappGitHash.cmake.\n#define SIMAPP_GIT_HASH \"${hash}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.new ${OUTPUT})
file(REMOVE ${OUTPUT}.new)
