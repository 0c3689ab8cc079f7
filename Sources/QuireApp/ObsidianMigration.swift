import QuireIndex
import QuireInterchange
import QuireModel
import QuireReview
import QuireScheduling
import QuireSystem
import QuireVault

/// The Obsidian spaced-repetition plugin's schedules moved into Quire (`quire import obsidian-sr`)
/// for any front end: every note planned before anything is written (``ObsidianSRImport``), then
/// the log first (FORMAT.md §6.1), the settings' `card_syntax`, and each note only if it is still
/// as it was read.
public struct ObsidianMigration {
    /// What is planned: each note's new bytes, the log's lines, the problems found.
    public let plan: ObsidianSRImport
    /// Problems in the plugin's settings (`.obsidian/plugins/…/data.json`).
    public let settingsDiagnostics: [Diagnostic]
    /// Notes that could not be read, with why (left out of the plan).
    public let unreadable: [(path: String, reason: String)]
    /// Whether the vault's `card_syntax` becomes `obsidian-sr`.
    public let changesSyntax: Bool

    private let vault: Vault

    /// One step of ``write(_:)``, for the front end to say.
    public enum Step {
        /// `card_syntax: obsidian-sr` set in the settings file at this path.
        case syntaxSet(String)
        /// A note rewritten, with its cards.
        case migrated(path: String, cards: Int)
        /// A note that could not be rewritten (its schedule is in the log: replay brings it).
        case failed(path: String, reason: String)
    }

    /// Plans the migration of every note of `context`'s vault at its time, the plugin's dates
    /// taken as the start of that study day; `strip` takes the plugin's comments out.
    public init(_ context: StudyContext, strip: Bool) {
        vault = context.loaded.vault
        let plugin = vault.obsidianSRSettings()
        settingsDiagnostics = plugin.diagnostics
        var notes: [(path: String, bytes: [UInt8])] = []
        var unreadable: [(path: String, reason: String)] = []
        for note in context.loaded.index.notes {
            do { notes.append((note.path, try vault.io.read(try vault.notePath(note.path)).bytes)) } catch {
                unreadable.append((note.path, error.description))
            }
        }
        self.unreadable = unreadable
        let calendar = context.calendar
        plan = ObsidianSRImport.plan(notes, settings: plugin.settings, strip: strip, now: context.now, day: { y, m, d in
            // The study day of that date, starting at the rollover hour in the offset of that day.
            let date = Timestamp(year: y, month: m, day: d)
            return calendar.start(of: Day(number: Int(date.milliseconds / 86_400_000)))
        }, eventIDs: { ReviewWriter.randomEventID() })
        changesSyntax = context.config.cardSyntax != .obsidianSR
    }

    /// Writes the plan: the log first (all or none), then under the vault's write lock the
    /// settings and each note still as read, telling `step` of each. A note changed since it was
    /// read is not written (a failed step); the log or the settings not written is thrown.
    public func write(_ step: (Step) -> Void) throws(AppError) {
        let text = ReviewLog.header + "\n" + plan.logLines.joined(separator: "\n") + "\n"
        try ImportedFiles.write([StagedFiles.File(Vault.logFolder + "/obsidian-sr-" + ReviewWriter.randomEventID() + ".log", .quire) {
            Array(text.utf8)
        }], to: vault)
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .importRefused("\(error)") }
        defer { lock.release() }
        if changesSyntax {
            let settings = Vault.folderName + "/config.yaml"
            do { try vault.setCardSyntax("obsidian-sr") } catch {
                throw .importRefused("\(settings): \(error); the schedules are in the log: run quire import obsidian-sr again once it can be written")
            }
            step(.syntaxSet(settings))
        }
        for change in plan.changes {
            do {
                try vault.io.replace(try vault.notePath(change.path), with: change.edited, expected: change.original)
                step(.migrated(path: change.path, cards: change.cards))
            } catch {
                step(.failed(path: change.path, reason: error.description))
            }
        }
    }
}
