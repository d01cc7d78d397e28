// Module JSON: filled in by its issue.
