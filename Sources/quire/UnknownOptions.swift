import QuireTerminal
import ArgumentParser
import QuireSupport

/// Words that look like options but are none of a command's: the commands that take a query
/// take every word they do not know as part of it, so without this check a typo (`--jsn`) would
/// silently become a query matching nothing.
enum UnknownOptions {
    /// Throws for the first word before `--` that starts with `--` and is not one of `command`'s
    /// options, naming the closest option when one is close.
    static func reject(_ words: [String], of command: any ParsableArguments.Type) throws {
        for word in words {
            if word == "--" { return }
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            let name = String(word.prefix { $0 != "=" })
            let close = EditDistance.suggestion(for: name, among: options(of: command))
            throw ValidationError("unknown option '\(name)'" + (close.map { "; did you mean '\($0)'?" } ?? "")
                + " (a query word that starts with '--' goes after '--')")
        }
    }

    /// The command's long options, as its help lists them.
    static func options(of command: any ParsableArguments.Type) -> [String] {
        let help = command.helpMessage(includeHidden: true, columns: 10_000)
        var found: [String] = []
        var chars = Substring(help)
        while let start = chars.range(of: "--") {
            var name = "--"
            var rest = chars[start.upperBound...]
            while let c = rest.first, c.isLetter || c.isNumber || c == "-" {
                name.append(c)
                rest = rest.dropFirst()
            }
            if name.count > 2, !found.contains(name) { found.append(name) }
            chars = rest
        }
        return found
    }
}
