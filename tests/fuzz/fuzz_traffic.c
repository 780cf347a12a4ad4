/* libFuzzer target: traffic files (traffic_read).  The first byte picks the
 * torus size (2, 4 or 8), the rest is the file.  Property beyond "no crash":
 * an accepted file gives every node a destination inside the torus. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "traffic/traffic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int n = 2 << (data[0] % 3);
    FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
    if (!f) return 0;
    char err[512];
    traffic *t = traffic_read(f, "fuzz", n, err, sizeof err);
    fclose(f);
    if (t) {
        for (int i = 0; i < t->nodes; i++)
            if (t->dest[i] < 0 || t->dest[i] >= t->nodes) abort();
        traffic_free(t);
    }
    return 0;
}
