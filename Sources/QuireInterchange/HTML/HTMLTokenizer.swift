/// A start tag with the attributes the converter uses.
struct StartTag {
    var name: String
    var selfClosing = false
    var href: String?
    var src: String?
    var alt: String?
    var start: String?
}

enum Token {
    /// Decoded text (references resolved, control characters dropped).
    case text([Scalar])
    case start(StartTag)
    case end(String)
}

/// Splits the input into text, start tags and end tags. Comments, doctypes and processing
/// instructions are skipped; the content of raw-text elements (`script`, `style`, `title`,
/// `iframe`) is skipped and reported as an empty element.
///
/// A tag that never reaches its closing `>` makes the rest of the input text. Every scan
/// either consumes what it scanned or ends tokenization, which keeps the pass linear.
struct HTMLTokenizer {
    private static let rawTextElements: Set<String> = ["script", "style", "title", "iframe"]

    private let input: [Scalar]
    private var tokens: [Token] = []
    /// Positions from which no `"` (or `'`) occurs any more.
    private var noDoubleQuoteFrom = Int.max
    private var noSingleQuoteFrom = Int.max

    init(_ input: [Scalar]) {
        self.input = input
    }

    private enum Markup {
        case text
        case restIsText
        case consumed(end: Int, tokens: [Token])
    }

    mutating func run() -> [Token] {
        let count = input.count
        var index = 0
        var textStart = 0
        scanning: while index < count {
            guard input[index] == "<" else {
                index += 1
                continue
            }
            switch markup(at: index) {
            case .text:
                index += 1
            case .restIsText:
                break scanning
            case .consumed(let end, let found):
                flushText(from: textStart, to: index)
                tokens.append(contentsOf: found)
                index = end
                textStart = end
            }
        }
        flushText(from: textStart, to: count)
        return tokens
    }

    private mutating func flushText(from start: Int, to end: Int) {
        guard start < end else { return }
        let decoded = decodeEntities(input[start..<end], inText: true)
        guard !decoded.isEmpty else { return }
        if case .text(var previous) = tokens.last {
            tokens.removeLast()
            previous.append(contentsOf: decoded)
            tokens.append(.text(previous))
        } else {
            tokens.append(.text(decoded))
        }
    }

    private mutating func markup(at start: Int) -> Markup {
        let count = input.count
        guard start + 1 < count else { return .text }
        let next = input[start + 1]
        if next == "!" {
            if start + 3 < count, input[start + 2] == "-", input[start + 3] == "-" {
                return .consumed(end: commentEnd(from: start + 4), tokens: [])
            }
            guard let close = firstIndex(of: ">", from: start + 2) else { return .restIsText }
            return .consumed(end: close + 1, tokens: [])
        }
        if next == "?" {
            guard let close = firstIndex(of: ">", from: start + 2) else { return .restIsText }
            return .consumed(end: close + 1, tokens: [])
        }
        if next == "/" {
            guard start + 2 < count, input[start + 2].isASCIILetter else { return .text }
            let (name, afterName) = tagName(from: start + 2)
            var ignored = StartTag(name: name)
            guard let end = attributes(from: afterName, into: &ignored) else { return .restIsText }
            return .consumed(end: end, tokens: [.end(name)])
        }
        guard next.isASCIILetter else { return .text }
        let (name, afterName) = tagName(from: start + 1)
        var tag = StartTag(name: name)
        guard let end = attributes(from: afterName, into: &tag) else { return .restIsText }
        guard Self.rawTextElements.contains(name), !tag.selfClosing else {
            return .consumed(end: end, tokens: [.start(tag)])
        }
        return .consumed(end: rawTextEnd(of: name, from: end), tokens: [.start(tag), .end(name)])
    }

    /// The end of a comment whose `<!--` ends just before `start` (the end of the input
    /// when it is unterminated).
    private func commentEnd(from start: Int) -> Int {
        let count = input.count
        if start < count, input[start] == ">" { return start + 1 }
        if start + 1 < count, input[start] == "-", input[start + 1] == ">" { return start + 2 }
        var index = start
        while index + 2 < count {
            if input[index] == "-", input[index + 1] == "-", input[index + 2] == ">" {
                return index + 3
            }
            index += 1
        }
        return count
    }

    /// The end of the matching `</name …>` of a raw-text element (the end of the input
    /// when there is none).
    private func rawTextEnd(of name: String, from start: Int) -> Int {
        let target = Array(name.unicodeScalars)
        let count = input.count
        var index = start
        while index + 1 < count {
            if input[index] == "<", input[index + 1] == "/", matchesLowercased(target, at: index + 2) {
                let after = index + 2 + target.count
                if after >= count || input[after].isHTMLSpace || input[after] == "/" || input[after] == ">" {
                    return firstIndex(of: ">", from: after).map { $0 + 1 } ?? count
                }
            }
            index += 1
        }
        return count
    }

    private func matchesLowercased(_ target: [Scalar], at start: Int) -> Bool {
        guard start + target.count <= input.count else { return false }
        for (offset, scalar) in target.enumerated() where input[start + offset].asciiLowercased != scalar {
            return false
        }
        return true
    }

    private func firstIndex(of scalar: Scalar, from start: Int) -> Int? {
        var index = start
        while index < input.count {
            if input[index] == scalar { return index }
            index += 1
        }
        return nil
    }

    private func tagName(from start: Int) -> (String, Int) {
        var index = start
        var name = ""
        while index < input.count, !input[index].isHTMLSpace, input[index] != "/", input[index] != ">" {
            name.unicodeScalars.append(input[index].asciiLowercased)
            index += 1
        }
        return (name, index)
    }

    /// The position of the closing `quote` at or after `start`, if any.
    private mutating func closingQuote(_ quote: Scalar, from start: Int) -> Int? {
        let double = quote == "\""
        if start >= (double ? noDoubleQuoteFrom : noSingleQuoteFrom) { return nil }
        if let found = firstIndex(of: quote, from: start) { return found }
        if double { noDoubleQuoteFrom = start } else { noSingleQuoteFrom = start }
        return nil
    }

    /// Parses attributes up to the end of the tag; returns the position after `>` or `nil`
    /// when the input ends first. A quote without a closing quote starts an unquoted value.
    private mutating func attributes(from start: Int, into tag: inout StartTag) -> Int? {
        let count = input.count
        var index = start
        while index < count {
            let scalar = input[index]
            if scalar.isHTMLSpace {
                index += 1
                continue
            }
            if scalar == ">" { return index + 1 }
            if scalar == "/" {
                if index + 1 < count, input[index + 1] == ">" {
                    tag.selfClosing = true
                    return index + 2
                }
                index += 1
                continue
            }
            let nameStart = index
            index += 1
            while index < count, !input[index].isHTMLSpace, input[index] != "/",
                input[index] != ">", input[index] != "="
            {
                index += 1
            }
            let nameEnd = index
            while index < count, input[index].isHTMLSpace { index += 1 }
            var value: Range<Int>?
            if index < count, input[index] == "=" {
                index += 1
                while index < count, input[index].isHTMLSpace { index += 1 }
                if index < count, input[index] == "\"" || input[index] == "'",
                    let close = closingQuote(input[index], from: index + 1)
                {
                    value = (index + 1)..<close
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < count, !input[index].isHTMLSpace, input[index] != ">" { index += 1 }
                    var valueEnd = index
                    // `src=a.png/>`: read the slash as the end of the tag, not part of the value.
                    if index < count, valueEnd > valueStart, input[valueEnd - 1] == "/" { valueEnd -= 1 }
                    value = valueStart..<valueEnd
                }
            }
            assign(name: nameStart..<nameEnd, value: value, to: &tag)
        }
        return nil
    }

    private func assign(name: Range<Int>, value: Range<Int>?, to tag: inout StartTag) {
        guard name.count >= 3, name.count <= 5 else { return }
        let lowered = makeString(input[name].map { $0.asciiLowercased })
        func decoded() -> String {
            value.map { makeString(decodeEntities(input[$0], inText: false)) } ?? ""
        }
        switch lowered {
        case "href" where tag.href == nil: tag.href = decoded()
        case "src" where tag.src == nil: tag.src = decoded()
        case "alt" where tag.alt == nil: tag.alt = decoded()
        case "start" where tag.start == nil: tag.start = decoded()
        default: break
        }
    }
}
