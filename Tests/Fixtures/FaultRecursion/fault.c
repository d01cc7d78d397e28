// animateTransition recurses without bound until the stack overflows (SIGSEGV).
#include <stdint.h>
#include <stdlib.h>
static volatile uintptr_t g_depth_sink;
static uintptr_t recurse(uintptr_t depth) {
  volatile char frame[256];
  frame[depth % sizeof frame] = (char)depth;
  g_depth_sink += frame[depth % sizeof frame];
  return recurse(depth + 1) + frame[0];  // not a tail call: every level keeps its frame
}
#define FAULT_PLUGIN_ID "com.example.test.fault.recursion"
#define FAULT_TAG "recursion"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() (g_depth_sink += recurse(0))
#include "../Shared/fault_plugin.h"
