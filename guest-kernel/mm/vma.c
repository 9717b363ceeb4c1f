/*
 * VMA set arithmetic (vma.h): a sorted array, binary search, splits and
 * merges, the last-hit cache and the per-area leaf bits.  Pure and
 * host-testable.
 */
#include "vma.h"

/* Every change of the set goes through here: the cached index names no area any more. */
static void changed(struct vma_set *s)
{
	s->hit = VMA_MAX;
}

/* The only writer of prot: the leaf bits follow it (and the kind, for the zero page). */
static void set_prot(const struct vma_set *s, struct vma *a, uint32_t prot)
{
	unsigned p = prot & (VMA_R | VMA_W | VMA_X);

	a->prot = prot;
	a->pte = s->leaf[p];
	a->pte_zero = (VMA_ZERO_PAGE_KINDS >> a->kind) & 1 ? s->leaf_zero[p] : 0;
}

void vma_set_init(struct vma_set *s)
{
	unsigned p;

	s->n = 0;
	for (p = 0; p < VMA_PROTS; p++)
		s->leaf[p] = s->leaf_zero[p] = 0;
	s->v[VMA_MAX] = (struct vma){0};
	changed(s);
}

void vma_set_leaves(struct vma_set *s, const uint64_t leaf[VMA_PROTS],
		    const uint64_t leaf_zero[VMA_PROTS])
{
	unsigned p, i;

	for (p = 0; p < VMA_PROTS; p++) {
		s->leaf[p] = leaf[p];
		s->leaf_zero[p] = leaf_zero[p];
	}
	for (i = 0; i < s->n; i++)
		set_prot(s, &s->v[i], s->v[i].prot);
}

void vma_set_clear(struct vma_set *s)
{
	s->n = 0;
	changed(s);
}

unsigned vma_first_above(const struct vma_set *s, uint64_t addr)
{
	unsigned lo = 0, hi = s->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (s->v[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int vma_find(const struct vma_set *s, uint64_t addr)
{
	unsigned i = vma_first_above(s, addr);

	return i < s->n && s->v[i].start <= addr ? (int)i : -1;
}

int vma_lookup(struct vma_set *s, uint64_t addr)
{
	int i;

	if (vma_cached(s, addr))
		return (int)s->hit;
	i = vma_find(s, addr);
	if (i >= 0)
		s->hit = (unsigned)i;
	return i;
}

void vma_grow_down(struct vma_set *s, unsigned i, uint64_t start)
{
	s->v[i].start = start;
	s->hit = i;
}

int vma_range_free(const struct vma_set *s, uint64_t start, uint64_t end)
{
	unsigned i = vma_first_above(s, start);

	return i == s->n || s->v[i].start >= end;
}

int vma_range_covered(const struct vma_set *s, uint64_t start, uint64_t end)
{
	unsigned i = vma_first_above(s, start);
	uint64_t pos = start;

	for (; pos < end; i++) {
		if (i >= s->n || s->v[i].start > pos)
			return 0;
		pos = s->v[i].end;
	}
	return 1;
}

uint64_t vma_gap_topdown(const struct vma_set *s, uint64_t len, uint64_t low, uint64_t high)
{
	uint64_t top = high;
	unsigned i;

	if (!len || high < low || len > high - low)
		return 0;
	for (i = s->n; i-- > 0;) {
		const struct vma *a = &s->v[i];

		if (a->end <= top) {
			uint64_t gap_lo = a->end > low ? a->end : low;

			if (top >= gap_lo && top - gap_lo >= len)
				return (top - len) & ~(uint64_t)(VMA_PAGE - 1);
		}
		if (a->start < top)
			top = a->start;
		if (top <= low)
			return 0;
	}
	return top - low >= len ? (top - len) & ~(uint64_t)(VMA_PAGE - 1) : 0;
}

/*
 * MAP_SHARED anonymous areas never merge: on Linux each is its own shmem
 * object ("/dev/zero (deleted)"), so two mappings stay two maps lines.
 */
int vma_mergeable(const struct vma *a, const struct vma *b)
{
	if (a->end != b->start || a->kind != b->kind || a->prot != b->prot ||
	    a->kind == VMA_SPECIAL || a->kind == VMA_ANON_SHARED || a->file != b->file ||
	    a->name != b->name)
		return 0;
	if (vma_has_file(a))
		return b->pgoff == a->pgoff + (a->end - a->start) && a->file_end == b->file_end;
	return 1;
}

static void insert_at(struct vma_set *s, unsigned i, const struct vma *v)
{
	unsigned j;

	for (j = s->n; j > i; j--)
		s->v[j] = s->v[j - 1];
	s->v[i] = *v;
	set_prot(s, &s->v[i], v->prot);
	s->n++;
	changed(s);
}

static void delete_at(struct vma_set *s, unsigned i)
{
	for (; i + 1 < s->n; i++)
		s->v[i] = s->v[i + 1];
	s->n--;
	changed(s);
}

/* Splits area i at addr (strictly inside it); the caller checked the room. */
static void split_at(struct vma_set *s, unsigned i, uint64_t addr)
{
	struct vma right = s->v[i];

	right.pgoff += addr - right.start;
	right.start = addr;
	s->v[i].end = addr;
	insert_at(s, i + 1, &right);
}

/* Merges compatible neighbours among areas lo..hi (indices clamped). */
static void merge_between(struct vma_set *s, unsigned lo, unsigned hi)
{
	unsigned i;

	if (hi + 1 > s->n)
		hi = s->n ? s->n - 1 : 0;
	for (i = hi; i-- > lo;) {
		if (i + 1 < s->n && vma_mergeable(&s->v[i], &s->v[i + 1])) {
			s->v[i].end = s->v[i + 1].end;
			delete_at(s, i + 1);
		}
	}
}

int vma_insert(struct vma_set *s, const struct vma *v)
{
	unsigned i = vma_first_above(s, v->start);
	int prev = i > 0 && vma_mergeable(&s->v[i - 1], v);
	int next = i < s->n && vma_mergeable(v, &s->v[i]);

	changed(s);
	if (prev && next) {
		s->v[i - 1].end = s->v[i].end;
		delete_at(s, i);
	} else if (prev) {
		s->v[i - 1].end = v->end;
	} else if (next) {
		s->v[i].start = v->start;
		s->v[i].pgoff = v->pgoff;
	} else {
		if (s->n == VMA_MAX)
			return VMA_ERR_FULL;
		insert_at(s, i, v);
	}
	return 0;
}

int vma_remove(struct vma_set *s, uint64_t start, uint64_t end)
{
	unsigned i = vma_first_above(s, start);

	if (start >= end)
		return 0;
	changed(s);
	if (i < s->n && s->v[i].start < start && s->v[i].end > end) {
		/* A hole in the middle of one area: it becomes two. */
		if (s->n == VMA_MAX)
			return VMA_ERR_FULL;
		split_at(s, i, end);
		s->v[i].end = start;
		return 0;
	}
	while (i < s->n && s->v[i].start < end) {
		struct vma *a = &s->v[i];

		if (a->start < start) {
			a->end = start;
			i++;
		} else if (a->end > end) {
			a->pgoff += end - a->start;
			a->start = end;
			break;
		} else {
			delete_at(s, i);
		}
	}
	return 0;
}

int vma_protect(struct vma_set *s, uint64_t start, uint64_t end, uint32_t prot)
{
	unsigned i = vma_first_above(s, start), first, extra = 0;
	int a = vma_find(s, start), b = vma_find(s, end);

	if (start >= end)
		return 0;
	if (a >= 0 && s->v[a].start < start && s->v[a].prot != prot)
		extra++;
	if (b >= 0 && s->v[b].start < end && s->v[b].prot != prot)
		extra++;
	if (s->n + extra > VMA_MAX)
		return VMA_ERR_FULL;
	changed(s);
	if (a >= 0 && s->v[a].start < start && s->v[a].prot != prot) {
		split_at(s, (unsigned)a, start);
		i = (unsigned)a + 1;
	}
	first = i;
	for (; i < s->n && s->v[i].start < end; i++) {
		if (s->v[i].end > end && s->v[i].prot != prot)
			split_at(s, i, end);
		set_prot(s, &s->v[i], prot);
	}
	merge_between(s, first ? first - 1 : 0, i);
	return 0;
}

int vma_cuts_special(const struct vma_set *s, uint64_t start, uint64_t end)
{
	unsigned i;

	for (i = vma_first_above(s, start); i < s->n && s->v[i].start < end; i++)
		if (s->v[i].kind == VMA_SPECIAL && (s->v[i].start < start || s->v[i].end > end))
			return 1;
	return 0;
}

int vma_can_expand(const struct vma_set *s, unsigned i, uint64_t delta, uint64_t limit)
{
	uint64_t end;

	if (i >= s->n)
		return 0;
	end = s->v[i].end;
	if (end + delta < end || end + delta > limit)
		return 0;
	return i + 1 == s->n || s->v[i + 1].start >= end + delta;
}

void vma_expand(struct vma_set *s, unsigned i, uint64_t new_end)
{
	changed(s);
	s->v[i].end = new_end;
	if (i + 1 < s->n && vma_mergeable(&s->v[i], &s->v[i + 1])) {
		s->v[i].end = s->v[i + 1].end;
		delete_at(s, i + 1);
	}
}

int vma_move(struct vma_set *s, uint64_t addr, uint64_t old_len, uint64_t new_addr,
	     uint64_t new_len, int keep_old)
{
	int i = vma_find(s, addr);
	struct vma moved;

	if (i < 0 || old_len > s->v[i].end - addr)
		return VMA_ERR_RANGE;
	/* At worst the removal splits one area in two and the new area merges with nothing. */
	if (s->n + 2 > VMA_MAX)
		return VMA_ERR_FULL;
	moved = s->v[i];
	moved.pgoff += addr - moved.start;
	moved.start = new_addr;
	moved.end = new_addr + new_len;
	if (moved.kind == VMA_HEAP || moved.kind == VMA_STACK)
		moved.kind = VMA_ANON;
	changed(s);
	if (!keep_old)
		vma_remove(s, addr, addr + old_len);
	return vma_insert(s, &moved);
}
