import Foundation
import QuireSupport

/// BERT's uncased WordPiece tokenizer, as Hugging Face's `tokenizers` runs it for
/// all-MiniLM-L6-v2 (`BertNormalizer`, `BertPreTokenizer`, `WordPiece`, `[CLS] … [SEP]`): control
/// characters dropped, whitespace made spaces, CJK ideographs set apart, accents stripped (NFD,
/// then nonspacing marks removed), lower-cased, split at whitespace and punctuation, then each word
/// cut greedily into the longest pieces in the vocabulary (`##` before a piece inside a word). The
/// token ids equal the reference tokenizer's (`make test` checks them on a fixed set of texts).
public struct WordPieceTokenizer: Sendable {
    let vocabulary: [String: Int32]
    /// `[CLS]`, `[SEP]` and `[UNK]`'s ids.
    let cls: Int32, sep: Int32, unknown: Int32
    /// Words longer than this (in Unicode scalars) are `[UNK]` whole.
    static let maximumWordLength = 100

    /// Reads a `vocab.txt`: one token a line, its id the line's number from 0.
    public init(vocabulary bytes: [UInt8], path: String) throws(EmbeddingError) {
        var vocabulary: [String: Int32] = [:]
        var line = 0
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            if i == bytes.count, start == i { break }
            var end = i
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            guard let token = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw .malformed(path: path, location: "line \(line + 1)", reason: "not UTF-8")
            }
            if vocabulary[token] == nil { vocabulary[token] = Int32(line) }
            line += 1
            start = i + 1
        }
        guard let cls = vocabulary["[CLS]"], let sep = vocabulary["[SEP]"], let unknown = vocabulary["[UNK]"] else {
            throw .malformed(path: path, location: "line 1", reason: "the vocabulary lacks [CLS], [SEP] or [UNK]")
        }
        self.vocabulary = vocabulary
        self.cls = cls
        self.sep = sep
        self.unknown = unknown
    }

    /// The number of tokens in the vocabulary's id space.
    public var count: Int { Int(vocabulary.values.max() ?? -1) + 1 }

    /// The ids of `text`'s tokens between `[CLS]` and `[SEP]`, at most `maximumLength` in all (the
    /// text's tokens past that are cut off, as the reference truncates).
    public func ids(_ text: String, maximumLength: Int = 256) -> [Int32] {
        var ids: [Int32] = [cls]
        let room = max(0, maximumLength - 2)
        for word in Self.words(Self.normalized(text)) {
            if ids.count - 1 >= room { break }
            pieces(of: word, into: &ids)
        }
        if ids.count - 1 > room { ids.removeLast(ids.count - 1 - room) }
        ids.append(sep)
        return ids
    }

    /// The text as `BertNormalizer` leaves it.
    static func normalized(_ text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s.value == 0 || s.value == 0xFFFD || isControl(s) { continue }
            if isWhitespace(s) { cleaned.append(" "); continue }
            if isCJK(s) {
                cleaned.append(" ")
                cleaned.append(s)
                cleaned.append(" ")
                continue
            }
            cleaned.append(s)
        }
        var out = String.UnicodeScalarView()
        for s in String(cleaned).decomposedStringWithCanonicalMapping.unicodeScalars where s.properties.generalCategory != .nonspacingMark {
            out.appendScalars(s.properties.lowercaseMapping.unicodeScalars)
        }
        return String(out)
    }

    /// The words `BertPreTokenizer` makes: split at whitespace, each punctuation mark a word.
    static func words(_ text: String) -> [[Unicode.Scalar]] {
        var words: [[Unicode.Scalar]] = []
        var word: [Unicode.Scalar] = []
        for s in text.unicodeScalars {
            if s.properties.isWhitespace {
                if !word.isEmpty { words.append(word); word = [] }
            } else if isPunctuation(s) {
                if !word.isEmpty { words.append(word); word = [] }
                words.append([s])
            } else {
                word.append(s)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Appends the word's pieces (longest first from the left), or `[UNK]` when it cannot be cut.
    func pieces(of word: [Unicode.Scalar], into ids: inout [Int32]) {
        guard word.count <= Self.maximumWordLength else { ids.append(unknown); return }
        var found: [Int32] = []
        var start = 0
        while start < word.count {
            var end = word.count
            var match: Int32?
            while end > start {
                var piece = start > 0 ? "##" : ""
                piece.unicodeScalars.append(contentsOf: word[start..<end])
                if let id = vocabulary[piece] { match = id; break }
                end -= 1
            }
            guard let match else { ids.append(unknown); return }
            found.append(match)
            start = end
        }
        ids.append(contentsOf: found)
    }

    /// Whitespace: tab, line feed, carriage return, or a White_Space character.
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace }

    /// A control, format or private-use character other than tab, line feed and return (unassigned
    /// code points are kept, as the reference keeps them).
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        if s == "\t" || s == "\n" || s == "\r" { return false }
        switch s.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate: return true
        default: return false
        }
    }

    /// ASCII punctuation and symbols, or a Unicode punctuation character.
    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v)
        }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation: return true
        default: return false
        }
    }

    /// The CJK ideograph blocks BERT sets apart with spaces.
    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
             0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F: return true
        default: return false
        }
    }
}
