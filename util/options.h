/* Option tables: one row per option, the one place where an option's name,
 * the field it sets, its type, its range and where its default comes from
 * are written (as Redis's config table does).  Everything else reads the
 * row: the command-line parser and --help (cli/), the experiment-file reader
 * (util/keyfile.h, sim/ol_config.h), the man page and the shell completion
 * (both read --help) and the tests.
 *
 * A table describes one struct (the "base"): each row names a field of it by
 * offset.  Defaults are never written in a row: they are the field's value
 * in a struct filled by the library's own default function (e.g.
 * ol_params_default), which opt_show prints.  Ranges are the library's
 * constants (e.g. OL_BATCH_MIN, OL_BATCH_MAX in sim/openloop.h).
 *
 * Conventions as in util/parse.h: nothing prints; a refused value gives
 * -FAULT_INPUT and one phrase in err without the option's name ("'x' is not
 * an integer (allowed: [10, 1000000])"), which the caller prefixes with
 * where the value came from (a flag, a file and line).
 *
 * Messages name fields, not flags.  The library knows its parameters, not
 * the command lines that set them: a message of a library check about a
 * parameter starts with the field's name as its row's `field` gives it
 * (the part after the last '.': "vcs 2: a torus needs at least 3", "scheme
 * 12: allowed C00..C09"), and says nothing of flags.  The front end, which
 * owns the rows and so the field -> flag map, names the flag when it prints
 * such a message (cli/opt_group.h, opt_flag_message: "--vcs 2: ..."; a
 * file's key where the value came from a file). */
#ifndef NOCSIM_UTIL_OPTIONS_H
#define NOCSIM_UTIL_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "util/fault.h"

typedef enum {
    OPT_HEADING,  /* not an option: a heading of --help (help is its text) */
    OPT_INT,      /* an int field, an integer in [lo, hi] */
    OPT_I64,      /* an int64_t field, an integer in [lo, hi] */
    OPT_REAL,     /* a double field, a number in [lo, hi] (lo_open/hi_open: the bound excluded) */
    OPT_CHOICE,   /* an int-sized enum field: the index of one of names[0..nnames-1] */
    OPT_SWITCH,   /* an int field set to 1; takes no value */
    OPT_TEXT,     /* a const char * field pointing at the value (which must outlive the base) */
    OPT_CUSTOM    /* parse/show below do the work (a grid size, a range, a list) */
} opt_type;

typedef struct opt_row opt_row;
/* A custom row's parser: 0, or -FAULT_INPUT with one phrase in err. */
typedef int (*opt_parse_fn)(const opt_row *r, void *base, const char *value, char *err, size_t errlen);
/* A custom row's value as text ("" for none). */
typedef void (*opt_show_fn)(const opt_row *r, const void *base, char *buf, size_t len);

struct opt_row {
    const char *name;     /* "batch": the flag --batch, the key `batch` of a file */
    char short_name;      /* 's' for -s, or 0 */
    const char *arg;      /* the value's placeholder in --help; NULL for a switch */
    const char *help;     /* the text of --help, without the default ('\n' continues) */
    opt_type type;
    const char *field;    /* the field it sets, as messages of the library name it ("batch") */
    size_t offset;        /* of that field in the base */
    double lo, hi;        /* OPT_INT, OPT_I64, OPT_REAL: the range; OPT_CUSTOM: each
                             number's (lo < hi), for --help and the tests */
    int lo_open, hi_open; /* OPT_REAL: 1 when lo / hi itself is outside */
    const char *const *names;  /* OPT_CHOICE */
    int nnames;
    opt_parse_fn parse;   /* OPT_CUSTOM */
    opt_show_fn show;     /* OPT_CUSTOM; NULL: no default shown */
    int no_default;       /* 1: --help shows no default (none, or it depends on the machine) */
};

#define OPT_END { NULL, 0, NULL, NULL, OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }
/* Whether r ends its table (OPT_END). */
static inline int opt_is_end(const opt_row *r) { return !r->name && !r->help; }

/* The row of table rows named name (not a heading), or NULL. */
const opt_row *opt_find(const opt_row *rows, const char *name);
/* Set r's field of base from value (NULL for a switch).  0, or -FAULT_INPUT
 * with one phrase in err (base unchanged) naming the value and what is
 * allowed. */
NOCSIM_MUST_USE
int opt_set(const opt_row *r, void *base, const char *value, char *err, size_t errlen);
/* r's field of base as opt_set would take it back ("1000", "0.05", "mesh",
 * "" for an unset text or a switch that is off), into buf. */
void opt_show(const opt_row *r, const void *base, char *buf, size_t len);
/* The allowed values of r as a phrase ("[10, 1000000]", "[0, 1)", "torus|mesh"),
 * "" for a switch, a text or a custom row without a range. */
void opt_range(const opt_row *r, char *buf, size_t len);

/* "A:B" (or "A", meaning A:A) with lo <= A <= B <= hi into *a, *b, for a
 * custom row; nothing is allocated.  0, or -FAULT_INPUT with one phrase in
 * err naming the value and the range. */
NOCSIM_MUST_USE
int opt_parse_range(const char *s, int64_t lo, int64_t hi, int64_t *a, int64_t *b, char *err, size_t errlen);
/* A comma-separated list of distinct names of names[0..n-1] ("A,B") into
 * picked[0..*count-1] (room for n), for a custom row.  0, or -FAULT_INPUT
 * with one phrase in err: an empty list or element, a name that is not
 * one of names, one named twice, more than n (-FAULT_RESOURCE: memory). */
NOCSIM_MUST_USE
int opt_parse_names(const char *s, const char *const *names, int n, int *picked, int *count, char *err, size_t errlen);

#endif
