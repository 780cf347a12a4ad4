/* store_merge: bring the runs of another nocsim database into this one.
 *
 * A run is identified across files by its uuid (128 random bits chosen when
 * it was created), so merging the same file twice, or merging A into B and B
 * into A, never duplicates a run.  The other file is validated with
 * store_open (read-only), then ATTACHed read-only; everything is copied in one
 * transaction with INSERT ... SELECT, through a temporary map from the other
 * file's run ids to the new ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

/* Data columns of a run (everything but id and parent). */
#define RUN_DATA                                                                                   \
    "uuid, kind, version, started, finished, status, seed, traffic, size, slices, flits, genes,"  \
    " algorithm, params, best_score, best_duration, best_crc, base_stacking, base_nonsplit"

/* Data columns of a load point (everything but run), bare and as p.COL. */
#define LOAD_DATA                                                                                  \
    "rate, offered, accepted, latency, ci95, network_latency, p50, p99, max, hops, tagged,"       \
    " tagged_done, warmup_cycles, drain_cycles, cycles, steady, saturated"
#define LOAD_DATA_P                                                                                \
    "p.rate, p.offered, p.accepted, p.latency, p.ci95, p.network_latency, p.p50, p.p99, p.max,"   \
    " p.hops, p.tagged, p.tagged_done, p.warmup_cycles, p.drain_cycles, p.cycles, p.steady,"      \
    " p.saturated"

static const struct {
    const char *sql;
    size_t off; /* counter in store_merge_stats, or (size_t)-1 */
} steps[] = {
    {"CREATE TEMP TABLE merge_map (old_id INTEGER PRIMARY KEY, run_key TEXT NOT NULL,"
     " new_id INTEGER)", (size_t)-1},
    {"INSERT INTO temp.merge_map (old_id, run_key) SELECT id, uuid FROM merge_src.runs"
     " WHERE uuid NOT IN (SELECT uuid FROM main.runs)", offsetof(store_merge_stats, runs_added)},
    {"INSERT INTO main.runs (" RUN_DATA ") SELECT " RUN_DATA " FROM merge_src.runs o"
     " JOIN temp.merge_map m ON m.old_id = o.id ORDER BY o.id", (size_t)-1},
    {"UPDATE temp.merge_map SET new_id = (SELECT r.id FROM main.runs r WHERE r.uuid = run_key)",
     (size_t)-1},
    /* Parent links: other-file id -> uuid -> id here (the parent may be a
     * run merged now or one that was already present). */
    {"UPDATE main.runs SET parent = (SELECT here.id FROM merge_src.runs child"
     " JOIN merge_src.runs par ON par.id = child.parent"
     " JOIN main.runs here ON here.uuid = par.uuid WHERE child.uuid = runs.uuid)"
     " WHERE id IN (SELECT new_id FROM temp.merge_map)", (size_t)-1},
    {"INSERT INTO main.generations (run, generation, best, average, evaluations, elapsed)"
     " SELECT m.new_id, g.generation, g.best, g.average, g.evaluations, g.elapsed"
     " FROM merge_src.generations g JOIN temp.merge_map m ON m.old_id = g.run"
     " ORDER BY g.run, g.generation", offsetof(store_merge_stats, generations)},
    {"INSERT INTO main.chromosomes (run, generation, crc, score, duration, t_d, t_e, ir, or_, ib,"
     " ob, lb, is_synonym, genes_len, genes)"
     " SELECT m.new_id, c.generation, c.crc, c.score, c.duration, c.t_d, c.t_e, c.ir, c.or_, c.ib,"
     " c.ob, c.lb, c.is_synonym, c.genes_len, c.genes"
     " FROM merge_src.chromosomes c JOIN temp.merge_map m ON m.old_id = c.run ORDER BY c.id",
     offsetof(store_merge_stats, chromosomes)},
    {"INSERT INTO main.checkpoints (run, generation, updated, data_len, data)"
     " SELECT m.new_id, k.generation, k.updated, k.data_len, k.data"
     " FROM merge_src.checkpoints k JOIN temp.merge_map m ON m.old_id = k.run",
     offsetof(store_merge_stats, checkpoints)},
    {"INSERT INTO main.cc_schedules (run, steps, bound, schedule)"
     " SELECT m.new_id, x.steps, x.bound, x.schedule"
     " FROM merge_src.cc_schedules x JOIN temp.merge_map m ON m.old_id = x.run ORDER BY x.id",
     offsetof(store_merge_stats, schedules)},
    /* Open-loop curves: the points of every run of the other file whose run
     * here has none (a run merged now, or one an earlier nocsim merged
     * without its points).  Skipped when the other file is of version 1. */
    {"INSERT INTO main.load_points (run, " LOAD_DATA ") SELECT here.id, " LOAD_DATA_P
     " FROM merge_src.load_points p JOIN merge_src.runs o ON o.id = p.run"
     " JOIN main.runs here ON here.uuid = o.uuid"
     " WHERE NOT EXISTS (SELECT 1 FROM main.load_points q WHERE q.run = here.id)"
     " ORDER BY p.run, p.rate", offsetof(store_merge_stats, load_points)},
    {"DROP TABLE temp.merge_map", (size_t)-1},
};

/* The single integer a query returns. */
static int query_int(store *s, const char *sql, int64_t *n, char *err, size_t errlen)
{
    sqlite3_stmt *st = store_prepare(s, sql, err, errlen, "cannot merge");
    if (!st)
        return STORE_ERROR;
    int ret = STORE_OK;
    if (sqlite3_step(st) == SQLITE_ROW)
        *n = sqlite3_column_int64(st, 0);
    else
        ret = store_sqlerr(s, err, errlen, "cannot merge");
    sqlite3_finalize(st);
    return ret;
}

int store_merge(store *s, const char *other_path, store_merge_stats *stats, char *err,
                size_t errlen)
{
    store_merge_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    if (s->readonly)
        return store_err(err, errlen, "%s: cannot merge into a database opened read-only", s->path);
    if (!sqlite3_get_autocommit(s->db))
        return store_err(err, errlen, "%s: cannot merge inside an open transaction", s->path);

    /* Validate the other file (exists, is nocsim, same schema version). */
    store *o = store_open(other_path, STORE_READONLY, err, errlen);
    if (!o)
        return STORE_ERROR;
    store_close(o);

    char *uri = store_uri(other_path, true);
    if (!uri)
        return store_err(err, errlen, "%s: out of memory", s->path);
    sqlite3_stmt *st = store_prepare(s, "ATTACH DATABASE ? AS merge_src", err, errlen,
                                     "cannot attach the other database");
    int rc = st ? sqlite3_bind_text(st, 1, uri, -1, SQLITE_TRANSIENT) : SQLITE_ERROR;
    free(uri);
    if (!st)
        return STORE_ERROR;
    if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE) {
        store_err(err, errlen, "%s: cannot attach %s: %s", s->path, other_path,
                  sqlite3_errmsg(s->db));
        sqlite3_finalize(st);
        return STORE_ERROR;
    }
    sqlite3_finalize(st);

    int ret = store_exec(s, "BEGIN IMMEDIATE", err, errlen, "cannot merge");
    if (ret == STORE_OK)
        ret = query_int(s, "SELECT COUNT(*) FROM merge_src.runs WHERE uuid IN"
                           " (SELECT uuid FROM main.runs)", &stats->runs_skipped, err, errlen);
    /* A version-1 file (read as it is) has no load_points table. */
    int64_t has_load = 0;
    if (ret == STORE_OK)
        ret = query_int(s, "SELECT COUNT(*) FROM merge_src.sqlite_master WHERE type = 'table'"
                           " AND name = 'load_points'", &has_load, err, errlen);
    for (size_t i = 0; ret == STORE_OK && i < sizeof steps / sizeof *steps; i++) {
        if (!has_load && steps[i].off == offsetof(store_merge_stats, load_points))
            continue;
        ret = store_exec(s, steps[i].sql, err, errlen, "cannot merge");
        if (ret == STORE_OK && steps[i].off != (size_t)-1)
            *(int64_t *)((char *)stats + steps[i].off) = sqlite3_changes(s->db);
    }
    if (ret == STORE_OK)
        ret = store_exec(s, "COMMIT", err, errlen, "cannot merge");
    if (ret != STORE_OK) {
        if (!sqlite3_get_autocommit(s->db))
            (void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); /* error already reported */
        memset(stats, 0, sizeof *stats);
    }
    if (sqlite3_exec(s->db, "DETACH DATABASE merge_src", NULL, NULL, NULL) != SQLITE_OK &&
        ret == STORE_OK)
        ret = store_sqlerr(s, err, errlen, "cannot detach the merged database");
    return ret;
}
