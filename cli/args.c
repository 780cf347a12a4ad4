/* Strict command-line value parsing with uniform one-line errors. */
#include "cli/args.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool arg_int(const char *cmd, const char *flag, const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || *s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
        fprintf(stderr, "nocsim %s: %s: '%s' is not an integer in [%ld, %ld]\n",
                cmd, flag, s ? s : "", lo, hi);
        return false;
    }
    *out = v;
    return true;
}

bool arg_double(const char *cmd, const char *flag, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = s ? strtod(s, &end) : 0.0;
    if (!s || *s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) || v < lo || v > hi) {
        fprintf(stderr, "nocsim %s: %s: '%s' is not a number in [%g, %g]\n",
                cmd, flag, s ? s : "", lo, hi);
        return false;
    }
    *out = v;
    return true;
}

bool arg_range(const char *cmd, const char *flag, const char *s, long lo, long hi, long *a, long *b)
{
    const char *colon = s ? strchr(s, ':') : NULL;
    char first[64];
    if (!colon)
        return arg_int(cmd, flag, s, lo, hi, a) && (*b = *a, true);
    size_t len = (size_t)(colon - s);
    if (len >= sizeof first) len = sizeof first - 1;
    memcpy(first, s, len);
    first[len] = '\0';
    if (!arg_int(cmd, flag, first, lo, hi, a) || !arg_int(cmd, flag, colon + 1, lo, hi, b))
        return false;
    if (*a > *b) {
        fprintf(stderr, "nocsim %s: %s: '%s' is an empty range (MIN:MAX with MIN <= MAX)\n", cmd, flag, s);
        return false;
    }
    return true;
}

bool arg_choice(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0) { *out = i; return true; }
    fprintf(stderr, "nocsim %s: %s: '%s' is not one of:", cmd, flag, s ? s : "");
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
    fputc('\n', stderr);
    return false;
}

bool arg_format(const char *cmd, const char *s, out_format *out)
{
    static const char *const names[] = { "text", "json", "csv" };
    int k;
    if (!arg_choice(cmd, "--format", s, names, 3, &k)) return false;
    *out = (out_format)k;
    return true;
}

const char *arg_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "nocsim %s: %s needs a value (see nocsim %s --help)\n", cmd, argv[*i], cmd);
        return NULL;
    }
    return argv[++*i];
}

void arg_unknown(const char *cmd, const char *opt)
{
    fprintf(stderr, "nocsim %s: unknown option '%s' (see nocsim %s --help)\n", cmd, opt, cmd);
}

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}
