// pipe2 and mkostemp are GNU extensions: declared only with _GNU_SOURCE, which must come before any include.
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "CPOSIX.h"

int CPOSIX_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int CPOSIX_mkostemp(char *template_path, int flags) { return mkostemp(template_path, flags); }

int CPOSIX_timerfd_create_monotonic(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK); }

int CPOSIX_timerfd_set_absolute(int fd, int64_t nanoseconds) {
  struct itimerspec spec = {0};
  spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000);
  spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000);
  return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}
