/*
 * Requested configuration (the command line) and effective configuration
 * (what the kernel really set up), by the config items of knobs.h.
 */
#ifndef EL_CONFIG_H
#define EL_CONFIG_H

#include "cmdline.h"
#include "kernel.h"

extern struct el_cmdline kernel_cmdline;
extern uint8_t config_effective[EL_CFG_COUNT];

/* Parses the boot command line into kernel_cmdline; problems go to the console. */
void config_parse_cmdline(const char *cmdline);

/* Fills config_effective from the CPU and page-table state; after paging_init(). */
void config_resolve(void);

/* "on", "entry", "unavailable", ... */
const char *config_value_name(unsigned item, uint8_t value);

#endif
