/*
 * The benchmark table, generated from guest/benches.def: one row per
 * benchmark with its embedded image (cmake/embed.cmake symbols).
 */
#include <string.h>

#include "array_size.h"
#include "bench.h"

#define EL_BENCH(name, desc, seed, args, unit)                                             \
	extern const unsigned char entrylab_bench_##name[], entrylab_bench_##name##_end[];
#include "benches.def"
#undef EL_BENCH

static const struct el_bench benches[] = {
#define EL_BENCH(name_, desc, seed_, args, unit_)                                          \
	{.name = #name_,                                                                   \
	 .description = desc,                                                              \
	 .seed = seed_,                                                                    \
	 .default_args = args,                                                             \
	 .unit = unit_,                                                                    \
	 .image = entrylab_bench_##name_},
#include "benches.def"
#undef EL_BENCH
};

static const unsigned char *const bench_ends[] = {
#define EL_BENCH(name, desc, seed, args, unit) entrylab_bench_##name##_end,
#include "benches.def"
#undef EL_BENCH
};

const struct el_bench *bench_at(unsigned i)
{
	static struct el_bench table[EL_ARRAY_SIZE(benches)];
	static int ready;

	if (!ready) {
		for (unsigned k = 0; k < EL_ARRAY_SIZE(benches); k++) {
			table[k] = benches[k];
			table[k].image_len = (size_t)(bench_ends[k] - benches[k].image);
			/* pagefault counts faults, set by SIZE and ROUNDS: -n replaces neither. */
			table[k].iter_arg = strcmp(table[k].name, "pagefault") ? 0 : -1;
		}
		ready = 1;
	}
	return i < EL_ARRAY_SIZE(benches) ? &table[i] : NULL;
}

const struct el_bench *bench_find(const char *name)
{
	const struct el_bench *b;

	for (unsigned i = 0; (b = bench_at(i)); i++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}
