// The few C calls the POSIX module needs that Swift's Glibc module does not import: `pipe2`, `mkostemp`, `memfd_create`
// and `posix_spawn_file_actions_addclosefrom_np` are declared only under _GNU_SOURCE, `pidfd_open` and `prctl`'s
// parent-death signal have no usable declaration, the <sys/wait.h> status macros are function-like macros (which Swift
// never imports), and Swift has no atomic operations on raw memory shared with another process. Every name is prefixed,
// in the style of swift-nio's shims, so it can never collide with what a later libc adds.
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

/// Seals a memfd against any further change of size or content (F_SEAL_SEAL | SHRINK | GROW | WRITE). 0 or -1.
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

/// WIFEXITED / WEXITSTATUS / WIFSIGNALED / WTERMSIG of a waitpid(2) status.
static inline int CPOSIX_WIFEXITED(int status) { return WIFEXITED(status); }
static inline int CPOSIX_WEXITSTATUS(int status) { return WEXITSTATUS(status); }
static inline int CPOSIX_WIFSIGNALED(int status) { return WIFSIGNALED(status); }
static inline int CPOSIX_WTERMSIG(int status) { return WTERMSIG(status); }

#endif
