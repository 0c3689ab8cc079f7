/// A QR code (ISO/IEC 18004, Model 2) for a short text such as a URL, so that a phone can open
/// what the terminal shows without anyone typing it: the text's UTF-8 bytes in byte mode, in the
/// smallest of the 40 versions that holds them at the chosen error correction, with the mask of
/// the eight whose penalty score (the standard's rules 1–4) is lowest.
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
        let utf8ECI = bytes.contains { $0 >= 0x80 }
        guard let version = (1...40).first(where: {
            QRLayout.fits(byteCount: bytes.count, eci: utf8ECI, version: $0, correction: correction)
        }) else { return nil }
        let data = QRLayout.dataCodewords(bytes, eci: utf8ECI, version: version, correction: correction)
        let codewords = QRLayout.interleavedWithCorrection(data, version: version, correction: correction)
        var matrix = QRMatrix(version: version)
        matrix.drawCodewords(codewords)
        // Each mask is tried on a copy, format bits included, since they count in the penalty too.
        var best: QRMatrix?
        var bestPenalty = Int.max
        for mask in 0..<8 {
            var candidate = matrix
            candidate.applyMask(mask)
            candidate.drawFormatBits(correction: correction, mask: mask)
            let penalty = candidate.penalty()
            if penalty < bestPenalty { best = candidate; bestPenalty = penalty }
        }
        guard let chosen = best else { return nil }
        size = chosen.size
        modules = chosen.dark
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

/// The standard's tables and the steps from bytes to the final codeword sequence: capacities,
/// the data bit stream with its padding, Reed–Solomon blocks and their interleaving.
private enum QRLayout {
    /// Error-correction codewords per block, by level (L, M, Q, H) and version − 1 (ISO 18004 table 9).
    static let correctionPerBlock: [[Int]] = [
        [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]
    /// Error-correction blocks, by level (L, M, Q, H) and version − 1 (ISO 18004 table 9).
    static let blockCounts: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
         8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    static func levelIndex(_ correction: QRCode.ErrorCorrection) -> Int {
        switch correction {
        case .low: 0
        case .medium: 1
        case .quartile: 2
        case .high: 3
        }
    }

    /// Modules left for codewords (data and correction, and remainder bits) once the function
    /// patterns are drawn: the whole area less finders, timing, alignment, format and version.
    static func rawDataModules(version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    static func dataCapacity(version: Int, correction: QRCode.ErrorCorrection) -> Int {
        let level = levelIndex(correction)
        return rawDataModules(version: version) / 8
            - correctionPerBlock[level][version - 1] * blockCounts[level][version - 1]
    }

    /// Byte mode's character count is 8 bits up to version 9 and 16 bits from version 10.
    static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// Whether the bytes fit: the ECI header (mode 0111 and an 8-bit designator) if any, byte
    /// mode's indicator (0100) and count, then 8 bits a byte.
    static func fits(byteCount: Int, eci: Bool, version: Int, correction: QRCode.ErrorCorrection) -> Bool {
        let countBits = countBits(version: version)
        return byteCount < 1 << countBits
            && (eci ? 12 : 0) + 4 + countBits + 8 * byteCount <= 8 * dataCapacity(version: version, correction: correction)
    }

    /// The ECI header for UTF-8 if asked, mode indicator, count, the bytes, a terminator of up to
    /// four zero bits, zeros to the byte boundary, then the alternating pad bytes 0xEC 0x11 up to
    /// the version's data capacity.
    static func dataCodewords(_ bytes: [UInt8], eci: Bool, version: Int, correction: QRCode.ErrorCorrection) -> [UInt8] {
        let capacityBits = 8 * dataCapacity(version: version, correction: correction)
        var bits: [Bool] = []
        bits.reserveCapacity(capacityBits)
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
        }
        if eci {
            append(0b0111, 4)
            append(26, 8)
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version: version))
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacityBits - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords: [UInt8] = []
        codewords.reserveCapacity(capacityBits / 8)
        for start in stride(from: 0, to: bits.count, by: 8) {
            codewords.append(bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacityBits / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// Splits the data into the version's blocks (the short ones first, one codeword shorter),
    /// appends each block's Reed–Solomon codewords, and interleaves column-wise so that a local
    /// smudge spreads over many blocks rather than destroying one.
    static func interleavedWithCorrection(_ data: [UInt8], version: Int, correction: QRCode.ErrorCorrection) -> [UInt8] {
        let level = levelIndex(correction)
        let blockCount = blockCounts[level][version - 1]
        let correctionLength = correctionPerBlock[level][version - 1]
        let rawCodewords = rawDataModules(version: version) / 8
        let shortBlocks = blockCount - rawCodewords % blockCount
        let shortDataLength = rawCodewords / blockCount - correctionLength
        let divisor = ReedSolomon.generator(degree: correctionLength)
        var dataBlocks: [ArraySlice<UInt8>] = []
        var correctionBlocks: [[UInt8]] = []
        var start = 0
        for block in 0..<blockCount {
            let length = shortDataLength + (block < shortBlocks ? 0 : 1)
            let slice = data[start..<start + length]
            dataBlocks.append(slice)
            correctionBlocks.append(ReedSolomon.remainder(slice, generator: divisor))
            start += length
        }
        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        for i in 0...shortDataLength {
            for block in dataBlocks where i < block.count { result.append(block[block.startIndex + i]) }
        }
        for i in 0..<correctionLength {
            for block in correctionBlocks { result.append(block[i]) }
        }
        return result
    }
}

/// Reed–Solomon over GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D) and the
/// generator ∏ (x − αⁱ), i in 0..<degree, α = 2.
private enum ReedSolomon {
    /// Powers of α (α⁰ to α²⁵⁴, repeated once so a sum of two logarithms needs no modulo) and the
    /// logarithms of 1...255, built once: table look-ups keep the codewords' division cheap.
    static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 510)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            exp[power + 255] = UInt8(value)
            log[value] = power
            value <<= 1
            if value > 0xFF { value ^= 0x11D }
        }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0 && b != 0 else { return 0 }
        return tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// The generator's coefficients below the leading 1, highest power first.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                coefficients[j] = multiply(coefficients[j], root)
                if j + 1 < degree { coefficients[j] ^= coefficients[j + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The remainder of data · x^degree divided by the generator: the correction codewords.
    static func remainder(_ data: ArraySlice<UInt8>, generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for i in 0..<result.count { result[i] ^= multiply(generator[i], factor) }
        }
        return result
    }
}

/// The module grid while it is built: which modules are dark, and which belong to function
/// patterns (finders, separators, timing, alignment, format and version information) that
/// neither hold codewords nor get masked.
private struct QRMatrix {
    let size: Int
    var dark: [Bool]
    var function: [Bool]

    init(version: Int) {
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        function = Array(repeating: false, count: size * size)
        for i in 0..<size {
            setFunction(6, i, i % 2 == 0)
            setFunction(i, 6, i % 2 == 0)
        }
        // Finders with their light separators, clipped at the edges.
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(cx + dx) && (0..<size).contains(cy + dy) {
                    let ring = max(abs(dx), abs(dy))
                    setFunction(cx + dx, cy + dy, ring != 2 && ring != 4)
                }
            }
        }
        let centres = Self.alignmentCentres(version: version)
        for (i, cx) in centres.enumerated() {
            for (j, cy) in centres.enumerated() {
                let last = centres.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 { for dx in -2...2 { setFunction(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) } }
            }
        }
        // Reserves the format areas (and sets the dark module); each mask redraws them.
        drawFormatBits(correction: .low, mask: 0)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let bit = (bits >> i) & 1 == 1
                let (a, b) = (size - 11 + i % 3, i / 3)
                setFunction(a, b, bit)
                setFunction(b, a, bit)
            }
        }
    }

    /// Alignment pattern centres on each axis: 6, then evenly spaced (by an even step) back from
    /// size − 7; none for version 1.
    static func alignmentCentres(version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        let size = 17 + 4 * version
        return [6] + (0..<count - 1).map { size - 7 - $0 * step }.reversed()
    }

    mutating func setFunction(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        function[y * size + x] = true
    }

    /// The 15 format bits (level, mask, BCH(15, 5) remainder, XOR 0x5412) in both copies.
    mutating func drawFormatBits(correction: QRCode.ErrorCorrection, mask: Int) {
        let levelBits = [1, 0, 3, 2][QRLayout.levelIndex(correction)]
        let data = levelBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { setFunction(8, i, bit(i)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for i in 9..<15 { setFunction(14 - i, 8, bit(i)) }
        for i in 0..<8 { setFunction(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { setFunction(8, size - 15 + i, bit(i)) }
        setFunction(8, size - 8, true)
    }

    /// Places the codewords' bits, most significant first, in the two-column zigzag from the
    /// bottom-right corner, skipping function modules and the vertical timing column.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var bitIndex = 0
        let totalBits = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !function[y * size + x] && bitIndex < totalBits {
                    dark[y * size + x] = (codewords[bitIndex >> 3] >> (7 - (bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Flips every non-function module where the mask's condition (ISO 18004 table 10) holds.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !function[y * size + x] {
                let flip = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (x / 3 + y / 2) % 2 == 0
                case 5: x * y % 2 + x * y % 3 == 0
                case 6: (x * y % 2 + x * y % 3) % 2 == 0
                default: ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { dark[y * size + x].toggle() }
            }
        }
    }

    /// The standard's penalty: runs of five or more (rule 1), 2×2 blocks (rule 2), finder-like
    /// 1:1:3:1:1 patterns with four light modules on a side (rule 3), and the dark share's
    /// distance from half (rule 4).
    func penalty() -> Int {
        var total = 0
        var line = [Bool](repeating: false, count: size)
        for horizontal in [true, false] {
            for i in 0..<size {
                for j in 0..<size { line[j] = horizontal ? dark[i * size + j] : dark[j * size + i] }
                total += Self.linePenalty(line)
            }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = dark[y * size + x]
                if dark[y * size + x + 1] == colour && dark[(y + 1) * size + x] == colour
                    && dark[(y + 1) * size + x + 1] == colour { total += 3 }
            }
        }
        let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
        let count = size * size
        total += ((abs(darkCount * 20 - count * 10) + count - 1) / count - 1) * 10
        return total
    }

    /// Rules 1 and 3 along one row or column; modules outside the symbol count as light.
    static func linePenalty(_ line: [Bool]) -> Int {
        var total = 0
        var run = 1
        for j in 1...line.count {
            if j < line.count && line[j] == line[j - 1] {
                run += 1
            } else {
                if run >= 5 { total += run - 2 }
                run = 1
            }
        }
        func light(_ range: Range<Int>) -> Bool {
            for i in range where i >= 0 && i < line.count && line[i] { return false }
            return true
        }
        // Dark, light, three dark, light, dark; counted once however many sides are light.
        for start in 0...(line.count - 7) where line[start] && !line[start + 1] && line[start + 2] {
            guard line[start + 3] && line[start + 4] && !line[start + 5] && line[start + 6] else { continue }
            if light(start - 4..<start) || light(start + 7..<start + 11) { total += 40 }
        }
        return total
    }
}
