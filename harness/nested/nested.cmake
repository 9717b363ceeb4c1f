# The nested runner's files (harness/nested/nested.c explains the runner):
#   build/nested/base.cpio      busybox-static, Debian's KVM modules, harness/nested/init
#   build/nested/kernel         Debian's kernel (vmlinux when it could be unpacked)
# The entrylab binary is not in the base: each run adds the running binary
# (/proc/self/exe) in a second archive, so the base never goes stale.
#
# Included by harness/nested/CMakeLists.txt.  The same file, run with
# `cmake -P`, is the build step that packs the base (see the end).
#
# ENTRYLAB_NESTED_CACHE is where harness/nested/fetch-kernel.sh keeps the
# kernel; the first build runs it if the cache is not complete (apt-get
# download, ~70 MB, no root needed once apt lists exist).

if(CMAKE_SCRIPT_MODE_FILE)
  # ---- build step: cmake -DCACHE= -DOUT= -DINIT= -DBUSYBOX= -P nested.cmake ----
  set(stage ${OUT}/stage)
  file(REMOVE_RECURSE ${stage})
  file(MAKE_DIRECTORY ${stage}/bin ${stage}/lib/modules ${stage}/dev ${stage}/proc
       ${stage}/sys ${stage}/tmp)
  set(exec_perms OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
      WORLD_READ WORLD_EXECUTE)
  file(COPY ${BUSYBOX} DESTINATION ${stage}/bin FILE_PERMISSIONS ${exec_perms})
  get_filename_component(bb_name ${BUSYBOX} NAME)
  if(NOT bb_name STREQUAL "busybox")
    file(RENAME ${stage}/bin/${bb_name} ${stage}/bin/busybox)
  endif()
  file(COPY ${INIT} DESTINATION ${stage} FILE_PERMISSIONS ${exec_perms})
  file(STRINGS ${CACHE}/modules.load modules)
  foreach(m IN LISTS modules)
    file(COPY ${CACHE}/modules/${m} DESTINATION ${stage}/lib/modules)
  endforeach()
  file(COPY ${CACHE}/modules.load ${CACHE}/modules.dep DESTINATION ${stage}/lib/modules)

  # Not compressed: gunzip under TCG would cost ~0.25 s of every boot.
  execute_process(COMMAND find . -mindepth 1
                  COMMAND env LC_ALL=C sort
                  COMMAND cpio -o -H newc -R 0:0 --quiet
                  WORKING_DIRECTORY ${stage}
                  OUTPUT_FILE ${OUT}/base.cpio.tmp
                  RESULTS_VARIABLE results)
  foreach(r IN LISTS results)
    if(NOT r EQUAL 0)
      message(FATAL_ERROR "packing ${OUT}/base.cpio failed (find|sort|cpio: "
                          "${results}); apt-get install cpio")
    endif()
  endforeach()
  file(RENAME ${OUT}/base.cpio.tmp ${OUT}/base.cpio)
  file(REMOVE_RECURSE ${stage})

  # vmlinux boots through its PVH note without the slow bzImage decompressor.
  if(EXISTS ${CACHE}/vmlinux)
    set(kernel ${CACHE}/vmlinux)
  else()
    set(kernel ${CACHE}/vmlinuz)
  endif()
  file(REMOVE ${OUT}/kernel)
  file(CREATE_LINK ${kernel} ${OUT}/kernel COPY_ON_ERROR)
  return()
endif()

# ---- configure time ----------------------------------------------------------
option(ENTRYLAB_NESTED
       "build the nested runner's initramfs (the first build fetches Debian's kernel)" ON)
set(ENTRYLAB_NESTED_CACHE ${CMAKE_BINARY_DIR}/nested/cache CACHE PATH
    "where harness/nested/fetch-kernel.sh keeps Debian's kernel and KVM modules")
if(NOT ENTRYLAB_NESTED)
  message(STATUS "nested runner: off (ENTRYLAB_NESTED=OFF); entrylab needs /dev/kvm "
                 "or ENTRYLAB_NESTED_DIR")
  return()
endif()

find_program(EL_BUSYBOX busybox PATHS /bin /usr/bin NO_DEFAULT_PATH)
find_program(EL_CPIO cpio)
if(NOT EL_BUSYBOX OR NOT EL_CPIO)
  message(FATAL_ERROR "nested runner: busybox or cpio not found; apt-get install "
                      "busybox-static cpio (or configure with -DENTRYLAB_NESTED=OFF)")
endif()
# A dynamic busybox would die in the VM, where there is no loader.
file(STRINGS ${EL_BUSYBOX} el_busybox_interp LIMIT_COUNT 1 REGEX "^/lib[a-z0-9_]*/ld-linux")
if(el_busybox_interp)
  message(FATAL_ERROR "nested runner: ${EL_BUSYBOX} is dynamically linked; "
                      "apt-get install busybox-static")
endif()

set(EL_NESTED_DIR ${CMAKE_BINARY_DIR}/nested)
add_custom_command(
  OUTPUT ${ENTRYLAB_NESTED_CACHE}/.complete
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fetch-kernel.sh ${ENTRYLAB_NESTED_CACHE}
  COMMENT "nested runner: fetching Debian's kernel and KVM modules into ${ENTRYLAB_NESTED_CACHE}"
  VERBATIM)
add_custom_command(
  OUTPUT ${EL_NESTED_DIR}/base.cpio ${EL_NESTED_DIR}/kernel
  COMMAND ${CMAKE_COMMAND} -DCACHE=${ENTRYLAB_NESTED_CACHE} -DOUT=${EL_NESTED_DIR}
          -DINIT=${CMAKE_CURRENT_LIST_DIR}/init -DBUSYBOX=${EL_BUSYBOX}
          -P ${CMAKE_CURRENT_LIST_FILE}
  DEPENDS ${ENTRYLAB_NESTED_CACHE}/.complete ${CMAKE_CURRENT_LIST_DIR}/init ${EL_BUSYBOX}
          ${CMAKE_CURRENT_LIST_FILE}
  COMMENT "nested runner: packing ${EL_NESTED_DIR}/base.cpio"
  VERBATIM)
add_custom_target(nested_initramfs ALL
  DEPENDS ${EL_NESTED_DIR}/base.cpio ${EL_NESTED_DIR}/kernel)
