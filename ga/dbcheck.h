/* Validation of everything a nocsim database holds for the GA, before it is
 * trusted (db merge brings in nothing unchecked). */
#ifndef NOCSIM_GA_DBCHECK_H
#define NOCSIM_GA_DBCHECK_H

#include <stddef.h>

#include "store/store.h"
#include "util/fault.h"

/* SQLite's quick_check, then every run's checkpoint (loaded as ga_resume
 * would), and every recorded chromosome (decoded and range-checked, its
 * CRC-32 recomputed, its metrics in range).  0 when all is well; else the
 * first finding in err and its fault as ga_resume would give it:
 * -FAULT_IO for "PATH: database is damaged: ..." (and a read that failed),
 * -FAULT_INPUT for a checkpoint of an earlier format ("resume the run with
 * the version that started it"), -FAULT_RESOURCE when memory runs out. */
NOCSIM_MUST_USE
int ga_db_check(store *db, char *err, size_t errlen);

#endif
