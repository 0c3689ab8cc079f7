/// The line break a file uses.
public enum LineEnding: Sendable, Hashable {
    /// `\n`.
    case lf
    /// `\r\n`.
    case crlf

    /// The bytes of one line break.
    public var bytes: [UInt8] { self == .lf ? [0x0A] : [0x0D, 0x0A] }
}

/// A Markdown file split into its YAML front matter and its body, with the front matter parsed.
///
/// Front matter opens with a `---` line on the very first line (after an optional UTF-8 BOM;
/// trailing spaces allowed) and closes with the next `---` or `...` line. A `---` later in the
/// body is a thematic break, never front matter.
public struct FrontMatter: Sendable {
    /// Whether the file starts with a UTF-8 BOM (kept by editors, skipped by parsing).
    public var hasBOM: Bool
    /// The file's line ending: that of the opening fence, else of the body's first line.
    public var lineEnding: LineEnding
    /// Bytes of the YAML text between the fences; nil when the file has no front matter.
    public var yamlRange: Range<Int>?
    /// Bytes of the opening fence line including its line break; nil without front matter.
    public var openingFenceRange: Range<Int>?
    /// Bytes of the closing fence line including its line break (if any); nil without front matter.
    public var closingFenceRange: Range<Int>?
    /// Bytes of the Markdown body: after the closing fence line, or after the BOM when none.
    public var bodyRange: Range<Int>
    /// The 1-based file line where the body starts.
    public var bodyStartLine: Int
    /// The parsed front matter; nil when there is none or it is empty (or only comments / `null`).
    public var root: YAMLMapping?

    /// Splits and parses a whole file.
    /// - Parameter file: The file's bytes.
    /// - Throws: ``YAMLError/unclosedFrontMatter(at:)`` when the opening fence is never closed,
    ///   ``YAMLError/rootNotMapping(found:at:)`` when the YAML is a scalar or list, or any parse error.
    public init(file: [UInt8]) throws(YAMLError) {
        try self.init(file: file, fastPath: true)
    }

    /// Splits and parses a whole file, through the fast readers or through libyaml alone.
    ///
    /// Both give the same front matter or the same error (``fastPathDifference(file:)`` checks it);
    /// the choice exists to compare them.
    /// - Parameters:
    ///   - file: The file's bytes.
    ///   - fastPath: Whether ``FlowLineBlock`` and ``SimpleMappingReader`` may read the YAML
    ///     before libyaml does.
    /// - Throws: As ``init(file:)``.
    @_spi(Testing) public init(file: [UInt8], fastPath: Bool) throws(YAMLError) {
        hasBOM = file.count >= 3 && file[0] == 0xEF && file[1] == 0xBB && file[2] == 0xBF
        let start = hasBOM ? 3 : 0
        yamlRange = nil
        openingFenceRange = nil
        closingFenceRange = nil
        root = nil
        bodyRange = start..<file.count
        bodyStartLine = 1
        lineEnding = Self.firstLineEnding(in: file, from: start) ?? .lf

        let first = Self.line(in: file, from: start)
        guard Self.isFence(file[start..<first.contentEnd], allowDots: false) else { return }
        let fenceMark = YAMLMark(offset: start, line: 1, column: start + 1)
        guard first.next > first.contentEnd else { throw .unclosedFrontMatter(at: fenceMark) }
        lineEnding = first.breakIsCRLF ? .crlf : .lf

        var position = first.next
        var lineNumber = 2
        while position < file.count {
            let line = Self.line(in: file, from: position)
            if Self.isFence(file[position..<line.contentEnd], allowDots: true) {
                let yaml = first.next..<position
                yamlRange = yaml
                openingFenceRange = start..<first.next
                closingFenceRange = position..<line.next
                bodyRange = line.next..<file.count
                bodyStartLine = lineNumber + (line.next > line.contentEnd ? 1 : 0)
                root = try Self.parseRoot(file[yaml], base: YAMLMark(offset: yaml.lowerBound, line: 2, column: 1),
                                         fastPath: fastPath)
                return
            }
            position = line.next
            lineNumber += 1
        }
        throw .unclosedFrontMatter(at: fenceMark)
    }

    /// The front matter's top-level value for a key.
    /// - Parameter key: The key's decoded text.
    /// - Returns: The value, or nil when absent or there is no front matter.
    public subscript(key: String) -> YAMLNode? { root?[key] }

    // MARK: - Helpers

    /// Parses the YAML between the fences. Unless `fastPath` is off, blocks of one-line flow
    /// mappings (Quire's scheduling lines) are read by ``FlowLineBlock``, and a front matter of
    /// simple `key: value` lines by ``SimpleMappingReader``, both without libyaml.
    ///
    /// The fast readers never report an error: whatever they are unsure of — an error, a shape they
    /// do not read — they leave to libyaml, which then reads the whole text as if they did not
    /// exist. So the result, tree or error, is always libyaml's (docs/ARCHITECTURE.md).
    static func parseRoot(_ yaml: ArraySlice<UInt8>, base: YAMLMark, fastPath: Bool = true) throws(YAMLError) -> YAMLMapping? {
        guard fastPath else { return try libyamlRoot(yaml, base: base) }
        let blocks = FlowLineBlock.find(in: yaml, base: base)
        if blocks.isEmpty {
            if let simple = SimpleMappingReader.read(yaml, base: base, placeholders: []) { return simple }
            return try libyamlRoot(yaml, base: base)
        }
        if let root = rootAroundBlocks(yaml, base: base, blocks: blocks) { return root }
        return try libyamlRoot(yaml, base: base)
    }

    /// The front matter read with its scheduling blocks blanked out (offsets, lines and columns
    /// unchanged), the blocks then put in place of their keys' empty values; nil when that is not
    /// certainly what libyaml gives for the whole text: the blanked text is refused (its error
    /// need not be the whole text's), is not a block mapping, or a block's key is not one of its
    /// keys with an empty value.
    private static func rootAroundBlocks(_ yaml: ArraySlice<UInt8>, base: YAMLMark, blocks: [FlowLineBlock]) -> YAMLMapping? {
        var text = yaml
        for block in blocks {
            for range in block.entryLines {
                for i in range where text[i] != 0x0D { text[i] = 0x20 }
            }
        }
        var mapping: YAMLMapping
        if let simple = SimpleMappingReader.read(text, base: base, placeholders: blocks.map(\.keyOffset)) {
            mapping = simple
        } else {
            // A flow mapping's keys may sit at column 1 too, but the lines after one are not its value.
            guard case .mapping(let parsed)? = try? YAMLParser.parse(text, baseMark: base), !parsed.isFlow else { return nil }
            mapping = parsed
        }
        for block in blocks {
            guard let i = mapping.entries.firstIndex(where: { $0.key.start.offset == block.keyOffset }),
                  case .scalar(let placeholder) = mapping.entries[i].value, placeholder.isNull else { return nil }
            mapping.entries[i].value = .mapping(block.mapping)
        }
        return mapping
    }

    /// libyaml's reading of the whole text: nil when it holds no document or only a null.
    private static func libyamlRoot(_ yaml: ArraySlice<UInt8>, base: YAMLMark) throws(YAMLError) -> YAMLMapping? {
        guard let node = try YAMLParser.parse(yaml, baseMark: base) else { return nil }
        switch node {
        case .mapping(let mapping):
            return mapping
        case .scalar(let scalar) where scalar.isNull && scalar.anchor == nil:
            return nil
        default:
            throw .rootNotMapping(found: node.kindName, at: node.start)
        }
    }

    /// One line: where its content ends (before `\r\n` or `\n`) and where the next line starts.
    static func line(in file: [UInt8], from start: Int) -> (contentEnd: Int, next: Int, breakIsCRLF: Bool) {
        var i = start
        while i < file.count, file[i] != 0x0A { i += 1 }
        guard i < file.count else { return (file.count, file.count, false) }
        let crlf = i > start && file[i - 1] == 0x0D
        return (crlf ? i - 1 : i, i + 1, crlf)
    }

    private static func firstLineEnding(in file: [UInt8], from start: Int) -> LineEnding? {
        guard let newline = file[start...].firstIndex(of: 0x0A) else { return nil }
        return newline > start && file[newline - 1] == 0x0D ? .crlf : .lf
    }

    /// `---` (or `...` when allowed) followed only by spaces or tabs.
    private static func isFence(_ line: ArraySlice<UInt8>, allowDots: Bool) -> Bool {
        guard line.count >= 3 else { return false }
        let first = line[line.startIndex]
        guard first == UInt8(ascii: "-") || (allowDots && first == UInt8(ascii: ".")) else { return false }
        let fence = line.prefix(3)
        guard fence.allSatisfy({ $0 == first }) else { return false }
        return line.dropFirst(3).allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}

extension FrontMatter {
    /// A note's Markdown body and the file line it starts on: after the front matter when it
    /// parses, else the whole file from line 1 (a reader of prose that must not fail on a note
    /// whose front matter is broken).
    public static func body(of file: [UInt8]) -> (bytes: ArraySlice<UInt8>, firstLine: Int) {
        if let fm = try? FrontMatter(file: file) { return (file[fm.bodyRange], fm.bodyStartLine) }
        return (file[...], 1)
    }
}
