import Foundation
import Testing
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// `quire remind`: the line it says, and the files that run it daily, checked by the programs that
/// read them (systemd-analyze for the units, sh for cron's command).
@Suite struct ReminderTests {
    @Test func theLineSaysWhatWaits() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
            try dir.write("Notes/a.md", "---\ncreated: 2026-11-02\n---\nQ1? :: A\n\nQ2? :: B\n")
            let session = LoadedVault(try Vault(root: dir.path), cached: false)
            let context = StudyContext(session, config: try LoadedVault.readSettings(of: session.vault).config, now: at(26, 12))
            #expect(Reminder.message(context) == "2 new · weekly curation pending")
            try dir.remove("Notes/a.md")
            let empty = LoadedVault(try Vault(root: dir.path), cached: false)
            #expect(Reminder.message(StudyContext(empty, config: context.config, now: at(26, 12))) == nil)
        }
    }

    @Test func timesOfDay() {
        #expect(Reminder.time("09:00")! == (9, 0) && Reminder.time("23:59")! == (23, 59))
        for bad in ["9:00", "24:00", "12:60", "noon", "12:00:00", "", "١٢:٠٠"] { #expect(Reminder.time(bad) == nil, "\(bad)") }
    }

    @Test func systemdReadsTheUnits() throws {
        let analyze = "/usr/bin/systemd-analyze"
        try withTempDir { dir in
            let root = "/home/x/My 100% $notes \"a\\b\""
            let name = Reminder.unitName(vaultRoot: root)
            #expect(name.hasPrefix("quire-remind-my100notesab-") && name == Reminder.unitName(vaultRoot: root))
            #expect(name != Reminder.unitName(vaultRoot: root + "2"))
            let units = Reminder.systemdUnits(quire: "/usr/bin/true", vaultRoot: root, hour: 7, minute: 5)
            #expect(units.timer.contains("OnCalendar=*-*-* 07:05:00") && units.service.contains(#"-C "/home/x/My 100%% $$notes \"a\\b\"" remind"#))
            try dir.write(name + ".service", units.service)
            try dir.write(name + ".timer", units.timer)
            guard FileManager.default.isExecutableFile(atPath: analyze) else { return }
            let run = Process()
            run.executableURL = URL(fileURLWithPath: analyze)
            run.arguments = ["verify", dir.full(name + ".service"), dir.full(name + ".timer")]
            let err = Pipe()
            run.standardError = err
            run.standardOutput = FileHandle.nullDevice
            try run.run()
            run.waitUntilExit()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(run.terminationStatus == 0, "\(said)")
        }
    }

    @Test func cronRunsTheRightWords() throws {
        try withTempDir { dir in
            // The line's command, run by sh as cron runs it, with a program that prints its words.
            try dir.write("bin/quire", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n")
            try dir.chmod("bin/quire", 0o755)
            let root = "/home/x/it's my vault"
            let line = Reminder.cronLine(quire: dir.full("bin/quire"), vaultRoot: root, hour: 9, minute: 30)
            #expect(line.hasPrefix("30 9 * * * "))
            let command = line.split(separator: " ", maxSplits: 5).last.map(String.init) ?? ""
            let run = ChildProcess.run(["sh", "-c", command])
            #expect(run.text == "-C\n\(root)\nremind")
            // The crontab keeps its other lines; a second install replaces the first; uninstall removes it.
            let mine = "0 1 * * * backup\n"
            let once = Reminder.crontab(mine, setting: line, vaultRoot: root)
            #expect(once == mine + line + "\n")
            #expect(Reminder.crontab(once, setting: line, vaultRoot: root) == once)
            #expect(Reminder.crontab(once, setting: nil, vaultRoot: root) == mine)
        }
    }
}
