internal import CLibYAML

/// Parses YAML text into ``YAMLNode`` values with file-relative byte marks, using libyaml's event API.
public enum YAMLParser {
    /// The version of the libyaml library in use, such as `0.2.5` (`quire doctor`).
    public static var libraryVersion: String { String(cString: yaml_get_version_string()) }

    /// The deepest collection nesting accepted; deeper input throws ``YAMLError/nestingTooDeep(at:)``.
    public static let maximumDepth = 256

    /// The longest simple key libyaml reads: it forgets a possible key that started more than
    /// 1024 characters before its `:`, so a longer one is an error (or, in a flow collection, may
    /// not be a key). The fast readers leave longer keys to libyaml.
    static let maximumSimpleKeyLength = 1024

    /// Parses one YAML document.
    /// - Parameters:
    ///   - yaml: The UTF-8 text (a leading BOM is skipped).
    ///   - baseMark: Where this text starts in its file, so that every mark is file-relative.
    /// - Returns: The root node, or nil when the text holds no document (empty or only comments).
    /// - Throws: ``YAMLError`` with the location of the first problem.
    public static func parse(_ yaml: [UInt8], baseMark: YAMLMark = .start) throws(YAMLError) -> YAMLNode? {
        let result = yaml.withUnsafeBufferPointer { buffer in
            Result { () throws(YAMLError) -> YAMLNode? in try parse(buffer: buffer, baseMark: baseMark) }
        }
        return try result.get()
    }

    /// Parses one YAML document held in part of a larger buffer (typically a file's front matter).
    /// - Parameters:
    ///   - yaml: The UTF-8 text.
    ///   - baseMark: Where this text starts in its file.
    /// - Returns: The root node, or nil when the text holds no document.
    /// - Throws: ``YAMLError`` with the location of the first problem.
    public static func parse(_ yaml: ArraySlice<UInt8>, baseMark: YAMLMark = .start) throws(YAMLError) -> YAMLNode? {
        let result = yaml.withUnsafeBufferPointer { buffer in
            Result { () throws(YAMLError) -> YAMLNode? in try parse(buffer: buffer, baseMark: baseMark) }
        }
        return try result.get()
    }

    /// Parses one YAML document from a string.
    /// - Parameters:
    ///   - yaml: The text.
    ///   - baseMark: Where this text starts in its file.
    /// - Returns: The root node, or nil when the text holds no document.
    /// - Throws: ``YAMLError`` with the location of the first problem.
    public static func parse(_ yaml: String, baseMark: YAMLMark = .start) throws(YAMLError) -> YAMLNode? {
        try parse(Array(yaml.utf8), baseMark: baseMark)
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>, baseMark: YAMLMark) throws(YAMLError) -> YAMLNode? {
        var input = buffer
        var base = baseMark
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            input = UnsafeBufferPointer(rebasing: input[3...])
            base.offset += 3
            base.column += 3
        }
        guard let address = input.baseAddress, !input.isEmpty else { return nil }
        let builder = TreeBuilder(input: input, address: address, base: base)
        return try builder.document()
    }
}

// MARK: - Raw libyaml marks (for tests documenting libyaml's behaviour)

extension YAMLParser {
    /// libyaml's own `index` values for each scalar event's start and end, unconverted.
    ///
    /// libyaml 0.2.5 counts *characters* in `yaml_mark_t.index` (and `column`), not bytes, so
    /// these differ from byte offsets as soon as the text holds multi-byte UTF-8.
    static func rawScalarIndices(_ yaml: [UInt8]) -> [Range<Int>] {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        defer {
            parser.deallocate()
            event.deallocate()
        }
        guard yaml_parser_initialize(parser) == 1 else { return [] }
        defer { yaml_parser_delete(parser) }
        var result: [Range<Int>] = []
        yaml.withUnsafeBufferPointer { buffer in
            guard let address = buffer.baseAddress else { return }
            yaml_parser_set_input_string(parser, address, buffer.count)
            while yaml_parser_parse(parser, event) == 1 {
                let e = event.pointee
                defer { yaml_event_delete(event) }
                if e.type == YAML_SCALAR_EVENT { result.append(e.start_mark.index..<e.end_mark.index) }
                if e.type == YAML_STREAM_END_EVENT { break }
            }
        }
        return result
    }
}

// MARK: - Marks

/// Converts libyaml marks (whose `index` counts characters) into exact file byte marks.
struct MarkConverter {
    let base: YAMLMark
    let count: Int
    /// Byte offset of every character start; nil when the input is ASCII (index == byte offset).
    let characterStarts: [Int]?
    /// Byte offsets where lines start; the first is 0.
    let lineStarts: [Int]

    init(_ bytes: UnsafeBufferPointer<UInt8>, base: YAMLMark) {
        self.base = base
        count = bytes.count
        var lines = [0]
        var ascii = true
        for (i, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") { lines.append(i + 1) }
            if byte >= 0x80 { ascii = false }
        }
        lineStarts = lines
        if ascii {
            characterStarts = nil
        } else {
            var starts: [Int] = []
            starts.reserveCapacity(bytes.count)
            for (i, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { starts.append(i) }
            characterStarts = starts
        }
    }

    /// The file mark of a byte offset within the input.
    func mark(byteOffset: Int) -> YAMLMark {
        let offset = min(max(byteOffset, 0), count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let column = low == 0 ? base.column + offset : offset - lineStarts[low] + 1
        return YAMLMark(offset: base.offset + offset, line: base.line + low, column: column)
    }

    /// The file mark of a libyaml character index within the input.
    func mark(characterIndex: Int) -> YAMLMark {
        guard let starts = characterStarts else { return mark(byteOffset: characterIndex) }
        return mark(byteOffset: characterIndex < starts.count ? starts[max(characterIndex, 0)] : count)
    }
}

// MARK: - Event reading and tree building

private struct Event {
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd
        case alias(String)
        case scalar(String, YAMLScalarStyle)
        case sequenceStart(isFlow: Bool)
        case sequenceEnd
        case mappingStart(isFlow: Bool)
        case mappingEnd
    }

    var kind: Kind
    var start: YAMLMark
    var end: YAMLMark
    var anchor: String?
    var tag: String?
}

/// Owns one libyaml parser for the duration of a single `parse` call.
private final class TreeBuilder {
    let parser: UnsafeMutablePointer<yaml_parser_t>
    let event: UnsafeMutablePointer<yaml_event_t>
    let marks: MarkConverter
    var anchors: [String: YAMLNode] = [:]
    var initialized: Bool

    init(input: UnsafeBufferPointer<UInt8>, address: UnsafePointer<UInt8>, base: YAMLMark) {
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        marks = MarkConverter(input, base: base)
        initialized = yaml_parser_initialize(parser) == 1
        if initialized {
            yaml_parser_set_input_string(parser, address, input.count)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        }
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
        event.deallocate()
    }

    func document() throws(YAMLError) -> YAMLNode? {
        guard initialized else { throw .syntax(message: "libyaml could not allocate a parser", at: marks.base) }
        _ = try next()  // stream start
        let first = try next()
        guard case .documentStart = first.kind else { return nil }
        let root = try node(from: try next(), depth: 0)
        _ = try next()  // document end
        let after = try next()
        if case .documentStart = after.kind { throw .multipleDocuments(at: after.start) }
        return root
    }

    private func node(from event: Event, depth: Int) throws(YAMLError) -> YAMLNode {
        let result: YAMLNode
        switch event.kind {
        case .scalar(let value, let style):
            result = .scalar(YAMLScalar(
                value: value, style: style, tag: event.tag, anchor: event.anchor,
                start: event.start, end: event.end))
        case .alias(let name):
            guard let target = anchors[name] else { throw .undefinedAlias(name: name, at: event.start) }
            return target.asAlias(named: name, start: event.start, end: event.end)
        case .sequenceStart(let isFlow):
            guard depth < YAMLParser.maximumDepth else { throw .nestingTooDeep(at: event.start) }
            var items: [YAMLNode] = []
            var current = try next()
            while true {
                if case .sequenceEnd = current.kind { break }
                items.append(try node(from: current, depth: depth + 1))
                current = try next()
            }
            result = .sequence(YAMLSequence(
                items: items, isFlow: isFlow, tag: event.tag, anchor: event.anchor,
                start: event.start, end: current.end))
        case .mappingStart(let isFlow):
            guard depth < YAMLParser.maximumDepth else { throw .nestingTooDeep(at: event.start) }
            var entries: [(key: YAMLScalar, value: YAMLNode)] = []
            var current = try next()
            while true {
                if case .mappingEnd = current.kind { break }
                let key = try node(from: current, depth: depth + 1)
                guard case .scalar(let keyScalar) = key else { throw .nonScalarKey(at: key.start) }
                let value = try node(from: try next(), depth: depth + 1)
                entries.append((keyScalar, value))
                current = try next()
            }
            result = .mapping(YAMLMapping(
                entries: entries, isFlow: isFlow, tag: event.tag, anchor: event.anchor,
                start: event.start, end: current.end))
        case .streamStart, .streamEnd, .documentStart, .documentEnd, .sequenceEnd, .mappingEnd:
            throw .syntax(message: "unexpected libyaml event", at: event.start)
        }
        if let anchor = event.anchor { anchors[anchor] = result }
        return result
    }

    /// Reads the next event, copies it into Swift values and frees the C event.
    private func next() throws(YAMLError) -> Event {
        guard yaml_parser_parse(parser, event) == 1 else { throw currentError() }
        defer { yaml_event_delete(event) }
        let e = event.pointee
        var result = Event(
            kind: .streamEnd,
            start: marks.mark(characterIndex: e.start_mark.index),
            end: marks.mark(characterIndex: e.end_mark.index))
        switch e.type {
        case YAML_STREAM_START_EVENT:
            result.kind = .streamStart
        case YAML_DOCUMENT_START_EVENT:
            result.kind = .documentStart
        case YAML_DOCUMENT_END_EVENT:
            result.kind = .documentEnd
        case YAML_ALIAS_EVENT:
            result.kind = .alias(Self.string(e.data.alias.anchor) ?? "")
        case YAML_SCALAR_EVENT:
            let data = e.data.scalar
            let value = data.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
            } ?? ""
            let style: YAMLScalarStyle
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            result.kind = .scalar(value, style)
            result.anchor = Self.string(data.anchor)
            result.tag = Self.string(data.tag)
        case YAML_SEQUENCE_START_EVENT:
            let data = e.data.sequence_start
            result.kind = .sequenceStart(isFlow: data.style == YAML_FLOW_SEQUENCE_STYLE)
            result.anchor = Self.string(data.anchor)
            result.tag = Self.string(data.tag)
        case YAML_SEQUENCE_END_EVENT:
            result.kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let data = e.data.mapping_start
            result.kind = .mappingStart(isFlow: data.style == YAML_FLOW_MAPPING_STYLE)
            result.anchor = Self.string(data.anchor)
            result.tag = Self.string(data.tag)
        case YAML_MAPPING_END_EVENT:
            result.kind = .mappingEnd
        default:
            result.kind = .streamEnd
        }
        return result
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// The parser's error as a ``YAMLError``: libyaml's problem, its context, and an exact location.
    private func currentError() -> YAMLError {
        let p = parser.pointee
        var message = p.problem.map { String(cString: $0) } ?? "unknown libyaml error"
        let mark: YAMLMark
        switch p.error {
        case YAML_READER_ERROR:
            mark = marks.mark(byteOffset: p.problem_offset)
            if p.problem_value >= 0 {
                let hex = String(p.problem_value, radix: 16, uppercase: true)
                message += " (#x\(hex.count < 2 ? "0" + hex : hex))"
            }
        case YAML_MEMORY_ERROR:
            mark = marks.base
            message = "libyaml ran out of memory"
        default:
            mark = marks.mark(characterIndex: p.problem_mark.index)
        }
        if let context = p.context {
            message += " (\(String(cString: context)) at \(marks.mark(characterIndex: p.context_mark.index)))"
        }
        return .syntax(message: message, at: mark)
    }
}
