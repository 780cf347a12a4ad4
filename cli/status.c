/* Exit statuses, failure messages, output checks and signals (see status.h). */
#include "cli/status.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int cli_store_status(store_fault fault)
{
    return fault == STORE_FAULT_INPUT ? EXIT_USAGE : EXIT_FAIL;
}

store *cli_store_open(const char *cmd, const char *path, int flags, int *status)
{
    char err[1024];
    store_fault fault;
    store *db = store_open_fault(path, flags, &fault, err, sizeof err);
    if (!db) *status = cli_fail(cmd, cli_store_status(fault), "--db: %s", err);
    return db;
}

int cli_setup_status(const char *err)
{
    return strstr(err, "out of memory") ? EXIT_FAIL : EXIT_USAGE;
}

int cli_check_output(const char *cmd, const char *flag, const char *path)
{
    if (strcmp(path, "-") == 0) return EXIT_OK;
    if (!*path) return cli_fail(cmd, EXIT_USAGE, "%s: the path is empty", flag);
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return cli_fail(cmd, EXIT_USAGE, "%s %s: is a directory", flag, path);
        if (access(path, W_OK) != 0) return cli_fail(cmd, EXIT_USAGE, "%s %s: %s", flag, path, strerror(errno));
        return EXIT_OK;
    }
    if (errno != ENOENT) return cli_fail(cmd, EXIT_USAGE, "%s %s: %s", flag, path, strerror(errno));
    /* A new file: its directory must exist and be writable. */
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (stat(dir, &sb) != 0) return cli_fail(cmd, EXIT_USAGE, "%s %s: directory %s: %s", flag, path, dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return cli_fail(cmd, EXIT_USAGE, "%s %s: %s is not a directory", flag, path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return cli_fail(cmd, EXIT_USAGE, "%s %s: directory %s: %s", flag, path, dir, strerror(errno));
    return EXIT_OK;
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

/* A signal handler can only talk through a global. */
static volatile sig_atomic_t stop_signal;
static void on_stop_signal(int sig) { stop_signal = sig; }

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
