/*
 * The PVH ELF note: owner "Xen", type XEN_ELFNOTE_PHYS32_ENTRY (18), a 4-byte
 * descriptor holding the physical address of the 32-bit entry (boot.S).
 *
 * An empty note (all-zero header) follows it on purpose: QEMU 7.2 reads the
 * descriptor of a 64-bit ELF as 8 bytes, so the 4 bytes after ours must be
 * zero for it to see the right address.  An empty note is valid ELF and
 * loaders skip it.
 */
	.section .note.pvh, "a", @note
	.balign 4
	.long	2f - 1f		/* namesz */
	.long	4f - 3f		/* descsz */
	.long	18		/* type: XEN_ELFNOTE_PHYS32_ENTRY */
1:	.asciz	"Xen"
2:	.balign 4
3:	.long	pvh_start32
4:	.balign 4
	/* the empty note: namesz 0, descsz 0, type 0 */
	.long	0, 0, 0

	.section .note.GNU-stack, "", @progbits
