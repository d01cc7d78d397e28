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
    var stream = FrameEncoder()
    var message: [UInt8] = []
    var i = 0
    var delta = measure(
      "frames: \(label), sample + delta frame", iterations: effort.count(500), effort: effort
    ) { n in
      for _ in 0..<n {
        i += 1
        scene.presentation(at: 0.001 + Double(i % 960) / 1000, into: &states)
        message.removeAll(keepingCapacity: true)
        stream.appendNotification(
          FrameStamp(transition: "t1", seq: i, time: 0.5, percent: 0.5, phase: "running"), mode: .delta, states: states,
          to: &message)
      }
    }
    delta.bytesPerOp = Double(message.count)
    delta.note = "\(message.count) B/frame (presentation + delta encoding)"
    figures.append(delta)
  }
  return figures
}
