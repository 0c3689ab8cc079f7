import QuireSupport

// MARK: - Inline positions

extension MarkdownConverter {
    /// Recomputes the source ranges of the inline nodes of one paragraph, heading or table cell.
    ///
    /// cmark-gfm positions inlines as (line of the subject, column relative to the last line ending
    /// the inline parser itself consumed, plus the paragraph's first-line indent). That is wrong on
    /// continuation lines whose container prefix differs from the first line's, after a code span or
    /// HTML tag that spans lines, after reference definitions, and for autolinks. Mapping each reported
    /// position back to an offset in cmark's paragraph content, and that offset to the source line it
    /// came from, recovers the exact position.
    mutating func fixInlines(block: Int, quoteDepth: Int) {
        if nodes[block].range.start.line == nodes[block].range.end.line, fixSingleLine(block: block) { return }
        let first = block + 1
        let count = nodes.count - first
        raw.removeAll(keepingCapacity: true)
        // A repaired paragraph's inlines were placed from position 0:0 (0-based lines and
        // columns): seen from 1:1 they are ordinary subject positions.
        let repaired = repairedParagraph == block
        for index in first..<nodes.count {
            var range = nodes[index].range
            if repaired {
                range = SourceRange(range.start.line + 1, range.start.column + 1, range.end.line + 1, range.end.column + 1)
            }
            raw.append(range)
        }
        startOffsets.removeAll(keepingCapacity: true)
        startOffsets.append(contentsOf: repeatElement(-1, count: count))
        endOffsets.removeAll(keepingCapacity: true)
        endOffsets.append(contentsOf: repeatElement(-1, count: count))

        let blockRange = nodes[block].range
        let kind = nodes[block].kind
        let trusted = kind == .tableCell || (kind == .heading && blockRange.start.line == blockRange.end.line)
        let mapping: Mapping
        if trusted {
            mapping = .trusted
            buildSegments(firstLine: blockRange.start.line, lastLine: blockRange.start.line,
                          firstColumn: blockRange.start.column, quoteDepth: quoteDepth, skipped: 0)
            mapLeaves(first: first, mapping: mapping)
        } else {
            let startLine = blockRange.start.line
            let endLine = blockRange.end.line
            mapping = repaired ? .paragraph(startLine: 1, blockOffset: 0)
                : .paragraph(startLine: startLine, blockOffset: blockRange.start.column - 1)
            var skipped = 0
            if kind == .paragraph, endLine > startLine, opensWithBracket(line: startLine, column: blockRange.start.column) {
                skipped = referenceDefinitionLines(paragraph: block)
            }
            buildSegments(firstLine: startLine, lastLine: endLine, firstColumn: blockRange.start.column,
                          quoteDepth: quoteDepth, skipped: skipped)
            mapLeaves(first: first, mapping: mapping)
        }
        mapContainers(first: first, mapping: mapping)
        repairAutolinks(block: block, first: first)
        writeBack(first: first)
    }

    /// The common case: in a one-line block cmark's positions are exact except for code spans
    /// (content only) and autolinks. Returns false when the general path is needed.
    private mutating func fixSingleLine(block: Int) -> Bool {
        let line = nodes[block].range.start.line
        let lineStart = lines.start(of: line)
        for index in (block + 1)..<nodes.count {
            let range = nodes[index].range
            switch nodes[index].kind {
            case .code:
                guard range.start.line == line, range.end.line == line, range.start.column > 0 else { return false }
                let start = lineStart + range.start.column - 1
                let end = lineStart + range.end.column - 1
                guard start < source.count, end < source.count else { return false }
                let code = widenedToFences(start: start, end: end, floor: lineStart)
                nodes[index].range = SourceRange(line, code.start - lineStart + 1, line, code.end - lineStart + 1)
            case .link, .image:
                guard range.start.line == line, range.start.column > 0 else { return false }
                let start = lineStart + range.start.column - 1
                let opener = nodes[index].kind == .link ? UInt8(ascii: "[") : UInt8(ascii: "!")
                guard start < source.count, source[start] == opener else { return false }
            default:
                guard range.start.line == line, range.start.column > 0 else { return false }
            }
        }
        return true
    }

    /// cmark reports a code span's content only, but the span's source includes its backtick
    /// fences: widens the content's offsets `start...end` over the backticks right before it (not
    /// below `floor`), the opening fence, and over as many backticks after it, the closing one.
    private func widenedToFences(start: Int, end: Int, floor: Int) -> (start: Int, end: Int) {
        var start = start
        var end = end
        var fence = 0
        while start > floor, source[start - 1] == UInt8(ascii: "`") {
            start -= 1
            fence += 1
        }
        var closing = 0
        while closing < fence, end + 1 < source.count, source[end + 1] == UInt8(ascii: "`") {
            end += 1
            closing += 1
        }
        return (start, end)
    }

    private enum Mapping {
        /// Positions are (subject line, column relative to the last consumed line ending).
        case paragraph(startLine: Int, blockOffset: Int)
        /// Positions are already absolute (single-line blocks: table cells, ATX headings).
        case trusted
    }

    /// How many lines at the start of paragraph `nodes[paragraph]` were link reference
    /// definitions, which cmark took out of the paragraph's content before parsing its inlines.
    ///
    /// cmark-gfm leaves the paragraph's start where the first definition began, and its inline
    /// parser counts lines from there, so without this every inline of such a paragraph would be
    /// placed that many lines too early. A definition always ends at a line ending (nothing but
    /// blanks may follow it on its line), so the definitions are whole lines, the content cmark
    /// parsed is the paragraph's remaining lines, and the difference between the paragraph's
    /// line count and the content's (``paragraphContentLines(_:)``) is exactly the number of
    /// lines the definitions took. 0 when cmark gives no content.
    private func referenceDefinitionLines(paragraph: Int) -> Int {
        let range = nodes[paragraph].range
        let lineCount = range.end.line - range.start.line + 1
        guard let contentLines = paragraphContentLines(paragraph), contentLines > 0 else { return 0 }
        return min(max(lineCount - contentLines, 0), lineCount - 1)
    }

    /// Whether the source at a line and column is `[`: a paragraph whose content starts elsewhere
    /// cannot start with a link reference definition.
    private func opensWithBracket(line: Int, column: Int) -> Bool {
        let offset = lines.start(of: line) + column - 1
        return offset < source.count && source[offset] == UInt8(ascii: "[")
    }

    /// Splits the block's lines into content segments, the way cmark built the paragraph content:
    /// each continuation line starts at its first non-blank byte after the container prefix.
    private mutating func buildSegments(firstLine: Int, lastLine: Int, firstColumn: Int, quoteDepth: Int, skipped: Int) {
        segments.removeAll(keepingCapacity: true)
        var content = 0
        let from = firstLine + skipped
        let to = min(max(from, lastLine), lines.lineCount)
        guard from <= to else {
            segments.append(Segment(line: firstLine, source: min(lines.start(of: firstLine) + firstColumn - 1, source.count), content: 0))
            return
        }
        for line in from...to {
            let next = lines.next(after: line)
            let start: Int
            if line == firstLine {
                start = min(lines.start(of: line) + max(firstColumn - 1, 0), next)
            } else {
                start = contentStart(of: line, quoteDepth: quoteDepth)
            }
            segments.append(Segment(line: line, source: start, content: content))
            content += next - start
        }
    }

    /// The first byte of paragraph content on a continuation line: after up to `quoteDepth` `>`
    /// markers (fewer on a lazy line) and any blanks.
    private func contentStart(of line: Int, quoteDepth: Int) -> Int {
        var offset = lines.start(of: line)
        let end = lines.contentEnd(of: line, in: source)
        var markers = quoteDepth
        while true {
            var probe = offset
            while probe < end, source[probe] == 32 || source[probe] == 9 { probe += 1 }
            if markers > 0, probe < end, source[probe] == UInt8(ascii: ">"), probe - offset <= 3 {
                offset = probe + 1
                markers -= 1
                continue
            }
            return probe
        }
    }

    /// The source offset of paragraph-content offset `content`.
    private func sourceOffset(ofContent content: Int) -> (offset: Int, segment: Int) {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].content <= content { low = mid } else { high = mid - 1 }
        }
        let segment = segments[low]
        let offset = segment.source + max(content - segment.content, 0)
        return (min(offset, max(source.count - 1, 0)), low)
    }

    /// The source offset of a position cmark reported, or -1 when it reported none.
    private func offset(line: Int, column: Int, mapping: Mapping) -> (offset: Int, segment: Int) {
        guard line > 0, column > 0 else { return (-1, 0) }
        switch mapping {
        case .trusted:
            return (min(lines.start(of: line) + column - 1, max(source.count - 1, 0)), 0)
        case let .paragraph(startLine, blockOffset):
            let handled = min(max(line - startLine, 0), bases.count - 1)
            return sourceOffset(ofContent: max(bases[handled] + column - 1 - blockOffset, 0))
        }
    }

    /// Maps leaves and line breaks.
    private mutating func mapLeaves(first: Int, mapping: Mapping) {
        bases.removeAll(keepingCapacity: true)
        bases.append(0)
        var segment = 0
        for slot in 0..<raw.count {
            switch nodes[first + slot].kind {
            case let kind where kind == .softBreak || kind == .lineBreak:
                let line = segments[segment].line
                let lineEnd = lines.contentEnd(of: line, in: source)
                startOffsets[slot] = lineEnd
                endOffsets[slot] = lineEnd
                // cmark's inline parser counts the line ending of a soft break or a two-space break,
                // but not the one after a backslash break: positions after it stay on the old line.
                if kind == .lineBreak, lineEnd > 0, source[lineEnd - 1] == UInt8(ascii: "\\") { continue }
                if segment + 1 < segments.count { segment += 1 }
                bases.append(segments[segment].content)
            case .emphasis, .strong, .link, .image, .strikethrough:
                continue
            case let kind:
                let range = raw[slot]
                let start = offset(line: range.start.line, column: range.start.column, mapping: mapping)
                guard start.offset >= 0 else {
                    startOffsets[slot] = -1
                    continue
                }
                let end = offset(line: range.end.line, column: range.end.column, mapping: mapping)
                var startOffset = start.offset
                var endOffset = max(end.offset, startOffset)
                if kind == .code {
                    (startOffset, endOffset) = widenedToFences(start: startOffset, end: endOffset, floor: 0)
                }
                startOffsets[slot] = startOffset
                endOffsets[slot] = endOffset
                if case .paragraph = mapping { segment = max(segment, end.segment) }
            }
        }
    }

    /// Maps emphasis, strong, strikethrough, links and images; marks extension autolinks with -2.
    private mutating func mapContainers(first: Int, mapping: Mapping) {
        for slot in 0..<raw.count {
            let kind = nodes[first + slot].kind
            guard kind == .emphasis || kind == .strong || kind == .link || kind == .image || kind == .strikethrough else {
                continue
            }
            let range = raw[slot]
            if kind == .link || kind == .image {
                guard range.start.line > 0, range.start.column > 0 else {
                    startOffsets[slot] = -2
                    continue
                }
                // cmark takes the start column from the opening bracket but the line from the closing
                // one; the first child sits on the bracket's line.
                var startLine = range.start.line
                let child = nodes[first + slot].firstChild.map { $0 - first }
                if let child, raw[child].start.line > 0 { startLine = raw[child].start.line }
                let start = offset(line: startLine, column: range.start.column, mapping: mapping).offset
                let end = offset(line: range.end.line, column: range.end.column, mapping: mapping).offset
                let opener = kind == .link ? UInt8(ascii: "[") : UInt8(ascii: "!")
                if start >= 0, start < source.count, source[start] == opener {
                    startOffsets[slot] = start
                    endOffsets[slot] = max(end, start)
                } else if let child, startOffsets[child] > 0, source[startOffsets[child] - 1] == UInt8(ascii: "<") {
                    // `<http://…>` and `<a@b.c>`: the text child is right, the link is not.
                    startOffsets[slot] = startOffsets[child] - 1
                    endOffsets[slot] = min(endOffsets[child] + 1, source.count - 1)
                } else {
                    startOffsets[slot] = -2
                }
            } else {
                let start = offset(line: range.start.line, column: range.start.column, mapping: mapping).offset
                let end = offset(line: range.end.line, column: range.end.column, mapping: mapping).offset
                startOffsets[slot] = start
                endOffsets[slot] = max(end, start)
            }
        }
    }

    /// Places the extension's autolinks (and the text the extension split off around them) by
    /// finding their text in the source after the previous sibling.
    private mutating func repairAutolinks(block: Int, first: Int) {
        let blockEnd: Int = {
            let end = nodes[block].range.end
            return min(lines.start(of: end.line) + max(end.column, 1), source.count)
        }()
        let blockStart = segments.first?.source ?? lines.start(of: nodes[block].range.start.line)
        for slot in 0..<raw.count {
            let index = first + slot
            let state = startOffsets[slot]
            if state >= 0 { continue }
            let previous = previousSibling(of: index)
            let previousStart = previous.map { startOffsets[$0 - first] } ?? -1
            let previousEnd = previous.map { endOffsets[$0 - first] } ?? -1
            let parentStart: Int = {
                guard let parent = nodes[index].parent, parent > block else { return blockStart }
                return max(startOffsets[parent - first], blockStart)
            }()
            let after = previousEnd >= 0 ? previousEnd + 1 : parentStart
            if state == -2 {
                let text = nodes[index].firstChild.flatMap { nodes[$0].literal } ?? (nodes[index].url ?? "")
                let searchFrom = previousStart >= 0 ? previousStart : parentStart
                let found = find(text, from: searchFrom, before: blockEnd) ?? after
                let end = min(found + max(text.utf8.count, 1) - 1, max(source.count - 1, 0))
                var descendant = index
                while descendant < nodes[index].subtreeEnd, descendant < nodes.count {
                    startOffsets[descendant - first] = found
                    endOffsets[descendant - first] = end
                    descendant += 1
                }
            } else {
                let length = max(nodes[index].literal?.utf8.count ?? 1, 1)
                let start = min(after, max(source.count - 1, 0))
                startOffsets[slot] = start
                endOffsets[slot] = min(start + length - 1, max(source.count - 1, 0))
            }
        }
        // Text the extension shortened keeps its old end; cut it at the next sibling.
        for slot in 0..<raw.count where nodes[first + slot].kind == .text {
            guard let next = nodes[first + slot].nextSibling else { continue }
            let nextStart = startOffsets[next - first]
            if nextStart >= 0, nextStart <= endOffsets[slot] {
                endOffsets[slot] = max(nextStart - 1, startOffsets[slot])
            }
        }
    }

    private func previousSibling(of index: Int) -> Int? {
        guard let parent = nodes[index].parent, var child = nodes[parent].firstChild, child != index else {
            return nil
        }
        while let next = nodes[child].nextSibling {
            if next == index { return child }
            child = next
        }
        return nil
    }

    private func find(_ text: String, from: Int, before end: Int) -> Int? {
        ByteSearch.firstOffset(of: Array(text.utf8), in: source, from: from, before: end)
    }

    private mutating func writeBack(first: Int) {
        var hint = nodes[first - 1].range.start.line
        for slot in 0..<raw.count {
            let start = startOffsets[slot]
            guard start >= 0 else { continue }
            let end = max(endOffsets[slot], start)
            let startLine = lines.line(containing: start, hint: hint)
            let endLine = lines.line(containing: end, hint: startLine)
            hint = startLine
            nodes[first + slot].range = SourceRange(
                startLine, start - lines.start(of: startLine) + 1,
                endLine, end - lines.start(of: endLine) + 1
            )
        }
    }
}
