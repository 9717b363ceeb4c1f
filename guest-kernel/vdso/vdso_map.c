/*
 * The vDSO at boot and at exec.  vdso_init() chooses the image of the
 * requested variant (vdso.tsc= x vdso.clamp=), checks it, fills the vvar
 * fields that are not time (getcpu, timezone, the variant) and sets up the
 * vsyscall page.  vdso_map_process() maps the shared pages into a process:
 * the image straight from the kernel's rodata (every process shares it),
 * the vvar pages straight from the clock's bss.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/msr.h"
#include "config.h"
#include "lib/kprintf.h"
#include "mm/layout.h"
#include "proc/usermap.h"
#include "time/time.h"
#include "time/vclock.h"
#include "vdso/vdso.h"
#include "vdso/vdso_image.h"
#include "vsyscall/vsyscall.h"

_Static_assert(VCLOCK_TSC_LFENCE == EL_TSC_LFENCE && VCLOCK_TSC_LFENCE2 == EL_TSC_LFENCE2 &&
		       VCLOCK_TSC_RDTSCP == EL_TSC_RDTSCP && VCLOCK_TSC_NONE == EL_TSC_NONE,
	       "vclock.h numbers the TSC reads as knobs.h");
_Static_assert(VCLOCK_CLAMP_BRANCH == EL_CLAMP_BRANCH && VCLOCK_CLAMP_CMOV == EL_CLAMP_CMOV,
	       "vclock.h numbers the clamps as knobs.h");

static struct {
	const struct vdso_image *image;
	bool mapped;              /* vdso=on and the image passed its check */
	bool ready;               /* vdso_init() ran */
	uint8_t config[EL_CFG_COUNT];
} vdso;

/* The TSC read the image will do: RDTSCP needs CPUID RDTSCP, else LFENCE (reported unavailable). */
static unsigned choose_tsc(void)
{
	unsigned tsc = kernel_cmdline.requested[EL_CFG_VDSO_TSC];

	vdso.config[EL_CFG_VDSO_TSC] = (uint8_t)tsc;
	if (tsc == EL_TSC_RDTSCP && !cpu_has(EL_FEAT_RDTSCP)) {
		vdso.config[EL_CFG_VDSO_TSC] = EL_CONFIG_UNAVAILABLE;
		tsc = EL_TSC_LFENCE;
	}
	return tsc;
}

/* getcpu: RDPID reads TSC_AUX = node << 12 | cpu (all 0: one vCPU, one node). */
static void setup_getcpu(struct vvar_data *vd)
{
	vd->cpu = 0;
	vd->node = 0;
	vd->getcpu_mode = VGETCPU_VVAR;
	if (!cpu_has(EL_FEAT_RDTSCP) && !cpu_has(EL_FEAT_RDPID))
		return;
	if (wrmsr_safe(MSR_TSC_AUX, 0)) {
		kprintf("vdso: WRMSR TSC_AUX faulted; getcpu reads the vvar page\n");
		return;
	}
	if (cpu_has(EL_FEAT_RDPID))
		vd->getcpu_mode = VGETCPU_RDPID;
}

void vdso_init(void)
{
	struct vvar_data *vd = time_vvar_pages();
	unsigned tsc = choose_tsc(), clamp = kernel_cmdline.requested[EL_CFG_VDSO_CLAMP];
	const char *why;

	vdso.config[EL_CFG_VDSO_CLAMP] = (uint8_t)clamp;
	vdso.image = vdso_image_get(tsc, clamp);
	why = vdso.image ? vdso_image_check(vdso.image) : "no such variant";
	if (why)
		kprintf("vdso: image %s unusable (%s): processes get no vDSO\n",
			vdso.image ? vdso.image->name : "?", why);
	vdso.mapped = !why && kernel_cmdline.requested[EL_CFG_VDSO] == EL_VDSO_ON;
	vdso.config[EL_CFG_VDSO] = vdso.mapped ? EL_VDSO_ON : EL_VDSO_OFF;

	setup_getcpu(vd);
	vd->tz_minuteswest = 0;
	vd->tz_dsttime = 0;
	vd->variant_tsc = tsc;
	vd->variant_clamp = clamp;

	vdso.config[EL_CFG_VSYSCALL] = vsyscall_init(kernel_cmdline.requested[EL_CFG_VSYSCALL]);
	vdso.ready = true;
	if (vdso.image)
		kprintf("vdso: %s, image %s (%ld bytes), getcpu by %s\n",
			vdso.mapped ? "on" : "off", vdso.image->name,
			(long)(vdso.image->end - vdso.image->start),
			vd->getcpu_mode == VGETCPU_RDPID ? "RDPID" : "the vvar page");
}

uint64_t vdso_map_process(void)
{
	uint64_t pages, vvar_at;
	long base, vv;

	time_process_start();
	if (!vdso.mapped)
		return 0;
	pages = (uint64_t)(vdso.image->end - vdso.image->start) / PAGE_SIZE;
	base = usermap_special(0, virt_to_phys(vdso.image->start), pages, UMAP_READ | UMAP_EXEC,
			       "[vdso]");
	if (base < 0 || (uint64_t)base < VVAR_PAGES * PAGE_SIZE) {
		kprintf("vdso: cannot map [vdso] (%ld): the process runs without a vDSO\n", base);
		return 0;
	}
	vvar_at = (uint64_t)base - VVAR_PAGES * PAGE_SIZE;
	vv = usermap_special(vvar_at, virt_to_phys(time_vvar_pages()), VVAR_PAGES, UMAP_READ,
			     "[vvar]");
	if (vv < 0) {
		kprintf("vdso: cannot map [vvar] at %lx below [vdso] (%ld): the process runs "
			"without a vDSO\n", vvar_at, vv);
		return 0;
	}
	/* Where to look, for gdb and trace listings (the image's symbols: vdso-<name>.dbg). */
	kprintf("vdso: [vdso] %s at %lx, [vvar] at %lx\n", vdso.image->name, (uint64_t)base,
		vvar_at);
	return (uint64_t)base;
}

uint8_t vdso_config(unsigned item)
{
	static const bool ours[EL_CFG_COUNT] = {
		[EL_CFG_VSYSCALL] = true, [EL_CFG_VDSO] = true,
		[EL_CFG_VDSO_TSC] = true, [EL_CFG_VDSO_CLAMP] = true};

	if (!vdso.ready || item >= EL_CFG_COUNT || !ours[item])
		return EL_CONFIG_UNSET;
	return vdso.config[item];
}

const struct vdso_image *vdso_image_mapped(void)
{
	return vdso.ready && vdso.mapped ? vdso.image : 0;
}
