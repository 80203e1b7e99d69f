/* fsync_shim.c — LD_PRELOAD into a `xian-table serve` child for the power-loss test.
 *
 * Every fsync() and fdatasync() on a file under $XIAN_SYNC_WATCH (the journal's folder, and
 * the folder itself) is reported to the test before it reaches the kernel, as one line
 *     "<inode> <fd> <path>\n"
 * on the file descriptor $XIAN_SYNC_OUT (with the descriptor's number: "<inode> <fd> <path>",
 * so the test reads the very file even if it was renamed meanwhile); the call then waits
 * for one byte on $XIAN_SYNC_IN.
 * While it waits, nothing in the child writes (the journal has one writer thread and it is
 * the one waiting here), so the test reads exactly what this sync is about to make durable.
 * Everything else passes straight through.
 *
 * Built by the test with: gcc -shared -fPIC -O2 -o fsync_shim.so fsync_shim.c -ldl -lpthread
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
#include <unistd.h>

static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int out_fd = -1, in_fd = -1;
static char watch[PATH_MAX];
static size_t watch_len;

__attribute__((constructor)) static void init(void) {
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    const char *w = getenv("XIAN_SYNC_WATCH"), *o = getenv("XIAN_SYNC_OUT"), *i = getenv("XIAN_SYNC_IN");
    if (w && o && i) {
        snprintf(watch, sizeof watch, "%s", w);
        watch_len = strlen(watch);
        out_fd = atoi(o);
        in_fd = atoi(i);
    }
}

static void report(int fd) {
    if (out_fd < 0) return;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return;
    path[n] = '\0';
    if (strncmp(path, watch, watch_len) != 0 || (path[watch_len] != '\0' && path[watch_len] != '/')) return;
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
    report(fd);
    return real_fsync(fd);
}

int fdatasync(int fd) {
    report(fd);
    return real_fdatasync(fd);
}
