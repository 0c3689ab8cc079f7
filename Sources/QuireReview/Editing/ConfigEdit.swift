import QuireYAML

/// Lossless edits of `.quire/config.yaml` (a YAML document without `---` fences): the same
/// editor as front matter, on the file framed as one, so comments, order and quoting stay.
public enum ConfigEdit {
    /// Sets `name` under `categories:` to `color` (a quoted `#rrggbb`, or null), adding the
    /// mapping when the file has none.
    public static func setCategory(_ name: String, color: String?, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            try editor.setEntry(name, in: "categories", to: color.map { .quoted($0) } ?? .raw("null"))
        }
    }

    /// Removes `name` from `categories:`.
    public static func removeCategory(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            try editor.removeEntry(name, in: "categories")
        }
    }

    /// Adds a source type to `source_types:`, making the list when the file has none.
    public static func addSourceType(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.addToList("source_types", name) }
    }

    /// Removes a source type from `source_types:`.
    public static func removeSourceType(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.removeFromList("source_types", name) }
    }

    /// Sets `card_syntax` (FORMAT.md §3.8): `quire` or `obsidian-sr`.
    public static func setCardSyntax(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.set("card_syntax", to: .raw(name)) }
    }

    /// Sets `fsrs_parameters` (21 numbers, as written by `quire optimize --write`) and
    /// `fsrs_optimized` (the day they were fitted) for the whole vault, or under `decks:` for a
    /// deck prefix: a new deck entry is one flow line; a deck written as a block mapping has the
    /// two keys set inside it, its other lines kept.
    public static func setParameters(_ values: [Double], fittedOn day: String, deck: String?, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        let list = YAMLValue.flowSequence(values.map { .raw(Self.number($0)) })
        guard let deck else {
            return try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
                try editor.set("fsrs_parameters", to: list)
                try editor.set("fsrs_optimized", to: .raw(day))
            }
        }
        return try setKeys([("fsrs_parameters", list), ("fsrs_optimized", .raw(day))], ofDeck: deck, in: file)
    }

    /// Sets a top-level key to `value` (YAML as written), or removes it when `value` is nil.
    public static func setKey(_ key: String, to value: YAMLValue?, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            if let value { try editor.set(key, to: value) } else { try editor.remove(key) }
        }
    }

    /// Sets keys of a deck's entry under `decks:` (and removes `removing`): a new entry is one
    /// flow line; an entry written as a block mapping has the keys set inside it, its other lines
    /// kept; the result must read back with exactly the keys asked for.
    public static func setKeys(_ keys: [(String, YAMLValue)], removing: [String] = [], ofDeck deck: String,
                               in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        let names = Set(keys.map(\.0)).union(removing)
        let entry = (try YAMLParser.parse(file))?.mapping?["decks"]?.mapping?.entries.last { $0.key.value == deck }
        guard let entry, let mapping = entry.value.mapping, !mapping.isFlow, let firstKey = mapping.entries.first?.key,
              let lastValue = mapping.entries.last?.value else {
            if let entry, !(entry.value.scalar?.isNull ?? false), !(entry.value.mapping?.isFlow ?? false) {
                throw .notAMapping(key: deck, at: entry.value.start)
            }
            var pairs: [(String, YAMLValue)] = []
            if let old = entry?.value.mapping {
                for (k, v) in old.entries where !names.contains(k.value) {
                    pairs.append((k.value, .raw(String(decoding: file[v.start.offset..<v.end.offset], as: UTF8.self))))
                }
            }
            return try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
                if pairs.isEmpty && keys.isEmpty {
                    try editor.removeEntry(deck, in: "decks")
                } else {
                    try editor.setEntry(deck, in: "decks", to: .flowMapping(pairs + keys))
                }
            }
        }
        // Every key of the entry removed: the entry goes.
        if keys.isEmpty, Set(mapping.entries.map(\.key.value)).isSubset(of: Set(removing)) {
            return try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.removeEntry(deck, in: "decks") }
        }
        // The deck's block: from its first key's line to the end of its last value's line, edited
        // as a document of its own without the indentation.
        let indent = firstKey.start.column - 1
        var low = firstKey.start.offset
        while low > 0, file[low - 1] != 0x0A { low -= 1 }
        var high = lastValue.end.offset
        if high > 0, file[high - 1] == 0x0A { high -= 1 }
        while high < file.count, file[high] != 0x0A { high += 1 }
        if high < file.count { high += 1 }
        let prefix = [UInt8](repeating: 0x20, count: indent)
        var inner: [UInt8] = []
        for line in file[low..<high].split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
                inner += line.dropFirst(min(indent, line.count)) + [0x0A]
            } else if line.starts(with: prefix) {
                inner += line.dropFirst(indent) + [0x0A]
            } else {
                throw .unsupportedEdit(reason: "deck '\(deck)' has a line less indented than its keys; edit it by hand",
                                       at: firstKey.start)
            }
        }
        inner.removeLast()
        let edited = try framed(inner) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            for (key, value) in keys { try editor.set(key, to: value) }
            for key in removing { try editor.remove(key) }
        }
        var block: [UInt8] = []
        for line in edited.split(separator: 0x0A, omittingEmptySubsequences: false) {
            block += (line.isEmpty ? [] : prefix) + line + [0x0A]
        }
        if !(file[low..<high].last == 0x0A) || edited.last == 0x0A { block.removeLast() }
        let out = Array(file[..<low]) + block + Array(file[high...])
        let written = (try YAMLParser.parse(out))?.mapping?["decks"]?.mapping?[deck]?.mapping
        let expected = Set(mapping.entries.map(\.key.value)).subtracting(removing).union(keys.map(\.0))
        guard let written, Set(written.entries.map(\.key.value)) == expected else {
            throw .verificationFailed(reason: "deck '\(deck)' does not read back with the keys set", at: firstKey.start)
        }
        return out
    }

    /// A weight as written: four decimals, as Anki shows them.
    static func number(_ x: Double) -> String {
        var text = String(Int((abs(x) * 10_000).rounded()))
        while text.count < 5 { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -4))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return (x < 0 ? "-" : "") + text
    }

    /// Runs an edit on the file framed by `---` lines, and takes the frame off again.
    private static func framed(_ file: [UInt8], _ edit: (inout FrontMatterEditor) throws(YAMLError) -> Void) throws(YAMLError) -> [UInt8] {
        let fence = Array("---\n".utf8)
        var body = file
        if let last = body.last, last != 0x0A { body.append(0x0A) }
        var editor = try FrontMatterEditor(file: fence + body + fence)
        try edit(&editor)
        let out = editor.file
        guard out.count >= 2 * fence.count, out.prefix(fence.count).elementsEqual(fence),
              out.suffix(fence.count).elementsEqual(fence) else {
            throw .verificationFailed(reason: "the settings file lost its frame", at: .start)
        }
        return Array(out.dropFirst(fence.count).dropLast(fence.count))
    }
}
