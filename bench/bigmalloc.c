/* Who holds a large block: an LD_PRELOAD shim that prints, for each malloc, calloc or realloc of at least
 * BIG_THRESHOLD bytes (default 1 MiB), "BIG <kind> <address> <size>", its C stack and every Python thread's
 * stack, and "BIG free <address>" when that block is freed; to BIG_OUT (a file, appended) or stderr. Pair
 * the addresses to see which blocks stay (docs/benchmarks.md, the eighth round: the 2 MiB block).
 *
 *   gcc -O1 -shared -fPIC -o /tmp/bigmalloc.so bench/bigmalloc.c -ldl
 *   BIG_THRESHOLD=262144 LD_PRELOAD=/tmp/bigmalloc.so python bench/heap_probe.py --cycles 300 --every 10
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc's own entry points: no dlsym(RTLD_NEXT) at start-up, which would allocate itself */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static size_t threshold = 1 << 20;
static __thread int busy; /* backtrace() and the Python dump may allocate: not reported */
static void *live[4096]; /* the blocks reported and not yet freed (up to `top`) */
static int top;
static int out = 2;
/* what faulthandler calls: writes every thread's Python stack without allocating */
typedef const char *(*dump_fn)(int, void *, void *);

static void say(const char *what, void *p, size_t n) {
    char buf[128];
    int len = snprintf(buf, sizeof buf, "BIG %s %p %zu\n", what, p, n);
    write(out, buf, len);
}

static void report(const char *what, void *p, size_t n) {
    if (busy) return;
    busy = 1;
    say(what, p, n);
    void *frames[40];
    int k = backtrace(frames, 40);
    backtrace_symbols_fd(frames, k, out);
    dump_fn dump = (dump_fn)dlsym(RTLD_DEFAULT, "_Py_DumpTracebackThreads");
    if (dump) dump(out, NULL, NULL);
    for (int i = 0; i < 4096; i++) if (!live[i]) { live[i] = p; if (i >= top) top = i + 1; break; }
    busy = 0;
}

static void forget(void *p) {
    if (!p) return;
    for (int i = 0; i < top; i++) if (live[i] == p) { live[i] = 0; say("free", p, 0); break; }
}

void *malloc(size_t n) { void *p = __libc_malloc(n); if (n >= threshold) report("malloc", p, n); return p; }
void *calloc(size_t a, size_t b) { void *p = __libc_calloc(a, b); if (a * b >= threshold) report("calloc", p, a * b); return p; }
void *realloc(void *q, size_t n) { forget(q); void *p = __libc_realloc(q, n); if (n >= threshold) report("realloc", p, n); return p; }
void free(void *p) { forget(p); __libc_free(p); }
__attribute__((constructor)) static void init(void) {
    const char *t = getenv("BIG_THRESHOLD"); if (t) threshold = strtoul(t, 0, 10);
    void *f[2];
    backtrace(f, 2); /* loads libgcc now, not inside the first report */
    const char *o = getenv("BIG_OUT"); if (o) out = open(o, O_WRONLY | O_APPEND | O_CREAT, 0644);
}
