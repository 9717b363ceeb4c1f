# The VMM's sources, one list for el_vmm (vmm/CMakeLists.txt) and the fuzz
# build (tests/fuzz/CMakeLists.txt), which compiles them with libFuzzer's
# instrumentation: a new file is added here, never found by a GLOB.
set(EL_VMM_SOURCES
  kvm.c vm.c gpa.c vcpu_boot.c regs_dump.c timeout.c
  cpuid.c cpuid_kvm.c cpuid_spec.c host_info.c xcr0.c
  pvh_load.c pvh_start.c linux_load.c linux_boot.c
  run.c jail.c confine.c confine_rules.c confine_status.c
  exit_loop.c exit_io.c exit_names.c exit_fault.c insn_name.c hostout.c
  dev/console.c dev/exit_port.c dev/hcall.c dev/post.c dev/legacy.c dev/rtc.c
  report_check.c
  uart.c linux_mode.c
  frame_decode.c frame_result.c frame_linux.c frame_split.c
  events.c events_parse.c
  bench.c bench_iter.c program.c region_scope.c initrd.c initrd_linux.c cpio_write.c
  files.c)
