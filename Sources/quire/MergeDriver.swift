import QuireTerminal
import ArgumentParser
import Foundation
import QuireSync

extension Quire {
    /// `quire merge-driver BASE OURS THEIRS PATH`: what git runs (`quire git setup` registers it).
    struct MergeDriver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-driver",
            abstract: "Merge a note for git (git runs this; see 'quire git setup').",
            discussion: """
            BASE, OURS and THEIRS are git's files (%O %A %B), PATH the note's path (%P). The text is \
            merged by git's rules; the scheduling lines from the review logs of both sides. The result \
            is written to OURS; the exit status is 1 when the text has conflicts left.

            Example: (run by git, once quire git setup has registered it)
            """)

        @Argument(help: "The common ancestor's version (%O).") var base: String
        @Argument(help: "Our version (%A); receives the result.") var ours: String
        @Argument(help: "Their version (%B).") var theirs: String
        @Argument(help: "The note's path in the repository (%P).") var path: String

        func run() throws {
            do {
                let report = try GitMergeDriver(directory: WorkingDirectory.path(), environment: ProcessInfo.processInfo.environment)
                    .merge(base: base, ours: ours, theirs: theirs, path: path)
                if let problem = report.settingsProblem {
                    Output.error("quire: warning: \(problem); the cards reviewed on both sides were scheduled with the default settings")
                }
                if !report.replayedCards.isEmpty {
                    Output.error("quire: \(path): \(report.replayedCards.count) card(s) reviewed on both sides; scheduled from both review logs")
                }
                if !report.unreplayedCards.isEmpty {
                    Output.error("quire: \(path): \(report.unreplayedCards.count) card(s) changed on both sides with no review in the logs; the later review kept (run 'quire check')")
                }
                if report.mergedAsText {
                    Output.error("quire: \(path): front matter unreadable on one side; merged as text")
                }
                if report.hasConflicts { throw ExitCode(1) }
            } catch let error as SyncError {
                Output.error("quire: \(error)")
                throw ExitCode(2)
            }
        }
    }
}
