extension StringProtocol {
    /// The first place `needle` occurs in the text, compared byte for byte (as `range(of:options:
    /// .literal)`), found without copying the text.
    ///
    /// Foundation's `range(of:)` makes a new string of a `Substring` at each call, so a loop that
    /// looks for the next delimiter in what is left of a long text costs the square of its length
    /// (a card of 64,000 links took 4 s to export). This one costs the length searched, times the
    /// needle's length at worst.
    public func range(ofLiteral needle: some StringProtocol) -> Range<String.Index>? {
        let bytes = Array(needle.utf8)
        guard !bytes.isEmpty else { return nil }
        let view = utf8
        let found: Int?? = view.withContiguousStorageIfAvailable { hay in
            ByteSearch.firstOffset(of: bytes, in: hay)
        }
        if let found {
            guard let offset = found else { return nil }
            let start = view.index(view.startIndex, offsetBy: offset)
            return start..<view.index(start, offsetBy: bytes.count)
        }
        // Text not stored as contiguous UTF-8 (bridged): walk its indices.
        var i = view.startIndex
        while i != view.endIndex {
            var j = i, k = 0
            while k < bytes.count, j != view.endIndex, view[j] == bytes[k] {
                view.formIndex(after: &j)
                k += 1
            }
            if k == bytes.count { return i..<j }
            view.formIndex(after: &i)
        }
        return nil
    }
}
