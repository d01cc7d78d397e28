// The Sheet animator (issue 6): written with TransitionKit.
