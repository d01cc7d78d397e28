// jsonc-echo: the bare json-c line echo that `make bench` measures the host's message path against (issue 14: error
// and result replies through the binary at ≥ 0.8× this rate). It does the least a JSON-lines server can do: read
// stdin in chunks of at most 64 KiB (as the host does), split lines with memchr, parse each line with json-c in
// strict mode (the host's flags), serialize the parsed value compactly, and write everything a chunk produced with
// one write(2) (the host flushes once per turn of its loop). Built by `make bench` with cc -O2 and json-c.
#include <stdio.h>

#include <json-c/json.h>

#include "jsonc-lines.h"

static json_tokener *tokener;

static void handle_line(const char *line, size_t n) {
  json_tokener_reset(tokener);
  json_object *value = json_tokener_parse_ex(tokener, line, (int)n);
  if (json_tokener_get_error(tokener) != json_tokener_success) {
    json_object_put(value);
    out_append("null\n", 5);
    return;
  }
  size_t length = 0;
  const char *text = json_object_to_json_string_length(
      value, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &length);
  out_append(text, length);
  out_append("\n", 1);
  json_object_put(value);
}

int main(void) {
  tokener = json_tokener_new_ex(512);
  json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  serve_lines(handle_line);
  json_tokener_free(tokener);
  return 0;
}
