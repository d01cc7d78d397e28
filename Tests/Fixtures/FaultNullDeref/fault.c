// animateTransition dereferences NULL (SIGSEGV).
#define FAULT_PLUGIN_ID "com.example.test.fault.nullderef"
#define FAULT_TAG "null dereference"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() (*(volatile int *)0 = 1)
#include "../Shared/fault_plugin.h"
