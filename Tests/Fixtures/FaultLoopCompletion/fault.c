// A completion never returns (a busy loop), 0.2 s into the transition: the watchdog's case.
static volatile unsigned long g_spins;
#define FAULT_PLUGIN_ID "com.example.test.fault.loopcompletion"
#define FAULT_TAG "loop in a completion"
#define FAULT_IN_COMPLETION
#define FAULT_BODY() for (;;) g_spins++
#include "../Shared/fault_plugin.h"
