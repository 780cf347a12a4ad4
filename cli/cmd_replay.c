/* `nocsim replay` and `nocsim export`: the paper's parameter-loading mode.
 * A recorded chromosome (or a chromosome file) is re-simulated under the
 * run-time parameters given, optionally searching the interval. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/activity_opts.h"
#include "cli/args.h"
#include "cli/chromfile.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "ga/chrom.h"
#include "sim/interval.h"
#include "ga/methods.h"
#include "store/store.h"
#include "util/parse.h"
#include "util/quote.h"

/* Which recorded chromosome: exactly one of these. */
typedef struct {
    long chrom, best_run, run;
    int have_crc;
    uint32_t crc;
    const char *file;
} source_sel;

static int parse_source(const char *cmd, int argc, char **argv, int *i, source_sel *s)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "--chrom") || !strcmp(a, "--best") || !strcmp(a, "--run")) {
        long x;
        if (!(v = arg_value(cmd, argc, argv, i)) || !arg_int(cmd, a, v, 1, INT64_MAX / 2, &x)) return -1;
        if (!strcmp(a, "--chrom")) s->chrom = x;
        else if (!strcmp(a, "--best")) s->best_run = x;
        else s->run = x;
        return 1;
    }
    if (!strcmp(a, "--crc")) {
        if (!(v = arg_value(cmd, argc, argv, i))) return -1;
        uint64_t x;
        if (parse_hex(v, 8, &x) != PARSE_OK) {
            char q[QUOTE_BUF];
            fprintf(stderr, "nocsim %s: --crc: '%s' is not a CRC-32 in hex (1 to 8 hex digits, e.g. 3a2b1561)\n", cmd,
                    quote_str(q, sizeof q, v));
            return -1;
        }
        s->crc = (uint32_t)x;
        s->have_crc = 1;
        return 1;
    }
    if (!strcmp(a, "--file")) {
        if (!(s->file = arg_value(cmd, argc, argv, i))) return -1;
        return 1;
    }
    return 0;
}

static int count_sources(const source_sel *s)
{
    return (s->chrom > 0) + (s->best_run > 0) + s->have_crc + (s->file != NULL);
}

static int best_cb(const store_chrom *c, void *arg) { *(int64_t *)arg = c->id; return 1; }

/* Resolve a database source to a chromosome id.  Returns EXIT_OK or an exit status. */
static int resolve_chrom(const char *cmd, store *db, const source_sel *s, int64_t *id)
{
    char err[512];
    if (s->chrom > 0) { *id = s->chrom; return EXIT_OK; }
    if (s->have_crc) {
        store_chrom c;
        int rc = store_chrom_find_crc(db, s->run, s->crc, &c, err, sizeof err);
        if (rc == STORE_NOTFOUND) {
            fprintf(stderr, "nocsim %s: --crc: no chromosome with signature %08x%s\n", cmd, s->crc, s->run ? " in that run" : "");
            return EXIT_USAGE;
        }
        if (rc != STORE_OK) { fprintf(stderr, "nocsim %s: %s\n", cmd, err); return EXIT_FAIL; }
        *id = c.id;
        store_chrom_clear(&c);
        return EXIT_OK;
    }
    store_chrom_query q = { .run = s->best_run, .synonyms_only = true, .order_by = "id", .limit = 1 };
    *id = 0;
    if (store_chrom_list(db, &q, best_cb, id, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s\n", cmd, err);
        return EXIT_FAIL;
    }
    if (*id == 0) {
        fprintf(stderr, "nocsim %s: --best: run %ld does not exist or has no recorded chromosome\n", cmd, s->best_run);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Load chromosome `id` and its run's simulation context. */
static int load_recorded(const char *cmd, store *db, int64_t id, method_source *src, sim_config **cfg, store_chrom *rec)
{
    char err[512];
    int rc = store_chrom_get(db, id, rec, err, sizeof err);
    if (rc == STORE_NOTFOUND) { fprintf(stderr, "nocsim %s: --chrom: chromosome %lld does not exist\n", cmd, (long long)id); return EXIT_USAGE; }
    if (rc != STORE_OK) { fprintf(stderr, "nocsim %s: %s\n", cmd, err); return EXIT_FAIL; }
    if (method_source_load(db, rec->run, src, err, sizeof err)) {
        fprintf(stderr, "nocsim %s: %s\n", cmd, err);
        store_chrom_clear(rec);
        return EXIT_FAIL;
    }
    *cfg = sim_config_new(src->sp.n * src->sp.n, src->sp.vcs, 0, 0);
    if (!*cfg || chrom_decode(*cfg, rec->genes, rec->genes_len, err, sizeof err)) {
        fprintf(stderr, "nocsim %s: chromosome %lld: %s\n", cmd, (long long)id, *cfg ? err : "out of memory");
        sim_config_free(*cfg);
        *cfg = NULL;
        method_source_clear(src);
        store_chrom_clear(rec);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

static void replay_help(void)
{
    printf("usage: nocsim replay (--chrom ID | --crc HEX [--run RUN] | --best RUN | --file PATH) [options]\n\n"
           "Re-simulate a recorded chromosome (the paper's parameter-loading mode).  A\n"
           "chromosome from the database runs in its run's network, traffic and model\n"
           "choices; --slices and --interval override them.  With --file, the network\n"
           "and traffic come from the model options below.\n\n"
           "  --db PATH            database (default nocsim.db)\n"
           "  --chrom ID           a chromosome by id (nocsim db synonyms RUN lists them)\n"
           "  --crc HEX            a chromosome by signature, optionally within --run RUN\n"
           "  --best RUN           the best chromosome of a run\n"
           "  --file PATH          a chromosome file (nocsim export, nocsim ga --save-best)\n"
           "  --slices S           number of slices to replay at\n"
           "  --interval V|MIN:MAX an interval, or a range to search (the best is reported)\n"
           "  --format F           text | json | csv (csv: one row per interval)\n\n");
    model_opts_help(stdout);
    printf("\n");
    activity_opts_help(stdout);
}

static void print_row(out_format fmt, uint32_t v, const sim_metrics *m, int first)
{
    if (fmt == FMT_CSV) {
        if (first) printf("interval,status,duration,te,ir,or,ib,ob,lb\n");
        printf("%u,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", v, m->status == SIM_OK ? "ok" : "failed",
               (long long)m->duration, (long long)m->te, (long long)m->ir, (long long)m->or_, (long long)m->ib,
               (long long)m->ob, (long long)m->lb);
    }
}

int cmd_replay(int argc, char **argv)
{
    const char *cmd = "replay", *dbpath = STORE_DEFAULT_PATH;
    source_sel sel = { 0 };
    model_opts mo;
    model_opts_default(&mo);
    long slices = 0, vlo = 0, vhi = 0;
    out_format fmt = FMT_TEXT;
    activity_opts ao;
    activity_opts_default(&ao);
    for (int i = 1; i < argc; i++) {
        int r = parse_source(cmd, argc, argv, &i, &sel);
        if (!r) r = activity_opts_parse(cmd, argc, argv, &i, &ao);
        if (r < 0) return EXIT_USAGE;
        if (r > 0) continue;
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { replay_help(); return EXIT_OK; }
        if (!strcmp(a, "--slices")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, SIM_MAX_SLICES, &slices)) return EXIT_USAGE;
            mo.params.slices = (int)slices;
            continue;
        }
        r = model_opts_parse(cmd, argc, argv, &i, &mo);
        if (r < 0) return EXIT_USAGE;
        if (r > 0) continue;
        if (!strcmp(a, "--db")) { if (!(dbpath = arg_value(cmd, argc, argv, &i))) return EXIT_USAGE; }
        else if (!strcmp(a, "--interval")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_range(cmd, a, v, 1, 100000, &vlo, &vhi)) return EXIT_USAGE;
        } else if (!strcmp(a, "--format")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_format(cmd, v, &fmt)) return EXIT_USAGE;
        } else { arg_unknown(cmd, a); return EXIT_USAGE; }
    }
    if (count_sources(&sel) != 1) {
        fprintf(stderr, "nocsim replay: give exactly one of --chrom, --crc, --best, --file\n");
        return EXIT_USAGE;
    }
    char err[512];
    int rc = EXIT_OK;
    sim_params sp;
    int32_t *dest = NULL;
    const char *tname = mo.traffic;
    sim_config *cfg = NULL;
    store *db = NULL;
    method_source src;
    memset(&src, 0, sizeof src);
    store_chrom rec;
    memset(&rec, 0, sizeof rec);
    traffic *t = NULL;
    if (sel.file) {
        sp = mo.params;
        if (!(t = model_opts_traffic(cmd, &mo))) return EXIT_USAGE;
        cfg = sim_config_new(t->nodes, sp.vcs, 0, (uint32_t)sp.flits);
        if (!cfg) { traffic_free(t); return EXIT_FAIL; }
        if (chromfile_load(cfg, sp.n, sel.file, err, sizeof err)) {
            fprintf(stderr, "nocsim replay: --file: %s\n", err);
            rc = EXIT_USAGE;
            goto out;
        }
        dest = t->dest;
    } else {
        if (!(db = store_open(dbpath, STORE_READONLY, err, sizeof err))) {
            fprintf(stderr, "nocsim replay: --db: %s\n", err);
            return EXIT_USAGE;
        }
        int64_t id;
        if ((rc = resolve_chrom(cmd, db, &sel, &id)) != EXIT_OK) goto out;
        if ((rc = load_recorded(cmd, db, id, &src, &cfg, &rec)) != EXIT_OK) goto out;
        sp = src.sp;
        if (slices) sp.slices = (int)slices;
        dest = src.dest;
        tname = src.traffic;
    }
    if (vlo == 0) vlo = vhi = cfg->interval;
    if (vlo < sp.flits && sp.slices > 1) {
        fprintf(stderr, "nocsim replay: --interval: %ld is below the packet length %d (allowed: >= %d)\n", vlo, sp.flits, sp.flits);
        rc = EXIT_USAGE;
        goto out;
    }
    sim_pool *pool = sim_pool_new(&sp, dest, (int)sysconf(_SC_NPROCESSORS_ONLN), err, sizeof err);
    if (!pool) { fprintf(stderr, "nocsim replay: %s\n", err); rc = EXIT_USAGE; goto out; }
    size_t width = (size_t)(vhi - vlo + 1);
    sim_metrics best, *all = calloc(width, sizeof *all);
    uint32_t bestv = 0;
    int64_t sims = 0;
    int failed = !all || sim_interval_search(pool, cfg, (uint32_t)vlo, (uint32_t)vhi, &bestv, &best, all, &sims);
    sim_pool_free(pool);
    for (size_t j = 0; !failed && j < width; j++) print_row(fmt, (uint32_t)vlo + (uint32_t)j, &all[j], j == 0);
    free(all);
    if (failed) { fprintf(stderr, "nocsim replay: out of memory\n"); rc = EXIT_FAIL; goto out; }
    if (best.status != SIM_OK) { fprintf(stderr, "nocsim replay: no interval finished (deadlock or timeout)\n"); rc = EXIT_FAIL; goto out; }
    cfg->interval = bestv;
    if ((rc = activity_opts_write(cmd, &ao, &sp, dest, cfg, &best)) != EXIT_OK) goto out;
    uint8_t *scratch = malloc(chrom_encoded_size(sp.n, sp.vcs));
    uint32_t crc = scratch ? chrom_signature(cfg, sp.n, scratch) : 0;
    free(scratch);
    if (fmt == FMT_JSON) {
        printf("{\"traffic\": ");
        json_string(stdout, tname);
        printf(", \"size\": %d, \"slices\": %d, \"chromosome\": %lld, \"source_crc\": \"%08x\", \"recorded_duration\": %lld, "
               "\"interval_min\": %ld, \"interval_max\": %ld, \"interval\": %u, \"signature\": \"%08x\", \"duration\": %lld, "
               "\"te\": %lld, \"ir\": %lld, \"or\": %lld, \"ib\": %lld, \"ob\": %lld, \"lb\": %lld}\n",
               sp.n, sp.slices, (long long)rec.id, rec.crc, (long long)(rec.id ? rec.duration : -1), vlo, vhi, bestv, crc,
               (long long)best.duration, (long long)best.te, (long long)best.ir, (long long)best.or_, (long long)best.ib,
               (long long)best.ob, (long long)best.lb);
    } else if (fmt == FMT_TEXT) {
        if (rec.id) printf("chromosome %lld of run %lld (signature %08x, recorded duration %lld at %d slices)\n",
                           (long long)rec.id, (long long)rec.run, rec.crc, (long long)rec.duration, src.sp.slices);
        printf("replayed: %s, %dx%d torus, %d slices, interval %u%s\n", tname, sp.n, sp.n, sp.slices, bestv,
               vlo != vhi ? " (best of the range)" : "");
        printf("duration %lld  te %lld  ir %lld  or %lld  ib %lld  ob %lld  lb %lld  signature %08x\n",
               (long long)best.duration, (long long)best.te, (long long)best.ir, (long long)best.or_, (long long)best.ib,
               (long long)best.ob, (long long)best.lb, crc);
    }
out:
    sim_config_free(cfg);
    store_chrom_clear(&rec);
    method_source_clear(&src);
    store_close(db);
    traffic_free(t);
    return rc;
}

static void export_help(void)
{
    printf("usage: nocsim export (--chrom ID | --crc HEX [--run RUN] | --best RUN) [--db PATH] [-o FILE]\n\n"
           "Write a recorded chromosome as a chromosome file: the configuration text format\n"
           "(see README) with a versioned header naming its run, traffic and signature.\n"
           "Read it back with `nocsim replay --file FILE` or `nocsim sim --config FILE`.\n\n"
           "  -o, --output FILE   where to write (default: standard output)\n");
}

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export", *dbpath = STORE_DEFAULT_PATH, *out = "-";
    source_sel sel = { 0 };
    for (int i = 1; i < argc; i++) {
        int r = parse_source(cmd, argc, argv, &i, &sel);
        if (r < 0) return EXIT_USAGE;
        if (r > 0) continue;
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { export_help(); return EXIT_OK; }
        if (!strcmp(a, "--db")) { if (!(dbpath = arg_value(cmd, argc, argv, &i))) return EXIT_USAGE; }
        else if (!strcmp(a, "-o") || !strcmp(a, "--output")) { if (!(out = arg_value(cmd, argc, argv, &i))) return EXIT_USAGE; }
        else { arg_unknown(cmd, a); return EXIT_USAGE; }
    }
    if (count_sources(&sel) != 1 || sel.file) {
        fprintf(stderr, "nocsim export: give exactly one of --chrom, --crc, --best\n");
        return EXIT_USAGE;
    }
    char err[512];
    store *db = store_open(dbpath, STORE_READONLY, err, sizeof err);
    if (!db) { fprintf(stderr, "nocsim export: --db: %s\n", err); return EXIT_USAGE; }
    int64_t id;
    method_source src;
    store_chrom rec;
    sim_config *cfg = NULL;
    int rc = resolve_chrom(cmd, db, &sel, &id);
    if (rc == EXIT_OK) rc = load_recorded(cmd, db, id, &src, &cfg, &rec);
    if (rc == EXIT_OK) {
        chromfile_meta meta = { .traffic = src.traffic, .slices = src.sp.slices, .flits = src.sp.flits,
                                .run = rec.run, .chromosome = rec.id, .duration = rec.duration, .crc = rec.crc };
        if (chromfile_write(out, cfg, src.sp.n, &meta)) {
            fprintf(stderr, "nocsim export: -o %s: cannot write the file\n", out);
            rc = EXIT_FAIL;
        }
        sim_config_free(cfg);
        store_chrom_clear(&rec);
        method_source_clear(&src);
    }
    store_close(db);
    return rc;
}
