#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct csv_file {
    int fd;
    char *path;    /* as given, for messages */
    int created;   /* csv_open made the file: csv_close removes it if no row came */
    int regular;   /* a regular file: its header checked, its writes under a lock */
    long rows;
    char *header;  /* standard output: the header, written with the first row (a run that
                      ends before any row, a refusal or a skip, leaves stdout empty) */
    char *columns; /* the header, to write it again into a file removed under us */
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
    atomic_store(&writing, 1);
    off_t start = f->regular ? write_position(f->fd) : -1;
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

/* Several runs may write to one file at once (a sweep split over two terminals): each holds the
 * file's lock while it writes or checks the header and while it appends a row, so that a new
 * file gets one header, and a row undone after a failed write takes no other run's row with it.
 * Where the file system has no locks (flock fails), there is no lock, as before. */
static void lock(int fd, int op)
{
    while (flock(fd, op) != 0 && errno == EINTR)
        ;
}

/* A file that already holds something: it must start with our header and end with a newline. */
static int check_existing(csv_file *f, off_t size, char *err, size_t errlen)
{
    const char *header = f->columns;
    size_t hl = strlen(header);
    char *first = malloc(hl + 3);
    if (!first)
        return fail(err, errlen, f->path, "out of memory", 0);
    ssize_t n = pread(f->fd, first, hl + 2, 0);
    char last = '\n';
    int rc = 0;
    const int ours = n > 0 && (size_t)n > hl && memcmp(first, header, hl) == 0;
    if (n < 0 || pread(f->fd, &last, 1, size - 1) != 1) {
        rc = fail(err, errlen, f->path, "cannot read it to check its header", errno);
    } else if (ours && first[hl] == '\r' && (size_t)n > hl + 1 && first[hl + 1] == '\n') {
        rc = fail(err, errlen, f->path, "has this header, but its lines end in CRLF (Windows "
                                        "line ends): sed -i 's/\\r$//' on it, or write to a new file", 0);
    } else if (!ours || first[hl] != '\n') {
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

/* A regular file, or none yet: opened to append, created if missing; under the lock, an empty
 * file gets the header and any other has its header checked. Another run may create the file
 * between our two opens (then we open theirs), or remove it, empty, between our open and our
 * lock (csv_close: then we open it again). */
static int open_regular(csv_file *f, char *err, size_t errlen)
{
    for (int tries = 0; tries < 100; tries++) {
        f->created = 0;
        f->fd = open(f->path, O_RDWR | O_APPEND | O_CLOEXEC);
        if (f->fd < 0 && errno == ENOENT) {
            f->fd = open(f->path, O_RDWR | O_APPEND | O_CLOEXEC | O_CREAT | O_EXCL, 0666);
            f->created = f->fd >= 0;
            if (f->fd < 0 && errno == EEXIST)
                continue;
        }
        if (f->fd < 0)
            return fail(err, errlen, f->path, "cannot open it for appending", errno);
        lock(f->fd, LOCK_EX);
        struct stat st;
        int rc;
        if (fstat(f->fd, &st) != 0) {
            rc = fail(err, errlen, f->path, "cannot stat it", errno);
        } else if (st.st_nlink == 0) {
            close(f->fd);
            continue;
        } else {
            rc = st.st_size > 0 ? check_existing(f, st.st_size, err, errlen)
                                : write_line(f, f->columns, err, errlen);
        }
        lock(f->fd, LOCK_UN);
        return rc;
    }
    f->fd = -1;
    return fail(err, errlen, f->path, "other runs keep creating and removing it", 0);
}

/* Before a row into a regular file: the lock, on the file the path names. A run that created the
 * file and ends with no row removes it (csv_close); one that had opened it opens it again. */
static int lock_for_row(csv_file *f, char *err, size_t errlen)
{
    for (int tries = 0; tries < 100; tries++) {
        lock(f->fd, LOCK_EX);
        struct stat st;
        if (fstat(f->fd, &st) != 0 || st.st_nlink > 0)
            return 0;
        close(f->fd);
        if (open_regular(f, err, errlen) != 0)
            return -1;
    }
    return fail(err, errlen, f->path, "other runs keep creating and removing it", 0);
}

/* The path names the pipe, FIFO or terminal that standard output already is (/dev/stdout): the
 * same as "-", so that the table goes to stderr instead of into the rows. */
static int names_stdout(const struct stat *st)
{
    struct stat out;
    return fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

/* ---- what an exit leaves behind -------------------------------------------------------------- */

/* The files open now. A program that exits without closing one (a refusal after the open: a
 * size too large for memory, exit 2; a skip, exit 77) must leave no file holding a header alone:
 * at exit, each one this run created and wrote no row to is removed, as csv_close would. */
enum { MAX_OPEN = 16 };
static csv_file *open_files[MAX_OPEN];
static void remove_if_unused(const csv_file *f);

static void remove_unused(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_files[i] && open_files[i]->fd >= 0 && open_files[i]->created &&
            open_files[i]->rows == 0)
            remove_if_unused(open_files[i]);
}

static void at_exit(void) { remove_unused(); }

static void track(csv_file *f, csv_file *replace)
{
    static int registered;
    if (!registered)
        registered = atexit(at_exit) == 0;
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_files[i] == replace) {
            open_files[i] = f;
            return;
        }
}

csv_file *csv_open(const char *path, const char *header, char *err, size_t errlen)
{
    if (!*path) {
        fail(err, errlen, "''", "an empty file name (- is standard output)", 0);
        return NULL;
    }
    csv_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path)) || !(f->columns = strdup(header))) {
        fail(err, errlen, path, "out of memory", 0);
        if (f)
            free(f->path);
        free(f);
        return NULL;
    }
    f->fd = -1;
    signals_install();
    struct stat st;
    /* a pipe, a FIFO, a terminal, a device: a stream, whose header cannot be read back */
    const int exists = stat(path, &st) == 0;
    const int stream = exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    int rc;
    if (strcmp(path, "-") == 0 || (stream && names_stdout(&st))) {
        /* the rows keep the real stdout (the header with the first row); the program's other
         * output goes to stderr */
        fflush(stdout);
        f->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        if (f->fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
            rc = fail(err, errlen, "standard output", "cannot duplicate it", errno);
        else
            rc = (f->header = strdup(header)) ? 0 : fail(err, errlen, f->path, "out of memory", 0);
    } else if (stream) {
        /* written only: a FIFO opened to read as well would be its own reader, and its writes
         * would block for ever once the real reader left and the pipe filled */
        f->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
        rc = f->fd < 0 ? fail(err, errlen, path, "cannot open it for writing", errno)
                       : write_line(f, header, err, errlen);
    } else if (exists && S_ISREG(st.st_mode) && names_stdout(&st)) {
        /* `--csv out.csv > out.csv`: the table would write over the header and the rows */
        rc = fail(err, errlen, path, "is also where standard output goes (redirected into it): the "
                                     "table would overwrite the rows; write them to another file, "
                                     "or with --csv - to standard output alone", 0);
    } else {
        f->regular = 1;
        rc = open_regular(f, err, errlen);
    }
    if (rc == 0) {
        track(f, NULL);
        return f;
    }
    signals_restore();
    if (f->fd >= 0)
        close(f->fd);
    if (f->created)
        unlink(path);
    free(f->header);
    free(f->columns);
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
    if (f->regular && lock_for_row(f, err, errlen) != 0)
        return -1;
    int rc = write_line(f, row, err, errlen);
    if (f->regular)
        lock(f->fd, LOCK_UN);
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

/* A file this run created and wrote no row to is removed (a skipped run leaves nothing behind),
 * unless another run has written to it: under the lock, it holds the header alone and the path
 * still names it. */
static void remove_if_unused(const csv_file *f)
{
    struct stat st, now;
    lock(f->fd, LOCK_EX);
    if (fstat(f->fd, &st) == 0 && st.st_size == (off_t)strlen(f->columns) + 1 &&
        stat(f->path, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
        unlink(f->path);
    lock(f->fd, LOCK_UN);
}

int csv_close(csv_file *f, char *err, size_t errlen)
{
    if (!f)
        return 0;
    int rc = 0;
    if (f->fd >= 0 && f->created && f->rows == 0)
        remove_if_unused(f);
    if (f->fd >= 0 && close(f->fd) != 0)
        rc = fail(err, errlen, f->path, "closing it failed", errno);
    track(NULL, f);
    signals_restore();
    free(f->header);
    free(f->columns);
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
