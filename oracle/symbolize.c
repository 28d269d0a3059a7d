/* oracle/symbolize.c — a crash's frames named for a person (symbolize.h): the system's
 * symbolizer in a child process, else dladdr's names, else the class key.
 *
 * The symbolizer is asked, per module, for every picked frame in it at once, in GNU
 * addr2line's output, with addresses and inline chains, by example:
 *     0x0000000000009dcb
 *     abort_here                        the innermost function (an inlined one first)
 *     /work/fg/test/planted/planted.c:73
 *     abort_named_run                   the function it was inlined into, if any
 *     /work/fg/test/planted/planted.c:80 (discriminator 1)
 *     0x...                             the next address
 * "??" and "??:0" (or "??:?") stand for what it does not know. llvm-symbolizer prints
 * the same with --output-style=GNU. The address is the frame's in the module's file: its
 * offset from the load base for a position-independent module (ET_DYN), the address
 * itself for one loaded where its file says (ET_EXEC).
 */
#include "oracle/symbolize.h"

#include "oracle/frames.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SYMBOLIZE_MS 10000 /* arbitrary: a large binary's DWARF takes a second or two to
                            * read; past this the frames keep their dladdr names */
#define ANSWER_MAX 16384   /* the answer for a few addresses, inline chains included */

extern char **environ;

/* What the symbolizer said of one frame: its innermost function, that one's file:line
 * (a path under the working directory made relative), the function it is inlined into. */
typedef struct named {
    char fn[128], where[256], outer[128];
} named;

/* The frame's address in its module's file. The ELF header is mapped at the load base;
 * e_type is at byte 16 in 32- and 64-bit files alike. */
static uint64_t file_address(const fgi_frame *f)
{
    const unsigned char *h = (const unsigned char *)(uintptr_t)f->base;
    uint16_t type = 0;
    if (h && h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F')
        memcpy(&type, h + 16, sizeof type);
    return type == 2 /* ET_EXEC */ ? f->pc : f->pc - f->base;
}

static long ms_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Runs argv[0] (found on PATH) with argv, stdin and stderr /dev/null, and reads what it
 * prints into out (capacity cap, NUL-terminated, cut to fit). 0, or -1 when it could not
 * run, failed, or ran past SYMBOLIZE_MS (then it is killed). */
static int run_tool(char *const argv[], char *out, size_t cap)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0) {
        posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
    }
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t used = 0;
    int late = 0;
    for (;;) {
        long left = SYMBOLIZE_MS - ms_since(&t0);
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (left <= 0 || (poll(&p, 1, (int)left) == 0)) {
            late = 1;
            kill(pid, SIGKILL);
            break;
        }
        char sink[512];
        int room = used + 1 < cap;
        ssize_t n = read(fds[0], room ? out + used : sink, room ? cap - 1 - used : sizeof sink);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (room)
            used += (size_t)n;
    }
    close(fds[0]);
    out[used] = '\0';
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return late || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ? -1 : 0;
}

static int unknown(const char *s)
{
    return !s[0] || strncmp(s, "??", 2) == 0;
}

/* Copies line [s, e) into out (capacity cap): a location without its "(discriminator N)"
 * and with the working directory cut from its front. */
static void take_line(const char *s, const char *e, char *out, size_t cap, const char *cwd,
                      int location)
{
    size_t n = (size_t)(e - s);
    if (location) {
        const char *d = strstr(s, " (discriminator");
        if (d && d < e)
            n = (size_t)(d - s);
        size_t cl = strlen(cwd);
        if (cl > 1 && n > cl + 1 && strncmp(s, cwd, cl) == 0 && s[cl] == '/') {
            s += cl + 1;
            n -= cl + 1;
        }
    }
    if (n >= cap)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* Reads the answer for k addresses into names[0..k): 1 when any frame got a file:line. */
static int parse(const char *text, named *names, unsigned k, const char *cwd)
{
    int at = -1, pairs = 0, any = 0;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        if (!e)
            e = s + strlen(s);
        if (e - s >= 2 && s[0] == '0' && s[1] == 'x') {
            at++;
            pairs = 0;
        } else if (at >= 0 && at < (int)k) {
            named *m = &names[at];
            if (pairs % 2 == 0) { /* a function */
                take_line(s, e, pairs ? m->outer : m->fn, sizeof m->fn, cwd, 0);
            } else if (pairs == 1) { /* the innermost one's location */
                take_line(s, e, m->where, sizeof m->where, cwd, 1);
                if (unknown(m->where))
                    m->where[0] = '\0';
                any |= m->where[0] != '\0';
            }
            pairs++;
        }
        s = *e ? e + 1 : e;
    }
    return any;
}

/* Asks the symbolizer about the k frames of one module (addresses in its file). */
static void ask(const char *module, const uint64_t *addr, unsigned k, named *names)
{
    char cwd[1024];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    char hex[FGI_CLASS_FRAMES][24];
    char *argv[16 + FGI_CLASS_FRAMES];
    static const char *const tools[][3] = {
        {"addr2line", NULL, NULL},
        {"llvm-symbolizer", "--output-style=GNU", NULL},
    };
    char *answer = fgi_malloc(ANSWER_MAX);
    if (!answer)
        return;
    for (size_t t = 0; t < FGI_ARRAY_LEN(tools); t++) {
        unsigned a = 0;
        for (unsigned j = 0; j < 2 && tools[t][j]; j++)
            argv[a++] = (char *)tools[t][j];
        static const char *const flags[] = {"-a", "-f", "-i", "-C", "-e"};
        for (size_t j = 0; j < FGI_ARRAY_LEN(flags); j++)
            argv[a++] = (char *)flags[j];
        argv[a++] = (char *)module;
        for (unsigned i = 0; i < k; i++) {
            snprintf(hex[i], sizeof hex[i], "0x%llx", (unsigned long long)addr[i]);
            argv[a++] = hex[i];
        }
        argv[a] = NULL;
        memset(names, 0, k * sizeof *names);
        if (run_tool(argv, answer, ANSWER_MAX) == 0 && parse(answer, names, k, cwd))
            break; /* else the next tool: not installed, or no line it could read */
    }
    fgi_free(answer);
}

/* One frame's text: the symbolizer's, else dladdr's, else its key. */
static void name_frame(const fgi_frame *f, const named *m, char *out, size_t cap)
{
    char key[160];
    fgi_frames_key(f, key, sizeof key);
    int fn = m && !unknown(m->fn);
    if (fn && m->where[0] && m->outer[0] && !unknown(m->outer) && strcmp(m->outer, m->fn))
        snprintf(out, cap, "%.127s (%.255s, inlined in %.127s)", m->fn, m->where, m->outer);
    else if (fn && m->where[0])
        snprintf(out, cap, "%.127s (%.255s)", m->fn, m->where);
    else if (fn)
        snprintf(out, cap, "%.127s (%s)", m->fn, key);
    else if (f->module && f->symbol)
        snprintf(out, cap, "%s+0x%llx (%s)", f->symbol,
                 (unsigned long long)(f->pc - f->symbol_at),
                 f->self ? "exe" : fgi_frames_base_name(f->module));
    else
        snprintf(out, cap, "%s", key);
}

void fgi_symbolize(const uint64_t *pcs, unsigned n, int from_sanitizer, int tools, char *out,
                   size_t cap)
{
    fgi_frame f[FGI_CLASS_FRAMES];
    named names[FGI_CLASS_FRAMES];
    int asked[FGI_CLASS_FRAMES] = {0};
    unsigned k = fgi_frames_pick(pcs, n, from_sanitizer, f);
    memset(names, 0, sizeof names);
    for (unsigned i = 0; tools && i < k; i++) {
        if (!f[i].module || asked[i])
            continue;
        /* every frame of this module in one call */
        unsigned idx[FGI_CLASS_FRAMES], m = 0;
        uint64_t addr[FGI_CLASS_FRAMES];
        named got[FGI_CLASS_FRAMES];
        for (unsigned j = i; j < k; j++)
            if (f[j].module && !asked[j] && strcmp(f[j].module, f[i].module) == 0) {
                asked[j] = 1;
                idx[m] = j;
                addr[m++] = file_address(&f[j]);
            }
        ask(f[i].module, addr, m, got);
        for (unsigned j = 0; j < m; j++)
            names[idx[j]] = got[j];
    }
    size_t used = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < k; i++) {
        char one[600];
        name_frame(&f[i], tools ? &names[i] : NULL, one, sizeof one);
        used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s%s",
                                 i ? ", " : "", one);
    }
    if (cap && used >= cap)
        out[cap - 1] = '\0';
}

const char *fgi_symcache_name(fgi_symcache *c, const char *key, const uint64_t *pcs,
                              unsigned n, int from_sanitizer)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->e[i].key, key) == 0)
            return c->e[i].text;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        struct fgi_symcache_entry *e = fgi_realloc(c->e, cap * sizeof *e);
        if (!e)
            return NULL;
        c->e = e;
        c->cap = cap;
    }
    char text[2048];
    fgi_symbolize(pcs, n, from_sanitizer, 1, text, sizeof text);
    char *k = fgi_strdup(key), *t = fgi_strdup(text);
    if (!k || !t) {
        fgi_free(k);
        fgi_free(t);
        return NULL;
    }
    c->e[c->n++] = (struct fgi_symcache_entry){k, t};
    return t;
}

void fgi_symcache_free(fgi_symcache *c)
{
    for (size_t i = 0; i < c->n; i++) {
        fgi_free(c->e[i].key);
        fgi_free(c->e[i].text);
    }
    fgi_free(c->e);
    memset(c, 0, sizeof *c);
}
