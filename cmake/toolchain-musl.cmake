# Toolchain for the guest user programs (guest/, tests/guest/): static x86-64
# Linux binaries built with Debian's musl-gcc wrapper.  Nothing of the host
# build's flags reaches here: the environment's CFLAGS and friends are dropped
# too, so the binaries are the same whoever builds them.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER musl-gcc)
set(CMAKE_ASM_COMPILER musl-gcc)

foreach(var CFLAGS CPPFLAGS LDFLAGS ASMFLAGS)
  unset(ENV{${var}})
endforeach()

set(CMAKE_C_FLAGS_INIT "-O2 -Wall -Wextra -Werror")
set(CMAKE_ASM_FLAGS_INIT "-Wall -Werror")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# No per-configuration flags: -O2 above is the one optimisation level.
foreach(cfg DEBUG RELEASE RELWITHDEBINFO MINSIZEREL)
  set(CMAKE_C_FLAGS_${cfg}_INIT "")
  set(CMAKE_ASM_FLAGS_${cfg}_INIT "")
endforeach()

