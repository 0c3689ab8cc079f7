import Foundation
@testable import QuireServer
import XCTest

/// The QR code (libqrencode behind QuireServer's QRCode), proven by a real decoder: each code is drawn as a PGM image and read back by
/// zbar's `zbarimg` (Debian's zbar-tools, which scripts/install-deps.sh installs), since a code
/// that merely looks right to the encoder's own reading proves nothing.
final class QRCodeTests: XCTestCase {
    static let url = "http://192.168.1.20:8427/#token=9f3a1c2e7b4d5a6f8091a2b3c4d5"
    static let levels: [QRCode.ErrorCorrection] = [.low, .medium, .quartile, .high]

    func testDecodesAURL() throws {
        XCTAssertEqual(Self.url.count, 60)
        try assertRoundTrip(Self.url)
    }

    func testDecodesOneCharacter() throws { try assertRoundTrip("A") }

    func testDecodesTheEmptyString() throws { try assertRoundTrip("") }

    /// Non-ASCII text carries the UTF-8 ECI header; without it zbar reads "Köln" as Shift JIS.
    func testDecodesNonASCIIText() throws {
        try assertRoundTrip("Köln")
        try assertRoundTrip("Grüße aus Köln — naïve café, Ελληνικά, 日本語 ✓")
    }

    /// Version 7 and up carry the version information blocks and a 6-alignment-pattern grid.
    func testDecodesTextThatNeedsVersionSevenOrMore() throws {
        let text = String(repeating: "quire/notes/", count: 25)
        XCTAssertEqual(text.count, 300)
        let code = try XCTUnwrap(QRCode(text))
        XCTAssertGreaterThanOrEqual(code.version, 7)
        try assertRoundTrip(text)
    }

    func testDecodesEveryErrorCorrectionLevel() throws {
        for level in Self.levels { try assertRoundTrip(Self.url, correction: level) }
    }

    /// Texts that fill a version exactly (the standard's byte-mode capacities), so a wrong block
    /// table or a padding slip at the edge shows; version 10 is where the count grows to 16 bits.
    func testDecodesFullVersions() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789/:?=&")
        let cases: [(Int, QRCode.ErrorCorrection, Int)] = [
            (1, .low, 17), (7, .medium, 122), (10, .quartile, 151), (27, .low, 1465), (40, .high, 1273),
        ]
        for (version, level, capacity) in cases {
            let text = String((0..<capacity).map { alphabet[$0 * 7 % alphabet.count] })
            XCTAssertEqual(try XCTUnwrap(QRCode(text, correction: level)).version, version)
            try assertRoundTrip(text, correction: level)
        }
    }

    /// Byte-mode capacities from ISO 18004's table 7: the largest text a version takes, one more
    /// byte moving to the next version.
    func testVersionsAreChosenByTheStandardsCapacities() throws {
        let capacities: [(QRCode.ErrorCorrection, [Int: Int])] = [
            (.low, [1: 17, 7: 154, 10: 271, 40: 2953]),
            (.medium, [1: 14, 7: 122, 10: 213, 40: 2331]),
            (.quartile, [1: 11, 7: 86, 10: 151, 40: 1663]),
            (.high, [1: 7, 7: 64, 10: 119, 40: 1273]),
        ]
        for (level, table) in capacities {
            for (version, capacity) in table {
                XCTAssertEqual(QRCode(String(repeating: "x", count: capacity), correction: level)?.version, version)
                let next = QRCode(String(repeating: "x", count: capacity + 1), correction: level)
                XCTAssertEqual(next?.version, version == 40 ? nil : version + 1)
            }
        }
    }

    func testAShortTextAtLowIsVersionOne() throws {
        let code = try XCTUnwrap(QRCode("hello", correction: .low))
        XCTAssertEqual(code.size, 21)
        XCTAssertEqual(code.version, 1)
    }

    func testSizesGrowByFourModulesAVersion() throws {
        var last = 0
        for length in stride(from: 0, through: 2300, by: 100) {
            let code = try XCTUnwrap(QRCode(String(repeating: "q", count: length)))
            XCTAssertEqual(code.size, 17 + 4 * code.version)
            XCTAssert((1...40).contains(code.version))
            XCTAssertGreaterThanOrEqual(code.version, last)
            last = code.version
        }
        XCTAssertEqual(last, 40)
    }

    func testTooLongATextHasNoCode() {
        XCTAssertNil(QRCode(String(repeating: "x", count: 3000), correction: .high))
        XCTAssertNil(QRCode(String(repeating: "x", count: 2954), correction: .low))
    }

    /// The lines' shape, and the modules read back from the half blocks equal the code's own,
    /// with the quiet zone drawn light (blocks when inverted, spaces otherwise).
    func testTerminalLinesDrawEveryModule() throws {
        let code = try XCTUnwrap(QRCode(Self.url))
        for border in [0, 1, 2, 4] {
            for invert in [true, false] {
                let lines = code.terminalLines(border: border, invert: invert)
                let side = code.size + 2 * border
                XCTAssertEqual(lines.count, (side + 1) / 2)
                for (row, line) in lines.enumerated() {
                    let characters = Array(line)
                    XCTAssertEqual(characters.count, side)
                    for (column, character) in characters.enumerated() {
                        let halves: (Bool, Bool)? = switch character {
                        case "█": (true, true)
                        case "▀": (true, false)
                        case "▄": (false, true)
                        case " ": (false, false)
                        default: nil
                        }
                        let (top, bottom) = try XCTUnwrap(halves, "unexpected character \(character)")
                        for (y, ink) in [(2 * row, top), (2 * row + 1, bottom)] {
                            let (mx, my) = (column - border, y - border)
                            let expected: Bool
                            if y >= side {
                                expected = false  // below the picture: background
                            } else if (0..<code.size).contains(mx) && (0..<code.size).contains(my) {
                                expected = code[mx, my] != invert
                            } else {
                                expected = invert  // the quiet zone is light
                            }
                            XCTAssertEqual(ink, expected, "border \(border) invert \(invert) at (\(column), \(y))")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(code.terminalLines().count, (code.size + 5) / 2)
    }

    // MARK: - The decoder

    /// Encodes, draws and decodes `text`, failing unless zbarimg reads it back exactly.
    func assertRoundTrip(_ text: String, correction: QRCode.ErrorCorrection = .medium,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let code = try XCTUnwrap(QRCode(text, correction: correction), file: file, line: line)
        guard let zbarimg = Self.zbarimg() else {
            XCTFail("zbarimg is not installed: run scripts/install-deps.sh (it installs Debian's zbar-tools)", file: file, line: line)
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("QRCodeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("code.pgm")
        try Self.pgm(code).write(to: image)

        let process = Process()
        process.executableURL = zbarimg
        // QR codes only: zbar's other decoders can misfire on a QR code's edges, and are slower.
        process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", image.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice  // ImageMagick's D-Bus chatter
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "zbarimg found no code (version \(code.version), \(correction))", file: file, line: line)
        var decoded = String(decoding: data, as: UTF8.self)
        if decoded.hasSuffix("\n") { decoded.removeLast() }
        XCTAssertEqual(decoded, text, "version \(code.version), \(correction)", file: file, line: line)
    }

    /// A binary greyscale PGM, `scale` pixels a module, with a light quiet zone of `quiet` modules.
    static func pgm(_ code: QRCode, scale: Int = 4, quiet: Int = 4) -> Data {
        let side = (code.size + 2 * quiet) * scale
        var data = Data("P5\n\(side) \(side)\n255\n".utf8)
        data.reserveCapacity(data.count + side * side)
        for py in 0..<side {
            for px in 0..<side {
                let (x, y) = (px / scale - quiet, py / scale - quiet)
                let dark = (0..<code.size).contains(x) && (0..<code.size).contains(y) && code[x, y]
                data.append(dark ? 0 : 255)
            }
        }
        return data
    }

    /// zbarimg from the PATH (or /usr/bin, where Debian puts it), nil when it is not installed.
    static func zbarimg() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return folders.lazy
            .map { URL(fileURLWithPath: $0).appendingPathComponent("zbarimg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
