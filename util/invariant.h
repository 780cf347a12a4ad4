/* NOCSIM_ASSERT(cond, name): an invariant or precondition, checked where
 * the code relies on it, named so that a failure says which rule broke.
 *
 * On in the checking build (-DNOCSIM_CHECK, `make check` builds one in
 * build-check/) and in sanitizer builds (AddressSanitizer: `make
 * check-asan`, `make fuzz`); off in the release build, where cond is not
 * evaluated (it is only compiled, so it still has to be valid code, and
 * has no effect).  A failure prints one line on stderr,
 *   nocsim: invariant broken: NAME (COND) at FILE:LINE
 * and aborts: an invariant that does not hold is a bug, not a fault to
 * report (util/fault.h).  Conditions must have no side effects.
 *
 * An includer may decide for itself by defining NOCSIM_ASSERTS to 0 or 1
 * before its first include. */
#ifndef NOCSIM_UTIL_INVARIANT_H
#define NOCSIM_UTIL_INVARIANT_H

#ifndef NOCSIM_ASSERTS
#if defined(NOCSIM_CHECK) || defined(__SANITIZE_ADDRESS__)
#define NOCSIM_ASSERTS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NOCSIM_ASSERTS 1
#endif
#endif
#endif
#ifndef NOCSIM_ASSERTS
#define NOCSIM_ASSERTS 0
#endif

/* Print the failure line and abort. */
_Noreturn void nocsim_assert_fail(const char *name, const char *cond, const char *file, int line);
/* 1 when the library itself was built with its assertions on. */
int nocsim_asserts_on(void);

#if NOCSIM_ASSERTS
#define NOCSIM_ASSERT(cond, name) ((cond) ? (void)0 : nocsim_assert_fail((name), #cond, __FILE__, __LINE__))
#else
#define NOCSIM_ASSERT(cond, name) ((void)sizeof(!(cond)))
#endif

#endif
