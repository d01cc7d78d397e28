// The built-in scene of `render --scene sample`: a phone-sized pair of screens, a list ("home") and the detail of
// one of its cards ("detail"), sharing the card as a `match` element so that shared-element animators have
// something to move. Every view has its own solid colour (a preview's pixels tell them apart).

import JSON

/// The sample scene.
package enum SampleScene {
  /// iPhone 14/15 points.
  package static let containerWidth = 390.0
  package static let containerHeight = 844.0

  /// The list screen: a navigation bar with a title, a card (match "hero") with a label, three rows, a tab bar.
  package static let home = """
    {"id": "home", "frame": {"x": 0, "y": 0, "width": 390, "height": 844}, "backgroundColor": [0.95, 0.95, 0.97, 1],
     "children": [
      {"id": "home-nav", "frame": {"x": 0, "y": 0, "width": 390, "height": 100}, "backgroundColor": [0.99, 0.99, 1, 1],
       "children": [
        {"id": "home-title", "frame": {"x": 16, "y": 54, "width": 358, "height": 40},
         "content": {"text": "Library", "fontSize": 32, "weight": "bold", "align": "left"}}]},
      {"id": "home-card", "match": "hero", "frame": {"x": 16, "y": 116, "width": 358, "height": 220},
       "backgroundColor": [0.16, 0.47, 0.96, 1], "cornerRadius": 16, "clipsToBounds": true,
       "children": [
        {"id": "home-card-label", "frame": {"x": 16, "y": 172, "width": 326, "height": 32},
         "content": {"text": "Aurora", "fontSize": 22, "weight": "semibold", "color": [1, 1, 1, 1], "align": "left"}}]},
      {"id": "home-row-1", "frame": {"x": 16, "y": 356, "width": 358, "height": 64},
       "backgroundColor": [1, 1, 1, 1], "cornerRadius": 12,
       "content": {"text": "Northern lights", "fontSize": 17, "align": "left"}},
      {"id": "home-row-2", "frame": {"x": 16, "y": 432, "width": 358, "height": 64},
       "backgroundColor": [0.99, 0.97, 0.93, 1], "cornerRadius": 12,
       "content": {"text": "Glaciers", "fontSize": 17, "align": "left"}},
      {"id": "home-row-3", "frame": {"x": 16, "y": 508, "width": 358, "height": 64},
       "backgroundColor": [0.93, 0.98, 0.95, 1], "cornerRadius": 12,
       "content": {"text": "Fjords", "fontSize": 17, "align": "left"}},
      {"id": "home-tabbar", "frame": {"x": 0, "y": 760, "width": 390, "height": 84},
       "backgroundColor": [0.9, 0.9, 0.93, 1]}]}
    """

  /// The detail screen: the card grown into a header (match "hero") with a shading gradient and a title, body
  /// text and a button.
  package static let detail = """
    {"id": "detail", "frame": {"x": 0, "y": 0, "width": 390, "height": 844}, "backgroundColor": [1, 1, 1, 1],
     "children": [
      {"id": "detail-hero", "match": "hero", "frame": {"x": 0, "y": 0, "width": 390, "height": 360},
       "backgroundColor": [0.16, 0.47, 0.96, 1], "clipsToBounds": true,
       "children": [
        {"id": "detail-hero-shade", "frame": {"x": 0, "y": 200, "width": 390, "height": 160},
         "gradient": {"colors": [[0, 0, 0, 0], [0, 0, 0, 0.45]], "locations": [0, 1],
                      "startPoint": {"x": 0.5, "y": 0}, "endPoint": {"x": 0.5, "y": 1}}},
        {"id": "detail-hero-title", "frame": {"x": 20, "y": 296, "width": 350, "height": 44},
         "content": {"text": "Aurora", "fontSize": 34, "weight": "bold", "color": [1, 1, 1, 1], "align": "left"}}]},
      {"id": "detail-subtitle", "frame": {"x": 20, "y": 380, "width": 350, "height": 28},
       "backgroundColor": [0.96, 0.9, 1, 1], "cornerRadius": 6,
       "content": {"text": "Tromsø · 69.6° N", "fontSize": 17, "align": "left", "color": [0.35, 0.2, 0.5, 1]}},
      {"id": "detail-body", "frame": {"x": 20, "y": 424, "width": 350, "height": 180},
       "content": {"text": "Curtains of green light over the fjord, best seen between September and March.",
                   "fontSize": 17, "align": "left", "color": [0.3, 0.3, 0.33, 1]}},
      {"id": "detail-button", "frame": {"x": 20, "y": 740, "width": 350, "height": 54},
       "backgroundColor": [0.98, 0.36, 0.2, 1], "cornerRadius": 27,
       "content": {"text": "Plan a trip", "fontSize": 17, "weight": "semibold", "color": [1, 1, 1, 1]}}]}
    """

  /// Whether `operation` goes back (dismiss, pop, unwind): then the detail is on screen and the list comes back.
  package static func goesBack(_ operation: String) -> Bool {
    ["dismiss", "pop", "unwind"].contains(operation)
  }

  /// The scene for `operation` as a scene file holds it (`render --scene sample` without `--animator` prints it):
  /// the same object as `json(for:)`, laid out for people.
  package static func text(for operation: String) -> String {
    let back = goesBack(operation)
    func indented(_ tree: String) -> String {
      tree.split(separator: "\n", omittingEmptySubsequences: false).map { " " + $0 }.joined(separator: "\n")
    }
    return """
      {"container": {"width": \(PreviewStyle.number(containerWidth)), "height": \(PreviewStyle.number(containerHeight))},
       "from":
      \(indented(back ? detail : home)),
       "to":
      \(indented(back ? home : detail))}

      """
  }

  /// Each view of `tree` (`home` or `detail`), one line each, indented by depth: its id and, when it has one, its
  /// match key (what `render --help` lists).
  package static func outline(_ tree: String) -> [String] {
    var lines: [String] = []
    func walk(_ node: JSON, depth: Int) {
      guard let id = node["id"]?.stringValue else { return }
      let match = node["match"]?.stringValue.map { " (match \"\($0)\")" } ?? ""
      lines.append(String(repeating: "  ", count: depth) + id + match)
      for child in node["children"]?.elements ?? [] { walk(child, depth: depth + 1) }
    }
    // A constant checked by the render tests.
    walk(try! JSON.parse(tree), depth: 0)
    return lines
  }

  /// The scene as `transition/start` wants it (`container`, `from`, `to`) for `operation`.
  package static func json(for operation: String) -> JSON {
    // Both texts are constants checked by the render tests; a failure here is a programming error.
    let homeTree = try! JSON.parse(home)
    let detailTree = try! JSON.parse(detail)
    let back = goesBack(operation)
    return [
      "container": ["width": JSON(containerWidth), "height": JSON(containerHeight)],
      "from": back ? detailTree : homeTree,
      "to": back ? homeTree : detailTree,
    ]
  }
}
