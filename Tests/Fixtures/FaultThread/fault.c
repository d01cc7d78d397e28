// init starts a thread that keeps calling the host API (log, at debug level) every 100 µs through the host info it
// was given, and never stops: as a sloppy plugin does, it never asks whether it was unloaded. In the host's own
// process, unloading the plugin frees that host info under the thread.
#include <pthread.h>

#include "th_plugin.h"
static void start_thread(const th_host_info *host);
#define FAULT_PLUGIN_ID "com.example.test.fault.thread"
#define FAULT_TAG "thread at unload"
#define FAULT_BODY() (void)0
#define FAULT_INIT() start_thread(host)
#include "../Shared/fault_plugin.h"

static void *keep_calling(void *host_) {
  const th_host_info *host = host_;
  for (;;) {
    host->api->log(host->plugin_context, TH_LOG_DEBUG, "still here");
    usleep(100);
  }
  return NULL;
}

static void start_thread(const th_host_info *host) {
  pthread_t thread;
  pthread_create(&thread, NULL, keep_calling, (void *)host);
  pthread_detach(thread);
}
