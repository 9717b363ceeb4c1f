# The fuzz tier, seen from the main build (included by tests/CMakeLists.txt).
#
# ENTRYLAB_FUZZ (default ON when clang links a -fsanitize=fuzzer program)
# builds tests/fuzz/ as its own project with clang (ExternalProject, in
# build/tests/fuzz) and adds the ctest `fuzz` (tests/fuzz/run.sh: each target
# replays its regressions, then fuzzes FUZZ_SECONDS=10 s) and the target
# `fuzz_long` (every target 600 s, logs in /tmp/fuzz-TARGET.log).  Without
# clang's libFuzzer the ctest `fuzz` prints why and is skipped.
find_program(EL_FUZZ_CLANG NAMES clang-14 clang)
set(el_fuzz_why "")
if(NOT EL_FUZZ_CLANG)
  set(el_fuzz_why "no clang found: apt-get install clang-14 libclang-rt-14-dev")
else()
  set(probe ${CMAKE_BINARY_DIR}/fuzz_probe)
  file(WRITE ${probe}.c "#include <stddef.h>\n#include <stdint.h>\n"
    "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\n"
    "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
  execute_process(COMMAND ${EL_FUZZ_CLANG} -fsanitize=fuzzer,address,undefined ${probe}.c
    -o ${probe} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    set(el_fuzz_why "${EL_FUZZ_CLANG} cannot link -fsanitize=fuzzer: apt-get install libclang-rt-14-dev")
  endif()
endif()
if(el_fuzz_why)
  option(ENTRYLAB_FUZZ "build the libFuzzer targets (tests/fuzz/) with clang" OFF)
else()
  option(ENTRYLAB_FUZZ "build the libFuzzer targets (tests/fuzz/) with clang" ON)
endif()
if(ENTRYLAB_FUZZ AND el_fuzz_why)
  message(WARNING "ENTRYLAB_FUZZ: ${el_fuzz_why}; the fuzz tier is skipped")
  set(ENTRYLAB_FUZZ OFF)
elseif(NOT ENTRYLAB_FUZZ AND NOT el_fuzz_why)
  set(el_fuzz_why "configured with -DENTRYLAB_FUZZ=OFF")
endif()

set(EL_FUZZ_DIR ${CMAKE_BINARY_DIR}/tests/fuzz)
if(ENTRYLAB_FUZZ)
  message(STATUS "fuzz tier: libFuzzer targets with ${EL_FUZZ_CLANG} in ${EL_FUZZ_DIR}")
  ExternalProject_Add(fuzz_targets
    SOURCE_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz
    BINARY_DIR ${EL_FUZZ_DIR}
    CMAKE_ARGS -DCMAKE_C_COMPILER=${EL_FUZZ_CLANG} -DCMAKE_ASM_COMPILER=${EL_FUZZ_CLANG}
               -DEL_SOURCE_DIR=${CMAKE_SOURCE_DIR}
               -DEL_FUZZ_BLOBS=$<TARGET_FILE:el_guest_blobs>
               -DEL_FUZZ_TRACE_BLOB=${CMAKE_BINARY_DIR}/embed/entrylab_trace_plugin.S
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    DEPENDS el_guest_blobs eltrace)
  add_test(NAME fuzz COMMAND ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh ${EL_FUZZ_DIR})
  set_tests_properties(fuzz PROPERTIES TIMEOUT 300)
  add_custom_target(fuzz_long
    COMMAND ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh ${EL_FUZZ_DIR} all 600
    DEPENDS fuzz_targets USES_TERMINAL)
else()
  message(STATUS "fuzz tier skipped: ${el_fuzz_why}")
  add_test(NAME fuzz COMMAND sh -c "echo 'fuzz: skipped: ${el_fuzz_why}'; exit 77")
  set_tests_properties(fuzz PROPERTIES SKIP_RETURN_CODE 77)
endif()
