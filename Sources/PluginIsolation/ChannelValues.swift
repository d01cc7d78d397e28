// How the values that cross the driver seam are written on the channel: statuses, commands, curves, parameter
// values, outcomes, events, errors, plugin metadata and log records. Each type writes a tag byte, then its fields;
// reading checks every tag.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine
import TransitionService

extension MessageWriter {
  mutating func status(_ status: TransitionStatus) {
    state(status.state)
    double(status.time)
    double(status.percent)
    double(status.duration)
    bool(status.isInteractive)
    optional(status.nextEventIn) { $0.double($1) }
    // Added after the fields above (parent and worker are the same binary, so they always agree on it).
    bool(status.canMoveWithoutInput)
  }

  mutating func state(_ state: TransitionState) {
    switch state {
    case .idle: u8(0)
    case .running: u8(1)
    case .paused: u8(2)
    case .finishing: u8(3)
    case .cancelling: u8(4)
    case .ended(let outcome):
      u8(5)
      self.outcome(outcome)
    }
  }

  mutating func outcome(_ outcome: TransitionOutcome) {
    switch outcome {
    case .completed: u8(0)
    case .cancelled(let reason):
      u8(1)
      optional(reason) { $0.string($1) }
    case .failed(let reason):
      u8(2)
      string(reason)
    }
  }

  mutating func command(_ command: TransitionCommand) {
    switch command {
    case .update(let percent):
      u8(0)
      double(percent)
    case .pause: u8(1)
    case .finish(let velocity, let speed, let curve):
      u8(2)
      tail(velocity, speed, curve)
    case .cancel(let velocity, let speed, let curve):
      u8(3)
      tail(velocity, speed, curve)
    case .release(let velocity):
      u8(4)
      double(velocity)
    case .reverse: u8(5)
    case .advance(let seconds):
      u8(6)
      double(seconds)
    case .gesture(let sample):
      u8(7)
      string(sample.state.rawValue)
      for value in [
        sample.location.x, sample.location.y, sample.translation.x, sample.translation.y, sample.velocity.x,
        sample.velocity.y,
      ] { double(value) }
    }
  }

  private mutating func tail(_ velocity: Double, _ speed: Double?, _ curve: TimingCurve?) {
    double(velocity)
    optional(speed) { $0.double($1) }
    optional(curve) { $0.curve($1) }
  }

  mutating func curve(_ curve: TimingCurve) {
    switch curve {
    case .linear: u8(0)
    case .easeIn: u8(1)
    case .easeOut: u8(2)
    case .easeInOut: u8(3)
    case .default: u8(4)
    case .bezier(let x1, let y1, let x2, let y2):
      u8(5)
      for value in [x1, y1, x2, y2] { double(value) }
    case .steps(let count, let position):
      u8(6)
      int(count)
      bool(position == .start)
    }
  }

  mutating func parameter(_ value: ParameterValue) {
    switch value {
    case .number(let number):
      u8(0)
      double(number)
    case .bool(let flag):
      u8(1)
      bool(flag)
    case .string(let text):
      u8(2)
      string(text)
    case .enumCase(let text):
      u8(3)
      string(text)
    case .color(let color):
      u8(4)
      for component in [color.r, color.g, color.b, color.a] { double(component) }
    case .point(let point):
      u8(5)
      double(point.x)
      double(point.y)
    case .rect(let rect):
      u8(6)
      for component in [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height] { double(component) }
    }
  }

  mutating func commandResult(_ result: Result<TransitionCommandResult, DriverError>) {
    switch result {
    case .success(.done): u8(0)
    case .success(.released(let decision)): u8(decision == .finish ? 1 : 2)
    case .success(.gesture(let delivery)):
      u8(4)
      switch delivery {
      case .received(let count):
        u8(0)
        int(count)
      case .noRecognizers: u8(1)
      case .notHit: u8(2)
      case .notInProgress: u8(3)
      }
    case .failure(let error):
      u8(3)
      driverError(error)
    }
  }

  mutating func driverError(_ error: DriverError) {
    switch error {
    case .engine(let engine):
      u8(0)
      transitionError(engine)
    case .refused(let refusal):
      u8(1)
      responseError(refusal)
    case .fault(let fault):
      // A worker never reports a fault of its own; as a refusal it stays readable.
      u8(1)
      responseError(fault.responseError)
    case .abandoned:
      u8(1)
      responseError(error.responseError(transition: "", phase: ""))
    }
  }

  mutating func transitionError(_ error: TransitionError) {
    switch error {
    case .notStarted: u8(0)
    case .alreadyStarted: u8(1)
    case .ended: u8(2)
    case .alreadyFinishing: u8(3)
    case .alreadyCancelling: u8(4)
    case .notRunning: u8(5)
    case .notInteractive: u8(6)
    case .noInteractionController: u8(8)
    case .invalidValue(let field, let reason):
      u8(7)
      string(field)
      string(reason)
    }
  }

  mutating func responseError(_ error: ResponseError) {
    int(error.code.rawValue)
    string(error.message)
    optional(error.dataText) { $0.string($1) }
  }

  mutating func event(_ event: TransitionEvent) {
    switch event {
    case .ended(let outcome):
      u8(0)
      self.outcome(outcome)
    case .misbehaved(let report):
      u8(1)
      misbehavior(report)
    case .misusedViewModel(let text):
      u8(2)
      string(text)
    case .timelineChanged(let text):
      u8(3)
      bytes(text)
    case .lost, .abandoned:
      preconditionFailure("a worker never reports its own end")
    }
  }

  private mutating func misbehavior(_ report: Misbehavior) {
    switch report.kind {
    case .completedTwice: u8(0)
    case .neverCompleted: u8(1)
    case .callAfterCompletion: u8(2)
    case .invalidValue(let field):
      u8(3)
      string(field)
    case .unknownView: u8(4)
    case .wrongPhase: u8(5)
    }
    string(report.animatorID)
    string(report.message)
  }

  mutating func pluginInfo(_ info: PluginInfo) {
    string(info.id)
    string(info.name)
    string(info.version)
    optional(info.vendor) { $0.string($1) }
    optional(info.description) { $0.string($1) }
    u32(info.abi.major)
    u32(info.abi.minor)
    u32(UInt32(info.animators.count))
    for animator in info.animators {
      string(animator.id)
      string(animator.name)
      optional(animator.description) { $0.string($1) }
      optional(animator.operations) { $0.strings($1) }
      u32(UInt32(animator.params.count))
      for parameter in animator.params {
        string(parameter.name)
        string(parameter.kind.rawValue)
        optional(parameter.doc) { $0.string($1) }
        parameterDefault(parameter.defaultValue)
        optional(parameter.minimum) { $0.double($1) }
        optional(parameter.maximum) { $0.double($1) }
        strings(parameter.options)
      }
    }
  }

  private mutating func parameterDefault(_ value: PluginParameter.Value) {
    switch value {
    case .number(let number):
      u8(0)
      double(number)
    case .bool(let flag):
      u8(1)
      bool(flag)
    case .string(let text):
      u8(2)
      string(text)
    case .color(let r, let g, let b, let a):
      u8(3)
      for component in [r, g, b, a] { double(component) }
    case .point(let x, let y):
      u8(4)
      double(x)
      double(y)
    case .rect(let x, let y, let width, let height):
      u8(5)
      for component in [x, y, width, height] { double(component) }
    }
  }

  mutating func logRecord(_ record: PluginLogRecord) {
    string(record.source)
    u8(UInt8(record.level.rawValue))
    string(record.message)
  }
}

extension MessageReader {
  mutating func status() throws(ChannelError) -> TransitionStatus {
    TransitionStatus(
      state: try state(), time: try double(), percent: try double(), duration: try double(), isInteractive: try bool(),
      nextEventIn: try optional { (r: inout MessageReader) throws(ChannelError) in try r.double() },
      canMoveWithoutInput: try bool())
  }

  mutating func state() throws(ChannelError) -> TransitionState {
    switch try u8() {
    case 0: return .idle
    case 1: return .running
    case 2: return .paused
    case 3: return .finishing
    case 4: return .cancelling
    case 5: return .ended(try outcome())
    case let tag: throw ChannelError("\(tag) is not a transition state")
    }
  }

  mutating func outcome() throws(ChannelError) -> TransitionOutcome {
    switch try u8() {
    case 0: return .completed
    case 1: return .cancelled(reason: try optional { (r: inout MessageReader) throws(ChannelError) in try r.string() })
    case 2: return .failed(reason: try string())
    case let tag: throw ChannelError("\(tag) is not an outcome")
    }
  }

  mutating func command() throws(ChannelError) -> TransitionCommand {
    switch try u8() {
    case 0: return .update(percent: try double())
    case 1: return .pause
    case 2:
      let (velocity, speed, curve) = try tail()
      return .finish(velocity: velocity, speed: speed, curve: curve)
    case 3:
      let (velocity, speed, curve) = try tail()
      return .cancel(velocity: velocity, speed: speed, curve: curve)
    case 4: return .release(velocity: try double())
    case 5: return .reverse
    case 6: return .advance(seconds: try double())
    case 7:
      guard let state = GestureSample.State(rawValue: try string()) else {
        throw ChannelError("an unknown gesture state")
      }
      return .gesture(
        GestureSample(
          state: state, location: Point(x: try double(), y: try double()),
          translation: Point(x: try double(), y: try double()), velocity: Point(x: try double(), y: try double())))
    case let tag: throw ChannelError("\(tag) is not a command")
    }
  }

  private mutating func tail() throws(ChannelError) -> (Double, Double?, TimingCurve?) {
    let velocity = try double()
    let speed = try optional { (r: inout MessageReader) throws(ChannelError) in try r.double() }
    return (velocity, speed, try optional { (r: inout MessageReader) throws(ChannelError) in try r.curve() })
  }

  mutating func curve() throws(ChannelError) -> TimingCurve {
    switch try u8() {
    case 0: return .linear
    case 1: return .easeIn
    case 2: return .easeOut
    case 3: return .easeInOut
    case 4: return .default
    case 5: return .bezier(try double(), try double(), try double(), try double())
    case 6: return .steps(try int(), try bool() ? .start : .end)
    case let tag: throw ChannelError("\(tag) is not a curve")
    }
  }

  mutating func parameter() throws(ChannelError) -> ParameterValue {
    switch try u8() {
    case 0: return .number(try double())
    case 1: return .bool(try bool())
    case 2: return .string(try string())
    case 3: return .enumCase(try string())
    case 4: return .color(Color(r: try double(), g: try double(), b: try double(), a: try double()))
    case 5: return .point(Point(x: try double(), y: try double()))
    case 6: return .rect(Rect(x: try double(), y: try double(), width: try double(), height: try double()))
    case let tag: throw ChannelError("\(tag) is not a parameter value")
    }
  }

  mutating func commandResult() throws(ChannelError) -> Result<TransitionCommandResult, DriverError> {
    switch try u8() {
    case 0: return .success(.done)
    case 1: return .success(.released(.finish))
    case 2: return .success(.released(.cancel))
    case 3: return .failure(try driverError())
    case 4:
      switch try u8() {
      case 0: return .success(.gesture(.received(recognizers: try int())))
      case 1: return .success(.gesture(.noRecognizers))
      case 2: return .success(.gesture(.notHit))
      case 3: return .success(.gesture(.notInProgress))
      case let tag: throw ChannelError("\(tag) is not a gesture delivery")
      }
    case let tag: throw ChannelError("\(tag) is not a call's result")
    }
  }

  mutating func driverError() throws(ChannelError) -> DriverError {
    switch try u8() {
    case 0: return .engine(try transitionError())
    case 1: return .refused(try responseError())
    case let tag: throw ChannelError("\(tag) is not a call's error")
    }
  }

  mutating func transitionError() throws(ChannelError) -> TransitionError {
    switch try u8() {
    case 0: return .notStarted
    case 1: return .alreadyStarted
    case 2: return .ended
    case 3: return .alreadyFinishing
    case 4: return .alreadyCancelling
    case 5: return .notRunning
    case 6: return .notInteractive
    case 8: return .noInteractionController
    case 7: return .invalidValue(field: try string(), reason: try string())
    case let tag: throw ChannelError("\(tag) is not an engine error")
    }
  }

  /// An error reply the worker made (its `data`, parsed here by json-c, must be JSON).
  mutating func responseError() throws(ChannelError) -> ResponseError {
    let code = try int()
    let message = try string()
    let dataText = try optional { (r: inout MessageReader) throws(ChannelError) in try r.string() }
    var data: JSON?
    if let dataText {
      guard let parsed = try? JSON.parse(dataText) else { throw ChannelError("an error's data is not JSON") }
      data = parsed
    }
    return ResponseError(code: ErrorCode(rawValue: code), message: message, data: data)
  }

  mutating func event() throws(ChannelError) -> TransitionEvent {
    switch try u8() {
    case 0: return .ended(try outcome())
    case 1: return .misbehaved(try misbehavior())
    case 2: return .misusedViewModel(try string())
    case 3:
      // JSON text from a process that runs plugin code: parsed and checked, never trusted.
      let text = try bytes()
      guard let json = try? JSON.parse(text), json["transition"]?.stringValue != nil, json["animations"] != nil else {
        throw ChannelError("a timeline that is not a timeline object")
      }
      return .timelineChanged(Array(text))
    case let tag: throw ChannelError("\(tag) is not an event")
    }
  }

  private mutating func misbehavior() throws(ChannelError) -> Misbehavior {
    let kind: Misbehavior.Kind
    switch try u8() {
    case 0: kind = .completedTwice
    case 1: kind = .neverCompleted
    case 2: kind = .callAfterCompletion
    case 3: kind = .invalidValue(field: try string())
    case 4: kind = .unknownView
    case 5: kind = .wrongPhase
    case let tag: throw ChannelError("\(tag) is not a kind of misbehaviour")
    }
    return Misbehavior(kind: kind, animatorID: try string(), message: try string())
  }

  mutating func pluginInfo() throws(ChannelError) -> PluginInfo {
    let id = try string()
    let name = try string()
    let version = try string()
    let vendor = try optional { (r: inout MessageReader) throws(ChannelError) in try r.string() }
    let description = try optional { (r: inout MessageReader) throws(ChannelError) in try r.string() }
    let abi = ABIVersion(major: try u32(), minor: try u32())
    var animators: [AnimatorInfo] = []
    for _ in 0..<(try count()) {
      let animatorID = try string()
      let animatorName = try string()
      let animatorDescription = try optional { (r: inout MessageReader) throws(ChannelError) in try r.string() }
      let operations = try optional { (r: inout MessageReader) throws(ChannelError) in try r.strings() }
      var params: [PluginParameter] = []
      for _ in 0..<(try count()) {
        let parameterName = try string()
        let kindName = try string()
        guard let kind = PluginParameter.Kind(rawValue: kindName) else {
          throw ChannelError("\(kindName) is not a parameter type")
        }
        let doc = try optional { (r: inout MessageReader) throws(ChannelError) in try r.string() }
        let value = try parameterDefault()
        let minimum = try optional { (r: inout MessageReader) throws(ChannelError) in try r.double() }
        let maximum = try optional { (r: inout MessageReader) throws(ChannelError) in try r.double() }
        params.append(
          PluginParameter(
            name: parameterName, kind: kind, doc: doc, defaultValue: value, minimum: minimum, maximum: maximum,
            options: try strings()))
      }
      animators.append(
        AnimatorInfo(
          id: animatorID, name: animatorName, description: animatorDescription, operations: operations,
          params: params))
    }
    return PluginInfo(
      id: id, name: name, version: version, vendor: vendor, description: description, abi: abi, animators: animators)
  }

  private mutating func parameterDefault() throws(ChannelError) -> PluginParameter.Value {
    switch try u8() {
    case 0: return .number(try double())
    case 1: return .bool(try bool())
    case 2: return .string(try string())
    case 3: return .color(r: try double(), g: try double(), b: try double(), a: try double())
    case 4: return .point(x: try double(), y: try double())
    case 5: return .rect(x: try double(), y: try double(), width: try double(), height: try double())
    case let tag: throw ChannelError("\(tag) is not a parameter default")
    }
  }

  mutating func logRecord() throws(ChannelError) -> PluginLogRecord {
    let source = try string()
    let level = PluginLogLevel(rawValue: Int(try u8())) ?? .error
    return PluginLogRecord(source: source, level: level, message: try string())
  }
}
