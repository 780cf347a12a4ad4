/* Figures drawn by gnuplot (see figure.h).  The data go in one file, one
 * gnuplot index block per series; the script names every series explicitly,
 * so the user who edits it sees plain gnuplot. */
#define _XOPEN_SOURCE 700   /* realpath */
#include "viz/figure.h"
#include "util/outfile.h"
#include "viz/viz.h"

#include <errno.h>
#include <limits.h>
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
    double *x, *y;
} series;

struct viz_figure {
    char *title, *xlabel, *ylabel;
    int diagonal;
    int n, cap, colours;
    series *s;
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
    }
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

int viz_fig_point(viz_figure *f, int k, double x, double y)
{
    series *s = &f->s[k];
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        double *nx = realloc(s->x, (size_t)cap * sizeof *nx);
        if (!nx) return -1;
        s->x = nx;
        double *ny = realloc(s->y, (size_t)cap * sizeof *ny);
        if (!ny) return -1;
        s->y = ny;
        s->cap = cap;
    }
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->n++;
    return 0;
}

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
        if (f->s[k].style != VIZ_POINTS && f->s[k].n < 2) {
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

static void put_data(FILE *o, const viz_figure *f)
{
    for (int k = 0; k < f->n; k++) {
        fprintf(o, "%s# %s\n", k ? "\n\n" : "", f->s[k].title);
        for (int i = 0; i < f->s[k].n; i++) fprintf(o, "%.10g %.10g\n", f->s[k].x[i], f->s[k].y[i]);
    }
}

/* Distinct line colours (gnuplot's default set is fine, but fixed colours
 * keep a run's best and average alike). */
static const char *const colours[] = { "#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00",
                                       "#a65628", "#f781bf", "#17becf", "#999999", "#bcbd22" };
#define NCOLOURS (int)(sizeof colours / sizeof colours[0])

/* The script at path, drawing a w x h PNG at out from datadir's data. */
static void put_script(FILE *o, const viz_figure *f, const char *path, const char *datadir, const char *out, int w, int h)
{
    fprintf(o, "# Written by nocsim plot.  Run: gnuplot %s\n", path);
    fprintf(o, "set terminal pngcairo size %d,%d font 'sans,10'\nset output ", w, h);
    put_quoted(o, out);
    fprintf(o, "\ndatafile = ");
    put_quoted(o, datadir);
    fprintf(o, ".'/" DATA_FILE "'\n");
    if (f->title) { fprintf(o, "set title "); put_quoted(o, f->title); fputc('\n', o); }
    if (f->xlabel) { fprintf(o, "set xlabel "); put_quoted(o, f->xlabel); fputc('\n', o); }
    if (f->ylabel) { fprintf(o, "set ylabel "); put_quoted(o, f->ylabel); fputc('\n', o); }
    /* noenhanced: names such as file:my_pattern stay literal; the offsets
     * keep a flat best curve off the frame. */
    fprintf(o, "set termoption noenhanced\nset grid\nset key below\nset tics out\n"
               "set offsets graph %s, graph %s, graph 0.05, graph 0.05\n", f->diagonal ? "0.05" : "0",
            f->diagonal ? "0.05" : "0");
    fprintf(o, "plot ");
    if (f->diagonal) fprintf(o, "x with lines lc rgb 'black' lw 1 title 'y = x', \\\n     ");
    for (int k = 0; k < f->n; k++) {
        const series *s = &f->s[k];
        const char *col = colours[s->colour % NCOLOURS];
        fprintf(o, "datafile index %d ", k);
        if (s->style == VIZ_POINTS) fprintf(o, "with points pt 7 ps 1 lc rgb '%s'", col);
        else fprintf(o, "with lines lw 1.5 dt %d lc rgb '%s'", s->style == VIZ_DASHED ? 2 : 1, col);
        fprintf(o, " title ");
        put_quoted(o, s->title);
        fprintf(o, "%s", k + 1 < f->n ? ", \\\n     " : "\n");
    }
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
    put_data(od.f, f);
    put_script(os.f, f, script, datadir, out, w, h);
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
