import Foundation
import Testing
@testable import QuireIngest
import QuireTestSupport

/// An image's size read from its header, before anything decodes it.
@Suite struct ImageSizeTests {
    static func png(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        return bytes + [8, 0, 0, 0, 0]
    }

    /// A JPEG's start: SOI, an APP0 segment of `app` bytes, then a start-of-frame `marker`.
    static func jpeg(width: Int, height: Int, app: Int = 16, marker: UInt8 = 0xC0) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, UInt8(app >> 8), UInt8(app & 0xFF)] + [UInt8](repeating: 0, count: app - 2)
            + [0xFF, 0xC4, 0, 4, 0, 0]   // a Huffman table first (not a frame)
            + [0xFF, marker, 0, 11, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
    }

    @Test func pngAndJpegHeadersGiveTheirSize() {
        #expect(ImageSize.fromHeader(Self.png(width: 2550, height: 3300)) == ImageSize(width: 2550, height: 3300))
        #expect(ImageSize.fromHeader(Self.jpeg(width: 4032, height: 3024)) == ImageSize(width: 4032, height: 3024))
        // Progressive, after a long EXIF-sized segment.
        #expect(ImageSize.fromHeader(Self.jpeg(width: 640, height: 480, app: 60_000, marker: 0xC2)) == ImageSize(width: 640, height: 480))
    }

    @Test func otherOrTruncatedHeadersGiveNothing() {
        #expect(ImageSize.fromHeader(Array("GIF89a".utf8)) == nil)
        #expect(ImageSize.fromHeader(Array(Self.png(width: 1, height: 1).prefix(20))) == nil)
        #expect(ImageSize.fromHeader(Array(Self.jpeg(width: 1, height: 1).prefix(30))) == nil)
        #expect(ImageSize.fromHeader([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == nil)   // a length below 2
        #expect(ImageSize.fromHeader([]) == nil)
    }

    @Test func pixelsSaturateInsteadOfOverflowing() {
        #expect(ImageSize(width: Int.max, height: 2).pixels == Int.max)
        #expect(ImageSize(width: 100, height: 100, frames: 3).pixels == 30_000)
    }

    @Test func aFileOverTheLimitIsRefusedNamingTheLimit() throws {
        try withTempDir { dir in
            let big = dir.path + "/big.png", fine = dir.path + "/fine.png"
            try Data(Self.png(width: 100_000, height: 100_000)).write(to: URL(fileURLWithPath: big))
            try Data(Self.png(width: 2000, height: 1000)).write(to: URL(fileURLWithPath: fine))
            #expect(try ImageSize.checked(fine) == 2_000_000)
            #expect(throws: OCRText.Failure.self) { try ImageSize.checked(big) }
            do { _ = try ImageSize.checked(big) } catch let error as OCRText.Failure {
                #expect(error.description == "\(big): the image declares 100000 × 100000 pixels, more than the 100 million pixels Quire reads; nothing read")
            }
        }
    }
}
