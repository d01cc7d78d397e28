// The MagicMove animator (issue 6): written with TransitionKit.
