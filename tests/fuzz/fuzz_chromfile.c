/* libFuzzer target: chromosome files (chromfile_read: the configuration
 * reader plus the completeness and signature checks) on a 2x2 torus, small
 * enough that a whole file fits the mutator's length.  Property: an accepted
 * file passes sim_config_check. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/chromfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_config *c = sim_config_new(4, 3, 0, 8);
    if (!c) return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (f) {
        char err[512];
        if (chromfile_read(c, 2, f, "fuzz", err, sizeof err) == 0 && sim_config_check(c, err, sizeof err) != 0)
            abort();
        fclose(f);
    }
    sim_config_free(c);
    return 0;
}
