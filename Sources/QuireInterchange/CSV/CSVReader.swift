import QuireModel
import QuireSupport

/// Reads CSV and tab-separated text (RFC 4180 and what spreadsheets and Anki write): UTF-8 with or
/// without a byte-order mark, LF or CRLF line ends, fields in double quotes holding separators,
/// doubled quotes and line breaks, and Anki's text-export header lines (`#separator:`, `#html:`,
/// `#tags:`, `#deck:`, `#notetype:`, `#columns:`, `#… column:`).
///
/// The separator is `#separator:`'s, else the one of comma, tab and semicolon that splits the
/// first lines into the same number of fields, more than one (the most fields wins; a tie goes to
/// tab, then semicolon, then comma). Pure: bytes in, a table and located problems out, in one
/// pass (linear time and memory).
public enum CSVReader {
    /// Reads a file's bytes.
    ///
    /// - Parameters:
    ///   - bytes: the file.
    ///   - path: the file's name in problems.
    ///   - headerRow: whether the first record names the columns (when there are no Anki header
    ///     lines: after those, records start at once, and only `#columns:` names them).
    /// - Returns: the table, or nil with errors: bytes that are not UTF-8, a quoted field that
    ///   never ends, an unknown `#separator:`. Rows whose field count differs from the columns'
    ///   come back too, and are reported by the importer.
    public static func read(_ bytes: [UInt8], path: String, headerRow: Bool = true) -> (table: CSVTable?, diagnostics: [Diagnostic]) {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            let (line, column) = firstInvalidUTF8(body)
            return (nil, [Diagnostic(.error, path: path, line: line, column: column, message: "not UTF-8 text")])
        }
        var table = CSVTable(separator: ",")
        var diagnostics: [Diagnostic] = []
        // Anki's header lines come first, each `#key:value`.
        let b = Array(text.utf8)
        var start = 0
        var lineNumber = 0
        var separator: UInt8?
        var columnsLine: (text: [UInt8], line: Int)?
        while start < b.count, b[start] == UInt8(ascii: "#") {
            lineNumber += 1
            var end = b[start...].firstIndex(of: 0x0A) ?? b.count
            let next = min(end + 1, b.count)
            if end > start, b[end - 1] == 0x0D { end -= 1 }
            defer { start = next }
            let line = b[(start + 1)..<end]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let key = String(decoding: line[..<colon], as: UTF8.self).lowercased().trimmingSpaces()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
            switch key {
            case "separator":
                guard let s = separatorByte(value) else {
                    diagnostics.append(Diagnostic(.error, path: path, line: lineNumber, column: colon - start + 2,
                                                  message: "unknown separator '\(value)' (Comma, Semicolon, Tab, Space, Pipe, Colon or one character)"))
                    return (nil, diagnostics)
                }
                separator = s
            case "html": table.html = value.lowercased().trimmingSpaces() == "true"
            case "tags": table.tags = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            case "deck": table.deck = value.trimmingSpaces()
            case "notetype": table.notetype = value.trimmingSpaces()
            case "deck column": table.deckColumn = Int(value.trimmingSpaces()).map { $0 - 1 }
            case "notetype column": table.notetypeColumn = Int(value.trimmingSpaces()).map { $0 - 1 }
            case "tags column": table.tagsColumn = Int(value.trimmingSpaces()).map { $0 - 1 }
            case "guid column": table.guidColumn = Int(value.trimmingSpaces()).map { $0 - 1 }
            case "columns": columnsLine = (Array(line[(colon + 1)...]), lineNumber)
            default: break
            }
        }
        let records = Array(b[start...])
        let sep = separator ?? guessSeparator(records)
        table.separator = Character(Unicode.Scalar(sep))
        if let columnsLine {
            let names = parseRecords(columnsLine.text, separator: sep, firstLine: columnsLine.line, path: path)
            table.columns = names.rows.first?.fields.map { $0.trimmingSpaces() }
        }
        let headerLines = lineNumber
        let parsed = parseRecords(records, separator: sep, firstLine: headerLines + 1, path: path)
        guard parsed.complete else { return (nil, diagnostics + parsed.diagnostics) }
        table.problems = parsed.diagnostics
        var rows = parsed.rows[...]
        // An Anki export's records start right after its header lines, unless `#columns:` names them.
        if table.columns == nil, headerRow, headerLines == 0, let first = rows.first {
            table.columns = first.fields.map { $0.trimmingSpaces() }
            table.columnsLine = first.line
            rows = rows.dropFirst()
        }
        table.rows = Array(rows)
        return (table, diagnostics)
    }

    /// The longest field read, in bytes (INTERCHANGE.md, "Limits"): a card's side or a note's
    /// context, not a book. A record with a longer one is left out with an error at the field —
    /// a note made of 50 MB of short lines took 2 GB of memory to import.
    public static let maximumFieldBytes = 1 << 20

    /// Splits records: fields separated by `separator`, records by line ends outside quotes; a
    /// line with nothing on it is no record. Not complete (no rows, the error) when a quoted field
    /// never ends; a record with a field past ``maximumFieldBytes`` is left out with an error.
    static func parseRecords(_ b: [UInt8], separator: UInt8, firstLine: Int, path: String)
        -> (rows: [CSVTable.Row], diagnostics: [Diagnostic], complete: Bool) {
        var splitter = RecordSplitter(separator: separator, firstLine: firstLine, path: path)
        splitter.read(b)
        if splitter.quoted {
            return ([], [Diagnostic(.error, path: path, line: splitter.quoteAt.line, column: splitter.quoteAt.column,
                                    message: "a quoted field is never closed (a \" is missing)")], false)
        }
        if !splitter.field.isEmpty || !splitter.fields.isEmpty || splitter.fieldWasQuoted || splitter.tooLong != nil { splitter.endRecord() }
        return (splitter.rows, splitter.diagnostics, true)
    }

    /// The separator a `#separator:` value names.
    static func separatorByte(_ value: String) -> UInt8? {
        switch value.trimmingSpaces().lowercased() {
        case "comma": return 0x2C
        case "semicolon": return 0x3B
        case "tab": return 0x09
        case "space": return 0x20
        case "pipe": return 0x7C
        case "colon": return 0x3A
        default:
            let v = value.trimmingSpaces().isEmpty ? value : value.trimmingSpaces()
            guard v.utf8.count == 1, let b = v.utf8.first, b != 0x22, b != 0x0A, b != 0x0D else { return nil }
            return b
        }
    }

    /// The separator that splits the first lines alike (see ``CSVReader``).
    static func guessSeparator(_ b: [UInt8]) -> UInt8 {
        let sample = Array(b.prefix(64 << 10))
        var best: (byte: UInt8, fields: Int, consistent: Bool)?
        for candidate: UInt8 in [0x09, 0x3B, 0x2C] {
            let rows = parseRecords(sample, separator: candidate, firstLine: 1, path: "").rows.prefix(20)
            // The last sampled row may be cut short.
            let counted = rows.count > 1 && sample.count < b.count ? rows.dropLast() : rows
            guard let n = counted.first?.fields.count, n > 1 else { continue }
            let consistent = counted.allSatisfy { $0.fields.count == n }
            if let best, (best.consistent && !consistent) || (best.consistent == consistent && best.fields >= n) { continue }
            best = (candidate, n, consistent)
        }
        return best?.byte ?? 0x2C
    }

    /// The line and column of the first byte that breaks UTF-8.
    static func firstInvalidUTF8(_ b: ArraySlice<UInt8>) -> (Int, Int) {
        Array(b).withUnsafeBufferPointer { p in
            var line = 1, lineStart = 0, i = 0
            while i < p.count {
                if p[i] < 0x80 {
                    if p[i] == 0x0A { (line, lineStart) = (line + 1, i + 1) }
                    i += 1
                    continue
                }
                guard let (_, length) = UTF8Scalar.decode(p, at: i, end: p.count) else { return (line, i - lineStart + 1) }
                i += length
            }
            return (line, i - lineStart + 1)
        }
    }
}

/// What ``CSVReader/parseRecords(_:separator:firstLine:path:)`` has read so far: the records
/// done, the record and field being read, and where it is.
private struct RecordSplitter {
    let separator: UInt8
    let path: String
    var rows: [CSVTable.Row] = []
    var diagnostics: [Diagnostic] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line: Int
    var recordLine: Int
    var lineStart = 0
    /// The next byte to read.
    var i = 0
    var quoted = false
    var quoteAt = (line: 0, column: 0)
    var fieldWasQuoted = false
    /// Where the field being read starts, and the first field of the record past the limit.
    var fieldStart: (line: Int, column: Int)
    var tooLong: (line: Int, column: Int)?

    /// Nothing read yet; the first record on line `firstLine`.
    init(separator: UInt8, firstLine: Int, path: String) {
        self.separator = separator
        self.path = path
        line = firstLine
        recordLine = firstLine
        fieldStart = (line: firstLine, column: 1)
    }

    /// Ends the field being read: it joins the record's fields.
    mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: field.count <= 1 << 16)
        fieldWasQuoted = false
        fieldStart = (line, i - lineStart + 2)
    }

    /// Ends the record being read: a row, unless it is an empty line, or an error when one of its
    /// fields went past the limit.
    mutating func endRecord() {
        let quotedLast = fieldWasQuoted
        endField()
        if let at = tooLong {
            diagnostics.append(Diagnostic(.error, path: path, line: at.line, column: at.column, message:
                "a field longer than \(ByteCount.text(CSVReader.maximumFieldBytes)), the most a field may hold (split it); the record is not imported"))
            tooLong = nil
        } else if !(fields.count == 1 && fields[0].isEmpty && !quotedLast) {
            // A line with nothing on it (not even a separator or quotes) is no record.
            rows.append(CSVTable.Row(fields: fields, line: recordLine))
        }
        fields.removeAll(keepingCapacity: true)
    }

    /// Reads `b` from ``i`` to its end: fields, records, quotes and line ends.
    mutating func read(_ b: [UInt8]) {
        while i < b.count {
            let c = b[i]
            if field.count >= CSVReader.maximumFieldBytes {
                // Past the limit: the record is left out, its field no longer kept.
                if tooLong == nil { tooLong = fieldStart }
                field.removeAll(keepingCapacity: false)
            }
            if quoted {
                if c == 0x22 {
                    if i + 1 < b.count, b[i + 1] == 0x22 {
                        field.append(0x22)
                        i += 2
                        continue
                    }
                    quoted = false
                } else {
                    if c == 0x0A {
                        line += 1
                        lineStart = i + 1
                        // A CRLF inside a quoted field is a line break of the field: kept as LF.
                        if field.last == 0x0D { field.removeLast() }
                    }
                    field.append(c)
                }
                i += 1
                continue
            }
            switch c {
            case 0x22 where field.allSatisfy({ $0 == 0x20 }):
                // A quote opens a field only at its start (spaces before it are dropped).
                field.removeAll(keepingCapacity: true)
                quoted = true
                fieldWasQuoted = true
                quoteAt = (line, i - lineStart + 1)
            case separator:
                endField()
            case 0x0A:
                if field.last == 0x0D { field.removeLast() }
                line += 1
                lineStart = i + 1
                endRecord()
                recordLine = line
            default:
                field.append(c)
            }
            i += 1
        }
    }
}
