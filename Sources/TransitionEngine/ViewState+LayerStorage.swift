// The presented layer-only values read where they are stored, for the frame encoder: `ViewState.layer` returns a
// copy (some 300 bytes and three references retained), which a frame of 1,000 layers paid several times an entry.

extension ViewState {
  /// The presented layer-only values (`layer`), read in place rather than copied.
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
