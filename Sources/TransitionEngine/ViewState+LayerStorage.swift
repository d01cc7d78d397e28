// The presented layer-only values for the frame encoder, and their storage kept as a snapshot (its delta baseline):
// `ViewState.layer` returns a copy (some 300 bytes and three references retained) and a baseline of its own copy
// cost two boxes an entry a frame.

extension ViewState {
  /// The presented layer-only values (`layer`) through a read accessor. It still yields a copy today (the box's
  /// `value` is a `var` of a class, so the compiler copies it for the access; docs/bench.md, "layerdelta"): a read
  /// without the copy needs the storage to give out its members or its address.
  package var layerInPlace: LayerAppearance {
    _read {
      if let box = layerBox { yield box.value } else { yield LayerAppearance.defaults }
    }
  }

  /// The storage of the presented layer-only values, to keep as a snapshot of them without copying them: storage
  /// is changed in place only while a single value holds it (copy on write, `AnimatableValues.modifyLayer`), so
  /// what a holder reads through it stays what it was when taken.
  package var layerStorage: LayerStorage { LayerStorage(box: layerBox) }
}

/// A kept reference to a presented entry's layer-only values (`ViewState.layerStorage`); the defaults when none.
package struct LayerStorage: Sendable {
  fileprivate let box: LayerAppearanceBox?

  /// No storage: every member at its default.
  package static let defaults = LayerStorage(box: nil)

  /// The values, read in place.
  package var appearance: LayerAppearance {
    _read {
      if let box { yield box.value } else { yield LayerAppearance.defaults }
    }
  }
}
