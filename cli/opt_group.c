/* Option tables as cli_groups (see opt_group.h). */
#include "cli/opt_group.h"

#include <stdlib.h>
#include <string.h>

#include "cli/status.h"
#include "util/quote.h"

/* The last help line's longest length before the range and default go on
 * a line of their own (column 30 + 48 stays within 80). */
#define HELP_FIT 48

/* Row r's default: its value in base, or "LABEL0 X, LABEL1 Y" where a
 * second set of defaults (alt) differs. */
static void default_of(const opt_row *r, const void *base, const opt_alt *alt, char *buf, size_t len)
{
    char a[256];
    opt_show(r, base, buf, len);
    if (!alt || !alt->base || (alt->chooser && !strcmp(alt->chooser, r->name))) return;
    opt_show(r, alt->base, a, sizeof a);
    if (strcmp(a, buf)) {
        char b[256];
        snprintf(b, sizeof b, "%s", buf);
        snprintf(buf, len, ": %s %.100s, %s %.100s", alt->labels[0], b, alt->labels[1], a);
    }
}

/* "(in [10, 1000000]; default 1000)", "(default mesh)",
 * "(default: local 1, paper 50)" or "" for row r of base. */
static void suffix(const opt_row *r, const void *base, const opt_alt *alt, char *buf, size_t len)
{
    char range[256] = "", def[256] = "";
    if (r->type != OPT_CHOICE) opt_range(r, range, sizeof range);
    if (!r->no_default && r->type != OPT_SWITCH) default_of(r, base, alt, def, sizeof def);
    const char *sp = *def == ':' ? "" : " ";
    if (*range && *def) snprintf(buf, len, "(in %s; default%s%s)", range, sp, def);
    else if (*range) snprintf(buf, len, "(in %s)", range);
    else if (*def) snprintf(buf, len, "(default%s%s)", sp, def);
    else buf[0] = '\0';
}

static char *help_text(const opt_row *r, const void *base, const opt_alt *alt)
{
    char tail[600];
    suffix(r, base, alt, tail, sizeof tail);
    const char *h = r->help ? r->help : "";
    const char *last = strrchr(h, '\n');
    size_t lastlen = strlen(last ? last + 1 : h);
    const char *sep = !*h || !*tail ? "" : lastlen + 1 + strlen(tail) > HELP_FIT ? "\n" : " ";
    size_t n = strlen(h) + strlen(sep) + strlen(tail) + 1;
    char *t = malloc(n);
    if (t) snprintf(t, n, "%s%s%s", h, sep, tail);
    return t;
}

/* A choice's placeholder: its names, "torus|mesh". */
static char *choice_arg(const opt_row *r)
{
    char buf[512];
    opt_range(r, buf, sizeof buf);
    return strdup(buf);
}

int opt_group_init(opt_group *g, const opt_row *rows, void *base, size_t base_size)
{
    return opt_group_init_alt(g, rows, base, base_size, NULL);
}

int opt_group_init_alt(opt_group *g, const opt_row *rows, void *base, size_t base_size, const opt_alt *alt)
{
    memset(g, 0, sizeof *g);
    g->base_size = base_size;
    while (!opt_is_end(&rows[g->n])) g->n++;
    g->rows = rows;
    g->base = base;
    g->opts = calloc((size_t)g->n + 1, sizeof *g->opts);
    g->texts = calloc(2 * (size_t)g->n + 1, sizeof *g->texts);
    g->given = calloc((size_t)g->n + 1, 1);
    if (!g->opts || !g->texts || !g->given) goto fail;
    for (int i = 0; i < g->n; i++) {
        const opt_row *r = &rows[i];
        if (r->type == OPT_HEADING) {
            g->opts[i] = (cli_opt)CLI_HEADING(r->help);
            continue;
        }
        char **flag = &g->texts[2 * i], **help = &g->texts[2 * i + 1];
        size_t fl = strlen(r->name) + 3;
        if (!(*flag = malloc(fl)) || !(*help = help_text(r, base, alt))) goto fail;
        snprintf(*flag, fl, "--%s", r->name);
        const char *arg = r->arg;
        if (r->type == OPT_CHOICE && !arg) {
            /* the placeholder is kept in the flag's buffer, after its NUL */
            char *names = choice_arg(r), *both = names ? malloc(fl + strlen(names) + 1) : NULL;
            if (!both) { free(names); goto fail; }
            memcpy(both, *flag, fl);
            strcpy(both + fl, names);
            free(names);
            free(*flag);
            *flag = both;
            arg = both + fl;
        }
        g->opts[i] = (cli_opt){ *flag, r->short_name, r->type == OPT_SWITCH ? NULL : arg, *help };
    }
    g->opts[g->n] = (cli_opt)CLI_END;
    return 0;
fail:
    opt_group_free(g);
    return -1;
}

void opt_group_free(opt_group *g)
{
    for (int i = 0; g->texts && i < 2 * g->n; i++) free(g->texts[i]);
    free(g->texts);
    free(g->opts);
    free(g->given);
    memset(g, 0, sizeof *g);
}

static int row_index(const opt_group *g, const char *name)
{
    for (int i = 0; i < g->n; i++)
        if (g->rows[i].type != OPT_HEADING && !strcmp(g->rows[i].name, name)) return i;
    return -1;
}

/* Set row i from value, marking it given from `from`; a refused value
 * printed as "nocsim CMD: WHERE: why" and -1, or CLI_SET_FAIL when the
 * fault was not the value's (memory). */
static int set_row(opt_group *g, int i, const char *cmd, const char *where, const char *value, int from)
{
    char err[512];
    int rc = opt_set(&g->rows[i], g->base, value, err, sizeof err);
    if (rc) {
        fprintf(stderr, "nocsim %s: %s: %s\n", cmd, where, err);
        return fault_of(rc) == FAULT_INPUT ? -1 : CLI_SET_FAIL;
    }
    g->given[i] |= (unsigned char)from;
    return 0;
}

static int group_set(void *ctx, const char *cmd, const char *flag, const char *value)
{
    opt_group *g = ctx;
    int i = row_index(g, flag + 2);
    if (i < 0) return fprintf(stderr, "nocsim %s: %s: not in its table\n", cmd, flag), -1;
    return set_row(g, i, cmd, flag, value, OPT_FROM_ARGV);
}

cli_group opt_group_cli(opt_group *g)
{
    return (cli_group){ g->opts, group_set, g };
}

/* Whether row r's field, or its last part ("net.scheme": "scheme"), is the
 * k characters at word. */
static int field_is(const opt_row *r, const char *word, size_t k)
{
    if (r->type == OPT_HEADING || !r->field) return 0;
    const char *dot = strrchr(r->field, '.'), *last = dot ? dot + 1 : r->field;
    return (strlen(r->field) == k && !strncmp(r->field, word, k)) || (strlen(last) == k && !strncmp(last, word, k));
}

/* The row of tables[0..n-1] whose field is the k characters at word, or NULL. */
static const opt_row *row_of_field(const opt_row *const *tables, int n, const char *word, size_t k)
{
    for (int t = 0; k && t < n; t++)
        for (const opt_row *r = tables[t]; !opt_is_end(r); r++)
            if (field_is(r, word, k)) return r;
    return NULL;
}

/* Whether a field may start at msg + i: the message's start, or after one
 * of the words that join a second field ("watchdog and lifetime", "routing
 * 5 / selection 2", "or under routing dor2", "set children 1 or perturb 0",
 * "applies only to kind oab", "lower max_paths"). */
static int field_place(const char *msg, size_t i)
{
    static const char *const joins[] = { "and ", "or ", "/ ", "under ", "set ", "to ", "lower " };
    if (i == 0) return 1;
    for (size_t j = 0; j < sizeof joins / sizeof *joins; j++) {
        size_t l = strlen(joins[j]);
        if (i >= l && !strncmp(msg + i - l, joins[j], l) && (i == l || msg[i - l - 1] == ' ' || msg[i - l - 1] == '('))
            return 1;
    }
    return 0;
}

const char *opt_flag_message(const opt_row *const *tables, int n, const char *msg, char *buf, size_t len)
{
    size_t o = 0, i = 0;
    int quoted = 0;
    buf[0] = '\0';
    while (msg[i] && o + 1 < len) {
        size_t k = strcspn(msg + i, " :,()'");
        const opt_row *r = !quoted && k && field_place(msg, i) ? row_of_field(tables, n, msg + i, k) : NULL;
        if (r) {
            int w = snprintf(buf + o, len - o, "--%s", r->name);   /* cut at the buffer's end */
            o = w < 0 ? o : o + (size_t)w < len ? o + (size_t)w : len - 1;
            i += k;
            continue;
        }
        if (msg[i] == '\'') quoted = !quoted;
        buf[o++] = msg[i++];
        buf[o] = '\0';
    }
    return buf;
}

int opt_groups_given(const opt_group *gs, int n, const char *name)
{
    for (int k = 0; k < n; k++) {
        int i = row_index(&gs[k], name);
        if (i >= 0) return gs[k].given[i];
    }
    return 0;
}

int opt_groups_apply(opt_group *gs, int n, const char *cmd, const char *where, const char *name, const char *value)
{
    for (int k = 0; k < n; k++) {
        int i = row_index(&gs[k], name);
        if (i < 0) continue;
        if (!(gs[k].given[i] & OPT_FROM_ARGV)) return set_row(&gs[k], i, cmd, where, value, OPT_FROM_FILE);
        /* overridden: checked on a copy of the base */
        opt_group scratch = gs[k];
        if (!(scratch.base = malloc(gs[k].base_size))) return fprintf(stderr, "nocsim %s: out of memory\n", cmd), -1;
        memcpy(scratch.base, gs[k].base, gs[k].base_size);
        unsigned char given = gs[k].given[i];
        int rc = set_row(&scratch, i, cmd, where, value, 0);
        gs[k].given[i] = given;
        free(scratch.base);
        return rc;
    }
    return 1;
}

int opt_groups_show(const opt_group *gs, int n)
{
    char v[512];
    for (int k = 0; k < n; k++)
        for (const opt_row *r = gs[k].rows; !opt_is_end(r); r++)
            if (r->type != OPT_HEADING) {
                opt_show(r, gs[k].base, v, sizeof v);
                printf("%s=%s\n", r->name, v);
            }
    return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

int opt_parse_show(void)
{
    const char *show = getenv("NOCSIM_PARSE_SHOW");
    return show && !strcmp(show, "1");
}

int opt_groups_done(opt_group *gs, int n, int *rc)
{
    int show = *rc == EXIT_OK && opt_parse_show(), stop = show || *rc != EXIT_OK;
    if (show) *rc = opt_groups_show(gs, n);
    for (int k = 0; k < n; k++) opt_group_free(&gs[k]);
    if (*rc == CLI_HELP) *rc = EXIT_OK;
    return stop;
}
