/*
 * EL_ARRAY_SIZE(a): the number of elements of the array a, an integer
 * constant expression (usable in array sizes and _Static_assert).
 *
 * Given a pointer instead of an array (a parameter declared `int a[]`, or an
 * array that decayed), dividing the sizes compiles and is wrong; here it
 * fails to build, as Linux's ARRAY_SIZE does with __must_be_array: an
 * array's type differs from the type of a pointer to its first element, a
 * pointer's does not.
 *
 * Pure C for every world that includes common/ (host, guest kernel, guest
 * programs): GCC's and Clang's __builtin_types_compatible_p and __typeof__,
 * which C17 without GNU extensions accepts, and C11's _Static_assert.
 */
#ifndef EL_ARRAY_SIZE_H
#define EL_ARRAY_SIZE_H

/* 0, or a build error when a is a pointer rather than an array. */
#define EL_MUST_BE_ARRAY(a)                                                                \
	(0 * sizeof(struct {                                                               \
		 _Static_assert(!__builtin_types_compatible_p(__typeof__(a),               \
							      __typeof__(&(a)[0])),        \
				"EL_ARRAY_SIZE of a pointer, not an array");               \
		 char c;                                                                   \
	 }))

#define EL_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + EL_MUST_BE_ARRAY(a))

#endif
