# Toolchain for the guest kernel: the host's gcc used freestanding.
# Nothing here reaches host targets; nothing of the host's flags reaches here.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER gcc)
set(CMAKE_ASM_COMPILER gcc)
# try_compile cannot link without a libc: build a static library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "")
set(CMAKE_C_FLAGS_RELEASE_INIT "-O2")
