# eltrace, the QEMU TCG plugin of `entrylab trace` (eltrace.c): a shared
# object for the host's qemu-system-x86_64, built with the host's flags and
# embedded into entrylab (which writes it next to the guest images for each
# trace), so the one binary is still all a trace needs.  Included by
# harness/trace/CMakeLists.txt; sets EL_TRACE_BLOB_SOURCES.
add_library(eltrace MODULE ${CMAKE_CURRENT_LIST_DIR}/eltrace.c
  ${CMAKE_CURRENT_LIST_DIR}/eltrace_count.c ${CMAKE_CURRENT_LIST_DIR}/eltrace_table.c
  ${CMAKE_CURRENT_LIST_DIR}/eltrace_window.c)
target_link_libraries(eltrace PRIVATE el_host_flags)
target_include_directories(eltrace PRIVATE ${CMAKE_SOURCE_DIR}/common)
# Only qemu_plugin_install and qemu_plugin_version are for QEMU to see.
target_compile_options(eltrace PRIVATE -fvisibility=hidden)
set(EL_TRACE_PLUGIN ${CMAKE_BINARY_DIR}/harness/trace/eltrace.so)
set_target_properties(eltrace PROPERTIES PREFIX "" SUFFIX ".so"
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/harness/trace)
set(EL_TRACE_BLOB_SOURCES "")
el_embed(EL_TRACE_BLOB_SOURCES entrylab_trace_plugin ${EL_TRACE_PLUGIN} eltrace)
