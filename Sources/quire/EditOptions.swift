import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireModel
import QuireReview

/// Shared by the bulk front-matter commands (`tag`, `set`, `unset`).
struct EditOptions: ParsableArguments {
    @Flag(help: "Show the changes as a unified diff and write nothing.")
    var dryRun = false
    @Flag(help: "Change every note without asking, when no query (or 'all') selects them (what scripts must say).")
    var all = false
}

extension LoadedVault {
    /// Applies a front-matter change to every note matching `queryWords` (all notes when empty):
    /// plans it, prints a diff (dry run) or writes each file atomically, reports failures per file
    /// and exits 1 at the end if any file failed.
    func edit(_ change: FrontMatterChange, queryWords: [String], options: VaultOptions, edit: EditOptions,
              verb: String) throws {
        do { try change.validate() } catch { throw CLIError(error.description) }
        let query = try options.query(queryWords)
        let paths = index.notes(matching: query, now: options.now, dayEnd: try dayEnd(at: options.now)).map { index.notes[$0].path }
        let words = queryWords.filter { $0 != "--" }
        if !edit.dryRun, words.isEmpty || words == ["all"] {
            try Confirmation.everything(Plural.counted(paths.count, "note"), confirmed: edit.all)
        }
        if edit.dryRun {
            let plan = vault.plan(change, paths: paths)
            Output.diagnostics(plan.diagnostics, root: vault.root, toStandardError: true, color: false)
            for e in plan.edits { Output.write(e.diff) }
            Output.error("would change \(plan.edits.count) of \(paths.count) matching note\(paths.count == 1 ? "" : "s") (dry run)")
            Output.flush()
            if !plan.diagnostics.isEmpty || index.hasErrors { throw ExitCode(1) }
            return
        }
        // Planned and written holding the lock: each note is read after any other quire's write.
        let (plan, result) = try locked {
            let plan = vault.plan(change, paths: paths)
            return (plan, vault.apply(plan.edits))
        }
        Output.diagnostics(plan.diagnostics, root: vault.root, toStandardError: true, color: false)
        Output.diagnostics(result.diagnostics, root: vault.root, toStandardError: true, color: false)
        for p in result.written { Output.line("\(verb) \(p)") }
        Output.error("changed \(result.written.count) of \(paths.count) matching note\(paths.count == 1 ? "" : "s")")
        Output.flush()
        if !plan.diagnostics.isEmpty || !result.diagnostics.isEmpty || index.hasErrors { throw ExitCode(1) }
    }
}
