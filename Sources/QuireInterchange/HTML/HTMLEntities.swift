/// Character reference tables used when decoding HTML text and attribute values.
///
/// Named references are HTML's whole list (2,125 names, HTMLEntities+Names.swift, written by
/// scripts/html-entities.py); a few stand for two characters (`&NotEqualTilde;`).
package enum HTMLEntities {
    /// Every named reference (case-sensitive, without `&` and `;`) and the text it stands for.
    package static let named: [String: String] = {
        var names: [String: String] = [:]
        names.reserveCapacity(2200)
        for entry in HTMLEntities.table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            var text = String.UnicodeScalarView()
            for code in entry[entry.index(after: equals)...].split(separator: ",") {
                if let value = UInt32(code, radix: 16), let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
            names[String(entry[..<equals])] = String(text)
        }
        return names
    }()

    /// `text` with its character references decoded as in an attribute value (HTML's whole list
    /// of names, numbers as the standard reads them); anything that is no reference kept as it
    /// is, control characters but tab and line feed dropped.
    package static func decoded(_ text: String) -> String {
        makeString(decodeEntities(ArraySlice(Array(text.unicodeScalars)), inText: false))
    }

    /// Code points that numeric references in the range 0x80–0x9F stand for, following
    /// the HTML standard (they are read as Windows-1252); `0` marks the five unassigned
    /// positions, whose references decode to nothing.
    private static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// The character a numeric reference stands for, or `nil` when it decodes to nothing.
    ///
    /// NUL, surrogates and values beyond U+10FFFF (`outOfRange`) become U+FFFD; a carriage
    /// return becomes a line feed; 0x80–0x9F are read as Windows-1252.
    package static func numeric(_ value: UInt32, outOfRange: Bool) -> Unicode.Scalar? {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        if outOfRange || value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF {
            return replacement
        }
        if value == 0x0D { return "\n" }
        if value >= 0x80 && value <= 0x9F {
            let mapped = windows1252[Int(value - 0x80)]
            return mapped == 0 ? nil : Unicode.Scalar(mapped)
        }
        return Unicode.Scalar(value) ?? replacement
    }
}

// MARK: - Decoding

/// Decodes character references in `text`. Unknown or malformed references (including
/// ones without the closing `;`) are kept literally. Unwanted control characters are
/// dropped; in text content a no-break space becomes a plain space.
func decodeEntities(_ text: ArraySlice<Scalar>, inText: Bool) -> [Scalar] {
    var result: [Scalar] = []
    result.reserveCapacity(text.count)
    var index = text.startIndex
    while index < text.endIndex {
        let scalar = text[index]
        if scalar == "&", let reference = characterReference(in: text, at: index) {
            for decoded in reference.scalars {
                if inText && decoded == "\u{A0}" {
                    result.append(" ")
                } else if !decoded.isUnwantedControl {
                    result.append(decoded)
                }
            }
            index = reference.end
            continue
        }
        if inText && scalar == "\u{A0}" {
            result.append(" ")
        } else if !scalar.isUnwantedControl {
            result.append(scalar)
        }
        index += 1
    }
    return result
}

/// Parses the character reference starting with the `&` at `start`.
func characterReference(
    in text: ArraySlice<Scalar>, at start: Int
) -> (scalars: [Scalar], end: Int)? {
    var index = start + 1
    guard index < text.endIndex else { return nil }
    if text[index] == "#" {
        index += 1
        var hex = false
        if index < text.endIndex, text[index] == "x" || text[index] == "X" {
            hex = true
            index += 1
        }
        let digitsStart = index
        var value: UInt32 = 0
        var outOfRange = false
        while index < text.endIndex {
            let code = text[index].value
            let digit: UInt32
            if code >= 0x30 && code <= 0x39 {
                digit = code - 0x30
            } else if hex && code >= 0x61 && code <= 0x66 {
                digit = code - 0x61 + 10
            } else if hex && code >= 0x41 && code <= 0x46 {
                digit = code - 0x41 + 10
            } else {
                break
            }
            if !outOfRange {
                value = value * (hex ? 16 : 10) + digit
                if value > 0x10FFFF { outOfRange = true }
            }
            index += 1
        }
        guard index > digitsStart, index < text.endIndex, text[index] == ";" else { return nil }
        return (HTMLEntities.numeric(value, outOfRange: outOfRange).map { [$0] } ?? [], index + 1)
    }
    let nameStart = index
    while index < text.endIndex, index - nameStart < 32, text[index].isASCIIAlphanumeric {
        index += 1
    }
    guard index > nameStart, index < text.endIndex, text[index] == ";" else { return nil }
    guard let named = HTMLEntities.named[makeString(text[nameStart..<index])] else { return nil }
    return (Array(named.unicodeScalars), index + 1)
}
