/* Chromosome files: the configuration text format (sim/config_file.c) with
 * a versioned header saying where the chromosome comes from.  `nocsim export`
 * and `nocsim ga --save-best` write them; `--config` and `replay --file`
 * read them back, checking the network size, VC count and every range. */
#ifndef NOCSIM_CHROMFILE_H
#define NOCSIM_CHROMFILE_H

#include <stdint.h>
#include <stdio.h>

#include "sim/sim.h"

typedef struct {
    const char *traffic;
    int slices, flits;
    int64_t run, chromosome, duration;   /* 0 / -1 when unknown */
    uint32_t crc;
} chromfile_meta;

/* Write to path ("-" = stdout).  Returns 0, or -1 with errno set. */
int chromfile_write(const char *path, const sim_config *c, int n, const chromfile_meta *meta);

#endif
