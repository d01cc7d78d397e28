// The engine: sampling the presentation tree of a large scene (CONVENTIONS: 1,000 views at 120 fps is about
// evaluation), and the timing functions every animated value goes through.

import TransitionEngine

/// One frame at 120 fps, in seconds.
let frameBudget120 = 1.0 / 120

/// A scene of `count` views in a 25-column grid under the container, all animating alpha and position over one
/// second (easeInOut), and with `rotate` a 3-D rotation about y under perspective as well.
func animatedScene(views count: Int, rotate: Bool) -> Scene {
  let scene = Scene(containerSize: Size(width: 1000, height: 2000))
  var views: [View] = []
  for i in 0..<count {
    let view = scene.makeView(hint: "v")
    view.frame = Rect(x: Double(i % 25) * 40, y: Double(i / 25) * 40, width: 36, height: 36)
    scene.container.addSubview(view)
    views.append(view)
  }
  var turned = Transform3D(perspectiveDistance: 500)
  turned = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).concatenating(turned)
  scene.animate(duration: 1) {
    for view in views {
      view.alpha = 0.2
      view.position = Point(x: view.position.x + 300, y: view.position.y + 100)
      if rotate { view.transform = turned }
    }
  }
  return scene
}

/// 1,000 layers that are not views: 500 cards in a 25-column grid, each with a border and a shadow along its own
/// shadowPath, and each masked by a shape layer (the other 500) whose ellipse path grows; over one second every card
/// moves and animates shadowOpacity, shadowRadius and shadowPath, every mask its path — CABasicAnimations (1 s,
/// linear), as iOS code animates layer properties (a UIView block does not), the model set to the end values.
func animatedLayerScene() -> Scene {
  let scene = Scene(containerSize: Size(width: 1000, height: 2000))
  func animate(_ layer: View, _ keyPath: String, from: AnimationValue, to: AnimationValue) {
    var animation = ExplicitAnimation.basic(keyPath, from: from, to: to)
    animation.timing.duration = 1
    layer.add(animation, forKey: keyPath)
  }
  for i in 0..<500 {
    let card = scene.makeLayer(hint: "card")
    card.frame = Rect(x: Double(i % 25) * 40, y: Double(i / 25) * 40, width: 36, height: 36)
    card.backgroundColor = Color(r: 1, g: 1, b: 1)
    card.borderWidth = 1
    let startShadow = Path(roundedRect: Rect(x: 0, y: 0, width: 36, height: 36), cornerRadius: 4)
    let endShadow = Path(roundedRect: Rect(x: -4, y: -4, width: 44, height: 44), cornerRadius: 12)
    let mask = scene.makeLayer(hint: "mask", kind: .shape)
    mask.frame = Rect(x: 0, y: 0, width: 36, height: 36)
    let startMask = Path(ellipseIn: Rect(x: 17, y: 17, width: 2, height: 2))
    let endMask = Path(ellipseIn: Rect(x: -8, y: -8, width: 52, height: 52))
    card.setMask(mask)
    scene.container.addSublayer(card)
    let start = card.position
    let end = Point(x: start.x + 300, y: start.y + 100)
    card.position = end
    card.shadowOpacity = 0.5
    card.shadowRadius = 8
    card.shadowPath = endShadow
    mask.path = endMask
    animate(card, "position", from: .point(start), to: .point(end))
    animate(card, "shadowOpacity", from: .number(0), to: .number(0.5))
    animate(card, "shadowRadius", from: .number(3), to: .number(8))
    animate(card, "shadowPath", from: .path(startShadow), to: .path(endShadow))
    animate(mask, "path", from: .path(startMask), to: .path(endMask))
  }
  return scene
}

/// 1,000 views in a 25-column grid, each with two explicit Core Animation animations (position.x, a
/// CABasicAnimation on easeInEaseOut, and opacity, a three-value CAKeyframeAnimation), under a container whose layer
/// timing is not the identity (speed 1, an offset), so every view's local time goes through the time map.
func explicitAnimationScene() -> Scene {
  let scene = Scene(containerSize: Size(width: 1000, height: 2000))
  scene.container.layerTiming = LayerTiming(speed: 1, timeOffset: 0)
  for i in 0..<1000 {
    let view = scene.makeView(hint: "v")
    view.frame = Rect(x: Double(i % 25) * 40, y: Double(i / 25) * 40, width: 36, height: 36)
    scene.container.addSubview(view)
    var move = ExplicitAnimation.basic("position.x", by: .number(300))
    move.timing.duration = 1
    move.timingFunction = .easeInOut
    view.add(move, forKey: "move")
    var spec = ExplicitAnimation.KeyframeSpec()
    spec.values = [.number(1), .number(0.2), .number(1)]
    var fade = ExplicitAnimation(kind: .keyframes(spec), keyPath: "opacity")
    fade.timing.duration = 1
    view.add(fade, forKey: "fade")
  }
  scene.container.layerTiming = LayerTiming(speed: 1, timeOffset: 1e-9)
  return scene
}

/// Samples `scene` (1,000 nodes under the container) at a new time every frame, inside its animation, as a 120 fps
/// stream would ask.
func samplingFigure(_ name: String, _ scene: Scene, iterations: Int, effort: Effort) -> Figure {
  var buffer: [ViewState] = []
  var figure = measure(name, iterations: iterations, effort: effort) { n in
    for i in 0..<n {
      scene.presentation(at: 0.001 + Double(i % 960) / 1000, into: &buffer)
    }
    blackHole(buffer.count)
  }
  precondition(buffer.count == 1001, "the container and its 1,000 nodes")
  figure.note = fixed(figure.perOp / frameBudget120 * 100, 1) + "% of a core at 120 fps"
  return figure
}

/// Samples `scene` `frames` times as `samplingFigure` does, untimed (the profile cases); returns the last sample's count.
func sampleStream(_ scene: Scene, frames: Int) -> Int {
  var buffer: [ViewState] = []
  for i in 0..<frames {
    scene.presentation(at: 0.001 + Double(i % 960) / 1000, into: &buffer)
  }
  return buffer.count
}

/// A quarter of a 120 fps frame (2.08 ms): the engine budget of a 1,000-node scene (CONVENTIONS: 1,000 views at 120 fps
/// within a quarter of one core, evaluation and frame encoding).
let quarterFrameBudget120 = frameBudget120 / 4

/// The note of a 1,000-layer row measured beside its 1,000-view row: how many times the view row it is, and whether it
/// is within `budget`.
func besideViews(_ layers: Figure, _ views: Figure, budget: Double = quarterFrameBudget120) -> String {
  let ratio = layers.perOp / views.perOp
  let verdict = layers.perOp <= budget ? "within" : "over"
  return fixed(ratio, 1) + "× the 1,000-view row; " + verdict + " the " + formatDuration(budget) + " budget"
}

func engineCases(_ effort: Effort) -> [Figure] {
  var figures: [Figure] = []
  // The 1,000-layer scene right after the 1,000-view one, its figure read against it (issue 16).
  let views = samplingFigure(
    "engine: presentation(at:) 1,000 views, alpha+position", animatedScene(views: 1000, rotate: false),
    iterations: effort.count(2_000), effort: effort)
  figures.append(views)
  var layers = samplingFigure(
    "engine: presentation(at:) 1,000 layers (500 shadowed cards + 500 shape masks), position+shadow+paths",
    animatedLayerScene(), iterations: effort.count(1_000), effort: effort)
  layers.note += "; " + besideViews(layers, views)
  figures.append(layers)
  figures.append(
    samplingFigure(
      "engine: presentation(at:) 1,000 views, alpha+position+3-D rotation", animatedScene(views: 1000, rotate: true),
      iterations: effort.count(2_000), effort: effort))

  figures.append(
    samplingFigure(
      "engine: presentation(at:) 1,000 views, 2 explicit CAAnimations each (basic + keyframes), layer timing",
      explicitAnimationScene(), iterations: effort.count(1_000), effort: effort))

  // The timing functions, at times spread over [0, 1] so the Bézier solver does real work.
  let spring = Spring(dampingRatio: 0.7, duration: 0.5)
  let curves: [(String, (Double) -> Double)] = [
    ("curve: easeInOut progress", { TimingCurve.easeInOut.progress(at: $0) }),
    ("curve: steep Bézier (0.9, 0, 0.1, 1) progress", { TimingCurve.bezier(0.9, 0, 0.1, 1).progress(at: $0) }),
    ("spring: UIKit (ζ 0.7, 0.5 s) progress", { spring.progress(at: $0 * 0.5) }),
  ]
  for (name, evaluate) in curves {
    var sum = 0.0
    figures.append(
      measure(name, iterations: effort.count(2_000_000), effort: effort) { n in
        for i in 0..<n { sum += evaluate(Double(i & 1023) / 1023) }
        blackHole(sum)
      })
  }
  return figures
}
