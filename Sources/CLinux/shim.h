#ifndef QUIRE_CSYSTEM_SHIM_H
#define QUIRE_CSYSTEM_SHIM_H
/* System calls the C library headers in use here do not declare without _GNU_SOURCE, made
   through syscall(2): the calls exist in every Linux kernel Quire supports (3.15+ for renameat2),
   and a kernel or file system without them answers ENOSYS or EINVAL, which the callers take as
   "use the portable way". Elsewhere they fail with ENOSYS. */
#include <errno.h>
#include <unistd.h>
#include <sys/file.h>
#include <fcntl.h>
#include <signal.h>
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
/* syncfs(2): flushes every dirty file of the file system holding `fd`; elsewhere sync(2). */
static inline int quire_syncfs(int fd) {
#if defined(__linux__) && defined(SYS_syncfs)
    return (int)syscall(SYS_syncfs, fd);
#else
    (void)fd;
    sync();
    return 0;
#endif
}
/* flock(2) (in Swift the name is taken by `struct flock`). */
static inline int quire_flock(int fd, int operation) { return flock(fd, operation); }
/* File leases (fcntl F_SETLEASE / F_GETLEASE; Linux). A write lease is granted only while no other
   open file description refers to the file, and an open of the file by anyone else then waits
   until the lease is released (the holder gets SIGIO, which the caller must ignore). Returns -1
   with errno set where leases are not available. */
#if defined(__linux__)
#ifndef F_SETLEASE
#define F_SETLEASE 1024
#define F_GETLEASE 1025
#endif
static inline int quire_set_lease(int fd, int type) { return fcntl(fd, F_SETLEASE, type); }
static inline int quire_get_lease(int fd) { return fcntl(fd, F_GETLEASE); }
#else
static inline int quire_set_lease(int fd, int type) { (void)fd; (void)type; errno = ENOSYS; return -1; }
static inline int quire_get_lease(int fd) { (void)fd; errno = ENOSYS; return -1; }
#endif

/* Ignores SIGIO unless the program set its own handler (a broken lease sends it; by default it
   would end the process). */
static inline void quire_ignore_sigio_unless_handled(void) {
#if defined(SIGIO)
    struct sigaction current;
    if (sigaction(SIGIO, NULL, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGIO, SIG_IGN);
#endif
}
#endif
