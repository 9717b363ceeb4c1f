/*
 * The two configuration files of a Bochs boot: GRUB's grub.cfg (the
 * multiboot2 line with the guest command line, the initrd as module2) and
 * the bochsrc.  Pure text; bochs_run.c writes them.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "bochs.h"
#include "cmdline.h"

/*
 * A byte GRUB passes through a single-quoted word, and through
 * grub_create_loader_cmdline's re-quoting, as the guest's tokenizer reads
 * it back: printable ASCII and the space (a word with one comes out in
 * double quotes), but not the quotes and the backslash (GRUB escapes those
 * with a backslash, which the guest's parser does not undo).
 */
static bool grub_plain(unsigned char c)
{
	return c >= ' ' && c < 0x7f && c != '\'' && c != '\\';
}

/*
 * Token by token as the guest splits the line (el_cmdline_split), its
 * double quotes dropped: GRUB hands the guest each word bare, or in double
 * quotes when it holds a space, which the guest reads as the same token.
 */
int bochs_grub_cmdline(const char *cmdline, char *out, size_t outlen, char *err, size_t errlen)
{
	const char *p = cmdline;
	struct el_cmdline_token t;
	size_t o = 0;

	if (outlen)
		out[0] = '\0';
	while (el_cmdline_split(&p, &t)) {
		if (o + t.rawlen + 4 >= outlen) {
			snprintf(err, errlen, "the guest command line is too long for grub.cfg (%zu "
				 "bytes); shorten --append or the arguments", strlen(cmdline));
			return -1;
		}
		if (o)
			out[o++] = ' ';
		out[o++] = '\'';
		for (size_t i = 0; i < t.rawlen; i++) {
			unsigned char c = (unsigned char)t.raw[i];

			if (c == '"')
				continue;
			if (!grub_plain(c)) {
				snprintf(err, errlen, "the guest command line has byte 0x%02x at offset "
					 "%zu, which GRUB's multiboot2 line cannot pass unchanged; "
					 "under --engine bochs use no single quote, backslash, "
					 "control or non-ASCII byte in --append or the program's "
					 "arguments", c, (size_t)(t.raw + i - cmdline));
				return -1;
			}
			out[o++] = (char)c;
		}
		out[o++] = '\'';
		out[o] = '\0';
	}
	return 0;
}

int bochs_grub_cfg(const char *cmdline, char *out, size_t outlen, char *err, size_t errlen)
{
	char words[8192];
	int n;

	if (bochs_grub_cmdline(cmdline, words, sizeof(words), err, errlen))
		return -1;
	n = snprintf(out, outlen,
		     "set timeout=0\n"
		     "set default=0\n"
		     "menuentry \"entrylab\" {\n"
		     "\tmultiboot2 /boot/kernel %s\n"
		     "\tmodule2 /boot/initrd\n"
		     "\tboot\n"
		     "}\n",
		     words);
	if (n < 0 || (size_t)n >= outlen) {
		snprintf(err, errlen, "grub.cfg does not fit %zu bytes; shorten --append", outlen);
		return -1;
	}
	return 0;
}

int bochs_rc_text(const struct bochs_rc *rc, char *out, size_t outlen)
{
	int n = snprintf(out, outlen,
		"# written by entrylab run --engine bochs (harness/bochs/bochs_cfg.c)\n"
		"cpu: model=%s, count=1, reset_on_triple_fault=0, ignore_bad_msrs=0\n"
		"memory: guest=%u, host=%u\n"
		"romimage: file=%s\n"
		"vgaromimage: file=%s\n"
		"ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14\n"
		"ata0-master: type=cdrom, path=%s, status=inserted\n"
		"boot: cdrom\n"
		"com1: enabled=1, mode=file, dev=%s\n"
		"display_library: term\n"
		"mouse: enabled=0\n"
		"clock: sync=none, time0=local\n"
		"log: %s\n"
		"panic: action=fatal\n"
		"error: action=report\n"
		"info: action=ignore\n"
		"debug: action=ignore\n",
		rc->model, rc->megs, rc->megs, rc->bios, rc->vgabios, rc->iso, rc->com1, rc->log);

	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

const char *bochs_vgabios_path(void)
{
	static const char *const paths[] = {
		"/usr/share/vgabios/vgabios.bin",
		"/usr/share/bochs/VGABIOS-lgpl-latest",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(paths); i++)
		if (!access(paths[i], R_OK))
			return paths[i];
	return NULL;
}
