#ifndef QUIRE_CSYSTEM_SHIM_H
#define QUIRE_CSYSTEM_SHIM_H
/* System calls the C library headers in use here do not declare without _GNU_SOURCE, made
   through syscall(2): the calls exist in every Linux kernel Quire supports (3.15+ for renameat2),
   and a kernel or file system without them answers ENOSYS or EINVAL, which the callers take as
   "use the portable way". Elsewhere they fail with ENOSYS. */
#include <errno.h>
#include <unistd.h>
#include <sys/file.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* renameat2(2)'s flags. */
enum {
    QUIRE_RENAME_NOREPLACE = 1,
    QUIRE_RENAME_EXCHANGE = 2
};

/* renameat2(2): RENAME_NOREPLACE fails with EEXIST when `to` exists; RENAME_EXCHANGE swaps the
   two names atomically. */
static inline int quire_renameat2(int from_dir, const char *from, int to_dir, const char *to,
                                  unsigned int flags) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, from_dir, from, to_dir, to, flags);
#else
    (void)from_dir; (void)from; (void)to_dir; (void)to; (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}
/* flock(2) (in Swift the name is taken by `struct flock`). */
static inline int quire_flock(int fd, int operation) { return flock(fd, operation); }
#endif
