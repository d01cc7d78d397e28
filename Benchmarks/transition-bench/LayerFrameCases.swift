// Frames of layers: a 1,000-layer scene with shadows and masks (EngineCases' `animatedLayerScene`) sampled and
// encoded as a full frame and as a delta stream, next to the 1,000-view scene — the size and the encoding cost the
// layer members add.

import TransitionEngine
import TransitionService

func layerFrameCases(_ effort: Effort) -> [Figure] {
  var figures: [Figure] = []
  let scenes: [(String, Scene)] = [
    ("1,000 views, alpha+position", animatedScene(views: 1000, rotate: false)),
    ("1,000 layers (500 shadowed cards + 500 shape masks)", animatedLayerScene()),
  ]
  for (label, scene) in scenes {
    var states: [ViewState] = []
    scene.presentation(at: 0.5, into: &states)
    let stamp = FrameStamp(transition: "t1", seq: nil, time: 0.5, percent: 0.5, phase: "running")
    let encoder = FrameEncoder()
    var text: [UInt8] = []
    encoder.appendObject(stamp, states: states, to: &text)
    let size = Double(text.count)
    var full = measure(
      "frames: \(label), full frame encoded", iterations: effort.count(500), effort: effort, bytesPerOp: size
    ) { n in
      for _ in 0..<n {
        text.removeAll(keepingCapacity: true)
        encoder.appendObject(stamp, states: states, to: &text)
      }
    }
    full.note = "\(Int(size)) B/frame (dedicated encoder only)"
    figures.append(full)

    // A delta stream: sample at a new time and encode against the previous frame, as the host streams.
    let stream = LayerDeltaStream(scene)
    var delta = measure(
      "frames: \(label), sample + delta frame", iterations: effort.count(500), effort: effort
    ) { n in
      stream.run(n)
    }
    delta.bytesPerOp = Double(stream.message.count)
    delta.note = "\(stream.message.count) B/frame (presentation + delta encoding)"
    figures.append(delta)
  }
  return figures
}

/// A scene sampled at a new time each frame and encoded against the previous frame, as the host streams deltas.
final class LayerDeltaStream {
  let scene: Scene
  var states: [ViewState] = []
  var stream = FrameEncoder()
  var message: [UInt8] = []
  var frame = 0

  init(_ scene: Scene) { self.scene = scene }

  func run(_ n: Int) {
    for _ in 0..<n {
      frame += 1
      scene.presentation(at: 0.001 + Double(frame % 960) / 1000, into: &states)
      message.removeAll(keepingCapacity: true)
      stream.appendNotification(
        FrameStamp(transition: "t1", seq: frame, time: 0.5, percent: 0.5, phase: "running"), mode: .delta,
        states: states, to: &message)
    }
  }
}

/// `frames` delta frames of `scene` (the profile-layers workload); returns the last frame's size.
func layerDeltaStream(_ scene: Scene, frames: Int) -> Int {
  let stream = LayerDeltaStream(scene)
  stream.run(frames)
  return stream.message.count
}
