internal import CCmarkGFM
internal import CCmarkGFMShim

/// One cmark-gfm parse from start to end: the input made fit for cmark, the parser made with its
/// allocator, the extensions attached, the input fed and finished, the tree handed to the caller,
/// and the parser and tree freed — all inside ``run(_:options:memory:beforeFinish:_:)``, so no C
/// object outlives the call. ``MarkdownConverter`` (the Swift tree) and ``MarkdownHTMLRenderer``
/// (cmark's own HTML) both parse through it, so they see the same bytes, options and locking.
enum CmarkParse {
    /// On the shim's fast path, inputs up to this size are parsed with its per-thread arena
    /// allocator; larger ones use cmark's default allocator, so the arena never holds more than a
    /// few megabytes.
    static let arenaLimit = Int(QUIRE_CMARK_ARENA_LIMIT)

    /// Where a parse's nodes are allocated.
    enum Memory {
        /// The shim's per-thread arena for inputs up to ``arenaLimit`` on its fast
        /// path (the whole parse is released at once), cmark's default allocator otherwise. For
        /// parses whose tree is only read.
        case arena
        /// cmark's default allocator, always. For parses that add nodes to the tree: cmark links
        /// only nodes of one allocator, and its public API cannot make nodes in the arena.
        case cmarkDefault
    }

    /// Parses `input` and calls `body` with the parser and the finished document.
    ///
    /// Only finishing runs under ``CmarkParseLock`` (it alone reads and writes cmark's process-wide
    /// character tables); feeding, `beforeFinish` and `body` run outside it.
    /// - Parameters:
    ///   - input: bytes as ``withPreparedInput(_:_:)`` gives them (no BOM, no NUL).
    ///   - options: the extensions to attach and the cmark options to set.
    ///   - memory: the allocator of the parse.
    ///   - beforeFinish: called with the parser once the input is fed, before the inlines are parsed.
    ///   - body: called with the parser and the document; neither may be kept past the call.
    /// - Returns: what `body` returns, or nil when cmark made no parser or no document.
    // Inlined so that the closures' captures (the converter, a large struct) stay plain local
    // variables: called through a closure, its non-mutating methods would copy it.
    @inline(__always)
    static func run<Result>(
        _ input: UnsafeBufferPointer<UInt8>,
        options: MarkdownParseOptions,
        memory: Memory,
        beforeFinish: (_ parser: OpaquePointer) -> Void,
        _ body: (_ parser: OpaquePointer, _ document: OpaquePointer) -> Result
    ) -> Result? {
        let extensions = CmarkRuntime.extensions
        var cmarkOptions: Int32 = 0
        if options.contains(.footnotes) { cmarkOptions |= Int32(CMARK_OPT_FOOTNOTES) }
        if options.contains(.smartPunctuation) { cmarkOptions |= Int32(CMARK_OPT_SMART) }
        let made: OpaquePointer?
        switch memory {
        case .arena: made = quire_parser_new(cmarkOptions, input.count)
        case .cmarkDefault: made = cmark_parser_new(cmarkOptions)
        }
        guard let parser = made else { return nil }
        var document: OpaquePointer?
        // Frees the parser and the tree (an arena parse's all at once).
        defer { quire_parser_dispose(parser, document) }

        func attach(_ option: MarkdownParseOptions, _ ext: OpaquePointer?) {
            if options.contains(option), let ext { cmark_parser_attach_syntax_extension(parser, ext) }
        }
        attach(.tables, extensions.table)
        attach(.strikethrough, extensions.strikethrough)
        attach(.autolinks, extensions.autolink)
        attach(.taskLists, extensions.tasklist)
        attach(.tagFilter, extensions.tagfilter)
        if let base = input.baseAddress, input.count > 0 {
            base.withMemoryRebound(to: CChar.self, capacity: input.count) { chars in
                cmark_parser_feed(parser, chars, input.count)
            }
        }
        beforeFinish(parser)
        // Only finishing reads and writes cmark's process-wide character tables (see CmarkParseLock).
        document = CmarkParseLock.withLock(exclusive: options.switchesCharacterTables) { cmark_parser_finish(parser) }
        guard let document else { return nil }
        return body(parser, document)
    }

    /// Calls `body` with `input` as cmark is given it: a UTF-8 byte order mark at the start left
    /// out, and NUL bytes replaced by U+FFFD (cmark does that itself; doing it first keeps the
    /// source that positions are computed from identical to the text cmark parsed).
    /// - Returns: what `body` returns, and how many bytes of BOM were left out (0 or 3).
    static func withPreparedInput<Result>(
        _ input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> (result: Result, bomLength: Int) {
        var text = input
        var bomLength = 0
        if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF {
            text = UnsafeBufferPointer(rebasing: text[3...])
            bomLength = 3
        }
        guard LineTable.containsNul(text) else { return (body(text), bomLength) }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(text.count + 16)
        for byte in text {
            if byte == 0 { cleaned.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { cleaned.append(byte) }
        }
        return (cleaned.withUnsafeBufferPointer(body), bomLength)
    }
}
