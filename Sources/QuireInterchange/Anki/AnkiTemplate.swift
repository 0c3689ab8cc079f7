import QuireSupport

/// What an Anki card template shows: the note's fields its question and its answer use, in the
/// order they first appear (Anki's `{{Field}}`, `{{filter:Field}}`, `{{type:Field}}`,
/// `{{cloze:Field}}`, `{{tts en_US:Field}}`; conditional sections `{{#Field}}`, `{{^Field}}` and
/// `{{/Field}}` show nothing by themselves, and `{{FrontSide}}`, `{{Tags}}`, `{{Deck}}`… are not
/// fields).
struct AnkiTemplate: Sendable, Equatable {
    /// Field indices the question shows, in order.
    var question: [Int]
    /// Field indices the answer shows that its question does not, in order.
    var answer: [Int]
    /// Whether the card asks for a typed answer (`{{type:Field}}`).
    var typed: Bool
    /// Field indices the template puts inside `[latex]…[/latex]`: their text is LaTeX source
    /// (text mode, with `$…$` math), which Anki renders as an image.
    var latex: Set<Int>

    /// Reads a template's question and answer formats against the note type's field names.
    init(question: String, answer: String, fields: [String]) {
        // `{{type:Field}}` on the question is where the answer is typed: the field is the answer's.
        let q = Self.references(question, fields: fields, skippingTyped: true)
        self.question = q
        self.answer = (Self.references(question, fields: fields).filter { !q.contains($0) } + Self.references(answer, fields: fields))
            .reduce(into: [Int]()) { if !q.contains($1) && !$0.contains($1) { $0.append($1) } }
        typed = question.contains("{{type:") || answer.contains("{{type:")
        latex = Self.latexFields(question, fields: fields).union(Self.latexFields(answer, fields: fields))
    }

    /// The fields referenced between `[latex]` and `[/latex]` in a format.
    static func latexFields(_ format: String, fields: [String]) -> Set<Int> {
        var found = Set<Int>()
        var rest = Substring(format)
        while let open = rest.range(ofLiteral: "[latex]") {
            guard let close = rest[open.upperBound...].range(ofLiteral: "[/latex]") else { break }
            found.formUnion(references(String(rest[open.upperBound..<close.lowerBound]), fields: fields))
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// The field indices a format shows, in order of first appearance, each once.
    static func references(_ format: String, fields: [String], skippingTyped: Bool = false) -> [Int] {
        var found: [Int] = []
        var rest = Substring(format)
        // Each `{{…}}` is looked at once: the scan is linear in the format.
        while let open = rest.range(ofLiteral: "{{") {
            guard let close = rest[open.upperBound...].range(ofLiteral: "}}") else { break }
            let inner = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: " \t")
            rest = rest[close.upperBound...]
            guard let first = inner.first, first != "#", first != "^", first != "/", first != "!" else { continue }
            if skippingTyped, inner.hasPrefix("type:") { continue }
            // `{{filter:filter:Field}}`: the field is the last part (a name may not hold ':').
            let name = inner.split(separator: ":", omittingEmptySubsequences: false).last.map { $0.trimmingCharacters(in: " \t") } ?? ""
            guard let index = fields.firstIndex(of: name), !found.contains(index) else { continue }
            found.append(index)
        }
        return found
    }
}

extension StringProtocol {
    /// The text without the given characters at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let drop: (Character) -> Bool = { set.contains($0) }
        return String(self.drop(while: drop).reversed().drop(while: drop).reversed())
    }
}
