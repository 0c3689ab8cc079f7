import QuireTerminal
import ArgumentParser
import Foundation
import QuireApp
import QuireMarkdown
import QuireSupport
import QuireSystem
import QuireVault

extension Quire {
    /// `quire doctor`.
    struct DoctorCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the installation and the vault, and say how to fix each problem.",
            discussion: """
                The C libraries in use; the programs Quire runs for optional work (git, poppler, \
                tesseract, ImageMagick, ffmpeg, pocketsphinx, python3, xdg-open, notify-send) and \
                the files `quire serve` uses (KaTeX, highlight.js); the embedding model. In a vault: \
                its settings, notes that cannot be read, scheduling lines that differ from the \
                review log, temporary files and staging left by interrupted writes, the index cache, \
                the git merge driver and .gitignore in this clone, and the watcher's limit. Nothing \
                is changed. Exit status 1 when something is broken (an error); notes and warnings \
                do not fail. Outside a vault only the installation is checked.

                Example: quire doctor; quire doctor --json | jq '.[] | select(.level != "ok")'
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Print JSON: an array of {level, area, title, detail, fix}.") var json = false

        func run() throws {
            var findings = Doctor.installation(environment: ProcessInfo.processInfo.environment)
            if let vault = try? options.open(), vault.isInitialized || options.vault != nil {
                let loaded = try LoadedVault(options, reportErrors: false)
                findings += Doctor.vault(loaded, inotifyLimit: Self.inotifyLimit())
            } else {
                findings.append(Doctor.Finding(.note, "vault", "vault", "not in a vault (no .quire/ here or above)",
                                               fix: "cd into one, give -C DIR, or make one with quire init"))
            }
            if json {
                Output.line(Doctor.json(findings).serialized(pretty: true))
            } else {
                var area = ""
                for f in findings {
                    if f.area != area {
                        if !area.isEmpty { Output.line("") }
                        area = f.area
                        Output.line(area == "installation" ? "Installation" : "Vault")
                    }
                    let mark = switch f.level {
                    case .ok: "  ok   "
                    case .note: "  note "
                    case .warning: "  warn "
                    case .error: "  FAIL "
                    }
                    Output.line(mark + f.title + ": " + TerminalText.visible(f.detail))
                    if let fix = f.fix, f.level != .ok { Output.line("         → " + TerminalText.visible(fix)) }
                }
                let errors = findings.filter { $0.level == .error }.count, warnings = findings.filter { $0.level == .warning }.count
                Output.line("")
                Output.line(errors + warnings == 0 ? "Nothing to fix." : "\(Plural.counted(errors, "error")), \(Plural.counted(warnings, "warning")).")
            }
            if findings.contains(where: { $0.level == .error }) { throw ExitCode(1) }
        }

        /// The system's limit of inotify watches per user, when it can be read.
        static func inotifyLimit() -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8) else { return nil }
            return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
