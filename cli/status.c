/* Exit statuses, failure messages, output checks and signals (see status.h). */
#include "cli/status.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/outdest.h"
#include "util/outfile.h"

int cli_fail(const char *cmd, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (cmd) fprintf(stderr, "nocsim %s: ", cmd);
    else fputs("nocsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return status;
}

int cli_fault_status(fault_kind kind)
{
    return kind == FAULT_INPUT ? EXIT_USAGE : EXIT_FAIL;
}

int cli_store_status(store_fault fault)
{
    return cli_fault_status(store_fault_kind(fault));
}

store *cli_store_open(const char *cmd, const char *path, int flags, int *status)
{
    char err[1024];
    store_fault fault;
    store *db = store_open_fault(path, flags, &fault, err, sizeof err);
    if (!db) *status = cli_fail(cmd, cli_store_status(fault), "--db: %s", err);
    return db;
}

int cli_check_output(const char *cmd, const char *flag, const char *path, const char *const *inputs, int ninputs)
{
    if (strcmp(path, "-") == 0) return EXIT_OK;
    char err[PATH_MAX + 256];
    /* A device or FIFO is written through (cli/outdest.h): it only has to
     * take writes; its directory takes no file. */
    if (outdest_through(path)) {
        if (access(path, W_OK) != 0) return cli_fail(cmd, EXIT_USAGE, "%s %s: %s", flag, path, strerror(errno));
    } else if (outfile_check(path, err, sizeof err) != OUTFILE_OK)
        return cli_fail(cmd, EXIT_USAGE, "%s %s", flag, err);
    for (int k = 0; k < ninputs; k++)
        if (inputs[k] && outfile_is_input(path, inputs[k]))
            return cli_fail(cmd, EXIT_USAGE, "%s %s: is the input file %s (or one of its -wal/-journal files); "
                            "nothing was written", flag, path, inputs[k]);
    return EXIT_OK;
}

const char *cli_traffic_file(const char *spec)
{
    return spec && strncmp(spec, "file:", 5) == 0 ? spec + 5 : NULL;
}

int cli_close_stdout(const char *cmd, int status)
{
    int lost = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !lost) { lost = 1; e = errno; }
    if (lost && status == EXIT_OK)
        return cli_fail(cmd, EXIT_FAIL, "cannot write the output: %s", strerror(e));
    return status;
}

void cli_signals_init(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

/* A signal handler can only talk through globals. */
static volatile sig_atomic_t stop_signal, at_once;
static char at_once_cmd[64], at_once_tail[512];

static void put_err(const char *s) { (void)!write(STDERR_FILENO, s, strlen(s)); }

static void on_stop_signal(int sig)
{
    stop_signal = sig;
    if (!at_once) return;
    /* async-signal-safe: write(2) and _exit only (strlen is safe in practice
     * and in POSIX.1-2008 TC2). */
    put_err("nocsim ");
    put_err(at_once_cmd);
    put_err(": stopped by ");
    put_err(sig == SIGINT ? "SIGINT" : "SIGTERM");
    put_err(at_once_tail);
    put_err("\n");
    _exit(128 + sig);
}

int cli_stop_at_once(const char *cmd, const char *tail)
{
    at_once = 0;
    if (!cmd) return stop_signal;
    snprintf(at_once_cmd, sizeof at_once_cmd, "%s", cmd);
    snprintf(at_once_tail, sizeof at_once_tail, "%s", tail ? tail : "");
    at_once = 1;
    /* A signal that came before arming is the caller's to act on. */
    if (stop_signal) { at_once = 0; return stop_signal; }
    return 0;
}

int cli_catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ? -1 : 0;
}

int cli_stop_signal(void) { return stop_signal; }

int cli_signal_status(int sig) { return 128 + sig; }
