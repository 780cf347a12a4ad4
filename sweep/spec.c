/* Sweep specs: the grid text format, the canonical text a sweep is recorded
 * as, and the expansion of a spec into tasks with their seeds and argument
 * vectors (see sweep.h). */
#include "sweep/sweep.h"
#include "util/lines.h"
#include "util/parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char sweep_paper_grid[] =
    "# The paper's GA study (Appendix A.3): 288 combinations.\n"
    "algo paper\n"
    "mutation 0.1 0.05 0.02\n"
    "crossover-rate 0.1 0.2 0.4 0.6 0.8 0.9\n"
    "crossover-interval 10 20\n"
    "ties random age\n"
    "# watchdog and lifetime exclude each other\n"
    "watchdog,lifetime 100,0 200,0 0,100 0,200\n";

static int fail(char *err, size_t errlen, const char *fmt, const char *a, long line, const char *b)
{
    if (err && errlen) snprintf(err, errlen, fmt, a, line, b);
    return -1;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = 0; }
    return d;
}

static int count_commas(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == ',';
    return n;
}

/* A flag name: lower-case letters, digits and '-', starting with a letter. */
static int flag_ok(const char *s, size_t n)
{
    if (!n || s[0] < 'a' || s[0] > 'z') return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-')) return 0;
    return 1;
}

static void axis_clear(sweep_axis *a)
{
    for (int i = 0; i < a->nflags; i++) free(a->flags[i]);
    for (int i = 0; i < a->nvalues; i++) free(a->values[i]);
    free(a->flags);
    free(a->values);
    memset(a, 0, sizeof *a);
}

static int push(char ***v, int *n, char *s)
{
    if (!s) return -1;
    char **nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
    if (!nv) { free(s); return -1; }
    nv[(*n)++] = s;
    *v = nv;
    return 0;
}

static int spec_has_flag(const sweep_spec *spec, const char *flag)
{
    for (int a = 0; a < spec->naxes; a++)
        for (int f = 0; f < spec->axes[a].nflags; f++)
            if (!strcmp(spec->axes[a].flags[f], flag)) return 1;
    return 0;
}

const char *sweep_command_name(sweep_command c)
{
    return c == SWEEP_LOAD ? "load" : "ga";
}

typedef struct {
    const char *flag, *why;
} no_axis;

/* The flags both commands' sweeps set or take themselves (an axis would be
 * overridden in silence). */
static const no_axis no_axis_common[] = {
    { "db", "the sweep records every run in its own --db" },
    { "no-db", "the sweep records every run" },
    { "format", "the sweep sets each run's output" },
    { "quiet", "the sweep sets each run's output" },
    { "seed", "each run's seed follows from the sweep's --seed and the run's index" },
    { "traffic", "give the patterns to the sweep: nocsim sweep --traffic A,B" },
    { NULL, NULL },
};

static const no_axis no_axis_ga[] = {
    { "help", "it is not a GA parameter" },
    { "h", "it is not a GA parameter" },
    { "resume", "a sweep resumes as a whole (nocsim sweep --resume ID)" },
    { "save-best", "the sweep's runs write no files; export a run's best afterwards" },
    { "progress-every", "the sweep sets each run's output" },
    { "dry-run", "the sweep checks its grid itself" },
    { "threads", "the sweep runs each GA on one thread (use sweep --jobs)" },
    { "slices", "give it to the sweep: nocsim sweep --slices S" },
    { "size", "a sweep's runs share one network: give --size to the sweep" },
    { "islands", "an island run needs mpirun, not a sweep's child process" },
    { "migrate-every", "an island run needs mpirun, not a sweep's child process" },
    { "interlock", "it takes no value: give --interlock to the sweep for every run" },
    { "slice-reinit", "it takes no value: give --slice-reinit to the sweep for every run" },
    { NULL, NULL },
};

static const no_axis no_axis_load[] = {
    { "help", "it is not a parameter of a curve" },
    { "h", "it is not a parameter of a curve" },
    { "threads", "the sweep runs each curve on one thread (use sweep --jobs)" },
    { "trace", "a trace replay is not a curve: a load sweep measures curves" },
    { "saturation", "the sweep bisects every curve for its saturation point" },
    { "all", "it takes no value: give --all to the sweep for every run" },
    { "per-flow", "it takes no value: give --per-flow to the sweep for every run" },
    { "throughput", "it takes no value: give --throughput to the sweep for every run" },
    { "by-length", "it takes no value: give --by-length to the sweep for every run" },
    { NULL, NULL },
};

static const char *lookup_no_axis(const no_axis *no, const char *flag)
{
    for (; no->flag; no++)
        if (!strcmp(flag, no->flag)) return no->why;
    return NULL;
}

/* Why flag cannot be an axis of a grid of command c, or NULL if it can: the
 * ones the sweep sets itself or takes as its own flags, and the command's
 * flags that take no value.  A flag the command does not know is refused
 * when the sweep checks its grid (a dry run of each value). */
static const char *not_an_axis(sweep_command c, const char *flag)
{
    const char *why = lookup_no_axis(no_axis_common, flag);
    return why ? why : lookup_no_axis(c == SWEEP_LOAD ? no_axis_load : no_axis_ga, flag);
}

/* Parse one non-comment line of grid text into an axis. */
static int parse_axis_line(sweep_spec *spec, char *line, const char *where, long lineno, char *err, size_t errlen)
{
    sweep_axis ax;
    memset(&ax, 0, sizeof ax);
    char *save = NULL, *tok = strtok_r(line, " \t", &save);
    /* Flags: comma-separated names. */
    for (const char *p = tok;;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (!flag_ok(p, n)) {
            axis_clear(&ax);
            char msg[160];
            snprintf(msg, sizeof msg, "'%.60s' is not a list of nocsim %s flags (e.g. %s)", tok,
                     sweep_command_name(spec->command), spec->command == SWEEP_LOAD ? "vcs, or vcs,buffer" : "mutation, or watchdog,lifetime");
            return fail(err, errlen, "%s: line %ld: %s", where, lineno, msg);
        }
        char *name = dup_n(p, n);
        const char *why = name ? not_an_axis(spec->command, name) : NULL;
        if (why) {
            char msg[160];
            snprintf(msg, sizeof msg, "'%s' cannot be an axis: %s", name, why);
            fail(err, errlen, "%s: line %ld: %s", where, lineno, msg);
            free(name);
            axis_clear(&ax);
            return -1;
        }
        if (name && spec_has_flag(spec, name)) {
            fail(err, errlen, "%s: line %ld: flag '%s' is already on an earlier line", where, lineno, name);
            free(name);
            axis_clear(&ax);
            return -1;
        }
        if (push(&ax.flags, &ax.nflags, name)) { axis_clear(&ax); return fail(err, errlen, "%s: line %ld: %s", where, lineno, "out of memory"); }
        if (!c) break;
        p = c + 1;
    }
    while ((tok = strtok_r(NULL, " \t", &save))) {
        /* A one-flag axis takes each value whole (a packet mix "1:0.5,8:0.5");
         * a joint axis one value per flag. */
        if ((ax.nflags > 1 && count_commas(tok) != ax.nflags - 1) || strstr(tok, ",,") || tok[0] == ',' ||
            tok[strlen(tok) - 1] == ',') {
            fail(err, errlen, "%s: line %ld: value '%s' does not give one value per flag", where, lineno, tok);
            axis_clear(&ax);
            return -1;
        }
        for (int i = 0; i < ax.nvalues; i++)
            if (!strcmp(ax.values[i], tok)) {
                fail(err, errlen, "%s: line %ld: value '%s' is listed twice", where, lineno, tok);
                axis_clear(&ax);
                return -1;
            }
        if (push(&ax.values, &ax.nvalues, strdup(tok))) { axis_clear(&ax); return fail(err, errlen, "%s: line %ld: %s", where, lineno, "out of memory"); }
    }
    if (!ax.nvalues) {
        fail(err, errlen, "%s: line %ld: '%s' has no values", where, lineno, ax.flags[0]);
        axis_clear(&ax);
        return -1;
    }
    sweep_axis *na = realloc(spec->axes, (size_t)(spec->naxes + 1) * sizeof *na);
    if (!na) { axis_clear(&ax); return fail(err, errlen, "%s: line %ld: %s", where, lineno, "out of memory"); }
    na[spec->naxes++] = ax;
    spec->axes = na;
    return 0;
}

/* The next line of text at *p (without its newline) as a malloc'd string, or
 * NULL at the end (*oom set when out of memory); *p moves past it. */
static char *take_line(const char **p, int *oom)
{
    if (!**p) return NULL;
    const char *nl = strchr(*p, '\n');
    size_t n = nl ? (size_t)(nl - *p) : strlen(*p);
    char *line = dup_n(*p, n);
    *oom = line == NULL;
    *p += n + (nl != NULL);
    return line;
}

/* One line of a grid: a comment, a blank, or an axis. */
static int grid_line(sweep_spec *spec, char *line, const char *where, long lineno, char *err, size_t errlen)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    for (char *c = line; *c; c++) {
        if (*c == '\r') *c = ' ';
        else if ((unsigned char)*c < 0x20 && *c != '\t')
            return fail(err, errlen, "%s: line %ld: %s", where, lineno, "control character in the line");
    }
    if (strspn(line, " \t") == strlen(line)) return 0;
    return parse_axis_line(spec, line, where, lineno, err, errlen);
}

static void drop_axes_from(sweep_spec *spec, int had)
{
    while (spec->naxes > had) axis_clear(&spec->axes[--spec->naxes]);
}

int sweep_grid_parse(sweep_spec *spec, const char *text, const char *where, char *err, size_t errlen)
{
    int had = spec->naxes, oom = 0;
    long lineno = 0;
    char *line;
    for (const char *p = text; (line = take_line(&p, &oom));) {
        int rc = grid_line(spec, line, where, ++lineno, err, errlen);
        free(line);
        if (rc) { drop_axes_from(spec, had); return -1; }
    }
    if (oom) { drop_axes_from(spec, had); return fail(err, errlen, "%s: line %ld: %s", where, lineno + 1, "out of memory"); }
    return 0;
}

int sweep_grid_load(sweep_spec *spec, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int had = spec->naxes, got, rc = 0, lines = 0;
    line_reader r;
    line_reader_init(&r, f, path);
    char *line;
    while (rc == 0 && (got = line_reader_next(&r, &line, err, errlen)) > 0) {
        rc = grid_line(spec, line, path, r.line, err, errlen);
        lines++;
    }
    if (rc == 0 && got < 0) rc = -1;
    if (rc == 0 && lines == 0) {
        snprintf(err, errlen, "%s: the grid file is empty", path);
        rc = -1;
    }
    line_reader_free(&r);
    fclose(f);
    if (rc) drop_axes_from(spec, had);
    return rc;
}

int sweep_spec_finish(sweep_spec *spec, char *err, size_t errlen)
{
    if (spec->ntraffic < 1) { snprintf(err, errlen, "--traffic: no traffic pattern given"); return -1; }
    if (spec->naxes < 1) { snprintf(err, errlen, "--grid: the grid has no axis"); return -1; }
    if (spec->runs < 1) { snprintf(err, errlen, "--runs: must be at least 1"); return -1; }
    for (int i = 0; i < spec->noptions; i++) {
        const char *o = spec->options[i];
        if (o[0] == '-' && o[1] == '-' && spec_has_flag(spec, o + 2)) {
            snprintf(err, errlen, "option %s is also an axis of the grid; give it in one place", o);
            return -1;
        }
    }
    int64_t n = 1;
    for (int a = 0; a < spec->naxes; a++) {
        n *= spec->axes[a].nvalues;
        if (n > SWEEP_MAX_TASKS) break;
    }
    spec->ncombos = n;
    int64_t t = n <= SWEEP_MAX_TASKS ? n * spec->ntraffic * spec->runs : SWEEP_MAX_TASKS + 1;
    if (n > SWEEP_MAX_TASKS || t > SWEEP_MAX_TASKS) {
        snprintf(err, errlen, "the sweep has more than %d runs (grid points x traffic patterns x --runs)", SWEEP_MAX_TASKS);
        return -1;
    }
    spec->ntasks = t;
    return 0;
}

void sweep_spec_clear(sweep_spec *spec)
{
    for (int i = 0; i < spec->ntraffic; i++) free(spec->traffic[i]);
    free(spec->traffic);
    for (int a = 0; a < spec->naxes; a++) axis_clear(&spec->axes[a]);
    free(spec->axes);
    for (int i = 0; i < spec->noptions; i++) free(spec->options[i]);
    free(spec->options);
    free(spec->grid_name);
    memset(spec, 0, sizeof *spec);
}

static int clean_token(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
    return 1;
}

char *sweep_spec_to_text(const sweep_spec *spec, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) { snprintf(err, errlen, "out of memory"); return NULL; }
    /* A GA sweep's text is what it was before load sweeps (no "command"
     * line): old records read back, and scratch folder names stay. */
    if (spec->command != SWEEP_GA) fprintf(f, "command %s\n", sweep_command_name(spec->command));
    fputs("traffic", f);
    for (int i = 0; i < spec->ntraffic; i++) fprintf(f, " %s", spec->traffic[i]);
    if (spec->command == SWEEP_GA) fprintf(f, "\nslices %d", spec->slices);
    fprintf(f, "\nruns %d\nseed %" PRIu64 "\ngrid-name %s\n", spec->runs, spec->seed,
            spec->grid_name ? spec->grid_name : "");
    int bad = 0;
    for (int i = 0; i < spec->noptions; i++) {
        if (!clean_token(spec->options[i])) { bad = 1; snprintf(err, errlen, "option '%s': control characters are not allowed", "(control)"); }
        fprintf(f, "option %s\n", spec->options[i]);
    }
    for (int a = 0; a < spec->naxes; a++) {
        fputs("axis ", f);
        for (int i = 0; i < spec->axes[a].nflags; i++) fprintf(f, "%s%s", i ? "," : "", spec->axes[a].flags[i]);
        for (int i = 0; i < spec->axes[a].nvalues; i++) fprintf(f, " %s", spec->axes[a].values[i]);
        fputc('\n', f);
    }
    if (fclose(f) != 0 || bad) {
        if (!bad) snprintf(err, errlen, "out of memory");
        free(buf);
        return NULL;
    }
    return buf;
}

int sweep_spec_from_text(sweep_spec *spec, const char *text, char *err, size_t errlen)
{
    memset(spec, 0, sizeof *spec);
    long lineno = 0;
    int oom = 0;
    const char *p = text;
    for (char *line; (line = take_line(&p, &oom));) {
        lineno++;
        size_t n = strlen(line);
        char *sp = strchr(line, ' ');
        const char *rest = sp ? sp + 1 : "";
        if (sp) *sp = 0;
        int rc = 0;
        if (!strcmp(line, "command")) {
            /* First, before the axes, whose flags it decides. */
            if (lineno != 1 || (strcmp(rest, "ga") && strcmp(rest, "load"))) {
                snprintf(err, errlen, "sweep record: line %ld: bad command '%.40s'", lineno, rest);
                rc = -2;
            } else spec->command = !strcmp(rest, "load") ? SWEEP_LOAD : SWEEP_GA;
        } else if (!strcmp(line, "traffic")) {
            char *copy = strdup(rest), *save = NULL;
            for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save))
                if (push(&spec->traffic, &spec->ntraffic, strdup(t))) rc = -1;
            if (!copy) rc = -1;
            free(copy);
        } else if (!strcmp(line, "slices") || !strcmp(line, "runs") || !strcmp(line, "seed")) {
            /* The record is input too: whole numbers in range, or a damaged sweep. */
            int64_t v;
            int seed = line[1] == 'e';
            if (parse_int(rest, seed ? 0 : 1, seed ? INT64_MAX : 100000, &v) != PARSE_OK) {
                snprintf(err, errlen, "sweep record: line %ld: bad %s '%s'", lineno, line, rest);
                rc = -2;
            } else if (seed) spec->seed = (uint64_t)v;
            else if (line[0] == 's') spec->slices = (int)v;
            else spec->runs = (int)v;
        } else if (!strcmp(line, "grid-name")) { free(spec->grid_name); spec->grid_name = strdup(rest); rc = spec->grid_name ? 0 : -1; }
        else if (!strcmp(line, "option")) rc = push(&spec->options, &spec->noptions, strdup(rest));
        else if (!strcmp(line, "axis")) {
            char *copy = strdup(rest);
            rc = copy ? parse_axis_line(spec, copy, "sweep record", lineno, err, errlen) : -1;
            free(copy);
        } else if (n) {
            snprintf(err, errlen, "sweep record: line %ld: unknown entry '%s'", lineno, line);
            rc = -2;
        }
        free(line);
        if (rc == -1 && !*err) snprintf(err, errlen, "out of memory");
        if (rc) goto bad;
    }
    if (oom) { snprintf(err, errlen, "out of memory"); goto bad; }
    if (sweep_spec_finish(spec, err, errlen)) goto bad;
    return 0;
bad:
    sweep_spec_clear(spec);
    return -1;
}

/* splitmix64 (Steele, Lea, Flood 2014): a bijective mix, so distinct task
 * indices of one sweep get distinct seeds. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void sweep_task_get(const sweep_spec *spec, int64_t k, sweep_task *t)
{
    t->index = k;
    t->replicate = (int)(k % spec->runs);
    int64_t rest = k / spec->runs;
    t->combo = rest % spec->ncombos;
    t->traffic = (int)(rest / spec->ncombos);
    /* An affine map k -> (a k + b) mod 2^31 with a odd is a bijection, so the
     * tasks of one sweep never share a seed; `nocsim ga --seed` takes 31 bits. */
    uint64_t a = mix64(spec->seed) | 1, b = mix64(spec->seed + 1);
    t->seed = (a * (uint64_t)k + b) & 0x7fffffffULL;
}

const char *sweep_task_value(const sweep_spec *spec, int64_t combo, int a)
{
    /* The first axis varies slowest, as in the grid file's reading order. */
    for (int b = spec->naxes - 1; b > a; b--) combo /= spec->axes[b].nvalues;
    return spec->axes[a].values[combo % spec->axes[a].nvalues];
}

void sweep_argv_free(char **argv)
{
    if (!argv) return;
    for (char **p = argv; *p; p++) free(*p);
    free(argv);
}

char **sweep_task_argv(const sweep_spec *spec, const sweep_task *t, const char *db_path)
{
    char **v = NULL;
    int n = 0, bad = 0;
#define ADD(s) do { if (!bad && push(&v, &n, (s))) bad = 1; } while (0)
    ADD(strdup(sweep_command_name(spec->command)));
    for (int i = 0; i < spec->noptions; i++) ADD(strdup(spec->options[i]));
    for (int a = 0; a < spec->naxes; a++) {
        const char *val = sweep_task_value(spec, t->combo, a);
        const sweep_axis *ax = &spec->axes[a];
        for (int f = 0; f < ax->nflags; f++) {
            size_t fl = strlen(ax->flags[f]);
            char *flag = malloc(fl + 3);
            if (flag) { flag[0] = flag[1] = '-'; memcpy(flag + 2, ax->flags[f], fl + 1); }
            ADD(flag);
            const char *c = f + 1 < ax->nflags ? strchr(val, ',') : NULL;   /* the last flag takes the rest */
            size_t vl = c ? (size_t)(c - val) : strlen(val);
            ADD(dup_n(val, vl));
            val = c ? c + 1 : val + vl;
        }
    }
    char num[32];
    ADD(strdup("--traffic")); ADD(strdup(spec->traffic[t->traffic]));
    if (spec->command == SWEEP_GA) {
        snprintf(num, sizeof num, "%d", spec->slices);
        ADD(strdup("--slices")); ADD(strdup(num));
    } else {
        ADD(strdup("--saturation"));   /* the figure a load sweep summarises */
    }
    snprintf(num, sizeof num, "%" PRIu64, t->seed);
    ADD(strdup("--seed")); ADD(strdup(num));
    ADD(strdup("--threads")); ADD(strdup("1"));
    ADD(strdup("--quiet"));
    ADD(strdup("--format")); ADD(strdup("json"));
    ADD(strdup("--db")); ADD(strdup(db_path));
#undef ADD
    char **nv = bad ? NULL : realloc(v, (size_t)(n + 1) * sizeof *nv);
    if (!nv) {
        for (int i = 0; i < n; i++) free(v[i]);
        free(v);
        return NULL;
    }
    nv[n] = NULL;
    return nv;
}
