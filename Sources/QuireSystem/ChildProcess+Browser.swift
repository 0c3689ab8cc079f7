#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension ChildProcess {
    /// Opens `url` in the user's web browser (`xdg-open`) through a small page that forwards to
    /// it, so that the address — which may carry a secret, as `quire serve`'s token — never stands
    /// on a command line that other users can list. The page is created only this user may read
    /// (mode 0600 from its creation, in a folder of mode 0700 made for it, never an existing
    /// file or link) and removed a minute later, when the browser has read it. Returns false
    /// when it could not be written. `opener` is the program that opens it (tests give their own).
    package static func openInBrowser(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                                      opener: [String] = ["xdg-open"], keepSeconds: Double = 60) -> Bool {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSTemporaryDirectory()
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("quire-open-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return false }
        let folder = String(cString: made)
        let file = folder + "/open.html"
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        let page = Array("<!doctype html><meta charset=utf-8><meta http-equiv=refresh content=\"0;url=\(escaped)\"><title>Quire</title>".utf8)
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            rmdir(folder)
            return false
        }
        let written = page.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == page.count else {
            unlink(file)
            rmdir(folder)
            return false
        }
        Thread.detachNewThread {
            _ = ChildProcess.run(opener + [file], timeoutSeconds: 30)
            Thread.sleep(forTimeInterval: keepSeconds)
            unlink(file)
            rmdir(folder)
        }
        return true
    }
}
