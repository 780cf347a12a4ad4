/* The one kind of failure every layer reports, decided where the fault
 * happens, so that the front end maps kinds to exit statuses in one place
 * (cli/status.c) and never reads a message to guess.
 *
 * Conventions (every part: util, traffic, sim, ga, store, cc, viz, sweep)
 * - The message still goes to (char *err, size_t errlen): one line, no
 *   newline.  The kind travels beside it, never inside it:
 *   - a function returning int returns 0 (or another non-negative answer)
 *     on success and -FAULT_x on failure, so `< 0` and `!= 0` tests keep
 *     working and fault_of(rc) gives the kind back;
 *   - a constructor returning a pointer takes `fault_kind *kind` (may be
 *     NULL) just before err and sets it when it returns NULL;
 *   - a part with codes of its own (store_fault, CC_E*, VIZ_*, OUTFILE_*,
 *     parse_status) says how they map to kinds beside their definition.
 * - The kind is set where the fault is seen: the place that finds a full
 *   disk knows it was I/O, the place that fails to start a thread knows it
 *   was the machine.  A caller passes the kind on; it re-decides only when
 *   it knows better (a file the user named that cannot be opened is input).
 * - Every fallible public function is declared NOCSIM_MUST_USE, so a
 *   dropped failure is a compile error (-Werror), not a silent loss. */
#ifndef NOCSIM_UTIL_FAULT_H
#define NOCSIM_UTIL_FAULT_H

typedef enum {
    FAULT_NONE = 0,
    FAULT_INPUT,     /* the user's input is at fault: a flag, a file's contents, a name, a size over a limit */
    FAULT_RESOURCE,  /* the machine is: memory, threads, a time limit */
    FAULT_IO,        /* a read or write that failed, a file of ours that is damaged */
    FAULT_INTERNAL,  /* a bug: a state that the code says cannot happen */
} fault_kind;

/* The kind of a failed int result (rc < 0): -rc, or FAULT_INTERNAL for a
 * code outside the kinds (a failure that forgot to say what it was). */
static inline fault_kind fault_of(int rc)
{
    return rc >= 0 ? FAULT_NONE : rc >= -(int)FAULT_INTERNAL ? (fault_kind)-rc : FAULT_INTERNAL;
}

/* The int result of a failure of kind k: -k, and -FAULT_INTERNAL for
 * FAULT_NONE (a failure must never read as success, nor as bad input). */
static inline int fault_rc(fault_kind k)
{
    return k == FAULT_NONE ? -(int)FAULT_INTERNAL : -(int)k;
}

/* Set *kind (if kind is not NULL) for a constructor that is about to
 * return NULL. */
static inline void fault_set(fault_kind *kind, fault_kind k)
{
    if (kind) *kind = k;
}

#if defined(__GNUC__)
#define NOCSIM_MUST_USE __attribute__((warn_unused_result))
#else
#define NOCSIM_MUST_USE
#endif

#endif
