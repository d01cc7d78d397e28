// pipe2 and mkostemp are GNU extensions: declared only with _GNU_SOURCE, which must come before any include.
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "CPOSIX.h"

int CPOSIX_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int CPOSIX_mkostemp(char *template_path, int flags) { return mkostemp(template_path, flags); }
