/*
 * Size-class allocator (kmalloc.h): one free list per class, refilled by
 * cutting a fresh frame into objects.  Frames are never returned: the
 * kernel's objects are few and live long.
 */
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"

#define MIN_SHIFT 5 /* 32 bytes */
#define NR_CLASSES (PAGE_SHIFT - MIN_SHIFT + 1)

static void *free_lists[NR_CLASSES];

static int class_of(size_t size)
{
	int c = 0;

	if (size > PAGE_SIZE)
		return -1;
	while (((size_t)1 << (MIN_SHIFT + c)) < size)
		c++;
	return c;
}

static bool refill(int c)
{
	size_t obj = (size_t)1 << (MIN_SHIFT + c), off;
	uint64_t pa = frame_alloc();
	char *page;

	if (!pa)
		return false;
	page = phys_to_virt(pa);
	for (off = 0; off + obj <= PAGE_SIZE; off += obj) {
		*(void **)(page + off) = free_lists[c];
		free_lists[c] = page + off;
	}
	return true;
}

void *kzalloc(size_t size)
{
	int c = class_of(size ? size : 1);
	void *p;

	if (c < 0 || (!free_lists[c] && !refill(c)))
		return 0;
	p = free_lists[c];
	free_lists[c] = *(void **)p;
	memset(p, 0, (size_t)1 << (MIN_SHIFT + c));
	return p;
}

void kfree(void *p, size_t size)
{
	int c = class_of(size ? size : 1);

	if (!p || c < 0)
		return;
	*(void **)p = free_lists[c];
	free_lists[c] = p;
}
