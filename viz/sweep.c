/* The stacking-sweep CSV reader (see sweep.h). */
#include "viz/sweep.h"
#include "util/lines.h"
#include "util/parse.h"
#include "viz/viz.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 6

/* Split line (modified in place) at commas; the number of fields. */
static int split(char *line, char **field)
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n < MAX_FIELDS) field[n] = p;
        n++;
        p = strchr(p, ',');
        if (!p) break;
        *p = '\0';
    }
    return n;
}

/* Integers as util/parse.h reads them: the whole field, nothing cut. */
static int parse_long(const char *s, long *v)
{
    int64_t x;
    if (parse_int(s, -1000000000, 1000000000, &x) != PARSE_OK) return 0;
    *v = (long)x;
    return 1;
}

int viz_sweep_read(FILE *in, const char *name, viz_figure **out, char *err, size_t errlen)
{
    *out = NULL;
    char *line, *first = NULL, title[256];
    long lineno = 0, size = 0, slices = 0;
    int rc = VIZ_OK, series = -1, got;
    char scheme[64] = "";
    viz_figure *f = NULL;
    line_reader lr;
    line_reader_init(&lr, in, name);
    while (rc == VIZ_OK && (got = line_reader_next(&lr, &line, err, errlen)) > 0) {
        lineno++;
        if (lineno == 1) {
            if (strcmp(line, VIZ_SWEEP_HEADER) != 0) {
                snprintf(err, errlen, "%s:1: not a stacking sweep: the header must be '%s' (nocsim stack --format csv)",
                         name, VIZ_SWEEP_HEADER);
                rc = VIZ_BADINPUT;
            }
            continue;
        }
        if (!*line) continue;
        char *fl[MAX_FIELDS];
        long sz, sl, v, d;
        if (split(line, fl) != MAX_FIELDS || !parse_long(fl[1], &sz) || !parse_long(fl[2], &sl) ||
            !parse_long(fl[4], &v) || !parse_long(fl[5], &d) || !*fl[3] || strlen(fl[3]) >= sizeof scheme) {
            snprintf(err, errlen, "%s:%ld: expected 6 fields: traffic,size,slices,scheme,interval,duration", name, lineno);
            rc = VIZ_BADINPUT;
            break;
        }
        if (!f) {
            if (!(first = strdup(fl[0]))) { rc = VIZ_FAIL; snprintf(err, errlen, "out of memory"); break; }
            size = sz;
            slices = sl;
            snprintf(title, sizeof title, "simple stacking: %s, %ldx%ld torus, %ld slices", first, sz, sz, sl);
            if (!(f = viz_fig_new(title, "inter-slice interval V [cycles]", "duration T_d [cycles]"))) {
                rc = VIZ_FAIL;
                snprintf(err, errlen, "out of memory");
                break;
            }
        } else if (strcmp(first, fl[0]) != 0 || sz != size || sl != slices) {
            snprintf(err, errlen, "%s:%ld: %s %ldx%ld %ld slices differs from the first row's %s %ldx%ld %ld slices; "
                     "one sweep per picture", name, lineno, fl[0], sz, sz, sl, first, size, size, slices);
            rc = VIZ_BADINPUT;
            break;
        }
        if (series < 0 || strcmp(scheme, fl[3]) != 0) {
            snprintf(scheme, sizeof scheme, "%s", fl[3]);
            if ((series = viz_fig_series(f, scheme, VIZ_LINE, -1)) < 0) {
                rc = VIZ_FAIL;
                snprintf(err, errlen, "out of memory");
                break;
            }
        }
        if (d >= 0 && viz_fig_point(f, series, (double)v, (double)d) < 0) {
            rc = VIZ_FAIL;
            snprintf(err, errlen, "out of memory");
        }
    }
    /* The reader's kind: a NUL byte or a directory is input, a read error or
     * memory a run-time failure (VIZ_FAIL). */
    if (rc == VIZ_OK && got < 0) rc = fault_of(got) == FAULT_INPUT ? VIZ_BADINPUT : VIZ_FAIL;
    if (rc == VIZ_OK && !f) {
        snprintf(err, errlen, "%s: no rows%s", name, lineno ? "" : " (empty file)");
        rc = VIZ_BADINPUT;
    }
    line_reader_free(&lr);
    free(first);
    if (rc != VIZ_OK) viz_fig_free(f);
    else *out = f;
    return rc;
}
