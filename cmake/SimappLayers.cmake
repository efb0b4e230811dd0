# The layers (foundation < kernels/backend < kernels < solver < io < app) as include roots: each library sees
# only its own folder of the source tree, through a directory of the build tree that holds one
# link to it, and the headers of the libraries it links. A header of a layer above, or of a
# layer not linked, is then not found: `#include "solver/..."` in a kernel fails to compile
# ("fatal error: solver/...: No such file or directory"). tests/layering checks that it does.

# simapp_layer_include_root(target folder [PRIVATE]): `target` sees `folder` of the source tree
# as "folder/..."; PUBLIC (the default) for libraries, whose headers the next layer includes.
function(simapp_layer_include_root target folder)
  set(scope PUBLIC)
  if(ARGC GREATER 2)
    set(scope ${ARGV2})
  endif()
  set(root ${PROJECT_BINARY_DIR}/include_roots/${target})
  get_filename_component(parent ${root}/${folder} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  target_include_directories(${target} ${scope} ${root})
endfunction()
