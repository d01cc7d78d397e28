// pipe2, mkostemp, memfd_create and posix_spawn_file_actions_addclosefrom_np are GNU extensions: declared only with
// _GNU_SOURCE, which must come before any include.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "CPOSIX.h"

int CPOSIX_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int CPOSIX_mkostemp(char *template_path, int flags) { return mkostemp(template_path, flags); }

int CPOSIX_memfd_create(const char *name, int sealable) {
  return memfd_create(name, MFD_CLOEXEC | (sealable ? MFD_ALLOW_SEALING : 0));
}

int CPOSIX_seal_contents(int fd) {
  return fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
}

int CPOSIX_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int CPOSIX_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

int CPOSIX_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
