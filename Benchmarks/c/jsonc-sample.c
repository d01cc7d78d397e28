// jsonc-sample: the baseline of `make bench`'s transition/sample row (issue 14: the host's sample replies at ≥ 4× this
// program's rate). It answers each request line with the frame the host answers with, built and serialized by
// json-c as the host's json-c encoder did: the frame (the host's own reply, read once from the file named on the
// command line) is rebuilt node by node for every request with json-c's constructors (constant keys, doubles with
// their shortest text through json_object_new_double_s, integers as int64), wrapped in the reply envelope with the
// request's id, and serialized compactly. Input is read in chunks of at most 64 KiB and each chunk's replies are
// written with one write(2), as the host does. Built by `make bench` with cc -O2 and json-c.
#include <stdio.h>

#include <json-c/json.h>

#include "jsonc-lines.h"

// A new tree equal to `template`, built with json-c's constructors.
static json_object *build(json_object *template) {
  switch (json_object_get_type(template)) {
    case json_type_null: return NULL;
    case json_type_boolean: return json_object_new_boolean(json_object_get_boolean(template));
    case json_type_int: return json_object_new_int64(json_object_get_int64(template));
    case json_type_double: {
      // The template's double keeps its source text (json-c's parser sets it), the shortest digits the host wrote.
      const char *text = json_object_get_userdata(template);
      double value = json_object_get_double(template);
      return text != NULL ? json_object_new_double_s(value, text) : json_object_new_double(value);
    }
    case json_type_string:
      return json_object_new_string_len(json_object_get_string(template), json_object_get_string_len(template));
    case json_type_array: {
      size_t count = json_object_array_length(template);
      json_object *array = json_object_new_array_ext((int)count);
      for (size_t i = 0; i < count; i++) json_object_array_add(array, build(json_object_array_get_idx(template, i)));
      return array;
    }
    case json_type_object: {
      json_object *object = json_object_new_object();
      json_object_object_foreach(template, key, value) {
        json_object_object_add_ex(object, key, build(value),
                                  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
      }
      return object;
    }
  }
  return NULL;
}

static json_object *frame;

static json_tokener *tokener;

static void handle_line(const char *line, size_t n) {
  json_tokener_reset(tokener);
  json_object *request = json_tokener_parse_ex(tokener, line, (int)n);
  if (json_tokener_get_error(tokener) != json_tokener_success) {
    json_object_put(request);
    out_append("null\n", 5);
    return;
  }
  json_object *id = NULL;
  json_object_object_get_ex(request, "id", &id);
  json_object *reply = json_object_new_object();
  json_object_object_add_ex(reply, "jsonrpc", json_object_new_string("2.0"), JSON_C_OBJECT_ADD_CONSTANT_KEY);
  json_object_object_add_ex(reply, "id", json_object_get(id), JSON_C_OBJECT_ADD_CONSTANT_KEY);
  json_object_object_add_ex(reply, "result", build(frame), JSON_C_OBJECT_ADD_CONSTANT_KEY);
  size_t length = 0;
  const char *text =
      json_object_to_json_string_length(reply, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &length);
  out_append(text, length);
  out_append("\n", 1);
  json_object_put(reply);
  json_object_put(request);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: jsonc-sample FRAME.json\n");
    return 2;
  }
  frame = json_object_from_file(argv[1]);
  if (frame == NULL) {
    fprintf(stderr, "jsonc-sample: cannot read %s\n", argv[1]);
    return 1;
  }
  tokener = json_tokener_new_ex(512);
  json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  serve_lines(handle_line);
  json_tokener_free(tokener);
  json_object_put(frame);
  return 0;
}
