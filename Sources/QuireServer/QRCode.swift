internal import CQREncode

/// A QR code (ISO/IEC 18004, Model 2) for a short text such as a URL, so that a phone can open
/// what the terminal shows without anyone typing it: the text's UTF-8 bytes in byte mode, in the
/// smallest of the 40 versions that holds them at the chosen error correction, encoded by Debian's
/// libqrencode (which chooses the mask by the standard's penalty rules).
///
/// A text with non-ASCII characters is preceded by the extended channel interpretation (ECI)
/// header for UTF-8 (designator 26): byte mode's default is ISO-8859-1, and without the header
/// readers guess, zbar reading "Köln" as Shift JIS. ASCII-only text such as a URL goes without
/// it, as its bytes are the same in every reading and the oldest readers need no ECI support.
public struct QRCode: Sendable, Equatable {
    /// How many of the codewords may be damaged and still be restored, about 7 %, 15 %, 25 % and
    /// 30 % from `low` to `high`; more correction needs a larger code for the same text.
    public enum ErrorCorrection: Sendable {
        /// About 7 % of the codewords can be restored.
        case low
        /// About 15 % of the codewords can be restored.
        case medium
        /// About 25 % of the codewords can be restored.
        case quartile
        /// About 30 % of the codewords can be restored.
        case high
    }

    /// The side in modules (21 for version 1, four more for each version up to 177 for 40).
    public let size: Int
    /// The modules row by row, `true` for dark; `size * size` of them.
    private let modules: [Bool]

    /// The version, 1...40, that the size stands for: (size − 17) / 4.
    public var version: Int { (size - 17) / 4 }

    /// Whether the module at (x, y) is dark; x, y in 0..<size, (0, 0) the top-left corner.
    public subscript(x: Int, y: Int) -> Bool {
        precondition((0..<size).contains(x) && (0..<size).contains(y), "module (\(x), \(y)) outside a \(size)-module code")
        return modules[y * size + x]
    }

    /// Encodes `text` as UTF-8 bytes in byte mode (version chosen as the smallest that fits,
    /// 1...40), nil if it does not fit in version 40 at this error correction.
    public init?(_ text: String, correction: ErrorCorrection = .medium) {
        let bytes = Array(text.utf8)
        let level: QRecLevel = switch correction {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
        guard let input = QRinput_new2(0, level) else { return nil }
        defer { QRinput_free(input) }
        if bytes.contains(where: { $0 >= 0x80 }), QRinput_appendECIheader(input, 26) != 0 { return nil }
        if !bytes.isEmpty, QRinput_append(input, QR_MODE_8, Int32(bytes.count), bytes) != 0 { return nil }
        guard let code = QRcode_encodeInput(input) else { return nil }
        defer { QRcode_free(code) }
        let side = Int(code.pointee.width)
        size = side
        // Each module is a byte whose lowest bit is dark.
        modules = (0..<(side * side)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// The code drawn for a terminal with Unicode half blocks (▀ ▄ █ and space), two module rows
    /// per text line, with a quiet zone of `border` modules (default 2) around, which readers
    /// need to find the code's edge. With `invert` (the default) dark modules are drawn as the
    /// terminal's background (spaces) and light ones as blocks in its foreground, so the code
    /// reads on a dark terminal with light text; without it, for light terminals, dark modules
    /// are the blocks. Each line is `size + 2 * border` characters, `(size + 2 * border + 1) / 2`
    /// lines; the last line's lower half, below the quiet zone, is left as background.
    public func terminalLines(border: Int = 2, invert: Bool = true) -> [String] {
        let border = max(0, border)
        let side = size + 2 * border
        // Ink is what the terminal draws in its foreground; the quiet zone is light.
        func ink(_ x: Int, _ y: Int) -> Bool {
            let (mx, my) = (x - border, y - border)
            let dark = (0..<size).contains(mx) && (0..<size).contains(my) && modules[my * size + mx]
            return dark != invert
        }
        var lines: [String] = []
        for row in stride(from: 0, to: side, by: 2) {
            var line = ""
            for column in 0..<side {
                let top = ink(column, row)
                let bottom = row + 1 < side && ink(column, row + 1)
                switch (top, bottom) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
        }
        return lines
    }
}
