/// How a scalar was written in the source.
public enum YAMLScalarStyle: Sendable, Hashable {
    /// Unquoted text; the only style that is typed by the core schema.
    case plain
    /// `'text'`.
    case singleQuoted
    /// `"text"` with backslash escapes.
    case doubleQuoted
    /// A `|` block scalar.
    case literal
    /// A `>` block scalar.
    case folded
}

/// A scalar with its decoded text, style, properties and source marks.
public struct YAMLScalar: Sendable, Hashable {
    /// The decoded text (quotes, escapes and block indentation removed).
    public var value: String
    /// How the scalar was written.
    public var style: YAMLScalarStyle
    /// The resolved tag (`tag:yaml.org,2002:str` for `!!str`), or nil when untagged.
    public var tag: String?
    /// The anchor defined on this scalar (`&name` → `name`).
    public var anchor: String?
    /// The alias name when this scalar was written as `*name`; marks then locate the alias.
    public var alias: String?
    /// Where the scalar (including its anchor and tag) starts.
    public var start: YAMLMark
    /// Where the scalar ends; for block scalars this is after any trailing line breaks.
    public var end: YAMLMark

    /// Creates a scalar.
    /// - Parameters:
    ///   - value: The decoded text.
    ///   - style: How it is written.
    ///   - tag: The resolved tag, if any.
    ///   - anchor: The anchor name, if any.
    ///   - alias: The alias name when the scalar stands for an alias.
    ///   - start: Start mark.
    ///   - end: End mark.
    public init(
        value: String, style: YAMLScalarStyle = .plain, tag: String? = nil, anchor: String? = nil,
        alias: String? = nil, start: YAMLMark = .start, end: YAMLMark = .start
    ) {
        self.value = value
        self.style = style
        self.tag = tag
        self.anchor = anchor
        self.alias = alias
        self.start = start
        self.end = end
    }

    /// True when this scalar was written as an alias `*name`.
    public var isAlias: Bool { alias != nil }
}

/// A sequence (block `- x` list or flow `[x, y]` list) with its items and source marks.
public struct YAMLSequence: Sendable {
    /// The items in source order.
    public var items: [YAMLNode]
    /// True for `[a, b]`, false for a block list.
    public var isFlow: Bool
    /// The resolved tag, if any.
    public var tag: String?
    /// The anchor defined on this sequence, if any.
    public var anchor: String?
    /// The alias name when this sequence was written as `*name`; marks then locate the alias.
    public var alias: String?
    /// Where the sequence starts (its anchor or tag if present, else `[` or the first `-`).
    public var start: YAMLMark
    /// Where libyaml ends the sequence: after `]` for flow lists; at the next token for block lists.
    public var end: YAMLMark

    /// Creates a sequence.
    /// - Parameters:
    ///   - items: The items.
    ///   - isFlow: Whether it is a flow list.
    ///   - tag: The resolved tag, if any.
    ///   - anchor: The anchor name, if any.
    ///   - alias: The alias name when the sequence stands for an alias.
    ///   - start: Start mark.
    ///   - end: End mark.
    public init(
        items: [YAMLNode], isFlow: Bool = false, tag: String? = nil, anchor: String? = nil,
        alias: String? = nil, start: YAMLMark = .start, end: YAMLMark = .start
    ) {
        self.items = items
        self.isFlow = isFlow
        self.tag = tag
        self.anchor = anchor
        self.alias = alias
        self.start = start
        self.end = end
    }

    /// True when this sequence was written as an alias `*name`.
    public var isAlias: Bool { alias != nil }
}

/// A mapping with its entries in source order, scalar keys only, and source marks.
public struct YAMLMapping: Sendable {
    /// The entries in source order; duplicate keys are kept (see ``firstDuplicateKey()``).
    public var entries: [(key: YAMLScalar, value: YAMLNode)]
    /// True for `{a: 1}`, false for a block mapping.
    public var isFlow: Bool
    /// The resolved tag, if any.
    public var tag: String?
    /// The anchor defined on this mapping, if any.
    public var anchor: String?
    /// The alias name when this mapping was written as `*name`; marks then locate the alias.
    public var alias: String?
    /// Where the mapping starts (its anchor or tag if present, else `{` or the first key).
    public var start: YAMLMark
    /// Where libyaml ends the mapping: after `}` for flow mappings; at the next token for block ones.
    public var end: YAMLMark

    /// Creates a mapping.
    /// - Parameters:
    ///   - entries: The entries in order.
    ///   - isFlow: Whether it is a flow mapping.
    ///   - tag: The resolved tag, if any.
    ///   - anchor: The anchor name, if any.
    ///   - alias: The alias name when the mapping stands for an alias.
    ///   - start: Start mark.
    ///   - end: End mark.
    public init(
        entries: [(key: YAMLScalar, value: YAMLNode)], isFlow: Bool = false, tag: String? = nil,
        anchor: String? = nil, alias: String? = nil, start: YAMLMark = .start, end: YAMLMark = .start
    ) {
        self.entries = entries
        self.isFlow = isFlow
        self.tag = tag
        self.anchor = anchor
        self.alias = alias
        self.start = start
        self.end = end
    }

    /// True when this mapping was written as an alias `*name`.
    public var isAlias: Bool { alias != nil }

    /// The keys' decoded text, in source order.
    public var keys: [String] { entries.map(\.key.value) }

    /// The value for a key, compared by decoded text; with duplicate keys the last one wins.
    /// - Parameter key: The key's decoded text (`"title"` matches `title:`, `'title':` and `"title":`).
    /// - Returns: The value, or nil when the key is absent.
    public subscript(key: String) -> YAMLNode? {
        entry(for: key)?.value
    }

    /// The last entry whose key has the given decoded text.
    /// - Parameter key: The key's decoded text.
    /// - Returns: The entry, or nil when absent.
    public func entry(for key: String) -> (key: YAMLScalar, value: YAMLNode)? {
        entries.last { $0.key.value == key }
    }

    /// Whether some value is a mapping or a sequence holding a collection (where a key may repeat).
    var hasNestedCollections: Bool {
        entries.withUnsafeBufferPointer { e in
            for k in e.indices {
                switch e[k].value {
                case .scalar: continue
                case .mapping: return true
                case .sequence(let sequence):
                    for item in sequence.items {
                        if case .scalar = item { continue }
                        return true
                    }
                }
            }
            return false
        }
    }

    /// The first key that repeats an earlier key of this mapping (not looking into nested values).
    /// - Returns: The repeated key and the earlier one, or nil when all keys are distinct.
    public func firstDuplicateKey() -> (duplicate: YAMLScalar, first: YAMLScalar)? {
        // Front matter mappings are small: comparing pairs beats hashing every key. Keys are read
        // in place (copying an entry out retains every string in it) and compared only when their
        // length and first byte agree.
        if entries.count <= 24 {
            return entries.withUnsafeBufferPointer { e -> (duplicate: YAMLScalar, first: YAMLScalar)? in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: e.count) { signatures in
                    for k in e.indices {
                        let utf8 = e[k].key.value.utf8
                        signatures[k] = utf8.count << 8 | Int(utf8.first ?? 0)
                    }
                    for i in e.indices {
                        for j in (i + 1)..<e.count where signatures[j] == signatures[i] && e[j].key.value == e[i].key.value {
                            return (e[j].key, e[i].key)
                        }
                    }
                    return nil
                }
            }
        }
        var seen: [String: Int] = [:]
        seen.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            if let first = seen[entry.key.value] { return (entry.key, entries[first].key) }
            seen[entry.key.value] = index
        }
        return nil
    }
}

/// A parsed YAML node; aliases are resolved to a copy of the anchored node, with `alias` set.
public indirect enum YAMLNode: Sendable {
    /// A scalar.
    case scalar(YAMLScalar)
    /// A sequence.
    case sequence(YAMLSequence)
    /// A mapping.
    case mapping(YAMLMapping)

    /// The scalar, if this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let s) = self { return s }
        return nil
    }

    /// The sequence, if this node is one.
    public var sequence: YAMLSequence? {
        if case .sequence(let s) = self { return s }
        return nil
    }

    /// The mapping, if this node is one.
    public var mapping: YAMLMapping? {
        if case .mapping(let m) = self { return m }
        return nil
    }

    /// Where the node starts, including its anchor and tag.
    public var start: YAMLMark {
        switch self {
        case .scalar(let s): return s.start
        case .sequence(let s): return s.start
        case .mapping(let m): return m.start
        }
    }

    /// Where libyaml ends the node (see each type's `end`).
    public var end: YAMLMark {
        switch self {
        case .scalar(let s): return s.end
        case .sequence(let s): return s.end
        case .mapping(let m): return m.end
        }
    }

    /// The anchor defined on this node, if any.
    public var anchor: String? {
        switch self {
        case .scalar(let s): return s.anchor
        case .sequence(let s): return s.anchor
        case .mapping(let m): return m.anchor
        }
    }

    /// The alias name when this node was written as `*name`.
    public var alias: String? {
        switch self {
        case .scalar(let s): return s.alias
        case .sequence(let s): return s.alias
        case .mapping(let m): return m.alias
        }
    }

    /// The resolved tag, if any.
    public var tag: String? {
        switch self {
        case .scalar(let s): return s.tag
        case .sequence(let s): return s.tag
        case .mapping(let m): return m.tag
        }
    }

    /// The first key that repeats an earlier key of the same mapping, here or in any nested value.
    /// - Returns: The repeated key and the earlier one, or nil when every mapping's keys are distinct.
    public func firstDuplicateKey() -> (duplicate: YAMLScalar, first: YAMLScalar)? {
        // A mapping whose values are scalars and lists of scalars (front matter, nearly always)
        // needs no list of nodes still to look into.
        if case .mapping(let mapping) = self, mapping.alias == nil, !mapping.hasNestedCollections {
            return mapping.firstDuplicateKey()
        }
        // Iterative, and scalars (nearly every value) are passed over without being copied out.
        var pending = [self]
        while let next = pending.popLast() {
            switch next {
            case .scalar:
                continue
            case .sequence(let sequence):
                guard sequence.alias == nil else { continue }
                for item in sequence.items {
                    if case .scalar = item { continue }
                    pending.append(item)
                }
            case .mapping(let mapping):
                guard mapping.alias == nil else { continue }
                if let found = mapping.firstDuplicateKey() { return found }
                mapping.entries.withUnsafeBufferPointer { entries in
                    for k in entries.indices {
                        if case .scalar = entries[k].value { continue }
                        pending.append(entries[k].value)
                    }
                }
            }
        }
        return nil
    }

    /// A word for the node's kind, used in messages: "scalar", "sequence" or "mapping".
    public var kindName: String {
        switch self {
        case .scalar: return "scalar"
        case .sequence: return "sequence"
        case .mapping: return "mapping"
        }
    }

    /// Whether two nodes hold the same content, ignoring marks.
    ///
    /// Compares kinds, decoded values, styles, tags, anchors, alias names, flow-ness and key order.
    /// - Parameter other: The node to compare with.
    /// - Returns: True when only source positions differ.
    public func hasSameContent(as other: YAMLNode) -> Bool {
        // An alias stands for its anchor's content, compared where the anchor is written: comparing
        // it again at every alias would cost the expanded size (a 600-byte "billion laughs").
        if let a = alias, let b = other.alias { return a == b && kindName == other.kindName }
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)):
            return a.value == b.value && a.style == b.style && a.tag == b.tag
                && a.anchor == b.anchor && a.alias == b.alias
        case (.sequence(let a), .sequence(let b)):
            guard a.isFlow == b.isFlow, a.tag == b.tag, a.anchor == b.anchor, a.alias == b.alias,
                  a.items.count == b.items.count else { return false }
            return zip(a.items, b.items).allSatisfy { $0.hasSameContent(as: $1) }
        case (.mapping(let a), .mapping(let b)):
            guard a.isFlow == b.isFlow, a.tag == b.tag, a.anchor == b.anchor, a.alias == b.alias,
                  a.entries.count == b.entries.count else { return false }
            return zip(a.entries, b.entries).allSatisfy { lhs, rhs in
                YAMLNode.scalar(lhs.key).hasSameContent(as: .scalar(rhs.key))
                    && lhs.value.hasSameContent(as: rhs.value)
            }
        default:
            return false
        }
    }

    /// Returns a copy standing for the alias `*name` written between `start` and `end`.
    func asAlias(named name: String, start: YAMLMark, end: YAMLMark) -> YAMLNode {
        switch self {
        case .scalar(var s):
            s.alias = name; s.anchor = nil; s.start = start; s.end = end
            return .scalar(s)
        case .sequence(var s):
            s.alias = name; s.anchor = nil; s.start = start; s.end = end
            return .sequence(s)
        case .mapping(var m):
            m.alias = name; m.anchor = nil; m.start = start; m.end = end
            return .mapping(m)
        }
    }
}

// MARK: - Source text

extension YAMLNode {
    /// The node's exact source bytes (for block collections, up to where libyaml ends them).
    /// - Parameter file: The bytes the node was parsed from (with marks relative to them).
    /// - Returns: The source text, or "" when the marks lie outside `file`.
    public func sourceText(in file: [UInt8]) -> String {
        let range = start.offset..<end.offset
        guard range.lowerBound >= 0, range.upperBound <= file.count else { return "" }
        return String(decoding: file[range], as: UTF8.self)
    }
}

extension YAMLScalar {
    /// The scalar's exact source text, quotes and all (`"a\tb"`, `2024-01-05`, `*alias`).
    /// - Parameter file: The bytes the scalar was parsed from (with marks relative to them).
    /// - Returns: The source text, or "" when the marks lie outside `file`.
    public func sourceText(in file: [UInt8]) -> String {
        YAMLNode.scalar(self).sourceText(in: file)
    }
}
