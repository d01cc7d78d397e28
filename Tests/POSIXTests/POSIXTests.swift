// The POSIX layer against the kernel's own behaviour: what pipes, descriptors, poll and child processes do is
// checked through independent means (fcntl flags read back raw, /proc, a shell's exit codes), never through the
// wrapper under test alone.

import Foundation
import Glibc
import POSIX
import Testing

/// Raw fcntl reads, so the flags the wrappers set are checked without the wrappers.
private func descriptorFlags(_ descriptor: FileDescriptor) -> Int32 { fcntl(descriptor.rawValue, F_GETFD) }
private func statusFlags(_ descriptor: FileDescriptor) -> Int32 { fcntl(descriptor.rawValue, F_GETFL) }

@Suite struct FileDescriptorTests {
  @Test func pipeEndsAreCloseOnExecFromBirthAndNonBlockingOnRequest() throws {
    let plain = try FileDescriptor.pipe()
    let nonBlocking = try FileDescriptor.pipe(nonBlocking: true)
    defer {
      for end in [plain.readEnd, plain.writeEnd, nonBlocking.readEnd, nonBlocking.writeEnd] { try? end.close() }
    }
    for end in [plain.readEnd, plain.writeEnd, nonBlocking.readEnd, nonBlocking.writeEnd] {
      #expect(descriptorFlags(end) & FD_CLOEXEC != 0)
    }
    #expect(statusFlags(plain.readEnd) & O_NONBLOCK == 0)
    #expect(statusFlags(nonBlocking.readEnd) & O_NONBLOCK != 0)
    #expect(statusFlags(nonBlocking.writeEnd) & O_NONBLOCK != 0)
    #expect(try plain.readEnd.status().kind == .pipe)
  }

  @Test func writeAllDeliversMoreThanAPipeHoldsWholeAndInOrder() throws {
    let pipe = try FileDescriptor.pipe()
    // 1 MiB: sixteen times a default pipe's 64 KiB, so the writer makes many short writes while a reader drains.
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    let reader = Background { (try? pipe.readEnd.readToEnd()) ?? [] }
    try pipe.writeEnd.writeAll(bytes)
    try pipe.writeEnd.close()
    let received = reader.wait()
    try pipe.readEnd.close()
    #expect(received.count == bytes.count)
    #expect(received == bytes)
  }

  @Test func errorsAreTypedWithTheirCLibraryText() throws {
    let pipe = try FileDescriptor.pipe(nonBlocking: true)
    defer { try? pipe.writeEnd.close() }
    var byte: [UInt8] = [0]
    #expect(throws: Errno.wouldBlock) { try pipe.readEnd.read(into: &byte) }
    try pipe.readEnd.close()
    signal(SIGPIPE, SIG_IGN)
    #expect(throws: Errno.brokenPipe) { try pipe.writeEnd.writeAll("x") }
    #expect(throws: Errno.noSuchFileOrDirectory) { try FileDescriptor.open("/nonexistent/transition-host", .readOnly) }
    // glibc's strerror texts (the POSIX wording).
    #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
    #expect(Errno.brokenPipe.description == "Broken pipe")
    #expect(Errno(rawValue: ENOENT) == .noSuchFileOrDirectory)
  }

  @Test func duplicatesAreCloseOnExecUnlessMadeWithDup2() throws {
    let pipe = try FileDescriptor.pipe()
    defer { for end in [pipe.readEnd, pipe.writeEnd] { try? end.close() } }
    let copy = try pipe.readEnd.duplicate(minimum: 100)
    #expect(copy.rawValue >= 100)
    #expect(descriptorFlags(copy) & FD_CLOEXEC != 0)
    let target = try pipe.writeEnd.duplicate(minimum: 200)
    try pipe.readEnd.duplicate(as: target)
    #expect(descriptorFlags(target) & FD_CLOEXEC == 0)
    #expect(try target.status().inode == pipe.readEnd.status().inode)
    try copy.close()
    try target.close()
    #expect(!copy.isOpen)
    #expect(pipe.readEnd.isOpen)
  }

  @Test func statusFlagsRoundTripAndNonBlockingToggles() throws {
    let pipe = try FileDescriptor.pipe()
    defer { for end in [pipe.readEnd, pipe.writeEnd] { try? end.close() } }
    let original = try pipe.writeEnd.statusFlags()
    try pipe.writeEnd.setNonBlocking(true)
    #expect(statusFlags(pipe.writeEnd) & O_NONBLOCK != 0)
    try pipe.writeEnd.setStatusFlags(original)
    #expect(statusFlags(pipe.writeEnd) == original)
  }

  @Test func temporaryFilesAreFreshCloseOnExecAndReadableAtAnOffset() throws {
    let (file, path) = try FileDescriptor.temporaryFile(prefix: "posix-tests-")
    defer {
      try? file.close()
      unlink(path)
    }
    #expect(path.hasPrefix(FileDescriptor.temporaryFolder + "/posix-tests-"))
    #expect(path.count == FileDescriptor.temporaryFolder.count + "/posix-tests-".count + 6)
    #expect(descriptorFlags(file) & FD_CLOEXEC != 0)
    try file.writeAll("hello, world")
    #expect(try file.status() == FileStatus(path: path))
    #expect(try file.status().size == 12)
    #expect(try FileStatus(path: path).kind == .regular)
    var buffer = [UInt8](repeating: 0, count: 5)
    let read = try file.read(fromAbsoluteOffset: 7, into: &buffer)
    #expect(read == 5)
    #expect(String(decoding: buffer, as: UTF8.self) == "world")
  }
}

@Suite struct PollTests {
  @Test func aPipeIsReadableOnlyOnceSomethingIsInIt() throws {
    let pipe = try FileDescriptor.pipe()
    defer { for end in [pipe.readEnd, pipe.writeEnd] { try? end.close() } }
    var entries = [PollEntry(pipe.readEnd, .readable), PollEntry(pipe.writeEnd, .writable)]
    #expect(try FileDescriptor.poll(&entries, timeoutMilliseconds: 0) == 1)
    #expect(entries[0].returnedEvents.isEmpty)
    #expect(entries[1].returnedEvents == .writable)
    #expect(!pipe.readEnd.isReadableNow())
    try pipe.writeEnd.writeAll("x")
    #expect(pipe.readEnd.isReadableNow())
    try pipe.writeEnd.close()
    var hungUp = [PollEntry(pipe.readEnd, .readable)]
    _ = try FileDescriptor.poll(&hungUp, timeoutMilliseconds: 0)
    #expect(hungUp[0].returnedEvents.contains(.readable))
  }

  @Test func timeoutsRoundUpToWholeMilliseconds() {
    #expect(pollTimeout(nanoseconds: -5) == 0)
    #expect(pollTimeout(nanoseconds: 0) == 0)
    #expect(pollTimeout(nanoseconds: 1) == 1)
    #expect(pollTimeout(nanoseconds: 1_000_000) == 1)
    #expect(pollTimeout(nanoseconds: 1_000_001) == 2)
    #expect(pollTimeout(nanoseconds: .max) == .max)
  }
}

@Suite struct ProcessTests {
  /// `/bin/sh -c script` with stdout on a pipe; what it printed and how it ended.
  private func shell(
    _ script: String, environment: [String]? = nil, configure: (inout ProcessSpawn) -> Void = { _ in }
  ) throws -> (output: String, status: TerminationStatus?) {
    try run("/bin/sh", ["-c", script], environment: environment, configure: configure)
  }

  /// `executable arguments…` with stdout on a pipe; what it printed and how it ended.
  private func run(
    _ executable: String, _ arguments: [String], environment: [String]? = nil,
    configure: (inout ProcessSpawn) -> Void = { _ in }
  ) throws -> (output: String, status: TerminationStatus?) {
    let output = try FileDescriptor.pipe()
    var spawn = ProcessSpawn(executable: executable, arguments: arguments, environment: environment)
    spawn.standardStreams = [0: .file("/dev/null", .readOnly), 1: .descriptor(output.writeEnd)]
    configure(&spawn)
    let process = try spawn.spawn()
    try output.writeEnd.close()
    let text = String(decoding: try output.readEnd.readToEnd(), as: UTF8.self)
    try output.readEnd.close()
    return (text, try process.wait())
  }

  @Test func exitStatusesAndSignalsAreDecoded() throws {
    #expect(try shell("exit 3").status == .exited(3))
    #expect(try shell("kill -SEGV $$").status == .signaled(SIGSEGV))
    // <sys/wait.h>'s encoding, by hand: exit code in bits 8-15, terminating signal in bits 0-6.
    #expect(TerminationStatus(waitStatus: 3 << 8) == .exited(3))
    #expect(TerminationStatus(waitStatus: SIGKILL) == .signaled(SIGKILL))
    #expect(signalDescription(SIGSEGV) == "SIGSEGV (Segmentation fault)")
  }

  @Test func theChildGetsItsStreamsArgumentsAndEnvironment() throws {
    let run = try shell(
      #"printf '%s|%s' "$GREETING" "$0"; read line || echo ' stdin at EOF'"#, environment: ["GREETING=hi"])
    #expect(run.output == "hi|/bin/sh stdin at EOF\n")
    #expect(run.status == .exited(0))
    #expect(throws: Errno.noSuchFileOrDirectory) { try ProcessSpawn(executable: "/nonexistent/program").spawn() }
  }

  @Test func theChildStartsWithTheSignalMaskAskedFor() throws {
    // SigBlk in /proc/<pid>/status is the blocked set as a hex mask: signal n is bit n - 1 (SIGTERM 15: 0x4000).
    // grep itself is the child (a shell would set its own mask).
    let status = ["/usr/bin/grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"]
    func field(_ output: String, _ name: String) -> UInt64? {
      output.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
        UInt64($0.dropFirst(name.count + 1).trimmingPrefix("\t"), radix: 16)
      }
    }
    let blocked = try run(status[0], Array(status.dropFirst())) { $0.blockedSignals = [SIGTERM] }
    #expect(field(blocked.output, "SigBlk") == 0x4000)
    let clear = try run(status[0], Array(status.dropFirst()))
    #expect(field(clear.output, "SigBlk") == 0)
    // Ignored signals stay ignored across exec unless reset to their default. SIGWINCH (28: bit 27, 0x8000000) is
    // one no other test uses, and ignoring it for a moment changes nothing (its default action is to ignore it).
    signal(SIGWINCH, SIG_IGN)
    defer { signal(SIGWINCH, SIG_DFL) }
    let ignored = try run(status[0], Array(status.dropFirst())) { $0.defaultSignals = [] }
    let reset = try run(status[0], Array(status.dropFirst())) { $0.defaultSignals = [SIGWINCH] }
    #expect(field(ignored.output, "SigIgn").map { $0 & 0x800_0000 } == 0x800_0000)
    #expect(field(reset.output, "SigIgn").map { $0 & 0x800_0000 } == 0)
  }

  @Test func aRunningChildIsNotReapedUntilItEnds() throws {
    let process = try ProcessSpawn(executable: "/usr/bin/sleep", arguments: ["30"]).spawn()
    #expect(try process.wait(blocking: false) == nil)
    try process.send(SIGKILL)
    #expect(try process.wait() == .signaled(SIGKILL))
    #expect(throws: Errno.noChildProcess) { try process.wait() }
  }
}

/// A value computed on its own thread (not a shared pool: it blocks on a pipe).
private final class Background<Value>: @unchecked Sendable {
  // Written once by the thread before `done` is signalled, read only after waiting on it.
  private var value: Value?
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Value) {
    Thread { [self] in
      value = body()
      done.signal()
    }.start()
  }

  func wait() -> Value {
    done.wait()
    return value!
  }
}

@Suite struct MonotonicInstantTests {
  @Test func arithmetic() {
    let t = MonotonicInstant(nanoseconds: 5_000_000_000)
    #expect(t.advanced(bySeconds: 0.25).nanoseconds == 5_250_000_000)
    #expect(t.advanced(bySeconds: -1).nanoseconds == 4_000_000_000)
    #expect(t.advanced(bySeconds: 1.5).seconds(since: t) == 1.5)
    #expect(t.advanced(bySeconds: .infinity).nanoseconds == .max)
    #expect(t.advanced(bySeconds: 1e300).nanoseconds == .max)
    #expect(t.advanced(bySeconds: -.infinity).nanoseconds == .min)
    #expect(t.advanced(bySeconds: .nan) == t)
  }

  @Test func nowNeverGoesBackwards() {
    var previous = MonotonicInstant.now()
    for _ in 0..<1000 {
      let next = MonotonicInstant.now()
      #expect(next >= previous)
      previous = next
    }
  }
}

/// linux/fcntl.h's values (Glibc's module declares them only under _GNU_SOURCE).
private enum Seal {
  static let add: Int32 = 1024 + 9, get: Int32 = 1024 + 10  // F_ADD_SEALS, F_GET_SEALS
  static let seal: Int32 = 0x1, shrink: Int32 = 0x2, grow: Int32 = 0x4, write: Int32 = 0x8, futureWrite: Int32 = 0x10
  static let exec: Int32 = 0x20
}

@Suite struct SealedMemoryFileTests {
  /// Whichever write seal the kernel granted (F_SEAL_WRITE, or F_SEAL_FUTURE_WRITE when WRITE met a page's transient
  /// reference), the bytes, the size and the seals are fixed: checked with raw write(2), ftruncate(2), mmap(2) and
  /// fcntl(2), not the wrapper.
  @Test func aSealedMemoryFileRefusesWritesResizesWritableMappingsAndNewSeals() throws {
    let file = try FileDescriptor.memoryFile(name: "sealed-test", sealable: true)
    defer { try? file.close() }
    try file.writeAll(Array("frozen".utf8))
    try file.sealContents()

    let seals = fcntl(file.rawValue, Seal.get)
    #expect(seals & Seal.seal != 0)
    #expect(seals & Seal.shrink != 0)
    #expect(seals & Seal.grow != 0)
    #expect(seals & (Seal.write | Seal.futureWrite) != 0)

    let byte: [UInt8] = [0x21]
    #expect(pwrite(file.rawValue, byte, 1, 0) == -1 && errno == EPERM)
    #expect(ftruncate(file.rawValue, 0) == -1 && errno == EPERM)
    let mapping = mmap(nil, 6, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0)
    #expect(mapping == MAP_FAILED && errno == EPERM)
    #expect(fcntl(file.rawValue, Seal.add, Seal.exec) == -1 && errno == EPERM)

    var readBack = [UInt8](repeating: 0, count: 6)
    #expect(pread(file.rawValue, &readBack, 6, 0) == 6)
    #expect(String(decoding: readBack, as: UTF8.self) == "frozen")
  }

  /// The fallback itself: a writable shared mapping makes F_SEAL_WRITE fail with EBUSY (as a page's transient
  /// reference can), and the file still gets F_SEAL_FUTURE_WRITE with the size seals.
  @Test func whenTheWriteSealIsBusyLaterWritesAreStillRefused() throws {
    let file = try FileDescriptor.memoryFile(name: "sealed-busy-test", sealable: true)
    defer { try? file.close() }
    try file.writeAll(Array("frozen".utf8))
    let mapping = try #require(mmap(nil, 6, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0))
    #expect(mapping != MAP_FAILED)
    defer { munmap(mapping, 6) }
    #expect(fcntl(file.rawValue, Seal.add, Seal.write) == -1 && errno == EBUSY)

    try file.sealContents()
    let seals = fcntl(file.rawValue, Seal.get)
    #expect(seals & Seal.futureWrite != 0 && seals & Seal.write == 0)
    #expect(seals & Seal.shrink != 0 && seals & Seal.grow != 0 && seals & Seal.seal != 0)
    let byte: [UInt8] = [0x21]
    #expect(pwrite(file.rawValue, byte, 1, 0) == -1 && errno == EPERM)
  }
}
