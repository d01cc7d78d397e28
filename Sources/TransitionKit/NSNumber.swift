// NSNumber, as far as Core Animation's API uses it (`locations`, `lineDashPattern`): a boxed number that array
// literals of numbers become.

/// A boxed number (Foundation's NSNumber, as Core Animation's arrays of numbers use it).
public final class NSNumber: NSObject, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, @unchecked Sendable {
  /// The value (every NSNumber here is a double).
  public let doubleValue: Double

  public init(value: Double) {
    doubleValue = value
    super.init()
  }

  public convenience init(value: Float) { self.init(value: Double(value)) }
  public convenience init(value: Int) { self.init(value: Double(value)) }
  public convenience init(integerLiteral value: Int) { self.init(value: Double(value)) }
  public convenience init(floatLiteral value: Double) { self.init(value: value) }

  public var floatValue: Float { Float(doubleValue) }
  public var intValue: Int { Int(doubleValue) }

  public override func isEqual(_ object: Any?) -> Bool { (object as? NSNumber)?.doubleValue == doubleValue }
  public override var hash: Int { doubleValue.hashValue }
  public override var description: String { "\(doubleValue)" }
}
