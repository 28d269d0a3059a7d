/* engine/gate/gate.c — the gate over a set of targets, and fg_main, the command line driver. */
#include "engine/run/session.h"

#include "engine/base/dir.h"
#include "engine/base/errout.h"
#include "engine/findings/budget.h"
#include "oracle/heap.h"

#include <signal.h>
#include <string.h>

/* Splits a comma-separated list of names into targets (all when empty). Unknown names
 * are reported on out and make this fail. *n receives the count; caller frees. */
static fg_error select_targets(const char *names, FILE *out, const fg_target ***sel,
                               size_t *n)
{
    *sel = NULL;
    *n = 0;
    size_t total = fg_target_count();
    const fg_target **v = fgi_calloc(total ? total : 1, sizeof *v);
    if (!v)
        return FG_ENOMEM;
    if (!names || !*names) {
        for (size_t i = 0; i < total; i++)
            v[i] = fg_target_at(i);
        *sel = v;
        *n = total;
        return FG_OK;
    }
    size_t count = 0;
    for (const char *p = names; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[256];
        if (len == 0 || len >= sizeof name) {
            fprintf(out, "fuzzgate: option --targets: '%s' has an empty or overlong name\n",
                    names);
            fgi_free(v);
            return FG_ENOTARGET;
        }
        memcpy(name, p, len);
        name[len] = '\0';
        const fg_target *t = fg_target_find(name);
        if (!t) {
            fprintf(out, "fuzzgate: option --targets: no target named '%s' (see --list)\n",
                    name);
            fgi_free(v);
            return FG_ENOTARGET;
        }
        int dup = 0;
        for (size_t i = 0; i < count; i++)
            dup |= v[i] == t;
        if (!dup && count < total)
            v[count++] = t;
        p = end ? end + 1 : p + len;
    }
    *sel = v;
    *n = count;
    return FG_OK;
}

/* The counts behind the closing line. A skipped target (built without what it needs) is
 * neither a pass nor a failure: it is counted, and named on its own line. */
typedef struct tally {
    size_t passed, failed, skipped;
} tally;

/* A gate replays the committed corpus first: a target whose <corpus>/<name> is missing or
 * empty would pass on generated cases alone, and a typo in CI's corpus path would turn
 * the regression gate into a smoke test. Returns 0 when the target may run, 1 when it
 * fails for want of a corpus (printed), 2 when the directory cannot be read (printed).
 * Not checked: skipped targets, FG_NO_CORPUS, depth runs (--seconds explores; it gates
 * nothing) and a run whose --corpus-out is the corpus itself (the seeding run). */
static int corpus_missing(const fg_session *s, const fg_target *t, FILE *out)
{
    if (t->skip || (t->flags & FG_NO_CORPUS) || s->opt.seconds ||
        strcmp(s->opt.corpus_out, s->opt.corpus) == 0)
        return 0;
    fgi_str dir = {0};
    fgi_str_addf(&dir, "%s/%s", s->opt.corpus, t->name);
    fgi_names names;
    int missing = 0;
    fg_error e = dir.failed ? FG_ENOMEM : fgi_dir_list(dir.buf, &names, &missing);
    int status = 0;
    if (e != FG_OK) {
        fprintf(out, "%s: ERROR cannot read the corpus directory %s: %s\n", t->name,
                fgi_str_cstr(&dir), fgi_strerror_io(e));
        status = 2;
    } else {
        if (missing || names.count == 0)
            fprintf(out,
                    "%s: FAIL the corpus directory %s is %s: a gate must replay a committed "
                    "corpus. Seed it with `%s --corpus=%s --corpus-out=%s %s` (a run that "
                    "writes its kept, shortest-first inputs there) and commit it, or declare "
                    ".flags = FG_NO_CORPUS in the target\n",
                    t->name, fgi_str_cstr(&dir), missing ? "missing" : "empty",
                    s->program ? s->program : "fuzzgate", s->opt.corpus, s->opt.corpus,
                    t->name);
        status = missing || names.count == 0;
        fgi_names_free(&names);
    }
    fgi_str_free(&dir);
    return status;
}

/* Runs each selected target and prints its summary. Returns 0 all passed or skipped, 1
 * some failed, 2 engine or usage error. */
static int gate(fg_session *s, const char *names, FILE *out, tally *count)
{
    const fg_target **sel;
    size_t n;
    fg_error e = select_targets(names, out, &sel, &n);
    if (e != FG_OK)
        return 2;
    /* A gate must not pass in silence when two of its oracles saw nothing: the heap
     * oracles need the program's malloc to be fuzzgate's (oracle/heap_malloc.c). Said
     * once, before any target, where the engine's reports go; the gate goes on (a
     * -static build may be what its user chose) under the crash and time oracles. */
    const char *blind = n ? fgi_heap_warning() : NULL;
    if (blind)
        fprintf(fgi_errout_file(), "fuzzgate: WARNING: %s\n", blind);
    int status = 0;
    for (size_t i = 0; i < n; i++) {
        int none = corpus_missing(s, sel[i], out);
        if (none) {
            count->failed++;
            status = none > status ? none : status;
            continue;
        }
        fg_outcome *o = NULL;
        e = fg_session_run(s, sel[i], &o);
        if (e != FG_OK) {
            fprintf(out, "%s: ERROR %s\n", sel[i]->name, fg_strerror(e));
            count->failed++;
            status = 2;
            continue;
        }
        fg_outcome_print(o, out);
        fgi_mode_check_known(s, sel[i], out);
        if (o->store_failed) {
            fprintf(out, "%s: ERROR a finding could not be stored (its hex is on stderr)\n",
                    sel[i]->name);
            status = 2;
        }
        /* The committed corpus stays small: past its budget the target fails. */
        fgi_str msg = {0}, dir = {0};
        fgi_str_addf(&dir, "%s/%s", s->opt.corpus, sel[i]->name);
        int over = fg_outcome_skipped(o) ? 0
                   : dir.failed          ? -1
                                         : fgi_budget_check(sel[i]->name, dir.buf, &msg);
        if (over)
            fprintf(out, "%s: %s %s\n", sel[i]->name, over > 0 ? "FAIL" : "ERROR",
                    fgi_str_cstr(&msg));
        if (over > 0)
            fgi_report_gate_failure(s, fgi_str_cstr(&msg));
        fgi_str_free(&msg);
        fgi_str_free(&dir);
        if (over < 0)
            status = 2;
        if (fg_outcome_skipped(o)) {
            count->skipped++;
        } else if (fg_outcome_passed(o) && over == 0) {
            count->passed++;
        } else {
            count->failed++;
            if (status == 0)
                status = 1;
        }
        fg_outcome_free(o);
        fflush(out);
        if (fgi_run_interrupted()) {
            fprintf(out, "fuzzgate: interrupted (%s): the reports cover the targets run so "
                    "far\n", fgi_run_interrupted() == SIGINT ? "SIGINT" : "SIGTERM");
            break;
        }
    }
    fgi_free(sel);
    if (s->opt.seconds)
        fprintf(out, "(a time-bounded run: seeded, but not reproducible case for case)\n");
    e = fg_session_write_reports(s);
    if (e != FG_OK) {
        fprintf(out, "fuzzgate: cannot write reports under %s%s%s%s%s: %s\n", s->opt.findings,
                *s->opt.junit ? ", --junit=" : "", s->opt.junit,
                *s->opt.sarif ? ", --sarif=" : "", s->opt.sarif, fg_strerror(e));
        status = 2;
    }
    return status;
}

int fg_gate_run(const char *names, const fg_options *opt, FILE *out)
{
    fg_options *own = NULL;
    if (!opt) {
        if (!(own = fg_options_new()))
            return 2;
        if (fg_options_from_env(own) != FG_OK) {
            fprintf(out, "fuzzgate: %s\n", fg_options_error(own));
            fg_options_free(own);
            return 2;
        }
        opt = own;
    }
    fg_error e;
    fg_session *s = fg_session_new(opt, &e);
    fg_options_free(own);
    if (!s) {
        fprintf(out, "fuzzgate: %s\n", fg_strerror(e));
        return 2;
    }
    tally count = {0, 0, 0};
    int status = gate(s, names && *names ? names : s->opt.targets, out, &count);
    fg_session_free(s);
    return status;
}

static int replay_files(fg_session *s, const char *name, int nfiles, char **files)
{
    const fg_target *t = fg_target_find(name);
    if (!t) {
        fprintf(stderr, "fuzzgate: no target named '%s' (see --list)\n", name);
        return 2;
    }
    if (t->skip) {
        fprintf(stdout, "%s: skipped: %s (nothing to replay with)\n", t->name, t->skip);
        return 2;
    }
    int status = 0;
    for (int i = 0; i < nfiles; i++) {
        fg_outcome *o = NULL;
        fg_error e = fg_session_replay(s, t, files[i], &o);
        if (e != FG_OK) {
            fprintf(stdout, "%s: cannot replay: %s\n", files[i], fgi_strerror_io(e));
            status = 2;
            continue;
        }
        const fg_finding *f = fg_outcome_finding(o, 0);
        if (f) {
            fprintf(stdout, "%s: FAIL %s %s: %s%s%s%s\n", files[i], f->kind, f->class_id,
                    f->detail, f->known ? " (known: " : "", f->known ? f->known : "",
                    f->known ? ")" : "");
            if (status == 0)
                status = 1;
        } else {
            fprintf(stdout, "%s: ok, signature 0x%016llx\n", files[i],
                    (unsigned long long)o->last_sig);
        }
        fg_outcome_free(o);
        if (fgi_run_interrupted())
            break; /* fg_main says so, with the status */
    }
    return status;
}

int fg_main(int argc, char **argv)
{
    fg_options *opt = fg_options_new();
    if (!opt) {
        fprintf(stderr, "fuzzgate: %s\n", fg_strerror(FG_ENOMEM));
        return 2;
    }
    int npos = 0;
    if (fg_options_from_env(opt) != FG_OK || fg_options_parse(opt, argc, argv, &npos) != FG_OK) {
        fprintf(stderr, "fuzzgate: %s\n", fg_options_error(opt));
        fg_options_free(opt);
        return 2;
    }
    int status = 0;
    if (opt->v.help) {
        fg_options_help(stdout);
    } else if (opt->v.list) {
        for (size_t i = 0; i < fg_target_count(); i++) {
            const fg_target *t = fg_target_at(i);
            printf("%-24s %s%s%s%s\n", t->name, t->what ? t->what : "",
                   t->skip ? " (skipped: " : "", t->skip ? t->skip : "", t->skip ? ")" : "");
        }
    } else {
        fg_error e;
        fg_session *s = fg_session_new(opt, &e);
        if (!s) {
            fprintf(stderr, "fuzzgate: %s\n", fg_strerror(e));
            status = 2;
        } else {
            if (argc > 0 && argv[0])
                fg_session_set_program(s, argv[0]);
            const fg_target *t = npos >= 1 ? fg_target_find(argv[1]) : NULL;
            if ((s->opt.minimize[0] || s->opt.merge[0]) && !t) {
                fprintf(stderr, "fuzzgate: --%s needs a target name: %s\n",
                        s->opt.minimize[0] ? "minimize=FILE TARGET" : "merge=OUT TARGET IN...",
                        npos >= 1 ? "no such target (see --list)" : "none given");
                status = 2;
            } else if (s->opt.minimize[0]) {
                status = fgi_mode_minimize(s, t, s->opt.minimize, stdout);
            } else if (s->opt.merge[0]) {
                status = fgi_mode_merge(s, t, s->opt.merge, npos - 1, argv + 2, stdout);
            } else if (npos >= 2) {
                status = replay_files(s, argv[1], npos - 1, argv + 2);
            } else {
                tally count = {0, 0, 0};
                status = gate(s, npos == 1 ? argv[1] : s->opt.targets, stdout, &count);
                if (status != 2 || count.passed + count.failed + count.skipped) {
                    printf("%zu passed, %zu failed", count.passed, count.failed);
                    if (count.skipped) /* the line stays "N passed, N failed" when none is */
                        printf(", %zu skipped", count.skipped);
                    printf("\n");
                }
            }
            int sig = fgi_run_interrupted();
            if (sig && (s->opt.minimize[0] || s->opt.merge[0] || npos >= 2))
                fprintf(stderr, "fuzzgate: interrupted (%s)\n",
                        sig == SIGINT ? "SIGINT" : "SIGTERM"); /* the gate has said so */
            if (sig)
                status = 128 + sig; /* the shell's convention for a signal */
            fg_session_free(s);
        }
    }
    fg_options_free(opt);
    return status;
}
