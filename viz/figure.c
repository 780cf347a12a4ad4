/* Figures drawn by gnuplot (see figure.h).  The data go in one file, one
 * gnuplot index block per series; the script names every series explicitly,
 * so the user who edits it sees plain gnuplot. */
#define _XOPEN_SOURCE 700   /* realpath */
#include "viz/figure.h"
#include "util/outfile.h"
#include "viz/viz.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    char *title;
    viz_style style;
    int colour;
    int n, cap;
    double *x, *y, *e;   /* e: the y error bars' half-widths (VIZ_ERRORLINES) */
} series;

/* A reference drawn over the series: a dotted vertical line (no key entry),
 * a dotted horizontal line with its key entry, or a key entry alone. */
typedef enum { REF_VLINE, REF_HLINE, REF_KEY } ref_kind;
typedef struct {
    ref_kind kind;
    double v;            /* x of a vertical, y of a horizontal line */
    int colour;          /* -1: black */
    viz_style style;     /* of a key entry */
    char *title;         /* NULL for a vertical line */
} ref;

struct viz_figure {
    char *title, *xlabel, *ylabel;
    int diagonal, logx, logy;
    double xlo, xhi, ylo, yhi;   /* NaN: gnuplot chooses */
    int n, cap, colours;
    series *s;
    int nref, capref;
    ref *r;
};

#define DATA_FILE "figure.dat"
#define SCRIPT_FILE "plot.gp"

static char *dup_or_null(const char *s, int *ok)
{
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) *ok = 0;
    return d;
}

viz_figure *viz_fig_new(const char *title, const char *xlabel, const char *ylabel)
{
    viz_figure *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    int ok = 1;
    f->title = dup_or_null(title, &ok);
    f->xlabel = dup_or_null(xlabel, &ok);
    f->ylabel = dup_or_null(ylabel, &ok);
    f->xlo = f->xhi = f->ylo = f->yhi = NAN;
    if (!ok) { viz_fig_free(f); return NULL; }
    return f;
}

void viz_fig_free(viz_figure *f)
{
    if (!f) return;
    for (int k = 0; k < f->n; k++) {
        free(f->s[k].title);
        free(f->s[k].x);
        free(f->s[k].y);
        free(f->s[k].e);
    }
    for (int k = 0; k < f->nref; k++) free(f->r[k].title);
    free(f->r);
    free(f->s);
    free(f->title);
    free(f->xlabel);
    free(f->ylabel);
    free(f);
}

int viz_fig_set_title(viz_figure *f, const char *title)
{
    char *t = strdup(title);
    if (!t) return -1;
    free(f->title);
    f->title = t;
    return 0;
}

int viz_fig_series(viz_figure *f, const char *title, viz_style style, int colour_of)
{
    if (f->n == f->cap) {
        int cap = f->cap ? 2 * f->cap : 8;
        series *s = realloc(f->s, (size_t)cap * sizeof *s);
        if (!s) return -1;
        f->s = s;
        f->cap = cap;
    }
    series *s = &f->s[f->n];
    memset(s, 0, sizeof *s);
    if (!(s->title = strdup(title ? title : ""))) return -1;
    s->style = style;
    s->colour = colour_of >= 0 && colour_of < f->n ? f->s[colour_of].colour : f->colours++;
    return f->n++;
}

int viz_fig_point_err(viz_figure *f, int k, double x, double y, double yerr)
{
    assert(k >= 0 && k < f->n);
    series *s = &f->s[k];
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        double **cols[] = { &s->x, &s->y, &s->e };
        for (int c = 0; c < 3; c++) {
            double *nc = realloc(*cols[c], (size_t)cap * sizeof *nc);
            if (!nc) return -1;
            *cols[c] = nc;
        }
        s->cap = cap;
    }
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->e[s->n] = yerr;
    s->n++;
    return 0;
}

int viz_fig_point(viz_figure *f, int k, double x, double y) { return viz_fig_point_err(f, k, x, y, 0.0); }

static int add_ref(viz_figure *f, ref_kind kind, double v, const char *title, int colour_of, viz_style style)
{
    if (f->nref == f->capref) {
        int cap = f->capref ? 2 * f->capref : 8;
        ref *r = realloc(f->r, (size_t)cap * sizeof *r);
        if (!r) return -1;
        f->r = r;
        f->capref = cap;
    }
    ref *r = &f->r[f->nref];
    r->title = NULL;
    if (title && !(r->title = strdup(title))) return -1;
    r->kind = kind;
    r->v = v;
    r->colour = colour_of >= 0 && colour_of < f->n ? f->s[colour_of].colour : -1;
    r->style = style;
    f->nref++;
    return 0;
}

int viz_fig_vline(viz_figure *f, double x, int colour_of) { return add_ref(f, REF_VLINE, x, NULL, colour_of, VIZ_DOTTED); }
int viz_fig_hline(viz_figure *f, double y, const char *title, int colour_of)
{
    return add_ref(f, REF_HLINE, y, title ? title : "", colour_of, VIZ_DOTTED);
}
int viz_fig_key(viz_figure *f, const char *title, viz_style style) { return add_ref(f, REF_KEY, NAN, title, -1, style); }

void viz_fig_xrange(viz_figure *f, double lo, double hi) { f->xlo = lo; f->xhi = hi; }
void viz_fig_yrange(viz_figure *f, double lo, double hi) { f->ylo = lo; f->yhi = hi; }
int viz_fig_set_ymax(viz_figure *f, double hi, char *err, size_t errlen)
{
    double low = INFINITY;
    for (int k = 0; k < f->n; k++)
        for (int i = 0; i < f->s[k].n; i++)
            if (f->s[k].y[i] < low && (!f->logy || f->s[k].y[i] > 0)) low = f->s[k].y[i];
    if (low < INFINITY && hi <= low) {
        snprintf(err, errlen, "%g is at or below every point (the lowest is %g%s): nothing would be drawn", hi, low,
                 f->logy ? ", of those a log axis shows" : "");
        return VIZ_BADINPUT;
    }
    f->yhi = hi;
    return VIZ_OK;
}
double viz_fig_ymax(const viz_figure *f) { return f->yhi; }
void viz_fig_log(viz_figure *f, int logx, int logy) { f->logx = logx; f->logy = logy; }

void viz_fig_diagonal(viz_figure *f) { f->diagonal = 1; }
int viz_fig_nseries(const viz_figure *f) { return f->n; }
int viz_fig_npoints(const viz_figure *f, int k) { return f->s[k].n; }

int viz_fig_check(const viz_figure *f, char *err, size_t errlen)
{
    if (f->n == 0) {
        snprintf(err, errlen, "nothing to draw: no series");
        return VIZ_BADINPUT;
    }
    int total = 0;
    for (int k = 0; k < f->n; k++) {
        total += f->s[k].n;
        if ((f->s[k].style == VIZ_LINE || f->s[k].style == VIZ_DASHED) && f->s[k].n < 2) {
            snprintf(err, errlen, "series '%s' has %d point%s; a curve needs at least 2", f->s[k].title,
                     f->s[k].n, f->s[k].n == 1 ? "" : "s");
            return VIZ_BADINPUT;
        }
    }
    if (total < 2) {
        snprintf(err, errlen, "only %d point%s to draw; a figure needs at least 2", total, total == 1 ? "" : "s");
        return VIZ_BADINPUT;
    }
    return VIZ_OK;
}

/* A gnuplot single-quoted string: a quote is doubled, nothing else escapes. */
static void put_quoted(FILE *o, const char *s)
{
    fputc('\'', o);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', o);
        if (*s != '\n') fputc(*s, o);
    }
    fputc('\'', o);
}

/* The data: one index block per series (x y, or x y yerr for a series
 * with error bars), introduced by its title. */
static void put_data(const viz_figure *f, FILE *o)
{
    for (int k = 0; k < f->n; k++) {
        const series *s = &f->s[k];
        fprintf(o, "%s# %s\n", k ? "\n\n" : "", s->title);
        for (int i = 0; i < s->n; i++) {
            if (s->style == VIZ_ERRORLINES) fprintf(o, "%.10g %.10g %.10g\n", s->x[i], s->y[i], s->e[i]);
            else fprintf(o, "%.10g %.10g\n", s->x[i], s->y[i]);
        }
    }
}

/* Distinct line colours (gnuplot's default set is fine, but fixed colours
 * keep a run's best and average alike). */
static const char *const colours[] = { "#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00",
                                       "#a65628", "#f781bf", "#17becf", "#999999", "#bcbd22" };
#define NCOLOURS (int)(sizeof colours / sizeof colours[0])

/* One marker shape per colour (gnuplot's filled circle, square, triangles,
 * diamond, pentagon, then the open ones), so curves part in black and white. */
static const int markers[] = { 7, 5, 9, 11, 13, 15, 4, 8, 10, 12 };
#define NMARKERS (int)(sizeof markers / sizeof markers[0])

static const char *colour_of(int c) { return c < 0 ? "black" : colours[c % NCOLOURS]; }

/* "with ..." of a style, for a series or a key entry. */
static void put_style(FILE *o, viz_style st, int colour)
{
    const char *col = colour_of(colour);
    switch (st) {
    case VIZ_POINTS: fprintf(o, "with points pt 7 ps 1 lc rgb '%s'", col); break;
    case VIZ_ERRORLINES:
        fprintf(o, "with linespoints lw 1.5 pt %d ps 0.8 lc rgb '%s'", markers[(colour < 0 ? 0 : colour) % NMARKERS], col);
        break;
    case VIZ_MARK: fprintf(o, "with points pt 6 ps 2.5 lw 2 lc rgb '%s'", col); break;
    case VIZ_DOTTED: fprintf(o, "with lines lw 1.5 dt 3 lc rgb '%s'", col); break;
    case VIZ_LINE:
    case VIZ_DASHED: fprintf(o, "with lines lw 1.5 dt %d lc rgb '%s'", st == VIZ_DASHED ? 2 : 1, col); break;
    }
}

/* " title '...'", or " notitle" for an empty one. */
static void put_title(FILE *o, const char *t)
{
    if (!t || !*t) { fprintf(o, " notitle"); return; }
    fprintf(o, " title ");
    put_quoted(o, t);
}

/* set Xrange [lo:hi], '*' for an end left to gnuplot (NaN, or <= 0 on a log
 * axis); no range when both are. */
static void put_range(FILE *o, char axis, double lo, double hi, int log)
{
    int autolo = isnan(lo) || (log && lo <= 0), autohi = isnan(hi) || (log && hi <= 0);
    /* A log axis left to gnuplot would stretch to whole decades (latencies
     * of 12 to 300 drawn from 1 to 1000): it ends at the data instead. */
    if (log && autolo) fprintf(o, "set autoscale %cfixmin\n", axis);
    if (log && autohi) fprintf(o, "set autoscale %cfixmax\n", axis);
    if (autolo && autohi) return;
    fprintf(o, "set %crange [", axis);
    if (autolo) fputc('*', o);
    else fprintf(o, "%.10g", lo);
    fputc(':', o);
    if (autohi) fputc('*', o);
    else fprintf(o, "%.10g", hi);
    fprintf(o, "]\n");
}

/* The axes: labels, ranges, log scales, and the vertical lines (arrows from
 * the bottom to the top of the plot). */
static void put_axes(const viz_figure *f, FILE *o)
{
    if (f->xlabel) { fprintf(o, "set xlabel "); put_quoted(o, f->xlabel); fputc('\n', o); }
    if (f->ylabel) { fprintf(o, "set ylabel "); put_quoted(o, f->ylabel); fputc('\n', o); }
    if (f->logx) fprintf(o, "set logscale x\n");
    if (f->logy) fprintf(o, "set logscale y\n");
    put_range(o, 'x', f->xlo, f->xhi, f->logx);
    put_range(o, 'y', f->ylo, f->yhi, f->logy);
    for (int k = 0; k < f->nref; k++)
        if (f->r[k].kind == REF_VLINE)
            fprintf(o, "set arrow from %.10g, graph 0 to %.10g, graph 1 nohead dt 3 lw 1.5 lc rgb '%s'\n", f->r[k].v,
                    f->r[k].v, colour_of(f->r[k].colour));
}

/* The plot command: y = x, the series, the horizontal lines, the key entries. */
static void put_plot(const viz_figure *f, FILE *o)
{
    const char *sep = "plot ";
    if (f->diagonal) {
        fprintf(o, "%sx with lines lc rgb 'black' lw 1 title 'y = x'", sep);
        sep = ", \\\n     ";
    }
    for (int k = 0; k < f->n; k++) {
        const series *s = &f->s[k];
        fprintf(o, "%sdatafile index %d ", sep, k);
        if (s->style == VIZ_ERRORLINES)
            fprintf(o, "using 1:2:3 with yerrorlines lw 1.5 pt %d ps 0.8 lc rgb '%s'", markers[s->colour % NMARKERS],
                    colour_of(s->colour));
        else put_style(o, s->style, s->colour);
        put_title(o, s->style == VIZ_MARK ? NULL : s->title);
        sep = ", \\\n     ";
    }
    for (int pass = 0; pass < 2; pass++)   /* the lines, then the key entries */
        for (int k = 0; k < f->nref; k++) {
            const ref *r = &f->r[k];
            if (r->kind != (pass ? REF_KEY : REF_HLINE)) continue;
            if (r->kind == REF_HLINE) fprintf(o, "%s%.10g ", sep, r->v);
            else fprintf(o, "%sNaN ", sep);
            put_style(o, r->kind == REF_HLINE ? VIZ_DOTTED : r->style, r->colour);
            put_title(o, r->title);
        }
    fputc('\n', o);
}

/* The whole script: terminal, output, data file, title, axes, plot. */
static void put_script(const viz_figure *f, FILE *o, const char *path, const char *datadir, const char *out, int w,
                       int h)
{
    fprintf(o, "# Written by nocsim plot.  Run: gnuplot %s\n", path);
    fprintf(o, "set terminal pngcairo size %d,%d font 'sans,10'\nset output ", w, h);
    put_quoted(o, out);
    fprintf(o, "\ndatafile = ");
    put_quoted(o, datadir);
    fprintf(o, ".'/" DATA_FILE "'\n");
    if (f->title) { fprintf(o, "set title "); put_quoted(o, f->title); fputc('\n', o); }
    /* noenhanced: names such as file:my_pattern stay literal; the offsets
     * keep a flat best curve off the frame. */
    fprintf(o, "set termoption noenhanced\nset grid\nset key below\nset tics out\n"
               "set offsets graph %s, graph %s, graph 0.05, graph 0.05\n", f->diagonal ? "0.05" : "0",
            f->diagonal ? "0.05" : "0");
    put_axes(f, o);
    put_plot(f, o);
}

/* The data and the script, each written under a temporary name beside its
 * destination and renamed into place (util/outfile.h): a failed write leaves
 * the file that was there.  An existing destination that is not a regular
 * file (a FIFO, a device, a link to one) is refused before anything is
 * written: it is never replaced, nor written into. */
static int write_files(const viz_figure *f, const char *data, const char *script, const char *datadir,
                       const char *out, int w, int h, char *err, size_t errlen)
{
    const char *paths[2] = { data, script };
    for (int k = 0; k < 2; k++) {
        struct stat sb;
        if (stat(paths[k], &sb) == 0 && !S_ISREG(sb.st_mode))
            return snprintf(err, errlen, "%s: not a regular file (the figure's data and script are written as "
                            "regular files only)", paths[k]), VIZ_BADINPUT;
    }
    outfile od, os;
    int rc = outfile_open(&od, data, err, errlen);
    if (rc != OUTFILE_OK) return rc;
    if ((rc = outfile_open(&os, script, err, errlen)) != OUTFILE_OK) {
        outfile_abort(&od);
        return rc;
    }
    put_data(f, od.f);
    put_script(f, os.f, script, datadir, out, w, h);
    if ((rc = outfile_commit(&od, err, errlen)) != OUTFILE_OK) {
        outfile_abort(&os);
        return rc;
    }
    return outfile_commit(&os, err, errlen);
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

int viz_fig_write_script(const viz_figure *f, const char *dir, const char *out, int w, int h, char *err,
                         size_t errlen)
{
    int rc = viz_fig_check(f, err, errlen);
    if (rc != VIZ_OK) return rc;
    /* Absolute paths, so the script runs from any directory. */
    char absdir[PATH_MAX];
    if (!realpath(dir, absdir)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return VIZ_BADINPUT;
    }
    char *data = join(absdir, DATA_FILE), *script = join(absdir, SCRIPT_FILE), *png = NULL, cwd[PATH_MAX];
    if (!out) png = join(absdir, "plot.png");
    else if (out[0] == '/') png = strdup(out);
    else if (getcwd(cwd, sizeof cwd)) png = join(cwd, out);
    rc = VIZ_FAIL;
    if (!data || !script || !png) snprintf(err, errlen, "out of memory");
    else rc = write_files(f, data, script, absdir, png, w, h, err, errlen);
    free(data);
    free(script);
    free(png);
    return rc;
}

/* Is `prog` an executable file in a directory of $PATH? */
static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path || !*path) return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !found; d = strtok_r(NULL, ":", &save)) {
        char *p = join(*d ? d : ".", prog);
        found = p && access(p, X_OK) == 0;
        free(p);
    }
    free(copy);
    return found;
}

/* Run gnuplot on script with its output on /dev/null (its own errors go to
 * stderr).  0 when it exits with status 0. */
/* The first line of log naming an error (else its last non-blank line),
 * newline cut, into buf; "" when there is none. */
static void log_excerpt(const char *log, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(log, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[strspn(line, " \t")]) continue;
        int is_error = strstr(line, "rror") != NULL;
        if (is_error || !strstr(buf, "rror")) snprintf(buf, len, "%s", line + strspn(line, " \t"));
        if (is_error) break;
    }
    fclose(f);
}

/* Run gnuplot on script with its output (warnings such as "empty y range"
 * included) in log: shown, one line, only when gnuplot fails. */
static int run_gnuplot(const char *script, const char *log, char *err, size_t errlen)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start gnuplot: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        FILE *l = fopen(log, "w");
        if (!l || dup2(fileno(l), STDOUT_FILENO) < 0 || dup2(fileno(l), STDERR_FILENO) < 0) _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "waiting for gnuplot: %s", strerror(errno));
            return -1;
        }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char why[300];
        log_excerpt(log, why, sizeof why);
        snprintf(err, errlen, "gnuplot failed (%s %d) on %s%s%s", WIFEXITED(st) ? "exit status" : "signal",
                 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), script, why[0] ? ": " : "", why);
        return -1;
    }
    return 0;
}

/* The file is a PNG (gnuplot can exit 0 having drawn nothing). */
static int looks_like_png(const char *path)
{
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    unsigned char b[8];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = fread(b, 1, 8, f) == 8 && memcmp(b, sig, 8) == 0;
    fclose(f);
    return ok;
}

/* The signal that arrived while gnuplot ran (a process-wide fact, so the one
 * piece of static state here): the files are removed before it takes effect. */
static volatile sig_atomic_t caught;
static void on_signal(int sig) { caught = sig; }

static int render(const viz_figure *f, const char *out, int w, int h, char *err, size_t errlen);

int viz_fig_render(const viz_figure *f, const char *out, int w, int h, char *err, size_t errlen)
{
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    caught = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int rc = render(f, out, w, h, err, errlen);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (caught) raise(caught);   /* the usual death (status 130 or 143), files already gone */
    return rc;
}

static int render(const viz_figure *f, const char *out, int w, int h, char *err, size_t errlen)
{
    int rc = viz_fig_check(f, err, errlen);
    if (rc != VIZ_OK) return rc;
    if (!on_path("gnuplot")) {
        snprintf(err, errlen, "gnuplot is not installed (not on PATH); install the Debian package gnuplot-nox "
                              "(apt-get install gnuplot-nox), or use --script-only DIR");
        return VIZ_FAIL;
    }
    outfile o;
    if ((rc = outfile_open(&o, out, err, errlen)) != VIZ_OK) return rc;
    /* gnuplot writes the file itself: keep only the name. */
    fclose(o.f);
    o.f = NULL;
    const char *tmproot = getenv("TMPDIR");
    char *dir = join(tmproot && *tmproot ? tmproot : "/tmp", "nocsim-plot.XXXXXX");
    char *data = NULL, *script = NULL;
    if (!dir || !mkdtemp(dir)) {
        snprintf(err, errlen, "cannot create a temporary folder: %s", dir ? strerror(errno) : "out of memory");
        free(dir);
        outfile_abort(&o);
        return VIZ_FAIL;
    }
    data = join(dir, DATA_FILE);
    script = join(dir, SCRIPT_FILE);
    char *log = join(dir, "gnuplot.log");
    rc = VIZ_FAIL;
    if (!data || !script || !log) snprintf(err, errlen, "out of memory");
    else if (write_files(f, data, script, dir, o.tmp, w, h, err, errlen) != VIZ_OK)
        rc = VIZ_FAIL;
    else if (run_gnuplot(script, log, err, errlen) == 0 && !caught) {
        if (!looks_like_png(o.tmp)) snprintf(err, errlen, "gnuplot wrote no PNG (script %s)", script);
        else rc = VIZ_OK;
    }
    if (data) unlink(data);
    if (script) unlink(script);
    if (log) unlink(log);
    rmdir(dir);
    free(data);
    free(script);
    free(log);
    free(dir);
    if (rc != VIZ_OK) {
        outfile_abort(&o);
        return rc;
    }
    return outfile_commit(&o, err, errlen);
}
