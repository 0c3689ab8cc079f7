import QuireTerminal
import ArgumentParser
import QuireSupport

/// A word where a command's name belongs that names none: `quire revew`, `quire import ankii`,
/// `quire help sheduling`. The argument parser says only "unexpected argument" (and for `help`
/// prints the whole list and succeeds); this names the nearest command or help topic instead.
enum UnknownCommand {
    /// What to say of `args` (the words after `quire`, `-C DIR` moved after the command's names),
    /// or nil when every word in a command name's place names one. A word after a command with a
    /// default subcommand (which may take it as an argument) is only taken up when a name is near it.
    static func message(_ args: [String]) -> String? {
        var words = args[...]
        let help = words.first == "help"
        if help { words = words.dropFirst() }
        var command: any ParsableCommand.Type = Quire.self
        var path: [String] = []
        while let word = words.first {
            // The vault, named before the command (`quire -C DIR stats`).
            if word == "-C" || word == "--vault" {
                words = words.dropFirst(2)
                continue
            }
            if word.hasPrefix("--vault=") || (word.hasPrefix("-C") && word.count > 2) {
                words = words.dropFirst()
                continue
            }
            if word.hasPrefix("-") { return nil }
            let subcommands = command.configuration.subcommands
            if let sub = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) }) {
                command = sub
                path.append(word)
                words = words.dropFirst()
                continue
            }
            guard !subcommands.isEmpty, !(help && path.isEmpty && word == "help") else { return nil }
            let topics = help && path.isEmpty ? HelpTopic.topics.map(\.name) + ["topics"] : []
            let near = EditDistance.suggestion(for: word, among: subcommands.map { $0._commandName } + topics)
            if near == nil, command.configuration.defaultSubcommand != nil { return nil }
            let said = (path + [word]).joined(separator: " ")
            let what = topics.isEmpty ? "unknown command '\(said)'" : "no command or help topic '\(said)'"
            if let near { return what + "; did you mean '\((path + [near]).joined(separator: " "))'?" }
            let listed = path.isEmpty ? (help ? "quire --help lists the commands, quire help topics the topics" : "quire --help lists them")
                : "quire \(path.joined(separator: " ")) --help lists them"
            return what + " (\(listed))"
        }
        return nil
    }
}
