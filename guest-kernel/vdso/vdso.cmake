# time/, vdso/ and vsyscall/ in the kernel build: their kernel sources, and
# the vDSO images the kernel embeds (included at the end of the guest
# kernel's CMakeLists.txt).
#
# Every vDSO variant (TSC read x cycle_last clamp, knobs.h) is a
# DSO of its own, built from the same sources with -DVDSO_TSC/-DVDSO_CLAMP,
# so an image holds exactly its variant's code and the kernel chooses one at
# boot.  Each is linked (vdso-<tsc>-<clamp>.dbg, with symbols: for gdb and
# trace listings), stripped (.so, embedded) and checked (vdso_check.cmake).
find_program(EL_READELF readelf REQUIRED)
find_program(EL_OBJDUMP objdump REQUIRED)
find_program(EL_OBJCOPY objcopy REQUIRED)

set(EL_VDSO_SRC ${CMAKE_CURRENT_SOURCE_DIR}/vdso)
set(EL_VDSO_OUT ${CMAKE_CURRENT_BINARY_DIR}/vdso)
set(EL_VDSO_TSC_NAMES lfence lfence2 rdtscp none) # VCLOCK_TSC_* order (time/vclock.h)
set(EL_VDSO_CLAMP_NAMES branch cmov)              # VCLOCK_CLAMP_* order

# User code, position independent, no libc.  Frame pointers and unwind
# tables stay, as in Linux's vDSO, for debuggers and profilers.
set(EL_VDSO_CFLAGS -std=gnu17 -O2 -g -fPIC -ffreestanding -fno-stack-protector -fno-plt
  -fasynchronous-unwind-tables -fno-omit-frame-pointer -foptimize-sibling-calls
  -fcf-protection=none -mgeneral-regs-only
  -Wall -Wextra -Werror -Wshadow -Wvla -Wmissing-prototypes -Wstrict-prototypes)
set(EL_VDSO_LDFLAGS -shared -nostdlib -Wl,-T,${EL_VDSO_SRC}/vdso.lds
  -Wl,--version-script=${EL_VDSO_SRC}/vdso.map -Wl,-soname=linux-vdso.so.1
  -Wl,--hash-style=both -Wl,--eh-frame-hdr -Wl,-Bsymbolic -Wl,--no-undefined
  -Wl,-z,max-page-size=4096 -Wl,-z,noexecstack -Wl,--build-id=sha1)

set(EL_VDSO_IMAGES)
set(tsc_index 0)
foreach(tsc IN LISTS EL_VDSO_TSC_NAMES)
  set(clamp_index 0)
  foreach(clamp IN LISTS EL_VDSO_CLAMP_NAMES)
    set(name vdso-${tsc}-${clamp})
    add_executable(${name} ${EL_VDSO_SRC}/vclock_gettime.c ${EL_VDSO_SRC}/vgetcpu.c
      ${EL_VDSO_SRC}/vsysret.c)
    target_include_directories(${name} PRIVATE ${ENTRYLAB_INCLUDE} ${ENTRYLAB_COMMON} ${CMAKE_CURRENT_SOURCE_DIR})
    target_compile_definitions(${name} PRIVATE VDSO_TSC=${tsc_index} VDSO_CLAMP=${clamp_index})
    target_compile_options(${name} PRIVATE ${EL_VDSO_CFLAGS})
    target_link_options(${name} PRIVATE ${EL_VDSO_LDFLAGS})
    set_target_properties(${name} PROPERTIES OUTPUT_NAME ${name}.dbg
      RUNTIME_OUTPUT_DIRECTORY ${EL_VDSO_OUT}
      LINK_DEPENDS "${EL_VDSO_SRC}/vdso.lds;${EL_VDSO_SRC}/vdso.map")
    add_custom_command(OUTPUT ${EL_VDSO_OUT}/${name}.so
      COMMAND ${EL_OBJCOPY} --strip-all $<TARGET_FILE:${name}> ${name}.so.tmp
      COMMAND ${CMAKE_COMMAND} -DIMAGE=${name}.so.tmp -DDEBUG=$<TARGET_FILE:${name}>
              -DTSC=${tsc} -DCLAMP=${clamp} -DREADELF=${EL_READELF} -DOBJDUMP=${EL_OBJDUMP}
              -P ${EL_VDSO_SRC}/vdso_check.cmake
      COMMAND ${CMAKE_COMMAND} -E rename ${name}.so.tmp ${name}.so
      WORKING_DIRECTORY ${EL_VDSO_OUT}
      DEPENDS ${name} ${EL_VDSO_SRC}/vdso_check.cmake
      COMMENT "vDSO image ${name}: strip and check"
      VERBATIM)
    list(APPEND EL_VDSO_IMAGES ${EL_VDSO_OUT}/${name}.so)
    math(EXPR clamp_index "${clamp_index} + 1")
  endforeach()
  math(EXPR tsc_index "${tsc_index} + 1")
endforeach()
add_custom_target(vdso_images DEPENDS ${EL_VDSO_IMAGES})

# The assembler finds the images through -I (vdso_images.S .incbin's them by name).
set_source_files_properties(vdso/vdso_images.S PROPERTIES
  OBJECT_DEPENDS "${EL_VDSO_IMAGES}"
  COMPILE_OPTIONS "-Wa,-I${EL_VDSO_OUT}")

target_sources(entrylab-kernel PRIVATE
  time/kvmclock.c
  time/legacy_pc.c
  time/random.c
  time/sys_clock.c
  time/sys_sleep.c
  time/time.c
  ${EL_COMMON}/time_math.c
  time/tsc_freq.c
  vdso/sys_getcpu.c
  vdso/vdso_image.c
  vdso/vdso_images.S
  vdso/vdso_map.c
  vdso/vdso32.S
  vdso/vdso32.c
  vdso/vdso_sym.c
  vsyscall/vsyscall.c
  vsyscall/vsyscall_emulate.c
  vsyscall/vsyscall_page.S)
add_dependencies(entrylab-kernel vdso_images)
