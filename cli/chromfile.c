/* Writing chromosome files (see chromfile.h). */
#include "cli/chromfile.h"

#include <string.h>

int chromfile_write(const char *path, const sim_config *c, int n, const chromfile_meta *meta)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "# nocsim chromosome v1\n");
    fprintf(f, "# traffic %s, %dx%d torus, %d slices of %d flits", meta->traffic ? meta->traffic : "?", n, n,
            meta->slices, meta->flits);
    if (meta->run > 0) fprintf(f, ", run %lld", (long long)meta->run);
    if (meta->chromosome > 0) fprintf(f, ", chromosome %lld", (long long)meta->chromosome);
    if (meta->duration >= 0) fprintf(f, ", duration %lld", (long long)meta->duration);
    fprintf(f, ", signature %08x\n", meta->crc);
    fprintf(f, "# replay: nocsim replay --file FILE --traffic %s --size %d --slices %d --flits %d\n",
            meta->traffic ? meta->traffic : "T", n, meta->slices, meta->flits);
    int rc = sim_config_save(c, n, f);
    if (f != stdout) rc |= fclose(f);
    else rc |= fflush(f);
    return rc ? -1 : 0;
}
