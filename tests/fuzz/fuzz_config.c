/* libFuzzer target: configuration files (sim_config_read) on a 4x4 torus with
 * 3 VCs.  Property beyond "no crash": whatever is accepted passes
 * sim_config_check (every scheme and queue order in range). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_config *c = sim_config_new(16, 3, 0, 8);
    if (!c) return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (f) {
        char err[512];
        if (sim_config_read(c, 4, f, "fuzz", NULL, err, sizeof err) >= 0 && sim_config_check(c, err, sizeof err) != 0)
            abort();
        fclose(f);
    }
    sim_config_free(c);
    return 0;
}
