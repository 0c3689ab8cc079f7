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
            case "state": if let st = CardState(rawValue: text) { s.state = st } else { bad("new, learning, review or relearning") }
            case "step": if let n = Int(text), n >= 0 { s.step = n } else { bad("a whole number") }
            case "due": if let t = Timestamp(iso8601: text) { s.due = t } else { bad("a timestamp") }
            case "last": if let t = Timestamp(iso8601: text) { s.lastReview = t } else { bad("a timestamp") }
            case "stability": if let d = Double(text), d.isFinite { s.stability = d } else { bad("a number") }
            case "difficulty": if let d = Double(text), d.isFinite { s.difficulty = d } else { bad("a number") }
            case "ease": if let d = Double(text), d.isFinite { s.ease = d } else { bad("a number") }
            case "interval": if let n = Int(text), n >= 0 { s.interval = n } else { bad("a whole number of days") }
            case "reps": if let n = Int(text), n >= 0 { s.reps = n } else { bad("a whole number") }
            case "lapses": if let n = Int(text), n >= 0 { s.lapses = n } else { bad("a whole number") }
            case "flow": if let f = FlowState(rawValue: text) { s.flow = f } else { bad("learning, reviewing, mastered or inactive") }
            case "streak": if let n = Int(text), n >= 0 { s.streak = n } else { bad("a whole number") }
            case "attempts": if let n = Int(text), n >= 0 { s.attempts = n } else { bad("a whole number") }
            case "suspended": if let b = v.bool { s.suspended = b } else { bad("true or false") }
            case "buried": if let t = Timestamp(iso8601: text) { s.buriedUntil = t } else { bad("a timestamp") }
            default: s.unknownFields.append((key, v.style == .plain ? text : YAMLValue.quoted(text).yamlText(inFlow: true)))
            }
        }
        return (s, problems)
    }

    /// The YAML value to write for a state: a flow mapping with the fields in their fixed order.
    public static func encode(_ state: SchedulingState) -> YAMLValue {
        .flowMapping(state.fields.map { ($0.key, .raw($0.value)) })
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
