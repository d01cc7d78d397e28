// transitionDuration, asked with the transition's context as it starts, never returns (a busy loop).
static volatile unsigned long g_spins;
#define FAULT_PLUGIN_ID "com.example.test.fault.loopduration"
#define FAULT_TAG "loop in transitionDuration"
#define FAULT_IN_DURATION
#define FAULT_BODY() for (;;) g_spins++
#include "../Shared/fault_plugin.h"
