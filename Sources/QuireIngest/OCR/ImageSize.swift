import QuireSystem

/// An image's size as its header states it, read before anything decodes the image: a small
/// file can declare a picture of billions of pixels, which a decoder would allocate.
public struct ImageSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Pages or frames (a TIFF or a GIF holds several; tesseract reads them all).
    public var frames: Int

    public init(width: Int, height: Int, frames: Int = 1) {
        self.width = width
        self.height = height
        self.frames = frames
    }

    /// All frames' pixels (saturating: a header's figures are anything).
    public var pixels: Int {
        let (area, o1) = width.multipliedReportingOverflow(by: height)
        let (all, o2) = area.multipliedReportingOverflow(by: frames)
        return o1 || o2 ? Int.max : all
    }

    /// A PNG's (`IHDR`) or a JPEG's (its first start-of-frame segment) size from the file's first
    /// bytes; nil for another format or when the bytes do not reach it.
    public static func fromHeader(_ bytes: [UInt8]) -> ImageSize? {
        func big(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard bytes.count >= 24, bytes[12..<16].elementsEqual(Array("IHDR".utf8)), let w = big(16, 4), let h = big(20, 4) else { return nil }
            return ImageSize(width: w, height: h)
        }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            guard let length = big(i + 2, 2), length >= 2 else { return nil }
            // Start of frame: baseline, progressive, lossless … (not DHT C4, JPG C8, DAC CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let h = big(i + 5, 2), let w = big(i + 7, 2) else { return nil }
                return ImageSize(width: w, height: h)
            }
            i += 2 + length
        }
        return nil
    }

    /// The size of the image at `path`: from its header for PNG and JPEG, else as ImageMagick's
    /// `identify -ping` (which reads headers only) states it, under limits of its own. A file whose
    /// size cannot be told is a failure: it is not handed to a decoder unchecked.
    public static func of(_ path: String) throws(OCRText.Failure) -> ImageSize {
        if let file = try? ReadOnlyFile(path: path, io: FileIO()), let head = try? file.read(at: 0, count: Int(min(file.stamp.size, 1 << 20))),
           let size = fromHeader(head) {
            return size
        }
        let run = ChildProcess.run(["identify", "-ping", "-format", "%w %h\n", ChildProcess.fileArgument(path)], limits: HelperBudget.header)
        if run.status == -1 {
            throw OCRText.Failure(description: "\(path): its size cannot be checked without ImageMagick (Debian: apt-get install imagemagick); convert it to PNG or JPEG")
        }
        var frames: [ImageSize] = []
        for line in run.text.split(separator: "\n") {
            let parts = line.split(separator: " ").compactMap { Int($0) }
            if parts.count == 2 { frames.append(ImageSize(width: parts[0], height: parts[1])) }
        }
        guard run.status == 0, let first = frames.first else {
            throw OCRText.Failure(description: "\(path): not an image Quire can read (\(PDFExtractor.lastLine(run.errorOutput) ?? "identify failed"))")
        }
        // Frames of different sizes: the largest for all, an upper bound.
        let widest = frames.map(\.pixels).max() ?? first.pixels
        return ImageSize(width: widest, height: 1, frames: frames.count)
    }

    /// `of(path)` checked against ``HelperBudget/maximumPixels`` and to be a single frame: its
    /// pixels, or a failure naming the file and the limit.
    public static func checked(_ path: String) throws(OCRText.Failure) -> Int {
        let size = try of(path)
        // Frames and pages are counted before any work: ImageMagick would decode every one (a
        // 500-frame GIF left 539 MB of its temporary files), and one image is one reading.
        guard size.frames == 1 else {
            throw OCRText.Failure(description: "\(path): the image holds \(size.frames) frames or pages; Quire reads one image at a time: "
                                  + "split it first (for example `convert FILE page-%d.png`) and import the pages; nothing read")
        }
        guard size.pixels <= HelperBudget.maximumPixels else {
            let said = size.frames > 1 ? "\(size.frames) frames of up to \(size.width * size.height) pixels" : "\(size.width) × \(size.height) pixels"
            throw OCRText.Failure(description: "\(path): the image declares \(said), more than the \(HelperBudget.maximumPixels / 1_000_000) million pixels Quire reads; nothing read")
        }
        return size.pixels
    }
}
