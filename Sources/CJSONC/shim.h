// The one json-c header the JSON module sees. The prefixed path works without pkg-config's -I.
#ifndef CJSONC_SHIM_H
#define CJSONC_SHIM_H
#include <json-c/json.h>
#endif
