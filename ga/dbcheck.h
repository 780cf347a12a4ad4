/* Validation of everything a nocsim database holds for the GA, before it is
 * trusted (db merge brings in nothing unchecked). */
#ifndef NOCSIM_GA_DBCHECK_H
#define NOCSIM_GA_DBCHECK_H

#include <stddef.h>

#include "store/store.h"
#include "util/fault.h"

/* SQLite's quick_check, then every run's checkpoint (loaded as ga_resume
 * would), and every recorded chromosome (decoded and range-checked, its
 * CRC-32 recomputed, its metrics in range).  0 when all is well; -1 with
 * "PATH: database is damaged: ..." (store_last_fault(db) is then
 * STORE_FAULT_DAMAGED unless the failure was I/O or memory). */
NOCSIM_MUST_USE
int ga_db_check(store *db, char *err, size_t errlen);

#endif
