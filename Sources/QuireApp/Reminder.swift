import QuireIndex
import QuireModel
import QuireScheduling
import QuireStudy
import QuireSupport

/// `quire remind`: what is waiting in a vault, said in one line, and the files that run it every
/// day (a systemd user timer, or a crontab line where there is no systemd).
public enum Reminder {
    /// The line a reminder says, or nil when nothing waits: `23 cards due, 5 new · weekly
    /// curation pending`.
    public static func message(_ context: StudyContext) -> String? {
        let plan = context.plan()
        let due = plan.items.filter { $0.section != .new }.count
        let new = plan.items.count - due
        var parts: [String] = []
        if due > 0 { parts.append("\(Plural.counted(due, "card")) due") }
        if new > 0 { parts.append("\(new) new") }
        let curation = CurationContext(loaded: context.loaded, config: context.config, now: context.now)
        let reviews = Set(curation.curation.pending(today: curation.today).map(\.period.review.rawValue))
        var line = parts.joined(separator: ", ")
        if !reviews.isEmpty {
            let names = ["weekly", "monthly", "yearly"].filter(reviews.contains).joined(separator: " and ")
            line += (line.isEmpty ? "" : " · ") + names + " curation pending"
        }
        return line.isEmpty ? nil : line
    }

    /// A time of day written `HH:MM` (24 hours), or nil.
    public static func time(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
        return (h, m)
    }

    /// The name the installed files carry for a vault: one per vault, stable, safe in a file name.
    public static func unitName(vaultRoot: String) -> String {
        var hash = SipHash24(k0: 0x7265_6D69_6E64_0001, k1: 0x7175_6972_6500_0001)
        hash.combine(vaultRoot)
        let stem = vaultRoot.split(separator: "/").last.map { String($0.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }.prefix(24)) } ?? ""
        return "quire-remind-" + (stem.isEmpty ? "" : stem.lowercased() + "-") + String(hash.finalize() % 0xFFFF_FFFF, radix: 16)
    }

    /// A systemd user service and timer that run `quire remind` on the vault at `hour:minute`
    /// every day (and at the next start when the computer was off then).
    public static func systemdUnits(quire: String, vaultRoot: String, hour: Int, minute: Int) -> (service: String, timer: String) {
        let service = """
            [Unit]
            Description=Quire reminder for \(vaultRoot)

            [Service]
            Type=oneshot
            ExecStart=\(systemdQuoted(quire)) -C \(systemdQuoted(vaultRoot)) remind

            """
        let timer = """
            [Unit]
            Description=Quire reminder for \(vaultRoot), every day at \(twoDigits(hour)):\(twoDigits(minute))

            [Timer]
            OnCalendar=*-*-* \(twoDigits(hour)):\(twoDigits(minute)):00
            Persistent=true

            [Install]
            WantedBy=timers.target

            """
        return (service, timer)
    }

    /// The crontab line that runs `quire remind` on the vault every day at `hour:minute`, marked
    /// so that `uninstall` finds it again.
    public static func cronLine(quire: String, vaultRoot: String, hour: Int, minute: Int) -> String {
        "\(minute) \(hour) * * * \(shellQuoted(quire)) -C \(shellQuoted(vaultRoot)) remind # \(unitName(vaultRoot: vaultRoot))"
    }

    /// A crontab with the vault's line added (replacing an earlier one) or, with `line` nil, removed.
    public static func crontab(_ current: String, setting line: String?, vaultRoot: String) -> String {
        let marker = "# " + unitName(vaultRoot: vaultRoot)
        var lines = current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        lines.removeAll { $0.hasSuffix(marker) }
        if let line { lines.append(line) }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// A word for a systemd `ExecStart=` line: quoted, `\` and `"` escaped, `%` doubled
    /// (systemd's specifiers), `$` doubled (its variables).
    static func systemdQuoted(_ word: String) -> String {
        var out = "\""
        for c in word {
            switch c {
            case "\\", "\"": out += "\\" + String(c)
            case "%": out += "%%"
            case "$": out += "$$"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    /// A word for a shell (cron runs the line with `sh`): single-quoted, `'` as `'\''`; `%`,
    /// which cron turns into a line break, escaped.
    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''").replacing("%", with: "\\%") + "'"
    }
}
