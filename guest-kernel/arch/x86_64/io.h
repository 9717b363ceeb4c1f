/*
 * Port I/O: the console, the exit port and the hypercall ports (abi.h).
 * At CPL 0 these cannot fault; the VMM sees each one as a VM exit.
 */
#ifndef EL_IO_H
#define EL_IO_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port) : "memory");
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

/* 32-bit IN (the hypercall probe). */
static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

/* 32-bit OUT: the width the exit and hypercall ports decode. */
static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ __volatile__("outl %0, %1" : : "a"(v), "Nd"(port) : "memory");
}

#endif
