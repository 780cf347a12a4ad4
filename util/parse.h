/* Strict parsing of numbers and lists: the one place where text becomes a
 * number, for command-line flags and for every input file.
 *
 * Conventions:
 * - The whole string must be the value: no leading or trailing space, no
 *   sign other than a leading '-', no hex, no "inf"/"nan".  Leading zeros are
 *   allowed ("0005" is 5), but every character counts: nothing is cut.
 * - A value outside [lo, hi] (including one too large for 64 bits) is
 *   PARSE_RANGE, so the caller can name the allowed range; *out is written only
 *   on PARSE_OK.
 * - No function prints; parse_explain() builds the one-line message.  Input
 *   echoed in a message is escaped (util/quote.h), never printed raw. */
#ifndef NOCSIM_UTIL_PARSE_H
#define NOCSIM_UTIL_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "util/fault.h"

typedef enum {
    PARSE_OK = 0,
    PARSE_EMPTY,     /* "" (or, in a list, an empty element) */
    PARSE_SYNTAX,    /* not a number of the expected kind */
    PARSE_RANGE,     /* a number, but outside [lo, hi] */
    PARSE_TOO_MANY,  /* a list with more elements than allowed */
    PARSE_ITEM,      /* a list element the caller's function refused */
    PARSE_NOMEM      /* out of memory */
} parse_status;

/* A decimal integer [-]DIGITS in [lo, hi].  s may be NULL (PARSE_EMPTY). */
NOCSIM_MUST_USE
parse_status parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* A decimal real [-]DIGITS[.DIGITS][(e|E)[+|-]DIGITS] (or starting with '.')
 * that is finite and in [lo, hi]. */
NOCSIM_MUST_USE
parse_status parse_real(const char *s, double lo, double hi, double *out);

/* 1..max_digits hexadecimal digits (0-9, a-f, A-F; no "0x", no sign), as
 * written for CRC-32 signatures.  PARSE_RANGE if there are more digits. */
NOCSIM_MUST_USE
parse_status parse_hex(const char *s, int max_digits, uint64_t *out);

/* Called for each element of a list with the element as its own string (valid
 * only during the call) and its 0-based index.  Returns 0 to accept it. */
typedef int (*parse_item_fn)(const char *item, int index, void *ctx);

/* Split s at every sep and call fn on each element in order.  The list must
 * hold 1..max elements, none empty ("a,,b", "a,", "" are refused).  Returns
 * PARSE_OK; PARSE_EMPTY, PARSE_TOO_MANY or PARSE_ITEM (fn refused) with
 * *bad = the 0-based index of the offending element; or PARSE_NOMEM.  fn may
 * already have been called on earlier elements when it fails. */
NOCSIM_MUST_USE
parse_status parse_list(const char *s, char sep, int max, parse_item_fn fn, void *ctx, int *bad);

/* One phrase explaining why parse_int refused s, e.g.
 * "'12x' is not an integer (allowed: [1, 100])" or
 * "'999999999999999999999' is out of range (allowed: [1, 100])", written to buf
 * (always NUL-terminated, cut to fit).  s is escaped and shortened. */
void parse_explain_int(char *buf, size_t len, parse_status st, const char *s, int64_t lo, int64_t hi);
/* The same for parse_real ("is not a number", range printed with %g). */
void parse_explain_real(char *buf, size_t len, parse_status st, const char *s, double lo, double hi);

#endif
