# el_host_library(<name> FOLDER_SOURCES... [LINKS <lib>...])
#
# One static library per host folder: its sources, its own folder as its
# PUBLIC include directory (so those above it may include its headers and
# nobody below can), and the libraries below it as PUBLIC link edges.
function(el_host_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;LINKS")
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC el_host_flags ${ARG_LINKS})
endfunction()
