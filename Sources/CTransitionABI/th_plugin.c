// Exists so SwiftPM builds this header-only target with every build system.
