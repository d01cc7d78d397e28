/* The SegueSlide animator (issue 6): written against th_plugin.h alone. */
