import QuireSupport

/// A cloze pattern of the Obsidian spaced-repetition plugin (`clozePatterns` in its settings),
/// such as `==[123;;]answer[;;hint]==` or `{{[123::]answer[::hint]}}` (FORMAT.md §3.8).
///
/// A pattern is literal text holding the word `answer`, one bracketed group holding digits (the
/// card-number slot) and one bracketed group holding `hint`; `\[` and `\]` inside a group are
/// literal brackets. Each pattern gives three matchers, as the plugin's cloze library builds them:
/// *simple* (no number), *classic* (a number: `==1;;Paris==`) and *overlapping* (a string of
/// `a`, `s`, `h`: `==ash;;Paris==`). `answer` and `hint` match one or more characters lazily, never
/// across a line.
///
/// Matching runs a small Pike virtual machine, so its time is linear in the text times the
/// pattern's size whatever the text holds (a backtracking matcher of the same expressions is
/// cubic on hostile input).
struct ObsidianClozePattern: Sendable, Equatable {
    /// The kinds of deletion a pattern matches, in the plugin's order of priority.
    enum Kind: Int, Sendable, CaseIterable, Comparable {
        case classic, overlapping, simple
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// One deletion found in a line.
    struct Match: Equatable {
        /// The whole deletion's byte range.
        var range: Range<Int>
        var answer: Range<Int>
        var hint: Range<Int>?
        /// The number (classic) or `a`/`s`/`h` string (overlapping), nil for simple.
        var sequence: Range<Int>?
    }

    let source: String
    private let programs: [Kind: Program]

    /// Compiles a pattern; nil when it lacks `answer`, a number group or a hint group.
    init?(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        guard let number = Self.group(in: bytes, holding: { $0.contains(where: { $0 >= 48 && $0 <= 57 }) }),
              let hint = Self.group(in: bytes, holding: { ByteSearch.firstOffset(of: Array("hint".utf8), in: $0) != nil }),
              number.upperBound <= hint.lowerBound || hint.upperBound <= number.lowerBound,
              ByteSearch.firstOffset(of: Array("answer".utf8), in: bytes) != nil else { return nil }
        source = pattern
        var programs: [Kind: Program] = [:]
        for kind in Kind.allCases {
            var parts: [Part] = []
            var literal: [UInt8] = []
            var answerDone = false
            func flush() {
                // `answer` in the literal text is the answer slot (its first occurrence).
                var rest = literal[...]
                while !answerDone, let at = ByteSearch.firstOffset(of: Array("answer".utf8), in: rest) {
                    if at > 0 { parts.append(.literal(Array(rest.prefix(at)))) }
                    parts.append(.answer)
                    answerDone = true
                    rest = rest.dropFirst(at + 6)
                }
                if !rest.isEmpty { parts.append(.literal(Array(rest))) }
                literal = []
            }
            var i = 0
            while i < bytes.count {
                if i == number.lowerBound {
                    flush()
                    if kind != .simple {
                        let inner = Self.unescape(bytes[(number.lowerBound + 1)..<(number.upperBound - 1)])
                        // The first run of digits is the number slot.
                        var j = 0
                        while j < inner.count, !(inner[j] >= 48 && inner[j] <= 57) { j += 1 }
                        var k = j
                        while k < inner.count, inner[k] >= 48, inner[k] <= 57 { k += 1 }
                        if j > 0 { parts.append(.literal(Array(inner[0..<j]))) }
                        parts.append(kind == .classic ? .digits : .ash)
                        if k < inner.count { parts.append(.literal(Array(inner[k...]))) }
                    }
                    i = number.upperBound
                    continue
                }
                if i == hint.lowerBound {
                    flush()
                    let inner = Self.unescape(bytes[(hint.lowerBound + 1)..<(hint.upperBound - 1)])
                    var group: [Part] = []
                    if let at = ByteSearch.firstOffset(of: Array("hint".utf8), in: inner) {
                        if at > 0 { group.append(.literal(Array(inner[0..<at]))) }
                        group.append(.hint)
                        if at + 4 < inner.count { group.append(.literal(Array(inner[(at + 4)...]))) }
                    }
                    parts.append(.optional(group))
                    i = hint.upperBound
                    continue
                }
                literal.append(bytes[i])
                i += 1
            }
            flush()
            programs[kind] = Program(parts)
        }
        self.programs = programs
    }

    static func == (a: ObsidianClozePattern, b: ObsidianClozePattern) -> Bool { a.source == b.source }

    /// The deletions of one kind in a line, left to right, not overlapping.
    func matches(_ kind: Kind, in line: ArraySlice<UInt8>) -> [Match] {
        guard let program = programs[kind] else { return [] }
        var found: [Match] = []
        var start = line.startIndex
        while start < line.endIndex, let match = program.search(line, from: start) {
            found.append(match)
            start = max(match.range.upperBound, start + 1)
        }
        return found
    }

    /// Whether a line holds a deletion of any kind.
    func matchesAny(_ line: ArraySlice<UInt8>) -> Bool {
        Kind.allCases.contains { programs[$0]?.search(line, from: line.startIndex) != nil }
    }

    // MARK: - Compiling

    private indirect enum Part {
        case literal([UInt8])
        case answer
        case hint
        case digits
        case ash
        case optional([Part])
    }

    /// The first bracketed group (`[` … `]`, `\]` not closing it) whose inside satisfies `test`.
    private static func group(in bytes: [UInt8], holding test: ([UInt8]) -> Bool) -> Range<Int>? {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "["), i == 0 || bytes[i - 1] != UInt8(ascii: "\\") else { i += 1; continue }
            var j = i + 1
            while j < bytes.count, !(bytes[j] == UInt8(ascii: "]") && bytes[j - 1] != UInt8(ascii: "\\")) { j += 1 }
            guard j < bytes.count else { return nil }
            if j > i + 1, test(unescape(bytes[(i + 1)..<j])) { return i..<(j + 1) }
            i += 1
        }
        return nil
    }

    private static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.endIndex,
               bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "]") {
                i += 1
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    // MARK: - The virtual machine

    /// A compiled matcher: instructions for a Pike VM with leftmost-first (backtracking-equal)
    /// priorities. Slots: 0/1 whole match, 2/3 answer, 4/5 hint, 6/7 sequence.
    private struct Program: Sendable {
        enum Instruction: Sendable {
            case byte(UInt8)
            /// Any byte but a line ending.
            case any
            case digit
            case ash
            /// Try `first`, then `second`.
            case split(Int, Int)
            case jump(Int)
            case save(Int)
            case match
        }

        var code: [Instruction] = []

        init(_ parts: [Part]) {
            code.append(.save(0))
            emit(parts)
            code.append(.save(1))
            code.append(.match)
        }

        private mutating func emit(_ parts: [Part]) {
            for part in parts {
                switch part {
                case .literal(let bytes):
                    for b in bytes { code.append(.byte(b)) }
                case .answer: lazyAny(slot: 2)
                case .hint: lazyAny(slot: 4)
                case .digits: greedy(.digit, slot: 6)
                case .ash: greedy(.ash, slot: 6)
                case .optional(let inner):
                    // Greedy `(?:…)?`: the group first.
                    let split = code.count
                    code.append(.split(split + 1, 0))
                    emit(inner)
                    code[split] = .split(split + 1, code.count)
                }
            }
        }

        /// `(.+?)`: one byte, then prefer leaving over taking another.
        private mutating func lazyAny(slot: Int) {
            code.append(.save(slot))
            let loop = code.count
            code.append(.any)
            code.append(.split(code.count + 1, loop))
            code.append(.save(slot + 1))
        }

        /// `(\d+)` or `([ash]+)`: greedy.
        private mutating func greedy(_ instruction: Instruction, slot: Int) {
            code.append(.save(slot))
            let loop = code.count
            code.append(instruction)
            code.append(.split(loop, code.count + 1))
            code.append(.save(slot + 1))
        }

        private struct Thread {
            var pc: Int
            var slots: [Int]
        }

        /// The leftmost-first match starting at or after `from`.
        func search(_ text: ArraySlice<UInt8>, from: Int) -> Match? {
            var current: [Thread] = []
            var next: [Thread] = []
            // The generation (position) at which each instruction was last added to a list.
            var onList = [Int](repeating: -1, count: code.count)
            var matched: [Int]?
            let empty = [Int](repeating: -1, count: 8)
            /// Adds the thread at `pc` and what it leads to, depth-first in priority order, each
            /// instruction once per position.
            func add(_ list: inout [Thread], _ pc: Int, _ slots: [Int], at position: Int) {
                var stack: [(Int, [Int])] = [(pc, slots)]
                while let (pc, slots) = stack.popLast() {
                    guard onList[pc] != position else { continue }
                    onList[pc] = position
                    switch code[pc] {
                    case .jump(let target): stack.append((target, slots))
                    case .split(let first, let second):
                        stack.append((second, slots))
                        stack.append((first, slots))
                    case .save(let slot):
                        var updated = slots
                        updated[slot] = position
                        stack.append((pc + 1, updated))
                    default:
                        list.append(Thread(pc: pc, slots: slots))
                    }
                }
            }
            var position = from
            while true {
                // A new start at each position, with the lowest priority, until a match is found.
                if matched == nil { add(&current, 0, empty, at: position) }
                if current.isEmpty { break }
                next.removeAll(keepingCapacity: true)
                let byte: UInt8? = position < text.endIndex ? text[position] : nil
                threads: for thread in current {
                    let advance: Bool
                    switch code[thread.pc] {
                    case .byte(let b): advance = byte == b
                    case .any: advance = byte.map { $0 != 10 && $0 != 13 } ?? false
                    case .digit: advance = byte.map { $0 >= 48 && $0 <= 57 } ?? false
                    case .ash: advance = byte.map { $0 == 97 || $0 == 115 || $0 == 104 } ?? false
                    case .match:
                        matched = thread.slots
                        break threads  // lower-priority threads are cut
                    default: advance = false
                    }
                    if advance { add(&next, thread.pc + 1, thread.slots, at: position + 1) }
                }
                swap(&current, &next)
                if byte == nil { break }
                position += 1
            }
            guard let slots = matched, slots[0] >= 0, slots[1] > slots[0] else { return nil }
            return Match(range: slots[0]..<slots[1], answer: slots[2]..<max(slots[2], slots[3]),
                         hint: slots[4] >= 0 && slots[5] > slots[4] ? slots[4]..<slots[5] : nil,
                         sequence: slots[6] >= 0 && slots[7] > slots[6] ? slots[6]..<slots[7] : nil)
        }
    }
}
