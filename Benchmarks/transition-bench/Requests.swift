// The requests the end-to-end goals send: view trees of a given size and the transition/… lines, as a client writes
// them (one line each).

/// A from root "list" and a to root "detail" filling a 390 × 844 container, each with `children` rows (frames,
/// corner radii, colours, content): 1 + 2 × (1 + children) views with the container (11 for 4 children).
func viewTrees(children: Int) -> String {
  func node(_ id: String, _ rows: String) -> String {
    #"{"id":"\#(id)","frame":{"x":0,"y":0,"width":390,"height":844},"backgroundColor":[1,1,1,1],"#
      + #""children":[\#(rows)]}"#
  }
  func row(_ id: String, _ index: Int) -> String {
    #"{"id":"\#(id)\#(index)","frame":{"x":16,"y":\#(60 + (index % 9) * 90),"width":358,"height":80},"#
      + #""cornerRadius":12,"backgroundColor":[0.2,0.4,0.8,1],"content":{"text":"Row \#(index)"}}"#
  }
  let from = (0..<children).map { row("from", $0) }.joined(separator: ",")
  let to = (0..<children).map { row("to", $0) }.joined(separator: ",")
  return #""container":{"width":390,"height":844},"from":\#(node("list", from)),"to":\#(node("detail", to))"#
}

/// A `transition/start` line (id `id`) with the trees of `viewTrees(children:)`.
func startLine(
  id: Int, animator: String, clock: String, frames: String, interactive: Bool = false, fps: Double = 60,
  children: Int = 4, params: String = "{}"
) -> String {
  #"{"jsonrpc":"2.0","id":\#(id),"method":"transition/start","params":{"animator":"\#(animator)","#
    + #""operation":"present","clock":"\#(clock)","frames":"\#(frames)","interactive":\#(interactive),"#
    + #""fps":\#(fps),"params":\#(params),\#(viewTrees(children: children))}}"# + "\n"
}

/// The first bytes of the reply to request `id`.
func replyPrefix(_ id: Int) -> [UInt8] {
  Array(#"{"jsonrpc":"2.0","id":\#(id),"#.utf8)
}

/// The first bytes of every frame of transition `t`.
func framePrefix(_ transition: String) -> [UInt8] {
  Array(#"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"\#(transition)","seq":"#.utf8)
}

/// The integer right after `prefix` in `line` (a frame's `seq`).
func integer(after prefix: [UInt8], in line: ArraySlice<UInt8>) -> Int {
  var value = 0
  var index = line.startIndex + prefix.count
  while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39 {
    value = value * 10 + Int(line[index] - 0x30)
    index += 1
  }
  return value
}
