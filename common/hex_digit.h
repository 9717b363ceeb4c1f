/*
 * One hex digit's value, either case: 0..15, or -1 for anything else.
 * Header-only and pure, for every world that parses hex text: Linux's /init
 * (its conf, guest/linux/conf.c) and the trace plugin's arguments
 * (harness/trace/eltrace_window.c).  The frame decoder (vmm/frame_decode.c)
 * keeps its own: frames are lower-case only, by contract.
 */
#ifndef EL_HEX_DIGIT_H
#define EL_HEX_DIGIT_H

static inline int el_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
