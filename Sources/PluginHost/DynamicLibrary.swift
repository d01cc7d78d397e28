#if canImport(Glibc)
  import Glibc
#endif

/// An owned `dlopen` handle, in the manner of sourcekit-lsp's `DLHandle`: closed or deliberately leaked
/// exactly once, never both.
///
/// Not thread-safe: like everything in PluginHost it lives on the host thread.
package final class DynamicLibrary {
  private var handle: UnsafeMutableRawPointer?
  /// The path given to `dlopen` (for plugins: the private copy).
  package let path: String

  /// Opens `path` with `RTLD_NOW | RTLD_LOCAL`: every symbol is bound now (an unresolved one fails here,
  /// not in the middle of a transition) and none leaks into the global namespace (every plugin exports
  /// the same `th_plugin_entry`).
  ///
  /// - Throws: dlerror's text.
  package init(path: String) throws(DynamicLibraryError) {
    self.path = path
    _ = dlerror()  // clear a stale message
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      throw DynamicLibraryError(message: Self.lastError() ?? "dlopen failed")
    }
    self.handle = handle
  }

  /// The address of `name`, or dlerror's text when the library (and its dependencies) does not define it.
  package func symbol(named name: String) -> Result<UnsafeMutableRawPointer, DynamicLibraryError> {
    guard let handle else { return .failure(DynamicLibraryError(message: "library already closed")) }
    _ = dlerror()
    if let address = dlsym(handle, name) { return .success(address) }
    return .failure(DynamicLibraryError(message: Self.lastError() ?? "\(name): symbol not found"))
  }

  /// Whether the library was linked against the Swift runtime. Such an image registers its metadata
  /// sections with the runtime from a constructor (swiftrt.o) and never unregisters them (there is no
  /// destructor), so unmapping it would leave the runtime with dangling pointers: it must be leaked, not
  /// closed. SwiftPM links every product with swiftc, so this holds for C plugins built by SwiftPM too.
  /// `dlsym` on a handle searches the library and its dependencies only (RTLD_LOCAL), so this finds the
  /// runtime's registration function only when the library depends on libswiftCore.
  package var usesSwiftRuntime: Bool {
    guard let handle else { return false }
    _ = dlerror()
    return dlsym(handle, "swift_addNewDSOImage") != nil
  }

  /// Whether the handle is still open (neither closed nor leaked).
  package var isOpen: Bool { handle != nil }

  /// `dlclose`s the library. Nothing from it (functions, data, strings) may be used afterwards.
  package func close() throws(DynamicLibraryError) {
    guard let handle else { return }
    self.handle = nil
    if dlclose(handle) != 0 {
      throw DynamicLibraryError(message: Self.lastError() ?? "dlclose failed")
    }
  }

  /// Gives up ownership without closing: the library stays mapped for the rest of the process.
  package func leak() {
    handle = nil
  }

  deinit {
    // An owner that forgot both close() and leak(): leaking is the safe choice (see usesSwiftRuntime).
    handle = nil
  }

  private static func lastError() -> String? {
    guard let message = dlerror() else { return nil }
    return String(cString: message)
  }
}

/// A `dlopen`/`dlsym`/`dlclose` failure with dlerror's text.
package struct DynamicLibraryError: Error, Sendable, Equatable {
  package var message: String
}
