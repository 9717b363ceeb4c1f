/*
 * Who did it (vmm/exit_fault.c, vmm/insn_name.c): failures the guest caused
 * are guest-crash with the exit reason and instruction named; the VMM's and
 * KVM's own are vmm-error.  The handlers run on a fake kvm_run, no vCPU.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "array_size.h"
#include "exit.h"
#include "insn_name.h"
#include "kvm.h"

static struct kvm_run run;
static struct el_vm vm;
static struct el_run_result res;
static struct el_loop loop;

static void fake_loop(void)
{
	memset(&run, 0, sizeof(run));
	memset(&res, 0, sizeof(res));
	vm = (struct el_vm){.kvm_fd = -1,
			    .vm_fd = -1,
			    .vcpu_fd = -1,
			    .run = &run,
			    .run_size = sizeof(run)};
	loop = (struct el_loop){.vm = &vm, .res = &res};
	res.exits_total = 5;
}

TestSuite(exit_fault, .init = fake_loop);

static void expect(enum el_run_status st, const char *needle)
{
	cr_assert(loop.stop, "the handler did not stop the run");
	cr_expect_eq(res.status, st, "status %d, want %d: %s", res.status, st, res.detail);
	cr_expect(strstr(res.detail, needle), "detail \"%s\" does not name \"%s\"", res.detail,
		  needle);
}

Test(exit_fault, triple_fault_is_guest_crash)
{
	exit_shutdown(&loop);
	expect(EL_RUN_GUEST_CRASH, "KVM_EXIT_SHUTDOWN");
}

Test(exit_fault, sysenter_emulation_failure_names_the_insn)
{
	run.internal.suberror = KVM_INTERNAL_ERROR_EMULATION;
	run.internal.ndata = 3;
	run.emulation_failure.flags = KVM_INTERNAL_ERROR_EMULATION_FLAG_INSTRUCTION_BYTES;
	run.emulation_failure.insn_size = 2;
	run.emulation_failure.insn_bytes[0] = 0x0f;
	run.emulation_failure.insn_bytes[1] = 0x34;
	exit_internal_error(&loop);
	expect(EL_RUN_GUEST_CRASH, "guest's SYSENTER (RIP unknown) (bytes: 0f 34)");
}

Test(exit_fault, emulation_failure_without_bytes_is_guest_crash)
{
	run.internal.suberror = KVM_INTERNAL_ERROR_EMULATION;
	exit_internal_error(&loop);
	expect(EL_RUN_GUEST_CRASH, "emulation failure");
}

Test(exit_fault, delivery_failures_are_guest_crash)
{
	run.internal.suberror = KVM_INTERNAL_ERROR_SIMUL_EX;
	exit_internal_error(&loop);
	expect(EL_RUN_GUEST_CRASH, "suberror 2 (exception while delivering an exception)");
	fake_loop();
	run.internal.suberror = KVM_INTERNAL_ERROR_DELIVERY_EV;
	run.internal.ndata = 1;
	run.internal.data[0] = 0x80000b0e;
	exit_internal_error(&loop);
	expect(EL_RUN_GUEST_CRASH, "data: 0x80000b0e");
}

Test(exit_fault, kvm_own_errors_stay_vmm_error)
{
	run.internal.suberror = KVM_INTERNAL_ERROR_UNEXPECTED_EXIT_REASON;
	exit_internal_error(&loop);
	expect(EL_RUN_VMM_ERROR, "unexpected hardware exit reason");
	fake_loop();
	run.internal.suberror = 99;
	run.internal.ndata = 1000; /* clamped to data[] */
	exit_internal_error(&loop);
	expect(EL_RUN_VMM_ERROR, "suberror 99 (unknown)");
}

Test(exit_fault, fail_entry_first_is_ours_later_the_guests)
{
	res.exits_total = 1;
	run.fail_entry.hardware_entry_failure_reason = 0x21;
	exit_fail_entry(&loop);
	expect(EL_RUN_VMM_ERROR, "0x21");
	fake_loop();
	exit_fail_entry(&loop);
	expect(EL_RUN_GUEST_CRASH, "after the guest changed its state");
}

Test(exit_fault, system_event)
{
	run.system_event.type = KVM_SYSTEM_EVENT_RESET;
	exit_system_event(&loop);
	expect(EL_RUN_GUEST_CRASH, "reset");
}

Test(insn_name, names)
{
	static const struct {
		uint8_t b[6];
		size_t len;
		const char *name;
	} cases[] = {
		{{0x0f, 0x34}, 2, "SYSENTER"},  {{0xf1}, 1, "ICEBP (INT1)"},
		{{0xcd, 0x80}, 2, "INT 0x80"},  {{0x48, 0x0f, 0x07}, 3, "SYSRET"},
		{{0x66, 0x67, 0xef}, 3, "OUT"}, {{0x0f, 0x01, 0xd9}, 3, "VMMCALL"},
	};
	char buf[32];

	for (size_t i = 0; i < EL_ARRAY_SIZE(cases); i++) {
		const char *n = insn_name(cases[i].b, cases[i].len, buf, sizeof(buf));

		cr_expect(n && !strcmp(n, cases[i].name), "case %zu: %s, want %s", i,
			  n ? n : "NULL", cases[i].name);
	}
	cr_expect_null(insn_name((const uint8_t[]){0x90}, 1, buf, sizeof(buf)));
	cr_expect_null(insn_name((const uint8_t[]){0x0f}, 1, buf, sizeof(buf)), "truncated");
	cr_expect_null(insn_name((const uint8_t[]){0xcd}, 1, buf, sizeof(buf)), "INT without imm");
	cr_expect_null(insn_name(NULL, 0, buf, sizeof(buf)));
}

/* exit_dispatch() on recorded exits, no vCPU: the class comes from the table. */
static union {
	struct kvm_run run;
	uint8_t page[4096];
} page;

static void fake_page(void)
{
	memset(&page, 0, sizeof(page));
	memset(&res, 0, sizeof(res));
	vm = (struct el_vm){.kvm_fd = -1,
			    .vm_fd = -1,
			    .vcpu_fd = -1,
			    .run = &page.run,
			    .run_size = sizeof(page)};
	loop = (struct el_loop){.vm = &vm, .res = &res};
	res.exits_total = 5;
}

TestSuite(exit_dispatch, .init = fake_page);

Test(exit_dispatch, mmio_is_guest_bad_io)
{
	page.run.exit_reason = KVM_EXIT_MMIO;
	page.run.mmio.phys_addr = 0xd0000000;
	page.run.mmio.len = 4;
	exit_dispatch(&loop);
	expect(EL_RUN_GUEST_BAD_IO, "0xd0000000");
}

Test(exit_dispatch, unknown_port_is_guest_bad_io)
{
	page.run.exit_reason = KVM_EXIT_IO;
	page.run.io.direction = KVM_EXIT_IO_OUT;
	page.run.io.size = 1;
	page.run.io.count = 1;
	page.run.io.port = 0x1234;
	page.run.io.data_offset = 2048;
	exit_dispatch(&loop);
	expect(EL_RUN_GUEST_BAD_IO, "unknown I/O port 0x1234");
}

Test(exit_dispatch, io_data_outside_the_run_page_is_vmm_error)
{
	page.run.exit_reason = KVM_EXIT_IO;
	page.run.io.size = 4;
	page.run.io.count = 1000000;
	page.run.io.data_offset = 2048;
	exit_dispatch(&loop);
	expect(EL_RUN_VMM_ERROR, "outside the run page");
}

Test(exit_dispatch, shutdown_and_unknown_reasons)
{
	page.run.exit_reason = KVM_EXIT_SHUTDOWN;
	exit_dispatch(&loop);
	expect(EL_RUN_GUEST_CRASH, "triple fault");
	fake_page();
	page.run.exit_reason = 0x7fffffff;
	exit_dispatch(&loop);
	expect(EL_RUN_VMM_ERROR, "no handler");
}
