/* fsync_shim.c — a slow or watched disk for a child process, by LD_PRELOAD: the power-loss
 * and slow-commit tests (tests/reliability/) and `xian-table bench --only slowdisk`.
 *
 * It acts on every fsync() and fdatasync() of a file under $XIAN_SYNC_WATCH (the journal's
 * folder, and the folder itself), in one of two ways; everything else passes straight through.
 *
 * Slow: with $XIAN_SYNC_DELAY_MS set, each such call sleeps that many milliseconds before it
 * reaches the kernel (an SD card's fsync takes 20–300 ms; a worn one longer).
 *
 * Watched: with $XIAN_SYNC_OUT and $XIAN_SYNC_IN set, each such call is reported to the test
 * before it reaches the kernel, as one line
 *     "<inode> <fd> <path>\n"
 * on the file descriptor $XIAN_SYNC_OUT (with the descriptor's number: "<inode> <fd> <path>",
 * so the test reads the very file even if it was renamed meanwhile); the call then waits
 * for one byte on $XIAN_SYNC_IN.
 * While it waits, nothing in the child writes (the journal has one writer thread and it is
 * the one waiting here), so the test reads exactly what this sync is about to make durable.
 *
 * Built by table_app/bench/slowdisk.py:build_shim with:
 *     gcc -shared -fPIC -O2 -o fsync_shim.so fsync_shim.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int out_fd = -1, in_fd = -1;
static char watch[PATH_MAX];
static size_t watch_len;
static long delay_ms;

__attribute__((constructor)) static void init(void) {
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    const char *w = getenv("XIAN_SYNC_WATCH"), *o = getenv("XIAN_SYNC_OUT"), *i = getenv("XIAN_SYNC_IN");
    const char *d = getenv("XIAN_SYNC_DELAY_MS");
    if (w) {
        snprintf(watch, sizeof watch, "%s", w);
        watch_len = strlen(watch);
    }
    if (w && o && i) {
        out_fd = atoi(o);
        in_fd = atoi(i);
    }
    if (w && d) delay_ms = atol(d);
}

/* Whether fd is a file under the watched folder (or the folder); its path into path. */
static int watched(int fd, char *path, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, size - 1);
    if (n <= 0) return 0;
    path[n] = '\0';
    return strncmp(path, watch, watch_len) == 0 && (path[watch_len] == '\0' || path[watch_len] == '/');
}

static void slow(int fd) {
    char path[PATH_MAX];
    if (delay_ms <= 0 || !watched(fd, path, sizeof path)) return;
    struct timespec t = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static void report(int fd) {
    if (out_fd < 0) return;
    char path[PATH_MAX];
    if (!watched(fd, path, sizeof path)) return;
    struct stat st;
    if (fstat(fd, &st) != 0) return;
    char msg[PATH_MAX + 32];
    int len = snprintf(msg, sizeof msg, "%llu %d %s\n", (unsigned long long)st.st_ino, fd, path);
    pthread_mutex_lock(&lock);
    for (int done = 0; done < len;) {
        ssize_t w = write(out_fd, msg + done, (size_t)(len - done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { out_fd = -1; break; }  /* the test went away: stop reporting */
        done += (int)w;
    }
    char ack;
    while (out_fd >= 0) {
        ssize_t r = read(in_fd, &ack, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) out_fd = -1;
        break;
    }
    pthread_mutex_unlock(&lock);
}

int fsync(int fd) {
    slow(fd);
    report(fd);
    return real_fsync(fd);
}

int fdatasync(int fd) {
    slow(fd);
    report(fd);
    return real_fdatasync(fd);
}
