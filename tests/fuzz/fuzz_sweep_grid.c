/* libFuzzer target: sweep grid files.  The first byte picks the reader:
 * even, sweep_grid_parse on the text (NUL-terminated here); odd,
 * sweep_grid_load on it written to a file (the line reader: CR, NUL and
 * long lines); its bit 1 the command (GA or load sweep, whose flags differ).  An accepted grid is finished with one traffic pattern and,
 * if that passes, must survive the record's text form: to_text, from_text
 * and to_text again give the same text, and the first and last tasks' argv
 * are built.  Failure messages are one line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/sweep.h"

static void one_line(const char *err)
{
    if (strchr(err, '\n')) abort();
}

static void roundtrip(sweep_spec *spec)
{
    char err[1024] = "";
    char *text = sweep_spec_to_text(spec, err, sizeof err);
    if (!text) { one_line(err); return; }
    sweep_spec back;
    memset(&back, 0, sizeof back);
    if (sweep_spec_from_text(&back, text, err, sizeof err) != 0) abort();   /* our own text must read back */
    char *again = sweep_spec_to_text(&back, err, sizeof err);
    if (!again || strcmp(text, again) != 0) abort();
    if (back.ntasks != spec->ntasks) abort();
    for (int64_t k = 0; k < spec->ntasks && k < 2; k++) {
        sweep_task t;
        sweep_task_get(spec, k ? spec->ntasks - 1 : 0, &t);
        char **argv = sweep_task_argv(spec, &t, "x.db");
        sweep_argv_free(argv);
    }
    free(text);
    free(again);
    sweep_spec_clear(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_sweep_grid_%ld.grid", (long)getpid());
    sweep_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.command = data[0] & 2 ? SWEEP_LOAD : SWEEP_GA;
    char err[1024] = "";
    int rc;
    if (data[0] % 2 == 0) {
        char *text = malloc(size);
        if (!text) return 0;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        rc = sweep_grid_parse(&spec, text, "fuzz", err, sizeof err);
        free(text);
    } else {
        FILE *f = fopen(path, "wb");
        if (!f) return 0;
        fwrite(data + 1, 1, size - 1, f);
        fclose(f);
        rc = sweep_grid_load(&spec, path, err, sizeof err);
        unlink(path);
    }
    if (rc) one_line(err);
    else {
        spec.traffic = malloc(sizeof *spec.traffic);
        if (spec.traffic && (spec.traffic[0] = strdup("brev"))) spec.ntraffic = 1;
        spec.slices = spec.command == SWEEP_GA ? 2 : 0;
        spec.runs = 1 + data[0] % 3;
        spec.seed = 1;
        spec.grid_name = strdup("fuzz");
        if (sweep_spec_finish(&spec, err, sizeof err) == 0) roundtrip(&spec);
        else one_line(err);
    }
    sweep_spec_clear(&spec);
    return 0;
}
