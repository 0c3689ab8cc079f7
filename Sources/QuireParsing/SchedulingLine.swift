import QuireModel
import QuireYAML

/// Reading and writing one card's scheduling line under `quire:` (FORMAT.md §5).
public enum SchedulingLine {
    /// The front-matter key that holds the scheduling lines.
    public static let key = "quire"

    /// Reads a line's flow mapping. Problems with single fields are returned as messages with their
    /// marks; the fields that could be read are kept.
    package static func decode(_ node: YAMLNode) -> (state: SchedulingState?, problems: [(YAMLMark, String)]) {
        guard case .mapping(let map) = node else {
            return (nil, [(node.start, "a scheduling line must be a mapping like {state: review, due: …}")])
        }
        var s = SchedulingState()
        var problems: [(YAMLMark, String)] = []
        for (keyScalar, value) in map.entries {
            let key = keyScalar.value
            guard case .scalar(let v) = value else {
                problems.append((value.start, "field '\(key)' must be a single value"))
                continue
            }
            let text = v.value
            func bad(_ expected: String) { problems.append((v.start, "field '\(key)' must be \(expected), not '\(text)'")) }
            switch key {
            case "fp": if let f = Fingerprint(hex: Substring(text)) { s.fingerprint = f } else { bad("16 hex digits") }
            // YAML's booleans (`True`, `yes`, …) as the front matter may have them.
            case "suspended": if let b = v.bool { s.suspended = b } else { bad("true or false") }
            case _ where SchedulingState.isReadableField(key): if let expected = s.read(field: key, text: text) { bad(expected) }
            default: s.unknownFields.append((key, v.style == .plain ? text : YAMLValue.quoted(text).yamlText(inFlow: true)))
            }
        }
        return (s, problems)
    }

    /// The YAML value to write for a state: a flow mapping with the fields in their fixed order.
    public static func encode(_ state: SchedulingState) -> YAMLValue {
        .flowMapping(state.fields.map { ($0.key, .raw($0.value)) })
    }

    /// Sets many cards' lines at once (``FrontMatterEditor/setEntries(_:in:blankLineAfter:)``:
    /// one parse and one check for all, linear in the front matter), each as
    /// ``set(_:of:in:)`` would.
    public static func set(_ states: [(card: CardID, state: SchedulingState?)], in editor: inout FrontMatterEditor) throws(YAMLError) {
        try editor.setEntries(states.map { ($0.card.rawValue, $0.state.map(encode)) }, in: key, blankLineAfter: true)
    }

    /// Sets a card's line to `state`, or removes it when nil (a new card has no line).
    ///
    /// A new line is followed by a blank line (FORMAT.md §5): no two cards' lines touch, so git
    /// merges two devices' reviews of different cards of one note even without Quire's driver.
    public static func set(_ state: SchedulingState?, of card: CardID, in editor: inout FrontMatterEditor) throws(YAMLError) {
        if let state {
            try editor.setEntry(card.rawValue, in: key, to: encode(state), blankLineAfter: true)
        } else {
            try editor.removeEntry(card.rawValue, in: key, blankLineAfter: true)
        }
    }
}
