// The one json-c header the JSON module sees. The prefixed path works without pkg-config's -I.
#ifndef CJSONC_SHIM_H
#define CJSONC_SHIM_H
#include <json-c/json.h>
#include <locale.h>

// glibc's C locale object (`newlocale(LC_ALL_MASK, "C", 0)` returns the static one, never to be freed). LC_ALL_MASK is
// a macro expression Swift does not import.
static inline locale_t cjsonc_c_locale(void) { return newlocale(LC_ALL_MASK, "C", (locale_t)0); }
#endif
