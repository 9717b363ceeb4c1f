# el_host_library(<name> SOURCES <src>... [LINKS <lib>...] [INCLUDES <dir>...]
#                 [PRIVATE_INCLUDES <dir>...] [DEFINES <def>...] [DEPENDS <target>...])
#
# One static library per host folder: its sources, its own folder as its
# PUBLIC include directory (so those above it may include its headers and
# nobody below can), and the libraries below it as PUBLIC link edges.
#
# With ENTRYLAB_SANITIZE, a twin <name>_asan is built from the same sources
# with AddressSanitizer and UndefinedBehaviorSanitizer, linked to the _asan
# twins of its links, for the sanitized unit tests (tests/CMakeLists.txt).
set(EL_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
  -fno-omit-frame-pointer)

function(el_host_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" ""
    "SOURCES;LINKS;INCLUDES;PRIVATE_INCLUDES;DEFINES;DEPENDS")
  add_library(${name} STATIC ${ARG_SOURCES})
  el_host_library_props(${name})
  target_link_libraries(${name} PUBLIC el_host_flags ${ARG_LINKS})
  if(ENTRYLAB_SANITIZE)
    el_sanitized_links(links ${ARG_LINKS})
    add_library(${name}_asan STATIC EXCLUDE_FROM_ALL ${ARG_SOURCES})
    el_host_library_props(${name}_asan)
    target_compile_options(${name}_asan PRIVATE ${EL_SANITIZE_FLAGS})
    target_link_options(${name}_asan INTERFACE ${EL_SANITIZE_FLAGS})
    target_link_libraries(${name}_asan PUBLIC el_host_flags ${links})
  endif()
endfunction()

# The _asan twin of each library that has one, else the library itself.
function(el_sanitized_links out)
  set(links "")
  foreach(l IN LISTS ARGN)
    if(TARGET ${l}_asan)
      list(APPEND links ${l}_asan)
    else()
      list(APPEND links ${l})
    endif()
  endforeach()
  set(${out} ${links} PARENT_SCOPE)
endfunction()

# The include directories, definitions and dependencies of a library and its
# twin (a macro: it reads el_host_library's ARG_ variables).
macro(el_host_library_props target)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${ARG_INCLUDES})
  if(ARG_PRIVATE_INCLUDES)
    target_include_directories(${target} PRIVATE ${ARG_PRIVATE_INCLUDES})
  endif()
  if(ARG_DEFINES)
    target_compile_definitions(${target} PRIVATE ${ARG_DEFINES})
  endif()
  if(ARG_DEPENDS)
    add_dependencies(${target} ${ARG_DEPENDS})
  endif()
endmacro()
