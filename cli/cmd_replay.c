/* `nocsim replay` and `nocsim export`: the paper's parameter-loading mode.
 * A recorded chromosome (or a chromosome file) is re-simulated under the
 * run-time parameters given, optionally searching the interval. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/activity_opts.h"
#include "cli/args.h"
#include "cli/chromfile.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "cli/opt_group.h"
#include "ga/chrom.h"
#include "ga/methods.h"
#include "sim/interval.h"
#include "store/store.h"
#include "util/parse.h"
#include "util/quote.h"

/* Which recorded chromosome: exactly one of these. */
typedef struct {
    int64_t chrom, best_run, run;
    int have_crc;
    uint32_t crc;
    const char *file;
} source_sel;

/* --crc HEX: a CRC-32 in 1 to 8 hex digits. */
static int parse_crc(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    source_sel *s = base;
    uint64_t x;
    char q[QUOTE_BUF];
    if (parse_hex(v, 8, &x) != PARSE_OK)
        return snprintf(err, errlen, "'%s' is not a CRC-32 in hex (1 to 8 hex digits, e.g. 3a2b1561)",
                        quote_str(q, sizeof q, v)), -FAULT_INPUT;
    s->crc = (uint32_t)x;
    s->have_crc = 1;
    return 0;
}

static void show_crc(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const source_sel *s = base;
    if (s->have_crc) snprintf(buf, len, "%08x", s->crc);
    else buf[0] = '\0';
}

#define SFIELD(f) #f, offsetof(source_sel, f)
/* The flags that pick the chromosome, shared by replay and export (over source_sel). */
static const opt_row source_rows[] = {
    { "chrom", 0, "ID", "a chromosome by id (nocsim db synonyms RUN lists them)", OPT_I64, SFIELD(chrom), 1,
      CLI_ID_MAX, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "crc", 0, "HEX", "a chromosome by signature, optionally within --run RUN", OPT_CUSTOM, SFIELD(crc), 0, 0, 0, 0,
      NULL, 0, parse_crc, show_crc, 1 },
    { "run", 0, "RUN", "the run that --crc looks in", OPT_I64, SFIELD(run), 1, CLI_ID_MAX, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "best", 0, "RUN", "the best chromosome of a run", OPT_I64, SFIELD(best_run), 1, CLI_ID_MAX, 0, 0, NULL, 0, NULL,
      NULL, 1 },
    OPT_END
};

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
    /* --best: the run's own best (the chromosome it reports), not merely the
     * first one recorded with the best score. */
    store_run r;
    int rc = store_run_get(db, s->best_run, &r, err, sizeof err);
    if (rc == STORE_NOTFOUND) return cli_fail(cmd, EXIT_USAGE, "--best: run %lld does not exist", (long long)s->best_run);
    if (rc != STORE_OK) return cli_fail(cmd, EXIT_FAIL, "%s", err);
    int64_t best_crc = r.best_crc;
    /* Runs of these kinds search no chromosome (an open-loop curve, a
     * collective schedule, a sweep's record): bad input, not damage. */
    static const char *const no_chrom[] = { "load", "cc", "sweep" };
    for (size_t k = 0; r.kind && k < sizeof no_chrom / sizeof *no_chrom; k++)
        if (!strcmp(r.kind, no_chrom[k])) {
            rc = cli_fail(cmd, EXIT_USAGE, "--best: run %lld is a %s run: it has no chromosome", (long long)s->best_run,
                          no_chrom[k]);
            store_run_clear(&r);
            return rc;
        }
    store_run_clear(&r);
    if (best_crc != STORE_NONE) {
        store_chrom c;
        rc = store_chrom_find_crc(db, s->best_run, (uint32_t)best_crc, &c, err, sizeof err);
        if (rc == STORE_NOTFOUND)
            return cli_fail(cmd, EXIT_FAIL, "%s: database is damaged: run %lld names its best chromosome %08x, "
                            "which is not recorded", store_path(db), (long long)s->best_run, (uint32_t)best_crc);
        if (rc != STORE_OK) return cli_fail(cmd, EXIT_FAIL, "%s", err);
        *id = c.id;
        store_chrom_clear(&c);
        return EXIT_OK;
    }
    /* A run that recorded no best (stopped before its first): the first
     * chromosome with its lowest score. */
    store_chrom_query q = { .run = s->best_run, .synonyms_only = true, .order_by = "id", .limit = 1 };
    *id = 0;
    if (store_chrom_list(db, &q, best_cb, id, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s\n", cmd, err);
        return EXIT_FAIL;
    }
    if (*id == 0) {
        fprintf(stderr, "nocsim %s: --best: run %lld does not exist or has no recorded chromosome\n", cmd, (long long)s->best_run);
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
    *cfg = sim_config_new(sim_nodes(&src->sp), src->sp.vcs, 0, 0);
    if (!*cfg || chrom_decode_grid(*cfg, src->sp.n, rec->genes, rec->genes_len, err, sizeof err)) {
        fprintf(stderr, "nocsim %s: chromosome %lld: %s\n", cmd, (long long)id, *cfg ? err : "out of memory");
        sim_config_free(*cfg);
        *cfg = NULL;
        method_source_clear(src);
        store_chrom_clear(rec);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

static void replay_help(const cli_spec *spec)
{
    printf("usage: nocsim replay (--chrom ID | --crc HEX [--run RUN] | --best RUN | --file PATH) [options]\n\n"
           "Re-simulate a recorded chromosome (the paper's parameter-loading mode).  A\n"
           "chromosome from the database runs in its run's network, traffic and model\n"
           "choices; --slices and --interval override them.  With --file, the network\n"
           "and traffic come from the model options below.\n\n");
    cli_help(stdout, spec);
}

typedef struct {
    source_sel sel;
    model_opts mo;        /* the network and traffic of --file; --slices of every source */
    const char *db;
    int slices;           /* 0 = the source's */
    long vlo, vhi;        /* 0 = the source's */
    out_format fmt;
    activity_opts ao;     /* --activity FILE.png */
} replay_opts;

/* What is replayed: a configuration, its network and traffic, and where it
 * came from (rec.id == 0 for a file).  replay_input_clear frees it. */
typedef struct {
    sim_params sp;
    const int32_t *dest;
    const char *traffic;
    sim_config *cfg;
    store *db;
    store_chrom rec;
    method_source src;
    traffic *t;
} replay_input;

typedef struct {
    uint32_t vlo, vhi, bestv, crc;
    sim_metrics best, *all;   /* all[V - vlo] */
} replay_result;

/* --slices S: the replay's, and --file's model. */
static int parse_slices(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    replay_opts *o = base;
    int64_t x;
    parse_status st = parse_int(v, (int64_t)r->lo, (int64_t)r->hi, &x);
    if (st != PARSE_OK) return parse_explain_int(err, errlen, st, v, (int64_t)r->lo, (int64_t)r->hi), -FAULT_INPUT;
    o->slices = o->mo.params.slices = (int)x;
    return 0;
}

static void show_slices(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const replay_opts *o = base;
    if (o->slices) snprintf(buf, len, "%d", o->slices);
    else buf[0] = '\0';
}

/* --interval V|MIN:MAX. */
static int parse_vrange(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    replay_opts *o = base;
    int64_t a, b;
    int rc = opt_parse_range(v, (int64_t)r->lo, (int64_t)r->hi, &a, &b, err, errlen);
    if (rc) return rc;
    o->vlo = (long)a;
    o->vhi = (long)b;
    return 0;
}

static void show_vrange(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const replay_opts *o = base;
    if (o->vlo) snprintf(buf, len, "%ld:%ld", o->vlo, o->vhi);
    else buf[0] = '\0';
}

#define RFIELD(f) #f, offsetof(replay_opts, f)
/* replay's own options over replay_opts. */
static const opt_row replay_rows[] = {
    { "db", 0, "PATH", "database", OPT_TEXT, RFIELD(db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "file", 0, "PATH", "a chromosome file (nocsim export, nocsim ga --save-best)", OPT_TEXT, RFIELD(sel.file), 0, 0,
      0, 0, NULL, 0, NULL, NULL, 1 },
    { "slices", 0, "S", "number of slices to replay at", OPT_CUSTOM, RFIELD(slices), 1, SIM_MAX_SLICES, 0, 0, NULL,
      0, parse_slices, show_slices, 1 },
    { "interval", 0, "V|MIN:MAX", "an interval, or a range to search (the best is reported)", OPT_CUSTOM,
      RFIELD(vlo), 1, SIM_SWEEP_MAX, 0, 0, NULL, 0, parse_vrange, show_vrange, 1 },
    { "format", 0, NULL, "csv: one row per interval", OPT_CHOICE, RFIELD(fmt), 0, 0, 0, 0, cli_format_names, 3, NULL,
      NULL, 0 },
    OPT_END
};

/* Fills o from argv (g: the source's rows and replay's, the caller frees
 * them).  Returns EXIT_OK, CLI_HELP (after the help), EXIT_USAGE after a
 * message, or EXIT_FAIL. */
static int replay_parse(int argc, char **argv, replay_opts *o, opt_group *g)
{
    const char *cmd = "replay";
    memset(o, 0, sizeof *o);
    o->db = STORE_DEFAULT_PATH;
    model_opts_default(&o->mo);
    o->fmt = FMT_TEXT;
    activity_opts_default(&o->ao);
    model_table mt;
    if (opt_group_init(&g[0], source_rows, &o->sel, sizeof o->sel) || opt_group_init(&g[1], replay_rows, o, sizeof *o) ||
        model_table_init(&mt, &o->mo))
        return cli_fail(cmd, EXIT_FAIL, "out of memory");
    const cli_group groups[] = { opt_group_cli(&g[0]), opt_group_cli(&g[1]), MODEL_OPTS_GROUP(&mt, &o->mo),
                                 ACTIVITY_OPTS_GROUP(&o->ao) };
    const cli_spec spec = { cmd, groups, 4, NULL, NULL };
    int rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) replay_help(&spec);
    model_table_free(&mt);
    if (rc != EXIT_OK) return rc;
    if (count_sources(&o->sel) != 1)
        return cli_fail(cmd, EXIT_USAGE, "give exactly one of --chrom, --crc, --best, --file");
    /* A recorded chromosome replays in its run's network, traffic and model:
     * a flag that would change them is refused, not ignored. */
    if (!o->sel.file && o->mo.given[0])
        return cli_fail(cmd, EXIT_USAGE, "%s: a recorded chromosome replays in its run's network, traffic and model "
                        "(with --chrom, --crc or --best only --slices, --interval, --db, --format and the "
                        "--activity flags apply)", o->mo.given);
    return EXIT_OK;
}

static void replay_input_clear(replay_input *in)
{
    sim_config_free(in->cfg);
    store_chrom_clear(&in->rec);
    method_source_clear(&in->src);
    store_close(in->db);
    traffic_free(in->t);
    memset(in, 0, sizeof *in);
}

/* The configuration of --file, on the network and traffic of the model options. */
static int load_file(const replay_opts *o, replay_input *in)
{
    char err[512];
    in->sp = o->mo.params;
    in->traffic = o->mo.traffic;
    int rc;
    if (!(in->t = model_opts_traffic("replay", &o->mo, &rc))) return rc;
    in->dest = in->t->dest;
    if (!(in->cfg = sim_config_new(in->t->nodes, in->sp.vcs, 0, (uint32_t)in->sp.flits)))
        return cli_fail("replay", EXIT_FAIL, "out of memory");
    int loaded = chromfile_load(in->cfg, in->sp.n, o->sel.file, err, sizeof err);
    if (loaded < 0) return cli_fail("replay", cli_fault_status(fault_of(loaded)), "--file: %s", err);
    return EXIT_OK;
}

/* A recorded chromosome, in its run's network and traffic. */
static int load_db(const replay_opts *o, replay_input *in)
{
    int rc = EXIT_OK;
    int64_t id;
    if (!(in->db = cli_store_open("replay", o->db, STORE_READONLY, &rc))) return rc;
    if ((rc = resolve_chrom("replay", in->db, &o->sel, &id)) != EXIT_OK) return rc;
    if ((rc = load_recorded("replay", in->db, id, &in->src, &in->cfg, &in->rec)) != EXIT_OK) return rc;
    in->sp = in->src.sp;
    if (o->slices) in->sp.slices = (int)o->slices;
    in->dest = in->src.dest;
    in->traffic = in->src.traffic;
    return EXIT_OK;
}

/* Simulates in->cfg at every V of the range into res (res->all owned by the
 * caller); picks the best V and the signature of the configuration at it. */
static int replay_run(const replay_opts *o, replay_input *in, replay_result *res)
{
    char err[512];
    res->vlo = (uint32_t)(o->vlo ? o->vlo : in->cfg->interval);
    res->vhi = (uint32_t)(o->vlo ? o->vhi : in->cfg->interval);
    if (res->vlo < (uint32_t)in->sp.flits && in->sp.slices > 1)
        return cli_fail("replay", EXIT_USAGE, "--interval: %u is below the packet length %d (allowed: >= %d)",
                        res->vlo, in->sp.flits, in->sp.flits);
    fault_kind kind;
    sim_pool *pool = sim_pool_new(&in->sp, in->dest, sim_pool_default_threads(), &kind, err, sizeof err);
    if (!pool) return cli_fail("replay", cli_fault_status(kind), "%s", err);
    int64_t sims = 0;
    res->all = calloc((size_t)(res->vhi - res->vlo) + 1, sizeof *res->all);
    int failed = !res->all || sim_interval_search(pool, in->cfg, res->vlo, res->vhi, &res->bestv, &res->best, res->all, &sims);
    sim_pool_free(pool);
    if (failed) return cli_fail("replay", EXIT_FAIL, "out of memory");
    in->cfg->interval = res->bestv;
    uint8_t *scratch = malloc(chrom_grid_size(in->sp.n, sim_height(&in->sp), in->sp.vcs));
    if (!scratch) return cli_fail("replay", EXIT_FAIL, "out of memory");
    res->crc = chrom_signature(in->cfg, in->sp.n, scratch);
    free(scratch);
    return EXIT_OK;
}

static void print_rows(const replay_result *res)
{
    printf("interval,status,duration,te,ir,or,ib,ob,lb\n");
    for (uint32_t v = res->vlo; v <= res->vhi; v++) {
        const sim_metrics *m = &res->all[v - res->vlo];
        printf("%u,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", v, m->status == SIM_OK ? "ok" : "failed",
               (long long)m->duration, (long long)m->te, (long long)m->ir, (long long)m->or_, (long long)m->ib,
               (long long)m->ob, (long long)m->lb);
    }
}

static int print_json(const replay_input *in, const replay_result *res)
{
    const sim_metrics *b = &res->best;
    char src[16], sig[16];
    snprintf(src, sizeof src, "%08x", in->rec.crc);
    snprintf(sig, sizeof sig, "%08x", res->crc);
    return cli_json_out("replay", NULL, json_pack("{s:o, s:i, s:i, s:I, s:s, s:I, s:i, s:i, s:i, s:s, s:I, s:I, s:I, s:I, s:I, "
                                            "s:I, s:I}",
                                            "traffic", ujson_str(in->traffic), "size", in->sp.n, "slices", in->sp.slices,
                                            "chromosome", (json_int_t)in->rec.id, "source_crc", src,
                                            "recorded_duration", (json_int_t)(in->rec.id ? in->rec.duration : -1),
                                            "interval_min", (int)res->vlo, "interval_max", (int)res->vhi,
                                            "interval", (int)res->bestv, "signature", sig, "duration", (json_int_t)b->duration,
                                            "te", (json_int_t)b->te, "ir", (json_int_t)b->ir, "or", (json_int_t)b->or_,
                                            "ib", (json_int_t)b->ib, "ob", (json_int_t)b->ob, "lb", (json_int_t)b->lb));
}

static void print_text(const replay_input *in, const replay_result *res)
{
    const sim_metrics *b = &res->best;
    if (in->rec.id)
        printf("chromosome %lld of run %lld (signature %08x, recorded duration %lld at %d slices)\n",
               (long long)in->rec.id, (long long)in->rec.run, in->rec.crc, (long long)in->rec.duration, in->src.sp.slices);
    printf("replayed: %s, %dx%d %s, %d slices, interval %u%s\n", in->traffic, in->sp.n, sim_height(&in->sp), model_topology_names[in->sp.topo], in->sp.slices,
           res->bestv, res->vlo != res->vhi ? " (best of the range)" : "");
    printf("duration %lld  te %lld  ir %lld  or %lld  ib %lld  ob %lld  lb %lld  signature %08x\n",
           (long long)b->duration, (long long)b->te, (long long)b->ir, (long long)b->or_, (long long)b->ib,
           (long long)b->ob, (long long)b->lb, res->crc);
}

int cmd_replay(int argc, char **argv)
{
    replay_opts o;
    opt_group g[2] = { { 0 }, { 0 } };
    int rc = replay_parse(argc, argv, &o, g);
    if (opt_groups_done(g, 2, &rc)) return rc;
    const char *inputs[] = { o.sel.file ? NULL : o.db, o.sel.file, cli_traffic_file(o.mo.traffic) };
    if ((rc = activity_opts_check("replay", &o.ao, inputs, 3)) != EXIT_OK) return rc;
    replay_input in;
    memset(&in, 0, sizeof in);
    replay_result res;
    memset(&res, 0, sizeof res);
    rc = o.sel.file ? load_file(&o, &in) : load_db(&o, &in);
    if (rc == EXIT_OK) rc = replay_run(&o, &in, &res);
    if (rc == EXIT_OK && o.fmt == FMT_CSV) print_rows(&res);
    if (rc == EXIT_OK && res.best.status != SIM_OK)
        rc = cli_fail("replay", EXIT_FAIL, "no interval finished (deadlock or timeout)");
    if (rc == EXIT_OK) rc = activity_opts_write("replay", &o.ao, &in.sp, in.dest, in.cfg, &res.best, in.traffic);
    if (rc == EXIT_OK && o.fmt == FMT_JSON) rc = print_json(&in, &res);
    if (rc == EXIT_OK && o.fmt == FMT_TEXT) print_text(&in, &res);
    free(res.all);
    replay_input_clear(&in);
    return rc;
}

/* export's own flags. */
typedef struct {
    const char *db, *out;
} export_opts;

#define EFIELD(f) #f, offsetof(export_opts, f)
static const opt_row export_rows[] = {
    { "db", 0, "PATH", "database", OPT_TEXT, EFIELD(db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "output", 'o', "FILE", "where to write (default: standard output)", OPT_TEXT, EFIELD(out), 0, 0, 0, 0, NULL, 0,
      NULL, NULL, 1 },
    OPT_END
};

static void export_help(const cli_spec *spec)
{
    printf("usage: nocsim export (--chrom ID | --crc HEX [--run RUN] | --best RUN) [--db PATH] [-o FILE]\n\n"
           "Write a recorded chromosome as a chromosome file: the configuration text format\n"
           "(see README) with a versioned header naming its run, traffic and signature.\n"
           "Read it back with `nocsim replay --file FILE` or `nocsim sim --config FILE`.\n\n");
    cli_help(stdout, spec);
}

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export";
    source_sel sel = { 0 };
    export_opts eo = { STORE_DEFAULT_PATH, "-" };
    opt_group g[2] = { { 0 }, { 0 } };
    int prc = EXIT_OK;
    if (opt_group_init(&g[0], source_rows, &sel, sizeof sel) || opt_group_init(&g[1], export_rows, &eo, sizeof eo))
        prc = cli_fail(cmd, EXIT_FAIL, "out of memory");
    const cli_group groups[] = { opt_group_cli(&g[0]), opt_group_cli(&g[1]) };
    const cli_spec spec = { cmd, groups, 2, NULL, NULL };
    if (prc == EXIT_OK) prc = cli_parse(&spec, argc, argv);
    if (prc == CLI_HELP) export_help(&spec);
    if (opt_groups_done(g, 2, &prc)) return prc;
    const char *dbpath = eo.db, *out = eo.out;
    if (count_sources(&sel) != 1 || sel.file) {
        fprintf(stderr, "nocsim export: give exactly one of --chrom, --crc, --best\n");
        return EXIT_USAGE;
    }
    int rc = cli_check_output(cmd, "-o", out, &dbpath, 1);
    if (rc != EXIT_OK) return rc;
    store *db = cli_store_open(cmd, dbpath, STORE_READONLY, &rc);
    if (!db) return rc;
    int64_t id;
    method_source src;
    store_chrom rec;
    sim_config *cfg = NULL;
    rc = resolve_chrom(cmd, db, &sel, &id);
    if (rc == EXIT_OK) rc = load_recorded(cmd, db, id, &src, &cfg, &rec);
    if (rc == EXIT_OK) {
        chromfile_meta meta = { .traffic = src.traffic, .topology = model_topology_names[src.sp.topo], .slices = src.sp.slices, .flits = src.sp.flits,
                                .run = rec.run, .chromosome = rec.id, .duration = rec.duration, .crc = rec.crc };
        char err[PATH_MAX + 256];
        if (chromfile_write(out, cfg, src.sp.n, &meta, err, sizeof err)) rc = cli_fail(cmd, EXIT_FAIL, "-o %s", err);
        sim_config_free(cfg);
        store_chrom_clear(&rec);
        method_source_clear(&src);
    }
    store_close(db);
    return rc;
}
