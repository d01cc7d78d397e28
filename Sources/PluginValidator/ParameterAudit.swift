import CTransitionABI
import PluginHost

/// Reads every parameter descriptor of every animator straight from a plugin descriptor and lists every rule
/// it breaks (the loader stops at the first one). Only what the header lays out for ABI 1.0 is read, and only
/// within each struct's `struct_size`.
enum ParameterAudit {
  /// The `param-defaults` verdict for `descriptor`.
  static func audit(_ descriptor: UnsafePointer<th_plugin_descriptor>) -> CheckOutcome {
    let raw = UnsafeRawPointer(descriptor)
    let major = raw.load(fromByteOffset: 4, as: UInt32.self)
    guard major == ABIVersion.host.major else {
      return .skip("the descriptor is for ABI major \(major), whose layout this host does not know (see abi-version)")
    }
    guard Int(raw.load(as: UInt32.self)) >= DescriptorReader.minimumPluginDescriptorSize else {
      return .skip("th_plugin_descriptor.struct_size is too small to hold the animators (see descriptor)")
    }
    let plugin = descriptor.pointee
    let count = Int(plugin.animator_count)
    guard count <= DescriptorReader.maximumAnimators, let animators = plugin.animators else {
      return .skip("no readable animator list (see descriptor)")
    }
    var problems: [String] = []
    var checked = 0
    for index in 0..<count {
      guard let animator = animators[index],
        Int(UnsafeRawPointer(animator).load(as: UInt32.self)) >= DescriptorReader.minimumAnimatorDescriptorSize
      else { continue }  // the descriptor check reports these
      let name = animator.pointee.id.flatMap { String(validatingCString: $0) } ?? "animators[\(index)]"
      let paramCount = Int(animator.pointee.param_count)
      guard paramCount > 0 else { continue }
      guard paramCount <= DescriptorReader.maximumParams, let params = animator.pointee.params else {
        problems.append("\(name): param_count \(paramCount) without a readable params array")
        continue
      }
      var seen: Set<String> = []
      for paramIndex in 0..<paramCount {
        let field = "\(name).params[\(paramIndex)]"
        guard let param = params[paramIndex] else {
          problems.append("\(field) is NULL")
          continue
        }
        checked += 1
        problems += self.problems(of: param, field: field, seen: &seen)
      }
    }
    if !problems.isEmpty {
      return .fail(problems.joined(separator: "; "))
    }
    if checked == 0 { return .pass("no parameters") }
    return .pass("\(checked) parameter\(checked == 1 ? "" : "s"): types known, defaults within their ranges")
  }

  /// Every broken rule of one parameter descriptor, as "field (name): what".
  static func problems(
    of pointer: UnsafePointer<th_param_descriptor>, field: String, seen: inout Set<String>
  ) -> [String] {
    let raw = UnsafeRawPointer(pointer)
    let size = Int(raw.load(as: UInt32.self))
    guard size >= DescriptorReader.minimumParamDescriptorSize else {
      return [
        "\(field): struct_size \(size) is smaller than ABI 1.0's (\(DescriptorReader.minimumParamDescriptorSize))"
      ]
    }
    let param = pointer.pointee
    var problems: [String] = []
    var label = field
    if let name = param.name.flatMap({ String(validatingCString: $0) }), !name.isEmpty {
      label = "\(field) (\(name))"
      if !DescriptorReader.isValidParamName(name) {
        problems.append("\(label): name must match [A-Za-z_][A-Za-z0-9_]*")
      }
      if !seen.insert(name).inserted { problems.append("\(label): name is used twice") }
    } else {
      problems.append("\(field): name is missing")
    }
    switch raw.load(fromByteOffset: 4, as: UInt32.self) {
    case TH_PARAM_NUMBER.rawValue:
      let (low, high, value) = (param.min, param.max, param.default_number)
      if low.isNaN || high.isNaN || low > high {
        problems.append("\(label): min \(low) and max \(high) do not form a range")
      } else if !value.isFinite {
        problems.append("\(label): default \(value) is not finite")
      } else if value < low || value > high {
        problems.append("\(label): default \(value) is outside [\(low), \(high)]")
      }
    case TH_PARAM_BOOL.rawValue:
      break  // any byte is a boolean
    case TH_PARAM_ENUM.rawValue:
      var options: [String] = []
      if let list = param.enum_options {
        var index = 0
        while let item = list[index], index < DescriptorReader.maximumEnumOptions {
          options.append(String(validatingCString: item) ?? "")
          index += 1
        }
      }
      let selected = param.default_string.flatMap { String(validatingCString: $0) }
      if options.isEmpty {
        problems.append("\(label): enum without options")
      } else if options.contains("") || Set(options).count != options.count {
        problems.append("\(label): enum options must be distinct and non-empty")
      }
      if let selected {
        if !options.isEmpty && !options.contains(selected) {
          problems.append(
            "\(label): default \"\(selected)\" is not one of its options (\(options.joined(separator: ", ")))")
        }
      } else {
        problems.append("\(label): enum without a default")
      }
    case TH_PARAM_COLOR.rawValue:
      let c = param.default_color
      if ![c.r, c.g, c.b, c.a].allSatisfy({ $0 >= 0 && $0 <= 1 }) {
        problems.append("\(label): default colour (\(c.r), \(c.g), \(c.b), \(c.a)) has a component outside [0, 1]")
      }
    case TH_PARAM_STRING.rawValue:
      if param.default_string == nil { problems.append("\(label): default_string is NULL (use \"\")") }
    case TH_PARAM_POINT.rawValue:
      if !(param.default_point.x.isFinite && param.default_point.y.isFinite) {
        problems.append("\(label): default point is not finite")
      }
    case TH_PARAM_RECT.rawValue:
      let r = param.default_rect
      if ![r.x, r.y, r.width, r.height].allSatisfy(\.isFinite) || r.width < 0 || r.height < 0 {
        problems.append("\(label): default rect must be finite with width and height >= 0")
      }
    case let other:
      problems.append("\(label): unknown type \(other)")
    }
    return problems
  }
}
