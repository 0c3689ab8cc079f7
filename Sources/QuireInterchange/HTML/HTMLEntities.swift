/// Character reference tables used when decoding HTML text and attribute values.
///
/// Named references cover the whole HTML 4 set (Latin-1, symbols, Greek letters and
/// the "special" punctuation such as `&ndash;` and `&rdquo;`) plus `&apos;` and the
/// upper-case legacy spellings of the most common ones.
package enum HTMLEntities {
    /// Names of the Latin-1 references, in code point order from U+00A0 to U+00FF.
    private static let latin1Names: [String] = [
        "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect",
        "uml", "copy", "ordf", "laquo", "not", "shy", "reg", "macr",
        "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot",
        "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest",
        "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil",
        "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml",
        "ETH", "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times",
        "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig",
        "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
        "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml",
        "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide",
        "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    ]

    /// The remaining named references and their code points.
    private static let otherNames: [String: UInt32] = [
        // Markup-significant and legacy upper-case spellings.
        "quot": 0x22, "amp": 0x26, "apos": 0x27, "lt": 0x3C, "gt": 0x3E,
        "QUOT": 0x22, "AMP": 0x26, "LT": 0x3C, "GT": 0x3E, "COPY": 0xA9, "REG": 0xAE,
        // Special characters.
        "OElig": 0x152, "oelig": 0x153, "Scaron": 0x160, "scaron": 0x161, "Yuml": 0x178,
        "circ": 0x2C6, "tilde": 0x2DC, "ensp": 0x2002, "emsp": 0x2003, "thinsp": 0x2009,
        "zwnj": 0x200C, "zwj": 0x200D, "lrm": 0x200E, "rlm": 0x200F,
        "ndash": 0x2013, "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019,
        "sbquo": 0x201A, "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E,
        "dagger": 0x2020, "Dagger": 0x2021, "permil": 0x2030, "lsaquo": 0x2039,
        "rsaquo": 0x203A, "euro": 0x20AC,
        // Symbols.
        "fnof": 0x192, "bull": 0x2022, "hellip": 0x2026, "prime": 0x2032, "Prime": 0x2033,
        "oline": 0x203E, "frasl": 0x2044, "weierp": 0x2118, "image": 0x2111, "real": 0x211C,
        "trade": 0x2122, "alefsym": 0x2135, "larr": 0x2190, "uarr": 0x2191, "rarr": 0x2192,
        "darr": 0x2193, "harr": 0x2194, "crarr": 0x21B5, "lArr": 0x21D0, "uArr": 0x21D1,
        "rArr": 0x21D2, "dArr": 0x21D3, "hArr": 0x21D4, "forall": 0x2200, "part": 0x2202,
        "exist": 0x2203, "empty": 0x2205, "nabla": 0x2207, "isin": 0x2208, "notin": 0x2209,
        "ni": 0x220B, "prod": 0x220F, "sum": 0x2211, "minus": 0x2212, "lowast": 0x2217,
        "radic": 0x221A, "prop": 0x221D, "infin": 0x221E, "ang": 0x2220, "and": 0x2227,
        "or": 0x2228, "cap": 0x2229, "cup": 0x222A, "int": 0x222B, "there4": 0x2234,
        "sim": 0x223C, "cong": 0x2245, "asymp": 0x2248, "ne": 0x2260, "equiv": 0x2261,
        "le": 0x2264, "ge": 0x2265, "sub": 0x2282, "sup": 0x2283, "nsub": 0x2284,
        "sube": 0x2286, "supe": 0x2287, "oplus": 0x2295, "otimes": 0x2297, "perp": 0x22A5,
        "sdot": 0x22C5, "lceil": 0x2308, "rceil": 0x2309, "lfloor": 0x230A, "rfloor": 0x230B,
        "lang": 0x27E8, "rang": 0x27E9, "loz": 0x25CA, "spades": 0x2660, "clubs": 0x2663,
        "hearts": 0x2665, "diams": 0x2666,
        // Greek letters.
        "Alpha": 0x391, "Beta": 0x392, "Gamma": 0x393, "Delta": 0x394, "Epsilon": 0x395,
        "Zeta": 0x396, "Eta": 0x397, "Theta": 0x398, "Iota": 0x399, "Kappa": 0x39A,
        "Lambda": 0x39B, "Mu": 0x39C, "Nu": 0x39D, "Xi": 0x39E, "Omicron": 0x39F,
        "Pi": 0x3A0, "Rho": 0x3A1, "Sigma": 0x3A3, "Tau": 0x3A4, "Upsilon": 0x3A5,
        "Phi": 0x3A6, "Chi": 0x3A7, "Psi": 0x3A8, "Omega": 0x3A9,
        "alpha": 0x3B1, "beta": 0x3B2, "gamma": 0x3B3, "delta": 0x3B4, "epsilon": 0x3B5,
        "zeta": 0x3B6, "eta": 0x3B7, "theta": 0x3B8, "iota": 0x3B9, "kappa": 0x3BA,
        "lambda": 0x3BB, "mu": 0x3BC, "nu": 0x3BD, "xi": 0x3BE, "omicron": 0x3BF,
        "pi": 0x3C0, "rho": 0x3C1, "sigmaf": 0x3C2, "sigma": 0x3C3, "tau": 0x3C4,
        "upsilon": 0x3C5, "phi": 0x3C6, "chi": 0x3C7, "psi": 0x3C8, "omega": 0x3C9,
        "thetasym": 0x3D1, "upsih": 0x3D2, "piv": 0x3D6,
    ]

    /// Every supported named reference (case-sensitive, without `&` and `;`).
    package static let named: [String: UInt32] = {
        var table = otherNames
        for (offset, name) in latin1Names.enumerated() {
            table[name] = 0xA0 + UInt32(offset)
        }
        return table
    }()

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
            if let decoded = reference.scalar {
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
) -> (scalar: Scalar?, end: Int)? {
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
        return (HTMLEntities.numeric(value, outOfRange: outOfRange), index + 1)
    }
    let nameStart = index
    while index < text.endIndex, index - nameStart < 32, text[index].isASCIIAlphanumeric {
        index += 1
    }
    guard index > nameStart, index < text.endIndex, text[index] == ";" else { return nil }
    guard let code = HTMLEntities.named[makeString(text[nameStart..<index])],
        let scalar = Unicode.Scalar(code)
    else { return nil }
    return (scalar, index + 1)
}
