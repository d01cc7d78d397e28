// animateTransition never returns (a busy loop): the watchdog's case.
static volatile unsigned long g_spins;
#define FAULT_PLUGIN_ID "com.example.test.fault.loopanimate"
#define FAULT_TAG "loop in animateTransition"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() for (;;) g_spins++
#include "../Shared/fault_plugin.h"
