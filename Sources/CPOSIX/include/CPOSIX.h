// The few C calls the POSIX module needs that Swift's Glibc module does not import: `pipe2` and `mkostemp` are declared
// only under _GNU_SOURCE, <sys/timerfd.h> is not in the module, and the <sys/wait.h> status macros are function-like
// macros, which Swift never imports. Every name is prefixed, in the style of swift-nio's shims, so it can never collide
// with what a later libc adds.
#ifndef CPOSIX_H
#define CPOSIX_H

#include <stdint.h>
#include <sys/wait.h>

/// pipe2(2): both ends created with `flags` (O_CLOEXEC, O_NONBLOCK) atomically. Returns 0, or -1 with errno set.
int CPOSIX_pipe2(int fds[2], int flags);

/// mkostemp(3): mkstemp with `flags` (O_CLOEXEC) applied as the file is created. Returns the fd, or -1 with errno.
int CPOSIX_mkostemp(char *template_path, int flags);

/// timerfd_create(2) on CLOCK_MONOTONIC, close-on-exec and non-blocking (Swift's Glibc module does not import
/// <sys/timerfd.h>). Returns the fd, or -1 with errno set.
int CPOSIX_timerfd_create_monotonic(void);

/// timerfd_settime(2) with TFD_TIMER_ABSTIME: the timer expires once CLOCK_MONOTONIC reaches `nanoseconds` (0
/// disarms it). Returns 0, or -1 with errno set.
int CPOSIX_timerfd_set_absolute(int fd, int64_t nanoseconds);

/// WIFEXITED / WEXITSTATUS / WIFSIGNALED / WTERMSIG of a waitpid(2) status.
static inline int CPOSIX_WIFEXITED(int status) { return WIFEXITED(status); }
static inline int CPOSIX_WEXITSTATUS(int status) { return WEXITSTATUS(status); }
static inline int CPOSIX_WIFSIGNALED(int status) { return WIFSIGNALED(status); }
static inline int CPOSIX_WTERMSIG(int status) { return WTERMSIG(status); }

#endif
