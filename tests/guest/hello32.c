/*
 * hello32: the smallest i386 program (gcc -m32 -static, glibc): its start-up
 * (brk, set_thread_area, TLS through %gs, ...), one line on stdout and
 * exit 0.  Runs as a compat process on the entrylab kernel
 * (tests/kvm/test_i386.c) and on any Linux with IA32 emulation.
 */
#include <stdio.h>

int main(void)
{
	printf("hello from i386\n");
	return 0;
}
