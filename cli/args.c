/* Strict command-line value parsing with uniform one-line errors. */
#include "cli/args.h"

#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "util/quote.h"

bool arg_int(const char *cmd, const char *flag, const char *s, long lo, long hi, long *out)
{
    int64_t v;
    parse_status st = parse_int(s, lo, hi, &v);
    if (st != PARSE_OK) {
        char why[QUOTE_BUF + 96];
        parse_explain_int(why, sizeof why, st, s, lo, hi);
        fprintf(stderr, "nocsim %s: %s: %s\n", cmd, flag, why);
        return false;
    }
    *out = (long)v;
    return true;
}

bool arg_double(const char *cmd, const char *flag, const char *s, double lo, double hi, double *out)
{
    parse_status st = parse_real(s, lo, hi, out);
    if (st != PARSE_OK) {
        char why[QUOTE_BUF + 96];
        parse_explain_real(why, sizeof why, st, s, lo, hi);
        fprintf(stderr, "nocsim %s: %s: %s\n", cmd, flag, why);
        return false;
    }
    return true;
}

bool arg_range(const char *cmd, const char *flag, const char *s, long lo, long hi, long *a, long *b)
{
    const char *colon = s ? strchr(s, ':') : NULL;
    if (!colon)
        return arg_int(cmd, flag, s, lo, hi, a) && (*b = *a, true);
    char *first = strndup(s, (size_t)(colon - s));
    if (!first) { fprintf(stderr, "nocsim %s: out of memory\n", cmd); return false; }
    bool ok = arg_int(cmd, flag, first, lo, hi, a) && arg_int(cmd, flag, colon + 1, lo, hi, b);
    free(first);
    if (!ok) return false;
    if (*a > *b) {
        char q[QUOTE_BUF];
        fprintf(stderr, "nocsim %s: %s: '%s' is an empty range (MIN:MAX with MIN <= MAX)\n", cmd, flag,
                quote_str(q, sizeof q, s));
        return false;
    }
    return true;
}

bool arg_choice(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0) { *out = i; return true; }
    char q[QUOTE_BUF];
    fprintf(stderr, "nocsim %s: %s: '%s' is not one of:", cmd, flag, quote_str(q, sizeof q, s));
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
    fputc('\n', stderr);
    return false;
}

/* State of one arg_name_list call, for its per-element function. */
typedef struct {
    const char *cmd, *flag;
    const char *const *names;
    int n;
    int *picked, count;
} name_list;

static int pick_name(const char *item, int index, void *ctx)
{
    name_list *l = ctx;
    int k;
    if (!arg_choice(l->cmd, l->flag, item, l->names, l->n, &k)) return -1;
    for (int j = 0; j < index; j++)
        if (l->picked[j] == k) {
            char q[QUOTE_BUF];
            fprintf(stderr, "nocsim %s: %s: '%s' is named twice\n", l->cmd, l->flag, quote_str(q, sizeof q, item));
            return -1;
        }
    l->picked[index] = k;
    l->count = index + 1;
    return 0;
}

bool arg_name_list(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *picked,
                   int *count)
{
    name_list l = { cmd, flag, names, n, picked, 0 };
    int bad;
    parse_status st = parse_list(s, ',', n, pick_name, &l, &bad);
    char q[QUOTE_BUF];
    if (st == PARSE_EMPTY && (!s || !*s))
        fprintf(stderr, "nocsim %s: %s: the list is empty; give names separated by commas\n", cmd, flag);
    else if (st == PARSE_EMPTY)
        fprintf(stderr, "nocsim %s: %s: '%s' has an empty element (number %d); give names separated by single commas\n",
                cmd, flag, quote_str(q, sizeof q, s), bad + 1);
    else if (st == PARSE_TOO_MANY)
        fprintf(stderr, "nocsim %s: %s: '%s' names more than the %d there are\n", cmd, flag, quote_str(q, sizeof q, s), n);
    else if (st == PARSE_NOMEM)
        fprintf(stderr, "nocsim %s: out of memory\n", cmd);
    if (st != PARSE_OK) return false;
    *count = l.count;
    return true;
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
    char q[QUOTE_BUF];
    fprintf(stderr, "nocsim %s: unknown option '%s' (see nocsim %s --help)\n", cmd, quote_str(q, sizeof q, opt), cmd);
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
