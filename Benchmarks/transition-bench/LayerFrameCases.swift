// Frames of layers: a 1,000-layer scene with shadows and masks (EngineCases' `animatedLayerScene`) sampled and
// encoded as a full frame and as a delta stream, next to the 1,000-view scene — the size and the encoding cost the
// layer members add.

import TransitionEngine
import TransitionService

func layerFrameCases(_ effort: Effort) -> [Figure] {
  var full: [Figure] = []
  var encoded: [Figure] = []
  var streamed: [Figure] = []
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
    var figure = measure(
      "frames: \(label), full frame encoded", iterations: effort.count(500), effort: effort, bytesPerOp: size
    ) { n in
      for _ in 0..<n {
        text.removeAll(keepingCapacity: true)
        encoder.appendObject(stamp, states: states, to: &text)
      }
    }
    figure.note = "\(Int(size)) B/frame (dedicated encoder only)"
    full.append(figure)

    // The delta encoding alone, beside the full frame: two samples a stream step apart encoded in turn against each other,
    // so each frame is a delta of every entry as in the stream, without the sample's cost.
    let pair = LayerDeltaPair(scene)
    var delta = measure(
      "frames: \(label), delta frame encoded", iterations: effort.count(500), effort: effort
    ) { n in pair.run(n) }
    delta.bytesPerOp = Double(pair.message.count)
    delta.note =
      "\(pair.message.count) B/frame (two samples a stream step apart in turn); "
      + fixed(delta.perOp / figure.perOp, 2) + "× the full frame"
    encoded.append(delta)

    // A delta stream: sample at a new time and encode against the previous frame, as the host streams.
    streamed.append(deltaFigure("frames: \(label), sample + delta frame", LayerDeltaStream(scene), effort))
  }
  // The layer rows beside the view rows, read against them and against the budget (sample + delta frame within a
  // quarter of a 120 fps frame).
  full[1].note += "; " + fixed(full[1].perOp / full[0].perOp, 1) + "× the 1,000-view row"
  streamed[1].note += "; " + besideViews(streamed[1], streamed[0])
  // `precision` 1e-3 (transition/start's option for a renderer that draws at device pixels): lengths rounded, which
  // leaves path points and shadow values exact (Protocol.md, "Rounding").
  var rounded = deltaFigure(
    "frames: 1,000 layers, sample + delta frame, precision 1e-3",
    LayerDeltaStream(animatedLayerScene(), precision: FramePrecision(grid: 1e-3)), effort)
  rounded.note += "; " + besideViews(rounded, streamed[0])
  return full + encoded + streamed + [rounded]
}

/// Two samples of a scene a stream step apart (at 0.5 s and 0.501 s, as `LayerDeltaStream` steps), delta-encoded in
/// turn against each other: the delta encoding of a stream in which every entry changes, without the sample.
final class LayerDeltaPair {
  let samples: [[ViewState]]
  var stream = FrameEncoder()
  var message: [UInt8] = []
  var frame = 0

  init(_ scene: Scene) {
    var first: [ViewState] = []
    var second: [ViewState] = []
    scene.presentation(at: 0.5, into: &first)
    scene.presentation(at: 0.501, into: &second)
    samples = [first, second]
  }

  func run(_ n: Int) {
    for _ in 0..<n {
      frame += 1
      message.removeAll(keepingCapacity: true)
      stream.appendNotification(
        FrameStamp(transition: "t1", seq: frame, time: 0.5, percent: 0.5, phase: "running"), mode: .delta,
        states: samples[frame & 1], to: &message)
    }
  }
}

/// The figure of `stream`'s frames.
private func deltaFigure(_ name: String, _ stream: LayerDeltaStream, _ effort: Effort) -> Figure {
  var figure = measure(name, iterations: effort.count(500), effort: effort) { n in stream.run(n) }
  figure.bytesPerOp = Double(stream.message.count)
  figure.note = "\(stream.message.count) B/frame (presentation + delta encoding)"
  return figure
}

/// A scene sampled at a new time each frame and encoded against the previous frame, as the host streams deltas.
final class LayerDeltaStream {
  let scene: Scene
  var states: [ViewState] = []
  var stream = FrameEncoder()
  var message: [UInt8] = []
  var frame = 0
  /// The stream's `precision`, if any (applied to each sample before it is encoded, as the host does).
  let precision: FramePrecision?

  init(_ scene: Scene, precision: FramePrecision? = nil) {
    self.scene = scene
    self.precision = precision
  }

  func run(_ n: Int) {
    for _ in 0..<n {
      frame += 1
      scene.presentation(at: 0.001 + Double(frame % 960) / 1000, into: &states)
      precision?.apply(to: &states)
      message.removeAll(keepingCapacity: true)
      stream.appendNotification(
        FrameStamp(transition: "t1", seq: frame, time: 0.5, percent: 0.5, phase: "running"), mode: .delta,
        states: states, to: &message)
    }
  }
}

/// `frames` delta frames of `scene` (the profile-layers and profile-views workloads); returns the last frame's size.
func layerDeltaStream(_ scene: Scene, frames: Int, precision: FramePrecision? = nil) -> Int {
  let stream = LayerDeltaStream(scene, precision: precision)
  stream.run(frames)
  return stream.message.count
}
