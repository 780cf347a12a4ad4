/* libFuzzer target: experiment files (sim/ol_config.c on util/keyfile.c:
 * BookSim2's syntax and keys).  The input is a file's text (cut at its
 * first NUL).  Properties: an accepted file's settings have a name, a value
 * that is not empty and a line within the file; each setting of an open-
 * loop row sets a default ol_params or is refused with a message, and a
 * refused file has a message naming the file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ol_config.h"
#include "sim/ol_options.h"

static const opt_row *ol_row(const char *name)
{
    const opt_row *r = opt_find(ol_net_options, name);
    if (!r) r = opt_find(ol_packet_options, name);
    if (!r) r = opt_find(ol_measure_options, name);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    long lines = 1;
    for (const char *c = text; *c; c++) lines += *c == '\n' || *c == '\r';
    ol_config c;
    char err[512] = "";
    int rc = ol_config_parse(text, "fuzz", &c, err, sizeof err);
    if (rc && (rc != -FAULT_INPUT || strncmp(err, "fuzz", 4))) abort();
    for (int i = 0; !rc && i < c.n; i++) {
        const ol_setting *s = &c.set[i];
        if (!s->name || !s->value || !*s->value || s->line < 1 || s->line > lines) abort();
        const opt_row *r = ol_row(s->name);
        ol_params p;
        ol_params_default(&p);
        if (r && r->type != OPT_SWITCH && opt_set(r, &p, s->value, err, sizeof err) && !*err) abort();
    }
    ol_config_free(&c);
    free(text);
    return 0;
}
