/* The local sweep runner and the handling of one task's child process (see
 * run.h). */
#include "sweep/run.h"
#include "sweep/record.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double sweep_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *scratch_root(const sweep_runner *rn)
{
    if (rn->tmpdir) return rn->tmpdir;
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* FNV-1a of the spec's text: the name scratch folders of this sweep share. */
static uint32_t spec_tag(const sweep_spec *spec)
{
    char e[64];
    char *text = sweep_spec_to_text(spec, e, sizeof e);
    uint32_t h = 2166136261u;
    for (const char *p = text ? text : ""; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    free(text);
    return h;
}

extern char **environ;

/* The child's environment: ours without NOCSIM_PARSE_SHOW, which makes a
 * command parse and exit (cli/args.h), and with NOCSIM_PARSE_SHOW=1 for a
 * load task's dry run.  Made before the fork (the strings are environ's);
 * NULL when out of memory. */
static char **child_env(int parse_only)
{
    static char show[] = "NOCSIM_PARSE_SHOW=1";
    size_t n = 0, k = 0;
    while (environ[n]) n++;
    char **env = malloc((n + 2) * sizeof *env);
    if (!env) return NULL;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "NOCSIM_PARSE_SHOW=", 18) != 0) env[k++] = environ[i];
    if (parse_only) env[k++] = show;
    env[k] = NULL;
    return env;
}

int sweep_child_start(sweep_child *c, const sweep_spec *spec, const sweep_task *t, const sweep_runner *rn,
                      int dry_run, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->task = *t;
    c->pid = -1;
    if (snprintf(c->dir, sizeof c->dir, "%s/nocsim-sweep-%08x-%ld-XXXXXX", scratch_root(rn), spec_tag(spec),
                 (long)getpid()) >= (int)sizeof c->dir) {
        snprintf(err, errlen, "scratch folder name too long");
        return -1;
    }
    if (!mkdtemp(c->dir)) {
        snprintf(err, errlen, "cannot make a scratch folder in %s: %s", scratch_root(rn), strerror(errno));
        c->dir[0] = 0;
        return -1;
    }
    snprintf(c->db, sizeof c->db, "%s/run.db", c->dir);
    char **av = sweep_task_argv(spec, t, c->db);
    size_t n = 0;
    while (av && av[n]) n++;
    char **ev = av ? calloc(n + 3, sizeof *ev) : NULL;
    if (!ev) {
        sweep_argv_free(av);
        snprintf(err, errlen, "out of memory");
        sweep_child_cleanup(c);
        return -1;
    }
    ev[0] = (char *)rn->exe;
    for (size_t i = 0; i < n; i++) ev[i + 1] = av[i];
    /* A dry run: ga has --dry-run; load parses for real (its flags, --config,
     * the checks) and runs nothing under NOCSIM_PARSE_SHOW=1 (cli/args.h). */
    if (dry_run && spec->command == SWEEP_GA) ev[n + 1] = "--dry-run";
    char **env = child_env(dry_run && spec->command == SWEEP_LOAD);
    if (!env) {
        free(ev);
        sweep_argv_free(av);
        snprintf(err, errlen, "out of memory");
        sweep_child_cleanup(c);
        return -1;
    }
    char logp[4096 + 16];
    snprintf(logp, sizeof logp, "%s/log", c->dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child: output to the log, then become `nocsim ga`; it dies with
         * its parent, so a killed sweep leaves no run behind. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(127);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) dup2(nul, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execve(rn->exe, ev, env);
        dprintf(2, "cannot run %s: %s\n", rn->exe, strerror(errno));
        _exit(127);
    }
    free(ev);
    free(env);
    sweep_argv_free(av);
    if (pid < 0) {
        snprintf(err, errlen, "cannot start a task: %s", strerror(errno));
        sweep_child_cleanup(c);
        return -1;
    }
    c->pid = pid;
    c->started = sweep_now();
    return 0;
}

/* The last non-empty line of the child's log, for error messages. */
static void last_line(const sweep_child *c, char *out, size_t outlen)
{
    char logp[4096 + 16], line[1024], last[1024] = "";
    snprintf(logp, sizeof logp, "%s/log", c->dir);
    FILE *f = fopen(logp, "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\r\n")] = 0;
            if (*line) snprintf(last, sizeof last, "%s", line);
        }
        fclose(f);
    }
    snprintf(out, outlen, "%s", *last ? last : "(no message)");
}

int sweep_child_result(const sweep_child *c, int ws, char *err, size_t errlen)
{
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) return 0;
    char msg[1024];
    last_line(c, msg, sizeof msg);
    if (WIFEXITED(ws))
        snprintf(err, errlen, "task %lld (seed %llu) exited with status %d: %s", (long long)c->task.index,
                 (unsigned long long)c->task.seed, WEXITSTATUS(ws), msg);
    else
        snprintf(err, errlen, "task %lld (seed %llu) was killed by signal %d", (long long)c->task.index,
                 (unsigned long long)c->task.seed, WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    return WIFEXITED(ws) && WEXITSTATUS(ws) == 2 ? SWEEP_BAD_TASK : -1;
}

void sweep_child_cleanup(sweep_child *c)
{
    if (!c->dir[0]) return;
    DIR *d = opendir(c->dir);
    if (d) {
        struct dirent *e;
        char p[8192];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", c->dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(c->dir);
    c->dir[0] = 0;
}

/* The pid in a scratch folder's name "nocsim-sweep-TAG-PID-XXXXXX" (TAG: 8
 * hex digits, or "recv" for rank 0's received databases), or 0 when the
 * name is not one of ours. */
static long scratch_pid(const char *name)
{
    static const char prefix[] = "nocsim-sweep-";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0) return 0;
    const char *p = name + sizeof prefix - 1;
    if (!strncmp(p, "recv-", 5)) p += 5;
    else {
        for (int k = 0; k < 8; k++, p++)
            if (!isxdigit((unsigned char)*p)) return 0;
        if (*p++ != '-') return 0;
    }
    char *end;
    long pid = strtol(p, &end, 10);
    return end != p && *end == '-' && pid > 0 ? pid : 0;
}

void sweep_clean_stale(const sweep_runner *rn)
{
    DIR *d = opendir(scratch_root(rn));
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid = scratch_pid(e->d_name);
        if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        sweep_child c;
        memset(&c, 0, sizeof c);
        snprintf(c.dir, sizeof c.dir, "%s/%s", scratch_root(rn), e->d_name);
        struct stat sb;
        if (lstat(c.dir, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == getuid()) sweep_child_cleanup(&c);
    }
    closedir(d);
}

int sweep_validate(const sweep_spec *spec, const sweep_runner *rn, char *err, size_t errlen)
{
    sweep_clean_stale(rn);   /* any sweep's start, before it makes folders of its own */
    /* One task per (traffic, axis value): every value is checked once with
     * the other axes at their first value. */
    for (int tr = 0; tr < spec->ntraffic; tr++)
        for (int a = 0; a < spec->naxes; a++)
            for (int v = 0; v < spec->axes[a].nvalues; v++) {
                if (a > 0 && v == 0) continue; /* the all-first point is checked at a = 0 */
                if (rn->stop && rn->stop()) return SWEEP_INTERRUPTED;   /* a grid of many values takes a while */
                int64_t combo = v, stride = 1;
                for (int b = spec->naxes - 1; b > a; b--) stride *= spec->axes[b].nvalues;
                combo *= stride;
                sweep_task t;
                sweep_task_get(spec, ((int64_t)tr * spec->ncombos + combo) * spec->runs, &t);
                sweep_child c;
                if (sweep_child_start(&c, spec, &t, rn, 1, err, errlen)) return -1;
                int ws;
                while (waitpid(c.pid, &ws, 0) < 0 && errno == EINTR) {}
                int rc = sweep_child_result(&c, ws, err, errlen);
                sweep_child_cleanup(&c);
                if (rc) return rc;
            }
    return 0;
}

static void stop_children(sweep_child *kids, int n)
{
    for (int i = 0; i < n; i++)
        if (kids[i].pid > 0) kill(kids[i].pid, SIGTERM);
    for (int i = 0; i < n; i++)
        if (kids[i].pid > 0) {
            int ws;
            while (waitpid(kids[i].pid, &ws, 0) < 0 && errno == EINTR) {}
            kids[i].pid = -1;
            sweep_child_cleanup(&kids[i]);
        }
}

int sweep_run_local(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                    const sweep_runner *rn, char *err, size_t errlen)
{
    int jobs = rn->jobs > 0 ? rn->jobs : 1;
    sweep_clean_stale(rn);
    sweep_child *kids = calloc((size_t)jobs, sizeof *kids);
    if (!kids) { snprintf(err, errlen, "out of memory"); return -1; }
    for (int i = 0; i < jobs; i++) kids[i].pid = -1;
    int64_t next = 0;
    int running = 0, rc = 0;
    for (;;) {
        while (rc == 0 && running < jobs && !(rn->stop && rn->stop())) {
            while (next < spec->ntasks && done[next]) next++;
            if (next >= spec->ntasks) break;
            int slot = 0;
            while (kids[slot].pid > 0) slot++;
            sweep_task t;
            sweep_task_get(spec, next++, &t);
            if (sweep_child_start(&kids[slot], spec, &t, rn, 0, err, errlen)) { rc = -1; break; }
            running++;
        }
        if (rn->stop && rn->stop() && rc == 0) rc = SWEEP_INTERRUPTED;
        if (rc || running == 0) break;
        int ws;
        pid_t pid = wait(&ws);
        if (pid < 0) {
            if (errno == EINTR) continue;
            snprintf(err, errlen, "waiting for a task: %s", strerror(errno));
            rc = -1;
            break;
        }
        int slot = 0;
        while (slot < jobs && kids[slot].pid != pid) slot++;
        if (slot == jobs) continue; /* not ours */
        sweep_child *c = &kids[slot];
        c->pid = -1;
        running--;
        if (rn->stop && rn->stop()) { sweep_child_cleanup(c); continue; }
        int r = sweep_child_result(c, ws, err, errlen);
        int64_t run = 0;
        if (r == 0) r = sweep_adopt(db, id, spec->command, &c->task, c->db, &run, err, errlen);
        if (r == 0) {
            done[c->task.index] = 1;
            (*ndone)++;
            if (rn->progress) rn->progress(rn->ctx, *ndone, spec->ntasks, &c->task, run, sweep_now() - c->started);
        }
        sweep_child_cleanup(c);
        if (r) rc = r;
    }
    stop_children(kids, jobs);
    free(kids);
    return rc;
}
