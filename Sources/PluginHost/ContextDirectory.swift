import CTransitionABI
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The process-wide table from `th_context` ids to the plugin (and animator) they belong to.
///
/// C function pointers in the host API cannot capture anything, so every host function finds its caller
/// here: `log` (which any thread may call at any time) for the logger, the others for the transition's
/// binding. Guarded by a mutex for that reason; a binding itself is only ever touched on its host thread
/// (see `TransitionSlot`).
///
/// Context ids are never reused. Recently retired ids keep a tombstone (who they belonged to), so a plugin
/// that uses a context after its transition ended is still named in the report.
package final class ContextDirectory: Sendable {
  /// Who a context belongs to and where its log lines go.
  package struct Entry: Sendable {
    package var source: String
    package var logger: PluginLogger
    /// Set for a transition context: the binding behind it.
    var transition: TransitionSlot?

    package init(source: String, logger: PluginLogger) {
      self.source = source
      self.logger = logger
    }

    init(source: String, logger: PluginLogger, transition: TransitionSlot) {
      self.source = source
      self.logger = logger
      self.transition = transition
    }
  }

  /// How many retired contexts keep their tombstone (oldest forgotten first).
  static let tombstoneLimit = 4096

  private struct State {
    var table = HandleTable<Entry>()
    var tombstones: [UInt64: Entry] = [:]
    var tombstoneOrder: [UInt64] = []
    var tombstoneHead = 0
    /// Per thread, the transition slots whose animator is running plugin code on it (innermost last).
    var active: [pthread_t: [TransitionSlot]] = [:]
  }

  package static let shared = ContextDirectory()

  private let state = Mutex(State())

  /// Issues a new context id for `entry`.
  package func register(_ entry: Entry) -> th_context {
    th_context(id: state.withLock { $0.table.insert(entry) })
  }

  /// Changes who a live context is attributed to (a plugin's context is named after its file until its
  /// descriptor has been read, then after its id).
  package func rename(_ context: th_context, source: String) {
    state.withLock { state in
      if case .live(var entry) = state.table.lookup(context.id) {
        entry.source = source
        state.table.replace(context.id, with: entry)
      }
    }
  }

  /// Retires the id; later uses are detected as stale.
  package func unregister(_ context: th_context) {
    state.withLock { state in
      guard var entry = state.table.remove(context.id) else { return }
      entry.transition = nil
      if state.tombstoneOrder.count < Self.tombstoneLimit {
        state.tombstoneOrder.append(context.id)
      } else {
        state.tombstones[state.tombstoneOrder[state.tombstoneHead]] = nil
        state.tombstoneOrder[state.tombstoneHead] = context.id
        state.tombstoneHead = (state.tombstoneHead + 1) % Self.tombstoneLimit
      }
      state.tombstones[context.id] = entry
    }
  }

  package func lookup(_ context: th_context) -> HandleTable<Entry>.Lookup {
    state.withLock { $0.table.lookup(context.id) }
  }

  /// Who a retired context belonged to, while its tombstone lasts.
  func tombstone(_ context: th_context) -> Entry? {
    state.withLock { $0.tombstones[context.id] }
  }

  /// Marks `slot` as running plugin code on the calling thread (outermost host -> plugin call).
  func enter(_ slot: TransitionSlot) {
    let thread = pthread_self()
    state.withLock { $0.active[thread, default: []].append(slot) }
  }

  /// Undoes `enter`.
  func leave(_ slot: TransitionSlot) {
    let thread = pthread_self()
    state.withLock { state in
      guard var stack = state.active[thread], let index = stack.lastIndex(where: { $0 === slot }) else { return }
      stack.remove(at: index)
      state.active[thread] = stack.isEmpty ? nil : stack
    }
  }

  /// The slot whose animator runs plugin code on the calling thread right now, if any: the likely author of
  /// a call with a context the host cannot attribute.
  func activeSlot() -> TransitionSlot? {
    let thread = pthread_self()
    return state.withLock { $0.active[thread]?.last }
  }
}
