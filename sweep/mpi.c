/* The MPI sweep runner (see run.h): rank 0 owns the database and hands out
 * tasks; the other ranks run them and send back their scratch databases as
 * messages, so no file system is shared and no SQLite file is opened by two
 * processes.  Built only with `make MPI=1`. */
#ifdef NOCSIM_MPI
#include "sweep/run.h"
#include "sweep/record.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TAG_READY = 1, TAG_TASK, TAG_STOP, TAG_RESULT, TAG_DATA, TAG_SPEC };

/* The largest scratch database one message carries (MPI counts are int). */
#define MAX_BLOB ((int64_t)1 << 30)

int sweep_mpi_share_spec(sweep_spec *spec, int *ok, char *err, size_t errlen)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *text = NULL;
    int64_t len = 0;
    if (rank == 0 && *ok) {
        text = sweep_spec_to_text(spec, err, errlen);
        if (!text) *ok = 0;
        else len = (int64_t)strlen(text) + 1;
    }
    int64_t hdr[2] = { *ok, len };
    MPI_Bcast(hdr, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    *ok = (int)hdr[0];
    if (!*ok) { free(text); return 0; }
    if (rank != 0) text = malloc((size_t)hdr[1]);
    int have = text != NULL;
    MPI_Bcast(text ? text : (char[1]){0}, text ? (int)hdr[1] : 1, MPI_CHAR, 0, MPI_COMM_WORLD);
    int rc = 0;
    if (rank != 0) rc = !have ? (snprintf(err, errlen, "out of memory"), -1) : sweep_spec_from_text(spec, text, err, errlen);
    free(text);
    return rc;
}

/* Read a whole file into memory. */
static char *slurp(const char *path, int64_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && n <= MAX_BLOB && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
            if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
            else *len = n;
        }
    }
    fclose(f);
    return buf;
}

/* A worker: ask for tasks until told to stop. */
static int worker(const sweep_spec *spec, const sweep_runner *rn)
{
    int64_t msg = 0;
    MPI_Send(&msg, 1, MPI_INT64_T, 0, TAG_READY, MPI_COMM_WORLD);
    for (;;) {
        MPI_Status st;
        int64_t k;
        MPI_Recv(&k, 1, MPI_INT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_STOP) return 0;
        sweep_task t;
        sweep_task_get(spec, k, &t);
        sweep_child c;
        char err[1024] = "";
        int rc = sweep_child_start(&c, spec, &t, rn, 0, err, sizeof err);
        char *data = NULL;
        int64_t len = 0;
        if (rc == 0) {
            int ws;
            while (waitpid(c.pid, &ws, 0) < 0 && errno == EINTR) {}
            rc = sweep_child_result(&c, ws, err, sizeof err);
        }
        if (rc == 0) {
            /* Opening and closing folds any write-ahead log into the file. */
            store *s = store_open(c.db, 0, err, sizeof err);
            store_close(s);
            data = s ? slurp(c.db, &len) : NULL;
            if (!data) { rc = -1; if (s) snprintf(err, sizeof err, "task %lld: cannot read %.900s", (long long)k, c.db); }
        }
        if (rc != 0) {
            free(data);
            data = strdup(err);
            len = data ? (int64_t)strlen(data) + 1 : 0;
        }
        sweep_child_cleanup(&c);
        int64_t hdr[3] = { k, rc, len };
        MPI_Send(hdr, 3, MPI_INT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        MPI_Send(data ? data : "", data ? (int)len : 1, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
        free(data);
    }
}

/* Rank 0: write a received scratch database to a file and adopt it. */
static int adopt_blob(store *db, int64_t id, const sweep_spec *spec, int64_t k, const char *data, int64_t len,
                      const sweep_runner *rn, int64_t *run, char *err, size_t errlen)
{
    const char *root = rn->tmpdir ? rn->tmpdir : (getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    char dir[4096], path[4096 + 16];
    snprintf(dir, sizeof dir, "%s/nocsim-sweep-recv-%ld-XXXXXX", root, (long)getpid());
    if (!mkdtemp(dir)) { snprintf(err, errlen, "cannot make a scratch folder in %s: %s", root, strerror(errno)); return -1; }
    snprintf(path, sizeof path, "%s/run.db", dir);
    FILE *f = fopen(path, "wb");
    int rc = -1;
    if (!f || fwrite(data, 1, (size_t)len, f) != (size_t)len) snprintf(err, errlen, "%s: cannot write", path);
    else rc = 0;
    if (f && fclose(f) != 0 && rc == 0) { snprintf(err, errlen, "%s: cannot write", path); rc = -1; }
    sweep_task t;
    sweep_task_get(spec, k, &t);
    if (rc == 0) rc = sweep_adopt(db, id, spec->command, &t, path, run, err, errlen);
    sweep_child c;
    memset(&c, 0, sizeof c);
    snprintf(c.dir, sizeof c.dir, "%s", dir);
    sweep_child_cleanup(&c);
    return rc;
}

static int coordinator(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                       const sweep_runner *rn, int nranks, char *err, size_t errlen)
{
    int64_t next = 0;
    int active = nranks - 1, rc = 0;
    double *started = calloc((size_t)nranks, sizeof *started);
    while (active > 0) {
        MPI_Status st;
        int64_t hdr[3];
        MPI_Recv(hdr, 3, MPI_INT64_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int src = st.MPI_SOURCE;
        if (st.MPI_TAG == TAG_RESULT) {
            int64_t len = hdr[2] > 0 ? hdr[2] : 1;
            char *data = malloc((size_t)len);
            MPI_Recv(data ? data : (char[1]){0}, data ? (int)len : 0, MPI_BYTE, src, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int64_t k = hdr[0], run = 0;
            int r = (int)hdr[1];
            if (!data) { r = -1; snprintf(err, errlen, "out of memory"); }
            else if (r != 0) snprintf(err, errlen, "%s", data);
            else r = adopt_blob(db, id, spec, k, data, hdr[2], rn, &run, err, errlen);
            free(data);
            if (r == 0) {
                sweep_task t;
                sweep_task_get(spec, k, &t);
                done[k] = 1;
                (*ndone)++;
                if (rn->progress) rn->progress(rn->ctx, *ndone, spec->ntasks, &t, run, sweep_now() - (started ? started[src] : 0));
            } else if (rc == 0) {
                rc = r;
            }
        }
        /* READY, or a RESULT: the sender is idle now. */
        while (next < spec->ntasks && done[next]) next++;
        if (rc != 0 || next >= spec->ntasks || (rn->stop && rn->stop())) {
            int64_t z = 0;
            MPI_Send(&z, 1, MPI_INT64_T, src, TAG_STOP, MPI_COMM_WORLD);
            active--;
        } else {
            int64_t k = next++;
            if (started) started[src] = sweep_now();
            MPI_Send(&k, 1, MPI_INT64_T, src, TAG_TASK, MPI_COMM_WORLD);
        }
    }
    free(started);
    if (rc == 0 && rn->stop && rn->stop()) rc = SWEEP_INTERRUPTED;
    return rc;
}

int sweep_run_mpi(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                  const sweep_runner *rn, char *err, size_t errlen)
{
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    sweep_clean_stale(rn);
    if (rank != 0) return worker(spec, rn);
    if (nranks == 1) {
        sweep_runner one = *rn;
        one.jobs = 1;
        return sweep_run_local(db, id, spec, done, ndone, &one, err, errlen);
    }
    return coordinator(db, id, spec, done, ndone, rn, nranks, err, errlen);
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int sweep_mpi_not_built;
#endif
