// init starts a thread that calls the host API (log, at debug level) every 100 µs and never stops: in the host's own
// process, unloading the plugin unmaps the code that thread runs.
#include <pthread.h>
static void start_thread(void);
#define FAULT_PLUGIN_ID "com.example.test.fault.thread"
#define FAULT_TAG "thread at unload"
#define FAULT_BODY() (void)0
#define FAULT_INIT() start_thread()
#include "../Shared/fault_plugin.h"

static void *keep_calling(void *unused) {
  (void)unused;
  for (;;) {
    const th_host_info *host = g_host;
    if (host != NULL) host->api->log(host->plugin_context, TH_LOG_DEBUG, "still here");
    usleep(100);
  }
  return NULL;
}

static void start_thread(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, keep_calling, NULL);
  pthread_detach(thread);
}
