import POSIX

#if canImport(Glibc)
  import Glibc
#endif

/// Whether another local user could have put code where the host loads it, judged as sshd's StrictModes judges
/// `authorized_keys`: a plugin is code the host runs with its user's rights.
///
/// - The plugin file, and every folder from the file up to and including its plugin folder, must be owned by root or
///   by the host's effective user, and must not be writable by other users: not world-writable, and not
///   group-writable unless the group is the user's own private group (same name as the user, as Debian's user
///   private groups are; `umask 002` is then harmless).
/// - The folders above the plugin folder, up to `/`, must be owned by root or the user and not writable by others,
///   except that a sticky folder (`/tmp`) may be: there nobody can rename or remove what another user owns.
///   Inside the plugin folder a sticky bit does not help, since anyone could still add a library beside the plugins.
///
/// All paths are real paths (no links).
package enum PluginPathSafety {
  /// What is unsafe and why.
  package struct Problem: Sendable, Equatable {
    /// The file or folder at fault.
    package var path: String
    /// Why, e.g. "is writable by every user (mode 0777)".
    package var reason: String
  }

  /// The first problem with plugin file `file` in plugin folder `pluginFolder` (both real paths, the file below the
  /// folder), or nil when it is safe.
  package static func problem(file: String, pluginFolder: String) -> Problem? {
    if let problem = problem(at: file, stickyExempts: false) { return problem }
    var folder = parentFolder(of: file)
    while isBelow(folder, pluginFolder) {
      if let problem = problem(at: folder, stickyExempts: false) { return problem }
      folder = parentFolder(of: folder)
    }
    return problem(folder: pluginFolder)
  }

  /// The first problem with plugin folder `folder` (a real path) and the folders above it, or nil.
  package static func problem(folder: String) -> Problem? {
    if let problem = problem(at: folder, stickyExempts: false) { return problem }
    var above = folder
    while above != "/" {
      above = parentFolder(of: above)
      if let problem = problem(at: above, stickyExempts: true) { return problem }
    }
    return nil
  }

  /// The problem with one file or folder.
  static func problem(at path: String, stickyExempts: Bool) -> Problem? {
    let status: FileStatus
    do { status = try FileStatus(path: path, followLinks: false) } catch {
      return Problem(path: path, reason: "cannot be checked: \(error)")
    }
    let user = ProcessIdentity.effectiveUserID
    if status.owner != 0 && status.owner != user {
      let name =
        ProcessIdentity.userName(status.owner).map { "user \($0) (uid \(status.owner))" } ?? "uid \(status.owner)"
      return Problem(path: path, reason: "is owned by \(name), neither root nor the user the host runs as")
    }
    if stickyExempts && status.kind == .directory && status.isSticky { return nil }
    let mode = "mode " + octal(status.permissions)
    if status.isWritableByOthers {
      return Problem(path: path, reason: "is writable by every user (\(mode))")
    }
    if status.isWritableByGroup && !isPrivateGroup(status.group) {
      let name = ProcessIdentity.groupName(status.group).map { "group \($0)" } ?? "gid \(status.group)"
      return Problem(path: path, reason: "is writable by \(name) (\(mode))")
    }
    return nil
  }

  /// Whether `group` is the user's private group: the user's primary group, named as the user.
  static func isPrivateGroup(_ group: gid_t) -> Bool {
    guard group == ProcessIdentity.effectiveGroupID,
      let userName = ProcessIdentity.userName(ProcessIdentity.effectiveUserID)
    else { return false }
    return ProcessIdentity.groupName(group) == userName
  }

  /// `mode` as four octal digits (0755).
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
