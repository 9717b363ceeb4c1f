/*
 * copy_to_user and friends (uaccess.h).  Each access is one instruction
 * with an exception-table entry: a fault the page-fault handler cannot
 * resolve (demand paging runs first) resumes after it, and what is left of
 * the count says how far it got.  With CR4.SMAP the copies open the user
 * window with STAC and close it with CLAC.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/x86.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "sys/uaccess_u64.h"

bool uaccess_smap;

void uaccess_init(void)
{
	uaccess_smap = (read_cr4() & CR4_SMAP) != 0;
}

/*
 * REP MOVSB that may fault on either side; returns the bytes not copied.
 * The fixup stores the vector in RSI (cpu.h), which is the source pointer
 * here: it is an output the caller ignores, RCX is what counts.
 */
static size_t copy_raw(void *dst, const void *src, size_t n)
{
	user_open();
	__asm__ __volatile__(ASM_SAFE("rep movsb")
			     : "+D"(dst), "+S"(src), "+c"(n)
			     :
			     : "memory");
	user_close();
	return n;
}

int copy_to_user(uint64_t udst, const void *src, size_t n)
{
	if (!user_range_ok(udst, n))
		return -EFAULT;
	return copy_raw((void *)udst, src, n) ? -EFAULT : 0;
}

int copy_from_user(void *dst, uint64_t usrc, size_t n)
{
	if (!user_range_ok(usrc, n))
		return -EFAULT;
	return copy_raw(dst, (const void *)usrc, n) ? -EFAULT : 0;
}

int clear_user(uint64_t udst, size_t n)
{
	void *d = (void *)udst;

	if (!user_range_ok(udst, n))
		return -EFAULT;
	user_open();
	__asm__ __volatile__(ASM_SAFE("rep stosb") : "+D"(d), "+c"(n) : "a"(0) : "memory");
	user_close();
	return n ? -EFAULT : 0;
}

/* One byte, or -EFAULT. */
static int get_byte(uint64_t uaddr)
{
	int vec = 0;
	uint8_t v = 0;

	__asm__ __volatile__(ASM_SAFE("movb (%[p]), %[v]")
			     : "+S"(vec), [v] "+q"(v)
			     : [p] "r"(uaddr)
			     : "memory");
	return vec ? -EFAULT : v;
}

long strncpy_from_user(char *dst, uint64_t usrc, size_t max)
{
	size_t i;
	long ret = -ENAMETOOLONG;

	if (!max)
		return -ENAMETOOLONG;
	user_open();
	for (i = 0; i < max; i++) {
		int c = user_range_ok(usrc, i + 1) ? get_byte(usrc + i) : -EFAULT;

		if (c < 0) {
			ret = -EFAULT;
			break;
		}
		dst[i] = (char)c;
		if (!c) {
			ret = (long)i;
			break;
		}
	}
	user_close();
	if (ret < 0)
		dst[0] = '\0';
	return ret;
}
