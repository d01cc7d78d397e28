// What the C fixtures of the ABI's extensions (CoreAnimationC, LayersC, PropertyAnimatorsC) share: an instance made
// per transition holding the host API and the extension tables it uses, a transitionDuration of one second, and
// note(), which logs "<call> -> <status>" (what their misuse animators report and the ABI tests read).
//
// The including file defines `struct instance` (its first member `const th_host_api *api`) and
// FIXTURE_INIT(self, host), a statement that fills in the extension tables, before including this header.
#ifndef FIXTURE_EXTENSION_FIXTURE_H
#define FIXTURE_EXTENSION_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "th_plugin.h"

#ifndef FIXTURE_INIT
#error "define FIXTURE_INIT(self, host)"
#endif

typedef struct instance instance;

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  instance *self = calloc(1, sizeof *self);
  if (self == NULL) return NULL;
  self->api = host->api;
  FIXTURE_INIT(self, host);
  return self;
}

static void destroy(void *self) { free(self); }

static double one_second(void *self, th_context ctx) {
  (void)self;
  (void)ctx;
  return 1.0;
}

static void note(instance *self, th_context ctx, const char *call, th_status status) {
  char line[200];
  snprintf(line, sizeof line, "%s -> %s", call, th_status_name(status));
  self->api->log(ctx, TH_LOG_INFO, line);
}

#endif
