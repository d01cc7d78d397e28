// The few C calls the POSIX module needs that Swift's Glibc module does not import: `pipe2`, `mkostemp`, `memfd_create`
// and `posix_spawn_file_actions_addclosefrom_np` are declared only under _GNU_SOURCE, `pidfd_open` and `prctl`'s
// parent-death signal have no usable declaration, <sys/timerfd.h> is not imported, `struct epoll_event` is packed, `ioctl` is variadic, the
// <sys/wait.h> status macros are function-like macros (which Swift never imports), Swift has no atomic operations on
// raw memory shared with another process, and a signal handler must be C (nothing in it may allocate or take a lock).
// Every name is prefixed, in the style of swift-nio's shims, so it can never collide with what a later libc adds.
#ifndef CPOSIX_H
#define CPOSIX_H

#include <spawn.h>
#include <stdint.h>
#include <sys/wait.h>

/// pipe2(2): both ends created with `flags` (O_CLOEXEC, O_NONBLOCK) atomically. Returns 0, or -1 with errno set.
int CPOSIX_pipe2(int fds[2], int flags);

/// mkostemp(3): mkstemp with `flags` (O_CLOEXEC) applied as the file is created. Returns the fd, or -1 with errno.
int CPOSIX_mkostemp(char *template_path, int flags);

/// memfd_create(2) with MFD_CLOEXEC (and MFD_ALLOW_SEALING when `sealable`): an anonymous file. Returns the fd, or -1.
int CPOSIX_memfd_create(const char *name, int sealable);

/// Seals a memfd against any further change of size or content (F_SEAL_SEAL | SHRINK | GROW | WRITE; FUTURE_WRITE
/// in WRITE's place when WRITE fails with EBUSY on a page's transient reference). The caller must hold no writable
/// mapping of it. 0 or -1.
int CPOSIX_seal_contents(int fd);

/// pidfd_open(2) through syscall(2) (glibc 2.36 declares no wrapper without _GNU_SOURCE): a descriptor that polls
/// readable once the process has exited. Returns the fd (close-on-exec), or -1 with errno set.
int CPOSIX_pidfd_open(int pid);

/// prctl(PR_SET_PDEATHSIG, signal): the calling process gets `signal` when the thread that spawned it ends.
int CPOSIX_set_parent_death_signal(int signal);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor >= `from`.
int CPOSIX_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/// Sequentially consistent atomic operations on a 64-bit word (for memory shared with another process).
static inline uint64_t CPOSIX_atomic_load_u64(const uint64_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }
static inline void CPOSIX_atomic_store_u64(uint64_t *word, uint64_t value) {
  __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
}
static inline uint64_t CPOSIX_atomic_add_u64(uint64_t *word, uint64_t delta) {
  return __atomic_add_fetch(word, delta, __ATOMIC_SEQ_CST);
}

/// timerfd_create(2) on CLOCK_MONOTONIC, close-on-exec and non-blocking (Swift's Glibc module does not import
/// <sys/timerfd.h>). Returns the fd, or -1 with errno set.
int CPOSIX_timerfd_create_monotonic(void);

/// timerfd_settime(2) with TFD_TIMER_ABSTIME: the timer expires once CLOCK_MONOTONIC reaches `nanoseconds` (0
/// disarms it). Returns 0, or -1 with errno set.
int CPOSIX_timerfd_set_absolute(int fd, int64_t nanoseconds);

/// epoll_create1(EPOLL_CLOEXEC). Returns the fd, or -1 with errno set.
int CPOSIX_epoll_create(void);

/// epoll_ctl(2): `op` is 1 to add `fd`, 2 to remove it, 3 to change its events; level-triggered on `events`
/// (poll(2)'s POLLIN, POLLOUT… bits, which epoll's share), with `fd` as the event's data. Returns 0, or -1 with errno.
int CPOSIX_epoll_control(int epfd, int op, int fd, uint32_t events);

/// epoll_wait(2) into two plain arrays, the ready descriptors and their events, at most `capacity` (64 at most):
/// `struct epoll_event` is packed on x86-64, a layout Swift does not import faithfully. Returns how many, or -1 with
/// errno (EINTR included: the caller's loop decides what a signal means).
int CPOSIX_epoll_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_milliseconds);

/// fcntl(F_GETPIPE_SZ): the capacity of the pipe `fd` is an end of, in bytes; -1 with errno (EBADF, or not a pipe).
int CPOSIX_pipe_capacity(int fd);

/// ioctl(FIONREAD): bytes written into the pipe or socket `fd` and not read yet (for either end of a pipe). Returns 0,
/// or -1 with errno.
int CPOSIX_unread_bytes(int fd, int *count);

/// ioctl(SIOCOUTQ): bytes a socket has queued for its peer (for a Unix socket: the memory its unread messages hold,
/// `SO_SNDBUF`'s unit). Returns 0, or -1 with errno.
int CPOSIX_unsent_bytes(int fd, int *count);

/// Until `CPOSIX_fatal_signal_cleanup_cancel`, a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
/// SIGSYS) first removes `paths` (unlink(2), or rmdir(2) for folders; in order, so list a folder after what it holds),
/// then puts the handlers that were there back and lets the signal take its course with them (a fault re-executes the
/// instruction; a sent signal is raised again). `paths` must stay valid until the cancel. Not nestable: a second call
/// replaces the first. Returns 0, or -1 with errno (sigaction).
int CPOSIX_fatal_signal_cleanup(const char *const *paths, int count);

/// Ends the protection `CPOSIX_fatal_signal_cleanup` set up: the previous handlers come back, nothing is removed.
void CPOSIX_fatal_signal_cleanup_cancel(void);

/// WIFEXITED / WEXITSTATUS / WIFSIGNALED / WTERMSIG of a waitpid(2) status.
static inline int CPOSIX_WIFEXITED(int status) { return WIFEXITED(status); }
static inline int CPOSIX_WEXITSTATUS(int status) { return WEXITSTATUS(status); }
static inline int CPOSIX_WIFSIGNALED(int status) { return WIFSIGNALED(status); }
static inline int CPOSIX_WTERMSIG(int status) { return WTERMSIG(status); }

#endif
