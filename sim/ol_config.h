/* Experiment files for open-loop runs: a file of `key = value` settings
 * (util/keyfile.h: BookSim2's syntax) turned into settings of nocsim's own
 * options, by name.  A key is one of
 *  - nocsim's option names (the rows of sim/ol_options.h and the command's
 *    own: `vcs = 3`, `rates = 0.02:0.5:0.02`), passed on as they are
 *    (a list {a,b} becomes "a,b");
 *  - BookSim2's name of something both simulators share (`num_vcs`,
 *    `vc_buf_size`, `injection_rate`, ...), translated to ours: exactly where
 *    the meaning is the same, approximately where nocsim's model differs
 *    (each such key is listed in ol_config.approx, and docs/config.md says
 *    why for every key);
 *  - a BookSim2 key nocsim models only at one value (`n = 2`,
 *    `routing_function = dor`, the router's pipeline delays): accepted at
 *    that value, refused at any other with what nocsim does instead.
 * What is left is the caller's to refuse: a name no option of its has.
 *
 * A file with any BookSim2-only key is read with BookSim2's meaning of the
 * keys both share: its `traffic` addresses a node itself where the pattern
 * says so (BookSim2's uniform draws it), i.e. `self = send` unless the file
 * sets `self`; `injection_rate` counts packets unless
 * `injection_rate_uses_flits = 1` (BookSim2's default is 0).
 *
 * Conventions as in util/keyfile.h: nothing printed; 0 or a negative fault
 * with one message "NAME, line N: KEY ..." in err. */
#ifndef NOCSIM_SIM_OL_CONFIG_H
#define NOCSIM_SIM_OL_CONFIG_H

#include <stddef.h>

#include "util/fault.h"

typedef struct {
    const char *name;  /* our option's name ("vcs") */
    char *value;       /* owned */
    const char *key;   /* the file's key it came from ("num_vcs"), for messages; owned by the config */
    long line;
    int implied;       /* 1: not given but implied by BookSim2's defaults (the router timing of a
                          BookSim2 file that sets no pipeline key): a command without that option
                          skips it */
} ol_setting;

typedef struct {
    ol_setting *set;   /* in the file's order; apply them in this order */
    int n;
    char approx[512];  /* the keys taken approximately, "sample_period, seed" ("" none) */
    void *priv;        /* the file's items, owned */
} ol_config;

/* Read path (name: how messages call it) into *c; ol_config_free releases
 * it, also after a failure. */
NOCSIM_MUST_USE
int ol_config_read(const char *path, const char *name, ol_config *c, char *err, size_t errlen);
/* The same from a file's text (tests, fuzzing). */
NOCSIM_MUST_USE
int ol_config_parse(const char *text, const char *name, ol_config *c, char *err, size_t errlen);
void ol_config_free(ol_config *c);

#endif
