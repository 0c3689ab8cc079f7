import QuireSupport
import QuireSystem

/// Asking before a change to everything (`quire tag add x` with no query, `quire reset all`):
/// on a terminal the user says yes; a script says `--all`.
package enum Confirmation {
    /// Returns when the change may go on; throws when it may not.
    /// - Parameters:
    ///   - what: what would change, counted (`412 notes`).
    ///   - confirmed: `--all` was given.
    package static func everything(_ what: String, confirmed: Bool) throws {
        if confirmed { return }
        guard StandardStreams.inputIsTerminal else {
            throw CLIError("this would change every one of \(what) in the vault: pass --all to do so, or a query to select some")
        }
        Output.flush()
        StandardStreams.write(Array("This changes every one of \(what) in the vault. Go on? [y/N] ".utf8), to: 2)
        let answer = (readLine() ?? "").trimmingSpaces().lowercased()
        guard answer == "y" || answer == "yes" else { throw CLIError("nothing changed") }
    }
}
