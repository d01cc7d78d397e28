import CTransitionABI

#if canImport(Glibc)
  import Glibc
#endif

/// Reads and validates a plugin descriptor, copying everything into `PluginInfo`.
///
/// Every rule the header states for descriptors is checked here; a broken one is a 1005 error naming the
/// field. Fields beyond a struct's `struct_size` are never read (a plugin built against a newer minor has
/// more, one against an older layout is refused); fields the host does not know are ignored.
package enum DescriptorReader {
  /// ABI 1.0 sizes: the smallest `struct_size` each growable struct may declare.
  package static let minimumPluginDescriptorSize = 88
  package static let minimumAnimatorDescriptorSize = 104
  package static let minimumParamDescriptorSize = 152

  /// Sanity limits, so that a garbage count cannot make the host walk through memory.
  package static let maximumAnimators = 1024
  package static let maximumParams = 256
  package static let maximumOperations = 64
  package static let maximumEnumOptions = 1024
  package static let maximumAnimatorIDBytes = 64
  package static let maximumPluginIDBytes = 128

  /// Checks the ABI version, then the whole descriptor.
  ///
  /// - Throws: `.abiIncompatible` (1004) for another major version, `.invalidDescriptor` (1005) with the
  ///   first broken rule.
  package static func read(
    _ descriptor: UnsafePointer<th_plugin_descriptor>, path: String
  ) throws(PluginLoadError) -> PluginInfo {
    // struct_size, abi_major and abi_minor are at the same offsets in every ABI version.
    let raw = UnsafeRawPointer(descriptor)
    let structSize = Int(raw.load(as: UInt32.self))
    let abi = ABIVersion(
      major: raw.load(fromByteOffset: 4, as: UInt32.self),
      minor: raw.load(fromByteOffset: 8, as: UInt32.self))
    guard abi.major == ABIVersion.host.major else {
      throw .abiIncompatible(path: path, pluginABI: abi, hostABI: .host)
    }
    func invalid(_ reason: String) -> PluginLoadError { .invalidDescriptor(path: path, reason: reason) }
    guard structSize >= minimumPluginDescriptorSize else {
      throw invalid(
        "struct_size \(structSize) is smaller than ABI 1.0's th_plugin_descriptor (\(minimumPluginDescriptorSize))")
    }
    do {
      return try readPlugin(descriptor.pointee, abi: abi)
    } catch {
      throw invalid(error.reason)
    }
  }

  private static func readPlugin(
    _ plugin: th_plugin_descriptor, abi: ABIVersion
  ) throws(DescriptorFieldError) -> PluginInfo {
    let id = try requiredString(plugin.id, field: "id")
    guard isValidPluginID(id) else {
      throw DescriptorFieldError("id \"\(id)\" is not a reverse-DNS id (e.g. com.example.fade)")
    }
    let name = try requiredString(plugin.name, field: "name")
    let version = try requiredString(plugin.version, field: "version")
    let vendor = try optionalString(plugin.vendor, field: "vendor")
    let description = try optionalString(plugin.description, field: "description")
    let count = Int(plugin.animator_count)
    guard count >= 1 else { throw DescriptorFieldError("animator_count is 0: a plugin declares at least one animator") }
    guard count <= maximumAnimators else {
      throw DescriptorFieldError("animator_count \(count) exceeds the limit \(maximumAnimators)")
    }
    guard let list = plugin.animators else { throw DescriptorFieldError("animators is NULL") }
    var animators: [AnimatorInfo] = []
    var seen: Set<String> = []
    for index in 0..<count {
      guard let animator = list[index] else { throw DescriptorFieldError("animators[\(index)] is NULL") }
      let info = try readAnimator(animator, field: "animators[\(index)]")
      guard seen.insert(info.id).inserted else {
        throw DescriptorFieldError("animators[\(index)].id \"\(info.id)\" is used twice")
      }
      animators.append(info)
    }
    return PluginInfo(
      id: id, name: name, version: version, vendor: vendor, description: description, abi: abi,
      animators: animators)
  }

  // MARK: - Animators and parameters

  private static func readAnimator(
    _ pointer: UnsafePointer<th_animator_descriptor>, field: String
  ) throws(DescriptorFieldError) -> AnimatorInfo {
    let structSize = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
    guard structSize >= minimumAnimatorDescriptorSize else {
      throw DescriptorFieldError(
        "\(field).struct_size \(structSize) is smaller than ABI 1.0's th_animator_descriptor (\(minimumAnimatorDescriptorSize))"
      )
    }
    let animator = pointer.pointee
    let id = try requiredString(animator.id, field: "\(field).id")
    guard isValidAnimatorID(id) else {
      throw DescriptorFieldError(
        "\(field).id \"\(id)\" must match [A-Za-z0-9][A-Za-z0-9._-]* (at most \(maximumAnimatorIDBytes) bytes)")
    }
    let name = try requiredString(animator.name, field: "\(field).name")
    let description = try optionalString(animator.description, field: "\(field).description")
    guard animator.create != nil else { throw DescriptorFieldError("\(field).create is NULL") }
    guard animator.destroy != nil else { throw DescriptorFieldError("\(field).destroy is NULL") }
    guard animator.transition_duration != nil else {
      throw DescriptorFieldError("\(field).transition_duration is NULL")
    }
    guard animator.animate_transition != nil else {
      throw DescriptorFieldError("\(field).animate_transition is NULL")
    }

    var operations: [String]?
    if let list = animator.operations {
      let values = try stringList(list, field: "\(field).operations", limit: maximumOperations)
      guard !values.isEmpty else {
        throw DescriptorFieldError("\(field).operations is empty (NULL means every operation)")
      }
      operations = values
    }

    let count = Int(animator.param_count)
    guard count <= maximumParams else {
      throw DescriptorFieldError("\(field).param_count \(count) exceeds the limit \(maximumParams)")
    }
    var params: [PluginParameter] = []
    if count > 0 {
      guard let list = animator.params else { throw DescriptorFieldError("\(field).params is NULL") }
      var seen: Set<String> = []
      for index in 0..<count {
        guard let param = list[index] else { throw DescriptorFieldError("\(field).params[\(index)] is NULL") }
        let info = try readParam(param, field: "\(field).params[\(index)]")
        guard seen.insert(info.name).inserted else {
          throw DescriptorFieldError("\(field).params[\(index)].name \"\(info.name)\" is used twice")
        }
        params.append(info)
      }
    }
    return AnimatorInfo(id: id, name: name, description: description, operations: operations, params: params)
  }

  private static func readParam(_ pointer: UnsafePointer<th_param_descriptor>, field: String)
    throws(DescriptorFieldError)
    -> PluginParameter
  {
    let raw = UnsafeRawPointer(pointer)
    let structSize = Int(raw.load(as: UInt32.self))
    guard structSize >= minimumParamDescriptorSize else {
      throw DescriptorFieldError(
        "\(field).struct_size \(structSize) is smaller than ABI 1.0's th_param_descriptor (\(minimumParamDescriptorSize))"
      )
    }
    let param = pointer.pointee
    let name = try requiredString(param.name, field: "\(field).name")
    guard isValidParamName(name) else {
      throw DescriptorFieldError("\(field).name \"\(name)\" must match [A-Za-z_][A-Za-z0-9_]*")
    }
    let doc = try optionalString(param.doc, field: "\(field).doc")
    let where_ = "\(field) (\(name))"
    var minimum: Double?
    var maximum: Double?
    var options: [String] = []
    let kind: PluginParameter.Kind
    let value: PluginParameter.Value
    // Read the type as a raw number: a C enum field may hold any value.
    switch raw.load(fromByteOffset: 4, as: UInt32.self) {
    case TH_PARAM_NUMBER.rawValue:
      kind = .number
      let (low, high, number) = (param.min, param.max, param.default_number)
      guard !low.isNaN, !high.isNaN, low <= high else {
        throw DescriptorFieldError("\(where_): min \(low) and max \(high) do not form a range (min <= max)")
      }
      guard number.isFinite else { throw DescriptorFieldError("\(where_): default \(number) is not finite") }
      guard low <= number, number <= high else {
        throw DescriptorFieldError(
          "\(where_): default \(number) is outside [\(low), \(high)] (use -INFINITY / INFINITY for an unbounded side)")
      }
      (minimum, maximum, value) = (low, high, .number(number))
    case TH_PARAM_BOOL.rawValue:
      kind = .bool
      // Read the byte: a C bool field that holds 2 is still "true", and must not become an invalid Swift Bool.
      value = .bool(
        raw.load(fromByteOffset: MemoryLayout<th_param_descriptor>.offset(of: \.default_bool)!, as: UInt8.self) != 0)
    case TH_PARAM_ENUM.rawValue:
      kind = .enum
      guard let list = param.enum_options else { throw DescriptorFieldError("\(where_): enum_options is NULL") }
      options = try stringList(list, field: "\(where_).enum_options", limit: maximumEnumOptions)
      guard !options.isEmpty else { throw DescriptorFieldError("\(where_): enum_options is empty") }
      let selected = try requiredString(param.default_string, field: "\(where_).default_string")
      guard options.contains(selected) else {
        throw DescriptorFieldError("\(where_): default \"\(selected)\" is not one of its enum_options")
      }
      value = .string(selected)
    case TH_PARAM_COLOR.rawValue:
      kind = .color
      let c = param.default_color
      guard [c.r, c.g, c.b, c.a].allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
        throw DescriptorFieldError("\(where_): default colour components must be in [0, 1]")
      }
      value = .color(r: c.r, g: c.g, b: c.b, a: c.a)
    case TH_PARAM_STRING.rawValue:
      kind = .string
      guard let text = param.default_string else {
        throw DescriptorFieldError("\(where_): default_string is NULL (use \"\" for an empty default)")
      }
      value = .string(try decode(text, field: "\(where_).default_string"))
    case TH_PARAM_POINT.rawValue:
      kind = .point
      let p = param.default_point
      guard p.x.isFinite, p.y.isFinite else { throw DescriptorFieldError("\(where_): default point is not finite") }
      value = .point(x: p.x, y: p.y)
    case TH_PARAM_RECT.rawValue:
      kind = .rect
      let r = param.default_rect
      guard [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite), r.width >= 0, r.height >= 0 else {
        throw DescriptorFieldError("\(where_): default rect must be finite with width and height >= 0")
      }
      value = .rect(x: r.x, y: r.y, width: r.width, height: r.height)
    case let other:
      throw DescriptorFieldError("\(where_): unknown type \(other)")
    }
    return PluginParameter(
      name: name, kind: kind, doc: doc, defaultValue: value, minimum: minimum, maximum: maximum, options: options)
  }

  // MARK: - Strings and ids

  private static func requiredString(_ pointer: UnsafePointer<CChar>?, field: String) throws(DescriptorFieldError)
    -> String
  {
    guard let pointer else { throw DescriptorFieldError("\(field) is NULL") }
    let value = try decode(pointer, field: field)
    guard !value.isEmpty else { throw DescriptorFieldError("\(field) is empty") }
    return value
  }

  private static func optionalString(_ pointer: UnsafePointer<CChar>?, field: String) throws(DescriptorFieldError)
    -> String?
  {
    guard let pointer else { return nil }
    let value = try decode(pointer, field: field)
    return value.isEmpty ? nil : value
  }

  private static func decode(_ pointer: UnsafePointer<CChar>, field: String) throws(DescriptorFieldError) -> String {
    guard let value = String(validatingCString: pointer) else {
      throw DescriptorFieldError("\(field) is not valid UTF-8")
    }
    return value
  }

  /// A NULL-terminated array of distinct non-empty strings.
  private static func stringList(
    _ list: UnsafePointer<UnsafePointer<CChar>?>, field: String, limit: Int
  ) throws(DescriptorFieldError) -> [String] {
    var values: [String] = []
    var index = 0
    while let item = list[index] {
      guard index < limit else {
        throw DescriptorFieldError("\(field) has more than \(limit) entries (missing NULL end?)")
      }
      let value = try requiredString(item, field: "\(field)[\(index)]")
      guard !values.contains(value) else {
        throw DescriptorFieldError("\(field)[\(index)] \"\(value)\" is listed twice")
      }
      values.append(value)
      index += 1
    }
    return values
  }

  /// Two or more dot-separated labels of `[A-Za-z0-9_-]`, at most 128 bytes.
  package static func isValidPluginID(_ id: String) -> Bool {
    guard id.utf8.count <= maximumPluginIDBytes else { return false }
    let labels = id.split(separator: ".", omittingEmptySubsequences: false)
    return labels.count >= 2
      && labels.allSatisfy { label in
        !label.isEmpty
          && label.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
      }
  }

  /// `[A-Za-z0-9][A-Za-z0-9._-]*`, at most 64 bytes (no '/': it separates plugin and animator ids).
  package static func isValidAnimatorID(_ id: String) -> Bool {
    let bytes = Array(id.utf8)
    guard let first = bytes.first, bytes.count <= maximumAnimatorIDBytes, isASCIIAlphanumeric(first) else {
      return false
    }
    return bytes.allSatisfy {
      isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
    }
  }

  /// `[A-Za-z_][A-Za-z0-9_]*`.
  package static func isValidParamName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, isASCIILetter(first) || first == UInt8(ascii: "_") else { return false }
    return bytes.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}

/// A broken descriptor rule, before it becomes a 1005 error with the plugin's path.
private struct DescriptorFieldError: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
