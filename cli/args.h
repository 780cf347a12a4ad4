/* Small, strict helpers for parsing command-line values.  Every failure prints
 * one line to stderr naming the flag, the value and the allowed range, so that
 * each command reports bad input the same way (exit status 2). */
#ifndef NOCSIM_ARGS_H
#define NOCSIM_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Output formats shared by all commands. */
typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV } out_format;

/* Parse a decimal integer in [lo, hi], strictly (util/parse.h: the whole
 * value, no spaces, overflow caught); on failure print e.g.
 * "nocsim CMD: --flag: 'value' is out of range (allowed: [lo, hi])" and return
 * false.  Values in messages are escaped (util/quote.h). */
bool arg_int(const char *cmd, const char *flag, const char *s, long lo, long hi, long *out);
/* Parse a double in [lo, hi]. */
bool arg_double(const char *cmd, const char *flag, const char *s, double lo, double hi, double *out);
/* Parse "A:B" (or a single "A", meaning A:A) with lo <= A <= B <= hi. */
bool arg_range(const char *cmd, const char *flag, const char *s, long lo, long hi, long *a, long *b);
/* A comma-separated list of distinct names from names[0..n-1] ("A,B"), into
 * picked[0..*count-1] (picked has room for n).  Empty elements ("A,,B", "A,",
 * "") and repeats are refused with a message; returns false then. */
bool arg_name_list(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *picked,
                   int *count);
/* Parse text|json|csv. */
bool arg_format(const char *cmd, const char *s, out_format *out);
/* Pick one of names[0..n-1]; prints the allowed names on failure. */
bool arg_choice(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *out);
/* For a flag that needs a value: return argv[++*i] or print an error and return NULL. */
const char *arg_value(const char *cmd, int argc, char **argv, int *i);
/* Print "nocsim CMD: unknown option 'X' (see nocsim CMD --help)". */
void arg_unknown(const char *cmd, const char *opt);
/* Write s as a JSON string literal (with quotes and escapes). */
void json_string(FILE *f, const char *s);

#endif
