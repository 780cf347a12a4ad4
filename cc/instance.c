/* Problem descriptions and their construction; see instance.h. */
#include "cc/instance.h"

#include <stdlib.h>
#include <string.h>

cc_desc cc_desc_empty(void)
{
    cc_desc d;
    memset(&d, 0, sizeof d);
    d.kind = d.sw = d.ports = d.extra = CC_UNSET;
    return d;
}

cc_desc cc_desc_filled(const cc_desc *d)
{
    cc_desc f = *d;
    if (f.sw == CC_UNSET) f.sw = CC_DEFAULT_SWITCHING;
    if (f.ports == CC_UNSET) f.ports = CC_DEFAULT_PORTS;
    if (f.extra == CC_UNSET) f.extra = CC_DEFAULT_EXTRA;
    return f;
}

static int agree_int(int *file, int flag, const char *what, const char *const *names, char *err, size_t errlen)
{
    if (flag == CC_UNSET) return CC_OK;
    if (*file == CC_UNSET) { *file = flag; return CC_OK; }
    if (*file == flag) return CC_OK;
    if (names)
        return cc_fail(CC_EINPUT, err, errlen, "%s %s disagrees with the schedule file's %s", what, names[flag], names[*file]);
    return cc_fail(CC_EINPUT, err, errlen, "%s %d disagrees with the schedule file's %d", what, flag, *file);
}

static int agree_str(const char **file, const char *flag, const char *what, char *err, size_t errlen)
{
    if (!flag) return CC_OK;
    if (!*file) { *file = flag; return CC_OK; }
    if (strcmp(*file, flag) == 0) return CC_OK;
    return cc_fail(CC_EINPUT, err, errlen, "%s '%.200s' disagrees with the schedule file's '%.200s'", what, flag, *file);
}

/* Is the flag's link (an "A-B" string or a pair) among the file's? */
static bool has_link(const cc_desc *file, const char *a, const char *b)
{
    for (int i = 0; i < file->nfail_link; i++) {
        const char *fa = file->fail_a[i], *fb = file->fail_b[i];
        if (!fb) { if (!b && strcmp(fa, a) == 0) return true; continue; }
        if (b && ((strcmp(fa, a) == 0 && strcmp(fb, b) == 0) || (strcmp(fa, b) == 0 && strcmp(fb, a) == 0))) return true;
        if (!b) {
            size_t la = strlen(fa);
            if (strncmp(a, fa, la) == 0 && a[la] == '-' && strcmp(a + la + 1, fb) == 0) return true;
            size_t lb = strlen(fb);
            if (strncmp(a, fb, lb) == 0 && a[lb] == '-' && strcmp(a + lb + 1, fa) == 0) return true;
        }
    }
    return false;
}

static bool has_node(const cc_desc *file, const char *v)
{
    for (int i = 0; i < file->nfail_node; i++) if (strcmp(file->fail_node[i], v) == 0) return true;
    return false;
}

int cc_desc_merge(cc_desc *file, const cc_desc *flags, char *err, size_t errlen)
{
    static const char *const ports_names[] = { "all" };
    int rc;
    if ((rc = agree_str(&file->topology, flags->topology, "topology", err, errlen))) return rc;
    if ((rc = agree_int(&file->kind, flags->kind, "kind", cc_kind_names, err, errlen))) return rc;
    if ((rc = agree_int(&file->sw, flags->sw, "sw", cc_switching_names, err, errlen))) return rc;
    if (flags->ports == 0 && file->ports > 0)
        return cc_fail(CC_EINPUT, err, errlen, "ports %s disagrees with the schedule file's %d", ports_names[0], file->ports);
    if (flags->ports > 0 && file->ports == 0)
        return cc_fail(CC_EINPUT, err, errlen, "ports %d disagrees with the schedule file's %s", flags->ports, ports_names[0]);
    if ((rc = agree_int(&file->ports, flags->ports, "ports", NULL, err, errlen))) return rc;
    if ((rc = agree_int(&file->extra, flags->extra, "extra", NULL, err, errlen))) return rc;
    if ((rc = agree_str(&file->root, flags->root, "root", err, errlen))) return rc;
    if ((rc = agree_str(&file->senders, flags->senders, "senders", err, errlen))) return rc;
    if ((rc = agree_str(&file->receivers, flags->receivers, "receivers", err, errlen))) return rc;
    if (flags->faults_given && !file->faults_given) {
        file->nfail_link = flags->nfail_link;
        file->nfail_node = flags->nfail_node;
        memcpy(file->fail_a, flags->fail_a, sizeof file->fail_a);
        memcpy(file->fail_b, flags->fail_b, sizeof file->fail_b);
        memcpy(file->fail_node, flags->fail_node, sizeof file->fail_node);
        file->faults_given = true;
    } else if (flags->faults_given) {
        bool same = flags->nfail_link == file->nfail_link && flags->nfail_node == file->nfail_node;
        for (int i = 0; same && i < flags->nfail_link; i++) same = has_link(file, flags->fail_a[i], flags->fail_b[i]);
        for (int i = 0; same && i < flags->nfail_node; i++) same = has_node(file, flags->fail_node[i]);
        if (!same)
            return cc_fail(CC_EINPUT, err, errlen, "fail_link / fail_node disagree with the schedule file's faults (%d links, %d nodes)",
                           file->nfail_link, file->nfail_node);
    }
    return CC_OK;
}

void cc_instance_free(cc_instance *in)
{
    if (!in) return;
    cc_problem_free(in->pb);
    cc_paths_free(in->paths);
    cc_topo_free(in->t);
    free(in);
}

static int build_topology(const cc_desc *d, cc_topo **out, char *err, size_t errlen)
{
    cc_topo_builder *b;
    int rc = cc_topo_parse(d->topology, &b, err, errlen);
    for (int i = 0; rc == CC_OK && i < d->nfail_link; i++)
        rc = d->fail_b[i] ? cc_topo_fail_link2(b, d->fail_a[i], d->fail_b[i], err, errlen)
                          : cc_topo_fail_link(b, d->fail_a[i], err, errlen);
    for (int i = 0; rc == CC_OK && i < d->nfail_node; i++) rc = cc_topo_fail_node(b, d->fail_node[i], err, errlen);
    if (rc == CC_OK) rc = cc_topo_build(b, out, err, errlen);
    cc_topo_builder_free(b);
    return rc;
}

/* The routes of the pairs a transfer of pb can use: from a sender (in a
 * broadcast also from a receiver, which forwards once informed) to a
 * receiver.  One-to-all on a 4,096-node star: OAS 4,095 pairs, not 16.8M. */
static int problem_paths(const cc_problem *pb, int extra, int max_paths, cc_paths **out, char *err, size_t errlen)
{
    int n = pb->t->n;
    bool *src = malloc((size_t)n * sizeof *src);
    if (!src) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    for (int v = 0; v < n; v++) src[v] = pb->sender[v] || (pb->broadcast && pb->receiver[v]);
    int rc = cc_paths_new_for(pb->t, extra, max_paths, src, pb->receiver, out, err, errlen);
    free(src);
    return rc;
}

int cc_instance_new(const cc_desc *d, int max_paths, cc_instance **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!d->topology) return cc_fail(CC_EINPUT, err, errlen, "topology is required (%s)", cc_topo_usage);
    if (d->kind == CC_UNSET) return cc_fail(CC_EINPUT, err, errlen, "kind is required: one of oab oas aab aas mnb mns");
    cc_instance *in = calloc(1, sizeof *in);
    if (!in) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    const cc_desc full = cc_desc_filled(d);
    cc_problem_def def = {
        .kind = (cc_kind)d->kind, .sw = (cc_switching)full.sw, .ports = full.ports, .extra = full.extra,
        .root = d->root, .senders = d->senders, .receivers = d->receivers,
    };
    int rc = build_topology(d, &in->t, err, errlen);
    if (rc == CC_OK) rc = cc_problem_new(in->t, &def, &in->pb, err, errlen);
    if (rc == CC_OK) rc = problem_paths(in->pb, def.extra, max_paths, &in->paths, err, errlen);
    if (rc == CC_OK && cc_bounds_compute(in->pb, in->paths, &in->bounds) != CC_OK)
        rc = cc_fail(CC_ENOMEM, err, errlen, "out of memory computing bounds");
    if (rc != CC_OK) { cc_instance_free(in); return rc; }
    *out = in;
    return CC_OK;
}
