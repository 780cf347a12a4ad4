/* Exit statuses and the one way the commands report a failure.  Every code
 * is decided here:
 *
 *   0    success
 *   1    a run-time failure: a failed write (stdout included), out of memory,
 *        a database that cannot be read or written although it is ours
 *   2    bad input: flags, files, a --db that is not a nocsim database
 *   130  stopped by SIGINT, 143 by SIGTERM (128 + the signal), the GA's run
 *        left resumable
 *
 * Messages are one line on stderr, "nocsim CMD: ...".  The status of a
 * library failure comes from its kind (util/fault.h) through
 * cli_fault_status, never from the message text. */
#ifndef NOCSIM_CLI_STATUS_H
#define NOCSIM_CLI_STATUS_H

#include <stdio.h>

#include "store/store.h"
#include "util/fault.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Print "nocsim CMD: <message>" ("nocsim: <message>" when cmd is NULL) and return status, so a failure is reported
 * and returned in one statement. */
int cli_fail(const char *cmd, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The one mapping from a failure's kind to an exit status: EXIT_USAGE for
 * FAULT_INPUT, EXIT_FAIL for every other kind (resource, I/O, internal;
 * FAULT_NONE too, so a failure that forgot its kind is never "bad input"). */
int cli_fault_status(fault_kind kind);
/* The status of a store failure of kind fault (store_fault_kind, then
 * cli_fault_status): EXIT_USAGE for STORE_FAULT_INPUT (the path names no
 * usable nocsim database), EXIT_FAIL for every other kind. */
int cli_store_status(store_fault fault);
/* store_open_fault(path, flags); on failure prints "nocsim CMD: --db: <why>",
 * sets *status (cli_store_status) and returns NULL.  Close with store_close. */
NOCSIM_MUST_USE
store *cli_store_open(const char *cmd, const char *path, int flags, int *status);

/* Whether a file can be written at path ("-" is stdout) and is none of the
 * command's input files (inputs[0..ninputs-1], NULL entries skipped; a
 * database's -wal and -journal count, and links are followed), so a run
 * learns of a bad output path before it reads or writes anything.  The one
 * rule for every output flag (util/outfile.h's outfile_check).  Returns
 * EXIT_OK, or EXIT_USAGE after printing "nocsim CMD: FLAG PATH: <why>".
 * Writes nothing. */
NOCSIM_MUST_USE
int cli_check_output(const char *cmd, const char *flag, const char *path, const char *const *inputs, int ninputs);
/* The file of a traffic spec "file:PATH", or NULL for a named pattern. */
const char *cli_traffic_file(const char *spec);

/* Flush and close stdout.  Returns status, or EXIT_FAIL after a message when
 * status was EXIT_OK and any output was lost (a full disk, a closed pipe). */
NOCSIM_MUST_USE
int cli_close_stdout(const char *cmd, int status);

/* Process-wide signal set-up, once at start: a file-size limit (ulimit -f)
 * makes writes fail with EFBIG, reported like any failed write, instead of
 * killing the process. */
void cli_signals_init(void);
/* From now on SIGINT and SIGTERM only set a flag (a long command stops at its
 * next safe point).  Returns 0, -1 if the handlers cannot be installed. */
NOCSIM_MUST_USE
int cli_catch_stop_signals(void);
/* For a phase that cannot look at the flag (a long computation inside the
 * library, such as the GA's start-up sweep): until called again with NULL,
 * a stop signal ends the process at once, writing "nocsim CMD: stopped by
 * SIGINT<tail>" (tail: the rest of the line, e.g. how to resume; newline
 * added) and exiting 128 + the signal.  Only for phases whose writes are
 * transactions, so the database stays whole.  Returns the signal already
 * caught before the call (then nothing is armed), 0 otherwise. */
int cli_stop_at_once(const char *cmd, const char *tail);
/* The signal caught since cli_catch_stop_signals (0 if none). */
int cli_stop_signal(void);
/* The exit status of a command stopped by signal sig: 128 + sig. */
int cli_signal_status(int sig);

#endif
