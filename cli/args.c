/* Strict command-line value parsing with uniform one-line errors, and the
 * option tables read with getopt_long (see args.h). */
#include "cli/args.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/status.h"

#include "util/options.h"
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
    char err[512];
    int64_t x, y;
    if (opt_parse_range(s, lo, hi, &x, &y, err, sizeof err)) {
        fprintf(stderr, "nocsim %s: %s: %s\n", cmd, flag, err);
        return false;
    }
    *a = (long)x;
    *b = (long)y;
    return true;
}

bool arg_size(const char *cmd, const char *flag, const char *s, long lo, long hi, int *w, int *h)
{
    const char *x = s ? strchr(s, 'x') : NULL;
    char a[32];
    long lw, lh;
    if (s && !x) {
        if (!arg_int(cmd, flag, s, lo, hi, &lw)) return false;
        *w = *h = (int)lw;
        return true;
    }
    size_t n = x ? (size_t)(x - s) : 0;
    if (!x || n == 0 || n >= sizeof a || !x[1] || strchr(x + 1, 'x')) {
        char q[QUOTE_BUF];
        fprintf(stderr, "nocsim %s: %s: '%s' is not N or WxH (each side in [%ld, %ld])\n", cmd, flag,
                quote_str(q, sizeof q, s), lo, hi);
        return false;
    }
    memcpy(a, s, n);
    a[n] = '\0';
    if (!arg_int(cmd, flag, a, lo, hi, &lw) || !arg_int(cmd, flag, x + 1, lo, hi, &lh)) return false;
    *w = (int)lw;
    *h = (int)lh;
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

bool arg_name_list(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *picked,
                   int *count)
{
    char err[1024];
    int rc = opt_parse_names(s, names, n, picked, count, err, sizeof err);
    if (rc == -FAULT_RESOURCE) fprintf(stderr, "nocsim %s: %s\n", cmd, err);
    else if (rc) fprintf(stderr, "nocsim %s: %s: %s\n", cmd, flag, err);
    return rc == 0;
}

const char *const cli_format_names[3] = { "text", "json", "csv" };

bool arg_format(const char *cmd, const char *s, out_format *out)
{
    int k;
    if (!arg_choice(cmd, "--format", s, cli_format_names, 3, &k)) return false;
    *out = (out_format)k;
    return true;
}

void arg_unknown(const char *cmd, const char *opt)
{
    char q[QUOTE_BUF];
    fprintf(stderr, "nocsim %s: unknown option '%s' (see nocsim %s --help)\n", cmd, quote_str(q, sizeof q, opt), cmd);
}

void cli_csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

json_t *cli_json_doc(const char *schema, json_t *v)
{
    if (!v)
        return NULL;
    char name[96];
    snprintf(name, sizeof name, "nocsim-%s/1", schema);
    for (char *p = name; *p; p++)
        if (*p == ' ') *p = '-';
    json_t *d = json_pack("{s:s, s:s}", "nocsim", NOCSIM_VERSION, "schema", name);
    int bad = !d || (json_is_array(v) ? json_object_set(d, "rows", v) : json_object_update(d, v));
    json_decref(v);
    if (bad) {
        json_decref(d);
        return NULL;
    }
    return d;
}

int cli_json_out(const char *cmd, const char *schema, json_t *v)
{
    v = cli_json_doc(schema ? schema : cmd, v);
    int rc = ujson_dump(stdout, v) ? EXIT_FAIL : EXIT_OK;
    if (!v) fprintf(stderr, "nocsim %s: out of memory\n", cmd);
    else if (rc != EXIT_OK) fprintf(stderr, "nocsim %s: cannot write the JSON output\n", cmd);
    json_decref(v);
    return rc;
}

/* ---- option tables ---------------------------------------------------------- */

/* The options of a spec in parsing order, each flag once (its first group's):
 * option k is getopt_long value CLI_VAL0 + k. */
typedef struct {
    const cli_opt *o;
    const cli_group *g;
} cli_entry;
#define CLI_VAL0 256

static int cli_owner(const cli_spec *sp, const char *flag, size_t len, const cli_opt **owner, const cli_group **group)
{
    for (int gi = 0; gi < sp->ngroups; gi++)
        for (const cli_opt *o = sp->groups[gi].opts; o->flag || o->help; o++)
            if (o->flag && strlen(o->flag + 2) == len && !strncmp(o->flag + 2, flag, len)) {
                if (owner) *owner = o;
                if (group) *group = &sp->groups[gi];
                return 1;
            }
    return 0;
}

/* Whether short letter c is taken by an entry before o. */
static int cli_short_taken(const cli_spec *sp, const cli_opt *o, char c)
{
    if (c == 'h') return 1;
    for (int gi = 0; gi < sp->ngroups; gi++)
        for (const cli_opt *p = sp->groups[gi].opts; p->flag || p->help; p++) {
            if (p == o) return 0;
            if (p->flag && p->short_name == c) return 1;
        }
    return 0;
}

/* Whether o is its flag's owner (the first group that declares it). */
static int cli_owns(const cli_spec *sp, const cli_opt *o)
{
    const cli_opt *owner = NULL;
    return cli_owner(sp, o->flag + 2, strlen(o->flag + 2), &owner, NULL) && owner == o;
}

static int cli_collect(const cli_spec *sp, cli_entry **out, int *n)
{
    int total = 0;
    for (int gi = 0; gi < sp->ngroups; gi++)
        for (const cli_opt *o = sp->groups[gi].opts; o->flag || o->help; o++) total++;
    cli_entry *e = malloc((size_t)(total + 1) * sizeof *e);
    if (!e) return -1;
    *n = 0;
    for (int gi = 0; gi < sp->ngroups; gi++)
        for (const cli_opt *o = sp->groups[gi].opts; o->flag || o->help; o++)
            if (o->flag && cli_owns(sp, o)) e[(*n)++] = (cli_entry){ o, &sp->groups[gi] };
    *out = e;
    return 0;
}

static int cli_operand(const cli_spec *sp, const char *arg, int trace)
{
    if (trace) { printf("operand=%s\n", arg); return 0; }
    if (sp->operand) return sp->operand(sp->operand_ctx, sp->cmd, arg);
    char q[QUOTE_BUF];
    fprintf(stderr, "nocsim %s: unexpected argument '%s' (see nocsim %s --help)\n", sp->cmd,
            quote_str(q, sizeof q, arg), sp->cmd);
    return -1;
}

/* The getopt_long loop over the tables lo/shorts built by cli_parse. */
/* help_only: a first pass that only looks for -h/--help anywhere on the line
 * (values of flags skipped as values, after "--" nothing), so that help is
 * printed whatever else is wrong: CLI_HELP or EXIT_OK, nothing printed,
 * nothing set. */
static int cli_scan(const cli_spec *sp, int argc, char **argv, const cli_entry *e, int n, const struct option *lo,
                    const char *shorts, int help_only)
{
    const char *cmd = sp->cmd, *trace_env = getenv("NOCSIM_PARSE_TRACE");
    int trace = !help_only && trace_env && !strcmp(trace_env, "1"), rc;
    opterr = 0;
    optind = 0; /* glibc: start afresh (a process may parse more than once) */
    for (;;) {
        /* Long names whole: getopt_long would take a unique prefix. */
        int next = optind ? optind : 1;
        if (next < argc && !strncmp(argv[next], "--", 2) && argv[next][2] &&
            !cli_owner(sp, argv[next] + 2, strcspn(argv[next] + 2, "="), NULL, NULL) &&
            strcmp(argv[next], "--help")) {
            if (help_only) {
                optind = next + 1;
                continue;
            }
            arg_unknown(cmd, argv[next]);
            return EXIT_USAGE;
        }
        int c = getopt_long(argc, argv, shorts, lo, NULL);
        if (c == -1) break;
        if (c == 'h') return CLI_HELP;
        if (help_only) continue;
        if (c == 1) {
            if (cli_operand(sp, optarg, trace)) return EXIT_USAGE;
            continue;
        }
        if (c == '?' || c == ':') {
            char name[4] = { '-', (char)optopt, 0, 0 };
            const char *flag = optopt >= CLI_VAL0 && optopt < CLI_VAL0 + n ? e[optopt - CLI_VAL0].o->flag : name;
            if (c == ':')
                fprintf(stderr, "nocsim %s: %s needs a value (see nocsim %s --help)\n", cmd, flag, cmd);
            else if (optopt >= CLI_VAL0)
                fprintf(stderr, "nocsim %s: %s takes no value (see nocsim %s --help)\n", cmd, flag, cmd);
            else
                arg_unknown(cmd, optopt ? name : argv[optind - 1]);
            return EXIT_USAGE;
        }
        const cli_entry *en = NULL;
        if (c >= CLI_VAL0 && c < CLI_VAL0 + n) en = &e[c - CLI_VAL0];
        for (int k = 0; !en && k < n; k++)
            if (e[k].o->short_name == c && !cli_short_taken(sp, e[k].o, (char)c)) en = &e[k];
        if (!en) { arg_unknown(cmd, "?"); return EXIT_USAGE; } /* not reached: getopt knows only ours */
        if (trace) printf("%s%s%s\n", en->o->flag, en->o->arg ? "=" : "", en->o->arg ? optarg : "");
        else if ((rc = en->g->set(en->g->ctx, cmd, en->o->flag, en->o->arg ? optarg : NULL)) != 0)
            return rc == CLI_SET_FAIL ? EXIT_FAIL : EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) /* after "--" */
        if (cli_operand(sp, argv[i], trace)) return EXIT_USAGE;
    if (trace) exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL);
    return EXIT_OK;
}

int cli_parse(const cli_spec *sp, int argc, char **argv)
{
    cli_entry *e = NULL;
    int n = 0;
    if (cli_collect(sp, &e, &n)) {
        fprintf(stderr, "nocsim %s: out of memory\n", sp->cmd);
        return EXIT_FAIL;
    }
    struct option *lo = calloc((size_t)n + 2, sizeof *lo);
    char *shorts = malloc(3 * (size_t)n + 8);
    int rc = EXIT_FAIL;
    if (!lo || !shorts) {
        fprintf(stderr, "nocsim %s: out of memory\n", sp->cmd);
        goto out;
    }
    /* "-": operands come back in order (value 1); ":": a missing value is ':'. */
    size_t k = 0;
    shorts[k++] = '-';
    shorts[k++] = ':';
    shorts[k++] = 'h';
    for (int i = 0; i < n; i++) {
        const cli_opt *o = e[i].o;
        lo[i] = (struct option){ o->flag + 2, o->arg ? required_argument : no_argument, NULL, CLI_VAL0 + i };
        if (o->short_name && !cli_short_taken(sp, o, o->short_name)) {
            shorts[k++] = o->short_name;
            if (o->arg) shorts[k++] = ':';
        }
    }
    shorts[k] = '\0';
    lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
    rc = cli_scan(sp, argc, argv, e, n, lo, shorts, 1);
    if (rc == EXIT_OK) rc = cli_scan(sp, argc, argv, e, n, lo, shorts, 0);
out:
    free(shorts);
    free(lo);
    free(e);
    return rc;
}

#define CLI_HELP_COLUMN 30

static void cli_help_line(FILE *f, char short_name, const char *flag, const char *arg, const char *help)
{
    char left[128];
    if (short_name) snprintf(left, sizeof left, "  -%c, %s%s%s", short_name, flag, arg ? " " : "", arg ? arg : "");
    else snprintf(left, sizeof left, "      %s%s%s", flag, arg ? " " : "", arg ? arg : "");
    int w = fprintf(f, "%s", left);
    if (w >= CLI_HELP_COLUMN - 1) { fputc('\n', f); w = 0; }
    for (const char *h = help; *h;) {
        size_t len = strcspn(h, "\n");
        fprintf(f, "%*s%.*s\n", CLI_HELP_COLUMN - w, "", (int)len, h);
        w = 0;
        h += len;
        if (*h) h++;
    }
}

void cli_help(FILE *f, const cli_spec *sp)
{
    int first = 1;
    for (int gi = 0; gi < sp->ngroups; gi++) {
        for (const cli_opt *o = sp->groups[gi].opts; o->flag || o->help; o++, first = 0) {
            if (!o->flag) fprintf(f, "%s%s\n", first ? "" : "\n", o->help);
            else if (cli_owns(sp, o))
                cli_help_line(f, cli_short_taken(sp, o, o->short_name) ? 0 : o->short_name, o->flag, o->arg, o->help);
        }
    }
    cli_help_line(f, 'h', "--help", NULL, "this help");
}
