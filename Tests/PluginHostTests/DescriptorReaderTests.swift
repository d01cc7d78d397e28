import CTransitionABI
import PluginHost
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Builds descriptors in memory the way a C plugin would lay them out, so that every validation rule can
/// be broken one at a time without a fixture library per rule. Everything is freed in deinit.
private final class DescriptorBuilder {
  private var allocations: [UnsafeMutableRawPointer] = []
  var plugin: th_plugin_descriptor
  var animators: [th_animator_descriptor]
  var params: [[th_param_descriptor]]

  init() {
    plugin = th_plugin_descriptor()
    animators = []
    params = []
    plugin.struct_size = UInt32(MemoryLayout<th_plugin_descriptor>.size)
    plugin.abi_major = TH_ABI_VERSION_MAJOR
    plugin.abi_minor = TH_ABI_VERSION_MINOR
    plugin.id = string("com.example.built")
    plugin.name = string("Built")
    plugin.version = string("2.0")
    addAnimator(id: "one")
  }

  deinit {
    for allocation in allocations { free(allocation) }
  }

  func string(_ value: String) -> UnsafePointer<CChar> {
    let copy = strdup(value)!
    allocations.append(UnsafeMutableRawPointer(copy))
    return UnsafePointer(copy)
  }

  /// A NULL-terminated string array.
  func stringList(_ values: [String]) -> UnsafePointer<UnsafePointer<CChar>?> {
    let list = malloc(MemoryLayout<UnsafePointer<CChar>?>.stride * (values.count + 1))!
      .bindMemory(to: UnsafePointer<CChar>?.self, capacity: values.count + 1)
    allocations.append(UnsafeMutableRawPointer(list))
    for (index, value) in values.enumerated() { list[index] = string(value) }
    list[values.count] = nil
    return UnsafePointer(list)
  }

  func addAnimator(id: String) {
    var animator = th_animator_descriptor()
    animator.struct_size = UInt32(MemoryLayout<th_animator_descriptor>.size)
    animator.id = string(id)
    animator.name = string("Animator \(id)")
    animator.create = { _, _ in nil }
    animator.destroy = { _ in }
    animator.transition_duration = { _, _ in 1 }
    animator.animate_transition = { _, _ in }
    animators.append(animator)
    params.append([])
  }

  /// A number parameter on animator `index`, to be edited by the caller.
  @discardableResult
  func addParam(_ name: String, type: th_param_type = TH_PARAM_NUMBER, to index: Int = 0) -> Int {
    var param = th_param_descriptor()
    param.struct_size = UInt32(MemoryLayout<th_param_descriptor>.size)
    param.type = type
    param.name = string(name)
    param.min = -.infinity
    param.max = .infinity
    params[index].append(param)
    return params[index].count - 1
  }

  /// Lays everything out in C memory and reads it.
  func read() throws(PluginLoadError) -> PluginInfo {
    func copy<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
      let memory = malloc(max(1, MemoryLayout<T>.stride * values.count))!.bindMemory(to: T.self, capacity: values.count)
      allocations.append(UnsafeMutableRawPointer(memory))
      memory.initialize(from: values, count: values.count)
      return memory
    }
    var animatorCopies = animators
    for index in animatorCopies.indices where !params[index].isEmpty {
      let paramStructs = copy(params[index])
      let pointers = copy((0..<params[index].count).map { Optional(UnsafePointer(paramStructs + $0)) })
      animatorCopies[index].params = UnsafePointer(pointers)
      animatorCopies[index].param_count = UInt32(params[index].count)
    }
    let animatorStructs = copy(animatorCopies)
    let pointers = copy((0..<animatorCopies.count).map { Optional(UnsafePointer(animatorStructs + $0)) })
    var plugin = self.plugin
    if plugin.animators == nil {
      plugin.animators = UnsafePointer(pointers)
      if plugin.animator_count == 0 && animators.count > 0 { plugin.animator_count = UInt32(animators.count) }
    }
    let descriptor = copy([plugin])
    return try DescriptorReader.read(descriptor, path: "/p/libBuilt.so")
  }

  /// The 1005 reason, or nil when the descriptor is accepted.
  func rejection() -> String? {
    do {
      _ = try read()
      return nil
    } catch {
      if case .invalidDescriptor(_, let reason) = error { return reason }
      return "unexpected \(error)"
    }
  }
}

@Suite struct DescriptorReaderTests {
  @Test func aWellFormedDescriptorIsCopied() throws {
    let builder = DescriptorBuilder()
    builder.plugin.vendor = builder.string("")  // empty optional strings read as absent
    builder.plugin.description = builder.string("Built in a test.")
    let info = try builder.read()
    #expect(info.id == "com.example.built" && info.name == "Built" && info.version == "2.0")
    #expect(info.vendor == nil && info.description == "Built in a test.")
    #expect(info.animators.map(\.id) == ["one"])
  }

  @Test func abiMajorIsCheckedBeforeAnythingElse() {
    let builder = DescriptorBuilder()
    builder.plugin.abi_major = 2
    builder.plugin.struct_size = 12  // a future major may have another layout: only the first fields count
    builder.plugin.id = nil
    #expect(
      throws: PluginLoadError.abiIncompatible(
        path: "/p/libBuilt.so", pluginABI: ABIVersion(major: 2, minor: ABIVersion.host.minor), hostABI: .host)
    ) { try builder.read() }
  }

  @Test func newerMinorsAndLargerStructsAreAccepted() throws {
    // A plugin built against 1.7 has a larger descriptor; the host reads the 1.0 part.
    let builder = DescriptorBuilder()
    builder.plugin.abi_minor = 7
    builder.plugin.struct_size += 64
    builder.animators[0].struct_size += 8
    let info = try builder.read()
    #expect(info.abi == ABIVersion(major: 1, minor: 7))
  }

  @Test func pluginFields() {
    func rejection(_ edit: (DescriptorBuilder) -> Void) -> String? {
      let builder = DescriptorBuilder()
      edit(builder)
      return builder.rejection()
    }
    #expect(
      rejection { $0.plugin.struct_size = 87 } == "struct_size 87 is smaller than ABI 1.0's th_plugin_descriptor (88)")
    #expect(rejection { $0.plugin.id = nil } == "id is NULL")
    #expect(rejection { $0.plugin.name = nil } == "name is NULL")
    #expect(rejection { $0.plugin.name = $0.string("") } == "name is empty")
    #expect(rejection { $0.plugin.version = nil } == "version is NULL")
    #expect(
      rejection { $0.plugin.id = $0.string("fade") } == "id \"fade\" is not a reverse-DNS id (e.g. com.example.fade)")
    #expect(rejection { $0.plugin.animator_count = 5000 } == "animator_count 5000 exceeds the limit 1024")
    #expect(
      rejection { b in
        b.animators = []; b.params = []
      } == "animator_count is 0: a plugin declares at least one animator")
    // Invalid UTF-8 (a lone continuation byte).
    #expect(
      rejection { b in
        let bytes = malloc(3)!.bindMemory(to: CChar.self, capacity: 3)
        bytes[0] = 0x41; bytes[1] = CChar(bitPattern: 0x80); bytes[2] = 0
        b.plugin.name = UnsafePointer(bytes)  // leaked: test-only
      } == "name is not valid UTF-8")
  }

  @Test func animatorFields() {
    func rejection(_ edit: (DescriptorBuilder) -> Void) -> String? {
      let builder = DescriptorBuilder()
      builder.addAnimator(id: "two")
      edit(builder)
      return builder.rejection()
    }
    #expect(rejection { $0.animators[1].id = $0.string("one") } == "animators[1].id \"one\" is used twice")
    #expect(
      rejection { $0.animators[1].id = $0.string("a/b") }?.hasPrefix("animators[1].id \"a/b\" must match") == true)
    #expect(rejection { $0.animators[1].id = $0.string("-x") }?.hasPrefix("animators[1].id \"-x\" must match") == true)
    #expect(rejection { $0.animators[1].id = $0.string(String(repeating: "a", count: 65)) } != nil)
    #expect(
      rejection { $0.animators[1].struct_size = 100 }
        == "animators[1].struct_size 100 is smaller than ABI 1.0's th_animator_descriptor (104)")
    #expect(rejection { $0.animators[1].name = nil } == "animators[1].name is NULL")
    #expect(rejection { $0.animators[0].create = nil } == "animators[0].create is NULL")
    #expect(rejection { $0.animators[0].destroy = nil } == "animators[0].destroy is NULL")
    #expect(rejection { $0.animators[0].transition_duration = nil } == "animators[0].transition_duration is NULL")
    #expect(
      rejection { $0.animators[0].operations = $0.stringList([]) }
        == "animators[0].operations is empty (NULL means every operation)")
    #expect(
      rejection { $0.animators[0].operations = $0.stringList(["present", "present"]) }
        == "animators[0].operations[1] \"present\" is listed twice")
    #expect(
      rejection { $0.animators[0].operations = $0.stringList(["present", ""]) }
        == "animators[0].operations[1] is empty")
    #expect(rejection { $0.animators[0].param_count = 3 } == "animators[0].params is NULL")
    #expect(rejection { $0.animators[0].param_count = 300 } == "animators[0].param_count 300 exceeds the limit 256")
    // The optional parts may be absent.
    #expect(
      rejection {
        $0.animators[0].animation_ended = nil; $0.animators[0].get_extension = nil
      } == nil)
  }

  @Test func parameterRules() {
    func rejection(
      _ type: th_param_type = TH_PARAM_NUMBER, _ edit: (inout th_param_descriptor, DescriptorBuilder) -> Void
    )
      -> String?
    {
      let builder = DescriptorBuilder()
      let index = builder.addParam("p", type: type)
      edit(&builder.params[0][index], builder)
      return builder.rejection()
    }
    let at = "animators[0].params[0] (p)"
    #expect(rejection { p, _ in p.default_number = 5 } == nil)
    #expect(
      rejection { p, _ in
        p.min = 0; p.max = 1; p.default_number = 1.5
      }
        == "\(at): default 1.5 is outside [0.0, 1.0] (use -INFINITY / INFINITY for an unbounded side)")
    #expect(
      rejection { p, _ in
        p.min = 2; p.max = 1; p.default_number = 1.5
      }
        == "\(at): min 2.0 and max 1.0 do not form a range (min <= max)")
    #expect(rejection { p, _ in p.min = .nan } == "\(at): min nan and max inf do not form a range (min <= max)")
    #expect(rejection { p, _ in p.default_number = .infinity } == "\(at): default inf is not finite")
    #expect(
      rejection { p, _ in p.struct_size = 8 }
        == "animators[0].params[0].struct_size 8 is smaller than ABI 1.0's th_param_descriptor (152)")
    #expect(
      rejection { p, b in p.name = b.string("2fast") }
        == "animators[0].params[0].name \"2fast\" must match [A-Za-z_][A-Za-z0-9_]*")
    #expect(rejection { p, _ in p.type = th_param_type(rawValue: 42) } == "\(at): unknown type 42")
    #expect(rejection { p, _ in p.type = th_param_type(rawValue: 0) } == "\(at): unknown type 0")

    #expect(rejection(TH_PARAM_ENUM) { p, _ in p.enum_options = nil } == "\(at): enum_options is NULL")
    #expect(rejection(TH_PARAM_ENUM) { p, b in p.enum_options = b.stringList([]) } == "\(at): enum_options is empty")
    #expect(
      rejection(TH_PARAM_ENUM) { p, b in
        p.enum_options = b.stringList(["a", "b"]); p.default_string = b.string("c")
      }
        == "\(at): default \"c\" is not one of its enum_options")
    #expect(
      rejection(TH_PARAM_ENUM) { p, b in
        p.enum_options = b.stringList(["a", "b"]); p.default_string = b.string("b")
      } == nil)

    #expect(
      rejection(TH_PARAM_STRING) { p, _ in p.default_string = nil }
        == "\(at): default_string is NULL (use \"\" for an empty default)")
    #expect(
      rejection(TH_PARAM_COLOR) { p, _ in p.default_color = th_color(r: 1, g: 0, b: 0, a: 1.01) }
        == "\(at): default colour components must be in [0, 1]")
    #expect(
      rejection(TH_PARAM_POINT) { p, _ in p.default_point = th_point(x: .nan, y: 0) }
        == "\(at): default point is not finite")
    #expect(
      rejection(TH_PARAM_RECT) { p, _ in p.default_rect = th_rect(x: 0, y: 0, width: -1, height: 1) }
        == "\(at): default rect must be finite with width and height >= 0")

    let builder = DescriptorBuilder()
    builder.addParam("p")
    builder.addParam("p")
    #expect(builder.rejection() == "animators[0].params[1].name \"p\" is used twice")
  }

  @Test func boolDefaultsAreReadAsCDoes() throws {
    // C treats any non-zero byte as true; a plugin storing 2 must not produce an invalid Swift Bool.
    let builder = DescriptorBuilder()
    let index = builder.addParam("flag", type: TH_PARAM_BOOL)
    withUnsafeMutableBytes(of: &builder.params[0][index]) { bytes in
      bytes[MemoryLayout<th_param_descriptor>.offset(of: \.default_bool)!] = 2
    }
    let info = try builder.read()
    #expect(info.animators[0].params[0].defaultValue == .bool(true))
  }

  @Test(arguments: [
    ("com.example.fade", true), ("io.github.someone.my_plugin-2", true), ("a.b", true),
    ("fade", false), ("com..fade", false), (".com.fade", false), ("com.fade.", false), ("com.ex ample", false),
    ("com.exämple", false), ("com/fade", false), (String(repeating: "a.", count: 64) + "a", false),
  ])
  func pluginIDSyntax(id: String, valid: Bool) {
    #expect(DescriptorReader.isValidPluginID(id) == valid)
  }

  @Test func layoutsMatchTheHeadersABI10Sizes() {
    // Hand-counted from the header (LP64); th_plugin.c asserts the same at compile time.
    #expect(MemoryLayout<th_plugin_descriptor>.size == DescriptorReader.minimumPluginDescriptorSize)
    // 1.0's size, then ABI 1.2's interruptible_animator.
    #expect(MemoryLayout<th_animator_descriptor>.offset(of: \.interruptible_animator) == 104)
    #expect(MemoryLayout<th_animator_descriptor>.size == DescriptorReader.minimumAnimatorDescriptorSize + 8)
    #expect(MemoryLayout<th_host_property_animators>.size == 8 + 14 * 8)
    #expect(MemoryLayout<th_property_animator_timing>.size == 8 + 128 + 8)
    #expect(MemoryLayout<th_param_descriptor>.size == DescriptorReader.minimumParamDescriptorSize)
    #expect(MemoryLayout<th_timing>.size == 128)
    // 1.0's 54 functions end where the 1.2 blocks begin.
    #expect(MemoryLayout<th_host_api>.offset(of: \th_host_api.find_view_by_match) == 8 + 53 * 8)
    // ABI 1.2 — presentation and view content: three functions, and th_presentation's 424 bytes.
    #expect(
      MemoryLayout<th_host_api>.offset(of: \th_host_api.set_visual_effect)!
        - MemoryLayout<th_host_api>.offset(of: \th_host_api.get_presentation)! == 16)
    #expect(MemoryLayout<th_presentation>.size == 424)
  }
}
