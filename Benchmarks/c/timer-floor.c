// timer-floor: the bare C program that `make bench` sets beside the host's real-time frame arrival (issue 14: p99
// lateness ≤ 0.5 ms at 120 fps). It waits for the same absolute 120 Hz deadlines the host's frames keep, in one of
// two ways, and prints how late it woke for each, in seconds, one per line:
//   timer-floor SECONDS nanosleep   clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to each deadline
//   timer-floor SECONDS spin        a timerfd (absolute) to 200 µs before each deadline, then a spin on the clock
// Whatever lateness this program sees is the machine's (scheduling, other processes on its cores): no host can wake
// earlier than a process that does nothing else. Built by `make bench` with cc -O2.
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct timespec to_timespec(int64_t ns) {
  struct timespec t = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
  return t;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "nanosleep") != 0 && strcmp(argv[2], "spin") != 0)) {
    fprintf(stderr, "usage: timer-floor SECONDS nanosleep|spin\n");
    return 2;
  }
  int spin = strcmp(argv[2], "spin") == 0;
  long count = (long)(atof(argv[1]) * 120);
  if (count < 1) count = 1;
  int timer = spin ? timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC) : -1;
  if (spin && timer < 0) {
    perror("timerfd_create");
    return 1;
  }
  double *lateness = malloc(sizeof(double) * (size_t)count);
  if (!lateness) return 1;
  int64_t start = now_ns();
  for (long n = 1; n <= count; n++) {
    int64_t deadline = start + n * 1000000000 / 120;
    if (spin) {
      struct itimerspec spec = {.it_value = to_timespec(deadline - 200000)};
      timerfd_settime(timer, TFD_TIMER_ABSTIME, &spec, NULL);
      struct pollfd p = {.fd = timer, .events = POLLIN};
      if (now_ns() < deadline - 200000) poll(&p, 1, -1);
      uint64_t expirations;
      (void)!read(timer, &expirations, sizeof expirations);
      while (now_ns() < deadline) {
      }
    } else {
      struct timespec t = to_timespec(deadline);
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0) {
      }
    }
    lateness[n - 1] = (double)(now_ns() - deadline) / 1e9;
  }
  for (long n = 0; n < count; n++) printf("%.9f\n", lateness[n]);
  return 0;
}
