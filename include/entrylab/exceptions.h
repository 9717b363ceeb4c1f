/*
 * The exception vector table shared by the VMM and the guest kernel (see
 * exceptions.def).  C only; the entry asm keeps its own error-code mask,
 * checked against EL_EXCEPTION_ERROR_CODES where C sees both.
 */
#ifndef ENTRYLAB_EXCEPTIONS_H
#define ENTRYLAB_EXCEPTIONS_H

#include <stddef.h>

#define EL_NR_EXCEPTIONS 32

struct el_exception {
	const char *mnemonic; /* "#GP"; NULL: the vector has none */
	const char *name;     /* "general protection"; "reserved" */
	unsigned char error_code; /* the CPU pushes an error code */
};

/* Indexed by vector (common/abi_tables.c). */
extern const struct el_exception el_exceptions[EL_NR_EXCEPTIONS];

enum {
	/* Bit v set: vector v pushes an error code (0x60227d00). */
	EL_EXCEPTION_ERROR_CODES = 0
#define EL_EXCEPTION(vector, mnemonic, name, error_code) | ((error_code) << (vector))
#include "exceptions.def"
#undef EL_EXCEPTION
};

/* 32 entries whose vectors cover 0-31: each vector exactly once. */
_Static_assert((0
#define EL_EXCEPTION(vector, mnemonic, name, error_code) + 1
#include "exceptions.def"
#undef EL_EXCEPTION
		) == EL_NR_EXCEPTIONS && (0u
#define EL_EXCEPTION(vector, mnemonic, name, error_code) | (1u << (vector))
#include "exceptions.def"
#undef EL_EXCEPTION
		) == 0xffffffffu,
	       "exceptions.def lists vectors 0-31 once each");

/* "#GP" for 13; NULL for vectors without a mnemonic and for vector >= 32. */
static inline const char *el_exception_mnemonic(unsigned vector)
{
	return vector < EL_NR_EXCEPTIONS ? el_exceptions[vector].mnemonic : NULL;
}

/* "general protection" for 13, "reserved" for 15; NULL for vector >= 32. */
static inline const char *el_exception_name(unsigned vector)
{
	return vector < EL_NR_EXCEPTIONS ? el_exceptions[vector].name : NULL;
}

/* The mnemonic, or the name where there is none ("coprocessor segment overrun"); NULL for >= 32. */
static inline const char *el_exception_label(unsigned vector)
{
	const char *m = el_exception_mnemonic(vector);

	return m ? m : el_exception_name(vector);
}

#endif
