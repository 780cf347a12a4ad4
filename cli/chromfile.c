/* Writing and checking chromosome files (see chromfile.h). */
#include "cli/chromfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/outdest.h"
#include "ga/chrom.h"
#include "util/outfile.h"
#include "util/quote.h"

int chromfile_write(const char *path, const sim_config *c, int n, const chromfile_meta *meta, char *err, size_t errlen)
{
    outfile o = { 0 };
    outdest d = { 0 };
    FILE *f = stdout;
    if (strcmp(path, "-") != 0) {
        if (outdest_start(&d, path, err, errlen) != OUTFILE_OK) return -1;
        if (outfile_open(&o, outdest_path(&d), err, errlen) != OUTFILE_OK) {
            (void)outdest_finish(&d, 0, err, errlen);
            return -1;
        }
        f = o.f;
    }
    char q[QUOTE_BUF], size[32];
    quote_str(q, sizeof q, meta->traffic ? meta->traffic : "?");
    int h = c->nodes / n;   /* the height: n for a square */
    if (h == n) snprintf(size, sizeof size, "%d", n);
    else snprintf(size, sizeof size, "%dx%d", n, h);
    fprintf(f, SIM_CHROM_HEADER "\n");
    fprintf(f, "# traffic %s, %dx%d %s, %d slices of %d flits", q, n, h, meta->topology ? meta->topology : "torus",
            meta->slices, meta->flits);
    if (meta->run > 0) fprintf(f, ", run %lld", (long long)meta->run);
    if (meta->chromosome > 0) fprintf(f, ", chromosome %lld", (long long)meta->chromosome);
    if (meta->duration >= 0) fprintf(f, ", duration %lld", (long long)meta->duration);
    fprintf(f, ", signature %08x\n", meta->crc);
    fprintf(f, "# replay: nocsim replay --file FILE --traffic %s --size %s --slices %d --flits %d\n",
            meta->traffic ? q : "T", size, meta->slices, meta->flits);
    int rc = sim_config_save(c, n, f);
    if (f != stdout) {
        if (rc) {
            snprintf(err, errlen, "%s: write failed (%s)", path, strerror(errno ? errno : EIO));
            outfile_abort(&o);
            (void)outdest_finish(&d, 0, err, errlen);
            return -1;
        }
        int ok = outfile_commit(&o, err, errlen) == OUTFILE_OK;
        return outdest_finish(&d, ok, err, errlen) == OUTFILE_OK && ok ? 0 : -1;
    }
    if (rc | fflush(f)) return snprintf(err, errlen, "-: cannot write the output: %s", strerror(errno ? errno : EIO)), -1;
    return 0;
}

int chromfile_read(sim_config *c, int n, FILE *f, const char *name, char *err, size_t errlen)
{
    sim_config_header h;
    int kind = sim_config_read(c, n, f, name, &h, err, errlen);
    if (kind == 0 && h.settings == 0) {
        char q[QUOTE_BUF];
        snprintf(err, errlen, "config %s: no chromosome in it (no line sets anything: the file is empty, "
                 "only comments or blank lines, or cut before its first setting)", quote_str(q, sizeof q, name));
        return -1;
    }
    if (kind <= 0) return kind;
    uint8_t *scratch = malloc(chrom_grid_size(n, c->nodes / n, c->vcs));
    if (!scratch) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    uint32_t crc = chrom_signature(c, n, scratch);
    free(scratch);
    if (crc == h.signature) return 0;
    char q[QUOTE_BUF];
    snprintf(err, errlen,
             "config %s: the genes give signature %08x, the header names %08x: the file was changed or damaged "
             "(to use edited genes, delete the first line '" SIM_CHROM_HEADER "')",
             quote_str(q, sizeof q, name), crc, h.signature);
    return -1;
}

int chromfile_load(sim_config *c, int n, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        char q[QUOTE_BUF];
        snprintf(err, errlen, "config %s: %s", quote_str(q, sizeof q, path), strerror(errno));
        return -1;
    }
    int rc = chromfile_read(c, n, f, path, err, errlen);
    fclose(f);
    return rc;
}
