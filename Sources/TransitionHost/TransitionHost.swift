// Module TransitionHost: filled in by its issue.
