// pipe2, mkostemp, memfd_create and posix_spawn_file_actions_addclosefrom_np are GNU extensions: declared only with
// _GNU_SOURCE, which must come before any include.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "CPOSIX.h"

int CPOSIX_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int CPOSIX_mkostemp(char *template_path, int flags) { return mkostemp(template_path, flags); }

int CPOSIX_memfd_create(const char *name, int sealable) {
  return memfd_create(name, MFD_CLOEXEC | (sealable ? MFD_ALLOW_SEALING : 0));
}

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010  // Linux 5.1
#endif

int CPOSIX_seal_contents(int fd) {
  const int fixedSize = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW;
  if (fcntl(fd, F_ADD_SEALS, fixedSize | F_SEAL_WRITE) == 0) return 0;
  if (errno != EBUSY) return -1;
  // F_SEAL_WRITE waits (about 0.3 s) for every page's extra references to go, and fails with EBUSY if one stays:
  // a page just written may sit in another CPU's LRU batch with one (a loaded machine, the writer migrated). No seal
  // is added then. The caller never mapped this file, so denying every later write and writable mapping fixes its
  // contents just as well, without that wait.
  return fcntl(fd, F_ADD_SEALS, fixedSize | F_SEAL_FUTURE_WRITE);
}

int CPOSIX_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int CPOSIX_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

int CPOSIX_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int CPOSIX_timerfd_create_monotonic(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK); }

int CPOSIX_timerfd_set_absolute(int fd, int64_t nanoseconds) {
  struct itimerspec spec = {0};
  spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000);
  spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000);
  return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int CPOSIX_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int CPOSIX_epoll_control(int epfd, int op, int fd, uint32_t events) {
  struct epoll_event event = {.events = events, .data = {.fd = fd}};
  return epoll_ctl(epfd, op, fd, &event);
}

int CPOSIX_epoll_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_milliseconds) {
  struct epoll_event ready[64];
  if (capacity > 64) capacity = 64;
  int count = epoll_wait(epfd, ready, capacity, timeout_milliseconds);
  for (int i = 0; i < count; i++) {
    fds[i] = ready[i].data.fd;
    events[i] = ready[i].events;
  }
  return count;
}

int CPOSIX_pipe_capacity(int fd) { return fcntl(fd, F_GETPIPE_SZ); }

int CPOSIX_unread_bytes(int fd, int *count) { return ioctl(fd, FIONREAD, count); }

int CPOSIX_unsent_bytes(int fd, int *count) { return ioctl(fd, SIOCOUTQ, count); }

// The fatal-signal cleanup. Its state is written only while no handler is installed (or with the signals blocked),
// and the handler only reads it and makes async-signal-safe calls (unlink, rmdir, sigaction, raise).
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
enum { FATAL_SIGNAL_COUNT = sizeof fatal_signals / sizeof fatal_signals[0] };
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];
static const char *const *volatile cleanup_paths;
static volatile int cleanup_count;
static volatile sig_atomic_t cleanup_armed;

static void restore_previous_actions(void) {
  for (int i = 0; i < FATAL_SIGNAL_COUNT; i++) sigaction(fatal_signals[i], &previous_actions[i], NULL);
}

static void fatal_signal_cleanup_handler(int signal_number, siginfo_t *info, void *context) {
  (void)context;
  int saved_errno = errno;
  if (cleanup_armed) {
    cleanup_armed = 0;
    const char *const *paths = cleanup_paths;
    for (int i = 0; i < cleanup_count; i++) {
      if (unlink(paths[i]) != 0 && (errno == EISDIR || errno == EPERM)) rmdir(paths[i]);
    }
  }
  restore_previous_actions();
  errno = saved_errno;
  // A fault (si_code > 0) happens again when the instruction re-executes, now under the previous handler (the Swift
  // runtime's backtracer, or the default action). A sent signal (kill, raise, abort) must be raised again; it is
  // blocked while this handler runs, so it arrives as soon as the handler returns.
  if (info == NULL || info->si_code <= 0) raise(signal_number);
}

int CPOSIX_fatal_signal_cleanup(const char *const *paths, int count) {
  if (cleanup_armed) CPOSIX_fatal_signal_cleanup_cancel();
  cleanup_paths = paths;
  cleanup_count = count;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = fatal_signal_cleanup_handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < FATAL_SIGNAL_COUNT; i++) {
    if (sigaction(fatal_signals[i], &action, &previous_actions[i]) != 0) {
      int saved_errno = errno;
      for (int j = 0; j < i; j++) sigaction(fatal_signals[j], &previous_actions[j], NULL);
      errno = saved_errno;
      return -1;
    }
  }
  cleanup_armed = 1;
  return 0;
}

void CPOSIX_fatal_signal_cleanup_cancel(void) {
  if (!cleanup_armed) return;
  cleanup_armed = 0;
  restore_previous_actions();
  cleanup_paths = NULL;
  cleanup_count = 0;
}
