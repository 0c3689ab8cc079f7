import QuireSupport
import QuireSystem

/// What each helper program may spend on an untrusted file, scaled with the file
/// (docs/SECURITY.md, "Helper programs"). Memory is address space, which counts a program's
/// libraries: each figure is the need measured on real files here, with a wide margin (poppler's
/// tools read the real PDFs of the test set in 48 MB, tesseract a 300 dpi slide in 256 MB,
/// ffmpeg and pocketsphinx start in 512 MB).
public enum HelperBudget {
    static let megabyte = 1 << 20

    /// poppler's tools (pdfinfo, pdftohtml, pdftoppm) on a PDF of `fileBytes`: 192 MB and 32
    /// bytes for each byte of the file, at most 2 GB; 120 s; `outputBytes` to their pipes; 256 MB
    /// a file written (a rendered page).
    package static func pdf(fileBytes: Int, outputBytes: Int) -> ChildProcess.Limits {
        ChildProcess.Limits(memoryBytes: min(2048 * megabyte, 192 * megabyte + 32 * max(0, fileBytes)), cpuSeconds: 120, wallSeconds: 120,
                            outputBytes: outputBytes, fileBytes: 256 * megabyte)
    }

    /// The most pixels an image may have (checked from its header, before it is decoded): 100
    /// million, a 10,000 × 10,000 scan.
    public static let maximumPixels = 100_000_000

    /// ImageMagick and tesseract on an image of `pixels`: 1 GB and 16 bytes a pixel, at most 4 GB;
    /// `seconds`; 512 MB a file written.
    package static func image(pixels: Int, seconds: Int, outputBytes: Int) -> ChildProcess.Limits {
        ChildProcess.Limits(memoryBytes: min(4096 * megabyte, 1024 * megabyte + 16 * max(0, pixels)), cpuSeconds: seconds, wallSeconds: seconds,
                            outputBytes: outputBytes, fileBytes: 512 * megabyte)
    }

    /// `identify -ping` reading an image's header: 256 MB, 30 s.
    package static let header = ChildProcess.Limits(memoryBytes: 256 * megabyte, cpuSeconds: 30, wallSeconds: 30, outputBytes: 1 << 16,
                                                   fileBytes: 0)

    /// ffmpeg on a recording of `fileBytes` (decoding, at most twelve hours): 1 GB; ten minutes
    /// and a second for each 100 KB of the file; 1.5 GB a file written (twelve hours of 16 kHz
    /// samples are 1.4 GB).
    package static func decoding(fileBytes: Int, outputBytes: Int) -> ChildProcess.Limits {
        let seconds = 600 + max(0, fileBytes) / 100_000
        return ChildProcess.Limits(memoryBytes: 1024 * megabyte, cpuSeconds: seconds, wallSeconds: seconds, outputBytes: outputBytes,
                                   fileBytes: 1536 * megabyte)
    }

    /// pocketsphinx on a piece of `seconds` of sound: 1 GB; two minutes or four times the sound.
    package static func recognizing(seconds: Double) -> ChildProcess.Limits {
        let time = max(120, Int(seconds * 4))
        return ChildProcess.Limits(memoryBytes: 1024 * megabyte, cpuSeconds: time, wallSeconds: time, outputBytes: 16 * megabyte, fileBytes: 0)
    }

    /// Python running faster-whisper on `seconds` of sound, or a check that imports a module: no
    /// address space limit (CTranslate2 and OpenBLAS reserve virtual memory they never touch),
    /// processor time for every core for as long as the clock allows.
    package static func python(seconds: Int, outputBytes: Int) -> ChildProcess.Limits {
        ChildProcess.Limits(memoryBytes: nil, cpuSeconds: seconds * max(1, System.coreCount), wallSeconds: seconds, outputBytes: outputBytes,
                            fileBytes: 64 * megabyte)
    }

    /// Why `path` is not handed to a helper program: not there, or not a regular file (a FIFO would
    /// hold the program until its clock ran out, a device feed it without end); nil when it may be.
    package static func refusal(_ path: String) -> String? {
        guard let stamp = FileIO().stamp(path) else { return "\(path): no such file" }
        return stamp.isRegularFile ? nil : "\(path): not a regular file (a FIFO, a device or a folder); not read"
    }

    /// The size of the file at `path` in bytes (0 when it cannot be read: the smallest budget).
    static func size(of path: String) -> Int {
        FileIO().stamp(path).map { Int($0.size) } ?? 0
    }

    /// The environment that sends a helper's own temporary files (ImageMagick's pixel caches,
    /// `magick-*`, hundreds of MB for a large image) into `folder`, which the caller removes,
    /// killed helper or not; nothing when there is no folder.
    public static func temporaryFiles(in folder: String?) -> [String: String] {
        folder.map { ["MAGICK_TMPDIR": $0, "TMPDIR": $0] } ?? [:]
    }
}
