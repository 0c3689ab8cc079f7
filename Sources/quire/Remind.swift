import QuireTerminal
import ArgumentParser
import Foundation
import QuireApp
import QuireSystem

extension Quire {
    /// `quire remind`, `quire remind install|uninstall`.
    struct Remind: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remind",
            abstract: "Say what is due: a desktop notification, or one line when there is no desktop.",
            discussion: """
                "23 cards due, 5 new · weekly curation pending" through notify-send where a desktop \
                session runs (DISPLAY or WAYLAND_DISPLAY set), else printed. Nothing is said when \
                nothing waits. 'quire remind install --at 09:00' runs it every day: a systemd user timer \
                (~/.config/systemd/user/quire-remind-*.timer, caught up after the computer was off), or a \
                crontab line where systemd's user manager is not running; 'uninstall' removes it.

                Examples: quire remind; quire remind --print; quire remind install --at 08:30
                """,
            subcommands: [Now.self, Install.self, Uninstall.self],
            defaultSubcommand: Now.self)

        struct Now: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "now", abstract: "Say what is due now (the default).",
                                                            discussion: "Example: quire remind now --print")
            @OptionGroup var options: VaultOptions
            @Flag(help: "Print the line even where a desktop could show it.") var print = false

            func run() throws {
                let context = try StudyContext(options)
                guard let message = Reminder.message(context) else {
                    if print || !Self.hasDesktop { Output.line("Nothing due.") }
                    return
                }
                let name = context.loaded.vault.root.split(separator: "/").last.map(String.init) ?? "Quire"
                if !print, Self.hasDesktop {
                    let run = ChildProcess.run(["notify-send", "--app-name=Quire", "Quire · " + name, message], timeoutSeconds: 10)
                    if run.status == 0 { return }
                }
                Output.line("\(name): \(message)")
            }

            static var hasDesktop: Bool {
                let environment = ProcessInfo.processInfo.environment
                return environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false
            }
        }

        struct Install: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "install", abstract: "Remind every day at a time (systemd user timer, else cron).",
                                                            discussion: "Example: quire remind install --at 08:30")
            @OptionGroup var options: VaultOptions
            @Option(help: ArgumentHelp("The time of day, HH:MM (24 hours).", valueName: "TIME")) var at = "09:00"

            func validate() throws {
                if Reminder.time(at) == nil { throw ValidationError("--at takes a time like 09:00 or 18:30") }
            }

            func run() throws {
                let vault = try options.open()
                guard vault.isInitialized else { throw CLIError("\(vault.root) is not a Quire vault: run 'quire init' first") }
                guard let (hour, minute) = Reminder.time(at) else { return }
                let quire = Quire.executablePath
                guard !(quire + vault.root).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw CLIError("the vault's or quire's path holds a control character; a reminder cannot name it")
                }
                let name = Reminder.unitName(vaultRoot: vault.root)
                if Remind.hasSystemdUser {
                    let folder = Remind.unitFolder
                    let units = Reminder.systemdUnits(quire: quire, vaultRoot: vault.root, hour: hour, minute: minute)
                    do {
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                        try Data(units.service.utf8).write(to: URL(fileURLWithPath: folder + "/" + name + ".service"), options: .atomic)
                        try Data(units.timer.utf8).write(to: URL(fileURLWithPath: folder + "/" + name + ".timer"), options: .atomic)
                    } catch { throw CLIError("cannot write the timer in \(folder): \(error.localizedDescription)") }
                    for command in [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now", name + ".timer"]] {
                        let run = ChildProcess.run(command, timeoutSeconds: 30)
                        guard run.status == 0 else {
                            throw CLIError("\(command.joined(separator: " ")) failed: \(String(decoding: run.errorOutput, as: UTF8.self))")
                        }
                    }
                    Output.line("Reminding every day at \(at): systemd user timer \(name).timer ('systemctl --user list-timers' shows it).")
                    return
                }
                try Remind.editCrontab(Reminder.cronLine(quire: quire, vaultRoot: vault.root, hour: hour, minute: minute), vaultRoot: vault.root)
                Output.line("Reminding every day at \(at): a crontab line ('crontab -l' shows it). Notifications need the desktop's DISPLAY in cron's environment; otherwise cron mails the line.")
            }
        }

        struct Uninstall: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "uninstall", abstract: "Stop the daily reminder of this vault.",
                                                            discussion: "Example: quire remind uninstall")
            @OptionGroup var options: VaultOptions

            func run() throws {
                let vault = try options.open()
                let name = Reminder.unitName(vaultRoot: vault.root)
                var removed = false
                let folder = Remind.unitFolder
                if FileManager.default.fileExists(atPath: folder + "/" + name + ".timer") {
                    if Remind.hasSystemdUser { _ = ChildProcess.run(["systemctl", "--user", "disable", "--now", name + ".timer"], timeoutSeconds: 30) }
                    try? FileManager.default.removeItem(atPath: folder + "/" + name + ".timer")
                    try? FileManager.default.removeItem(atPath: folder + "/" + name + ".service")
                    if Remind.hasSystemdUser { _ = ChildProcess.run(["systemctl", "--user", "daemon-reload"], timeoutSeconds: 30) }
                    removed = true
                }
                if Remind.hasCron, Remind.crontab().contains(name) {
                    try Remind.editCrontab(nil, vaultRoot: vault.root)
                    removed = true
                }
                Output.line(removed ? "No more reminders for \(vault.root)." : "No reminder was installed for \(vault.root).")
            }
        }

        /// Where systemd reads a user's units.
        static var unitFolder: String {
            let environment = ProcessInfo.processInfo.environment
            let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (environment["HOME"] ?? "") + "/.config"
            return config + "/systemd/user"
        }

        /// Whether this user's systemd manager runs (a desktop or a lingering session).
        static var hasSystemdUser: Bool {
            ChildProcess.run(["systemctl", "--user", "show-environment"], timeoutSeconds: 10).status == 0
        }

        static var hasCron: Bool { ChildProcess.run(["sh", "-c", "command -v crontab"], timeoutSeconds: 10).status == 0 }

        /// The user's crontab ("" when there is none).
        static func crontab() -> String {
            let run = ChildProcess.run(["crontab", "-l"], timeoutSeconds: 10)
            return run.status == 0 ? String(decoding: run.output, as: UTF8.self) : ""
        }

        /// Sets (or with nil removes) the vault's line in the user's crontab.
        static func editCrontab(_ line: String?, vaultRoot: String) throws {
            guard hasCron else {
                throw CLIError("neither systemd's user manager nor cron is available here: run 'quire remind' from your desktop's autostart or shell profile instead")
            }
            let edited = Reminder.crontab(crontab(), setting: line, vaultRoot: vaultRoot)
            let run = ChildProcess.run(["crontab", "-"], input: Array(edited.utf8), timeoutSeconds: 10)
            guard run.status == 0 else { throw CLIError("crontab failed: \(String(decoding: run.errorOutput, as: UTF8.self))") }
        }
    }
}
