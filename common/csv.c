#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct csv_file {
    int fd;
    char *path;   /* as given, for messages */
    int created;  /* csv_open made the file: csv_close removes it if no row came */
    long rows;
    char *header; /* standard output: the header, written with the first row (a run that
                     ends before any row, a refusal or a skip, leaves stdout empty) */
};

/* ---- signals: none of them stops a row half-way -------------------------------------------- */

/* A fatal signal can end a write() between two pages of a row; a caught one cannot. While a
 * file is open these signals, where the program left them at their default, get a handler:
 * outside a row it dies at once as the default would; inside one it lets the row finish. */
static const int deferred[] = {SIGINT, SIGTERM, SIGHUP};
enum { NDEFERRED = sizeof deferred / sizeof deferred[0] };
static struct sigaction saved[NDEFERRED];
static int installed[NDEFERRED];
static int nopen;
static atomic_int writing, pending;

static void die_of(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_signal(int sig)
{
    atomic_store(&pending, sig); /* first, so that the writer sees it if we see it writing */
    if (!atomic_load(&writing))
        die_of(sig);
}

static void signals_install(void)
{
    if (nopen++ > 0)
        return;
    /* A file-size limit (ulimit -f) then fails the write with EFBIG instead of killing us. */
    struct sigaction old;
    if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        signal(SIGXFSZ, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NDEFERRED; i++)
        installed[i] = sigaction(deferred[i], NULL, &saved[i]) == 0 &&
                       saved[i].sa_handler == SIG_DFL && sigaction(deferred[i], &sa, NULL) == 0;
}

static void signals_restore(void)
{
    if (--nopen > 0)
        return;
    for (int i = 0; i < NDEFERRED; i++)
        if (installed[i])
            sigaction(deferred[i], &saved[i], NULL);
}

/* ---- writing -------------------------------------------------------------------------------- */

static int fail(char *err, size_t errlen, const char *path, const char *what, int errnum)
{
    if (errnum)
        snprintf(err, errlen, "%s: %s: %s", path, what, strerror(errnum));
    else
        snprintf(err, errlen, "%s: %s", path, what);
    return -1;
}

/* Where the next write lands: the end for a file opened to append, else the file position. */
static off_t write_position(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return lseek(fd, 0, fl >= 0 && (fl & O_APPEND) ? SEEK_END : SEEK_CUR);
}

/* One line, whole or not at all: written until whole (a pipe may take a long line in pieces);
 * if a write fails part-way into a regular file (disk full, ulimit -f), the file is truncated
 * back to where the line began. A pipe or a terminal cannot be, and says so. */
static int write_bytes(csv_file *f, const char *line, size_t len, char *err, size_t errlen)
{
    struct stat st;
    int regular = fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode);
    atomic_store(&writing, 1);
    off_t start = regular ? write_position(f->fd) : -1;
    size_t done = 0;
    int errnum = 0;
    while (done < len) {
        ssize_t n = write(f->fd, line + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            errnum = n < 0 ? errno : ENOSPC;
            break;
        }
        done += (size_t)n;
    }
    int undone = done == 0 || (errnum && start >= 0 && ftruncate(f->fd, start) == 0);
    atomic_store(&writing, 0);
    int sig = atomic_load(&pending);
    if (sig)
        die_of(sig);
    if (!errnum)
        return 0;
    return fail(err, errlen, f->path,
                undone ? "cannot write to it" : "a write failed part-way and could not be undone",
                errnum);
}

/* text and a newline, as one line */
static int write_line(csv_file *f, const char *text, char *err, size_t errlen)
{
    size_t len = strlen(text);
    char small[1024], *line = len + 2 <= sizeof small ? small : malloc(len + 2);
    if (!line)
        return fail(err, errlen, f->path, "out of memory", 0);
    memcpy(line, text, len);
    memcpy(line + len, "\n", 2);
    int rc = write_bytes(f, line, len + 1, err, errlen);
    if (line != small)
        free(line);
    return rc;
}

/* ---- opening and closing --------------------------------------------------------------------- */

/* A file that already holds something: it must start with our header and end with a newline. */
static int check_existing(csv_file *f, const char *header, off_t size, char *err, size_t errlen)
{
    size_t hl = strlen(header);
    char *first = malloc(hl + 2);
    if (!first)
        return fail(err, errlen, f->path, "out of memory", 0);
    ssize_t n = pread(f->fd, first, hl + 1, 0);
    char last = '\n';
    int rc = 0;
    if (n < 0 || pread(f->fd, &last, 1, size - 1) != 1) {
        rc = fail(err, errlen, f->path, "cannot read it to check its header", errno);
    } else if ((size_t)n != hl + 1 || memcmp(first, header, hl) != 0 || first[hl] != '\n') {
        first[n] = '\0';
        first[strcspn(first, "\r\n")] = '\0';
        char what[160];
        snprintf(what, sizeof what, "has another header ('%.40s%s'); write to a new file",
                 first, strlen(first) > 40 ? "..." : "");
        rc = fail(err, errlen, f->path, what, 0);
    } else if (last != '\n') {
        rc = fail(err, errlen, f->path, "ends in the middle of a line; write to a new file", 0);
    }
    free(first);
    return rc;
}

csv_file *csv_open(const char *path, const char *header, char *err, size_t errlen)
{
    if (!*path) {
        fail(err, errlen, "''", "an empty file name (- is standard output)", 0);
        return NULL;
    }
    csv_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        fail(err, errlen, path, "out of memory", 0);
        free(f);
        return NULL;
    }
    const int to_stdout = strcmp(path, "-") == 0;
    if (to_stdout) {
        /* the rows keep the real stdout; the program's other output goes to stderr */
        fflush(stdout);
        f->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        if (f->fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            fail(err, errlen, "standard output", "cannot duplicate it", errno);
            goto fail;
        }
    } else {
        f->fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
        if (f->fd < 0 && errno == ENOENT) {
            f->fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC | O_CREAT | O_EXCL, 0666);
            f->created = f->fd >= 0;
        }
        if (f->fd < 0) {
            fail(err, errlen, path, "cannot open it for appending", errno);
            goto fail;
        }
    }
    struct stat st;
    if (fstat(f->fd, &st) != 0) {
        fail(err, errlen, f->path, "cannot stat it", errno);
        goto fail;
    }
    signals_install();
    /* standard output is a stream, whatever it was redirected to: it gets the header, with the
     * first row */
    off_t size = S_ISREG(st.st_mode) && !to_stdout ? write_position(f->fd) : 0;
    int rc = 0;
    if (to_stdout)
        rc = (f->header = strdup(header)) ? 0 : fail(err, errlen, f->path, "out of memory", 0);
    else
        rc = size > 0 ? check_existing(f, header, size, err, errlen)
                      : write_line(f, header, err, errlen);
    if (rc == 0)
        return f;
    signals_restore();
fail:
    if (f->fd >= 0)
        close(f->fd);
    if (f->created)
        unlink(path);
    free(f->path);
    free(f);
    return NULL;
}

int csv_append(csv_file *f, const char *row, char *err, size_t errlen)
{
    if (strpbrk(row, "\r\n"))
        return fail(err, errlen, f->path, "a row may not hold a line break", 0);
    if (f->header) {
        if (write_line(f, f->header, err, errlen) != 0)
            return -1;
        free(f->header);
        f->header = NULL;
    }
    int rc = write_line(f, row, err, errlen);
    if (rc == 0)
        f->rows++;
    return rc;
}

int csv_appendf(csv_file *f, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *row = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!row)
        return fail(err, errlen, f->path, "out of memory", 0);
    va_start(ap, fmt);
    vsnprintf(row, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int rc = csv_append(f, row, err, errlen);
    free(row);
    return rc;
}

int csv_close(csv_file *f, char *err, size_t errlen)
{
    if (!f)
        return 0;
    int rc = 0;
    if (close(f->fd) != 0)
        rc = fail(err, errlen, f->path, "closing it failed", errno);
    else if (f->created && f->rows == 0)
        unlink(f->path);
    signals_restore();
    free(f->header);
    free(f->path);
    free(f);
    return rc;
}

void csv_field(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (size_t i = 0; src && src[i] && j + 1 < len; i++)
        dst[j++] = src[i] == ',' || src[i] == '\n' || src[i] == '\r' ? ' ' : src[i];
    if (len)
        dst[j] = '\0';
}
