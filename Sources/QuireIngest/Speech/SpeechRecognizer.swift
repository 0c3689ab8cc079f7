import Foundation
import Synchronization
import QuireModel
import QuireSupport
import QuireSystem

/// Turns a recording (any audio or video file ffmpeg reads) into a ``Transcript``: ffmpeg
/// decodes its sound into 16 kHz mono samples, which are cut at pauses into pieces of about two
/// minutes that pocketsphinx reads side by side, one per core; faster-whisper reads them in one
/// run. The files are untrusted: every program runs from an argument array, never a shell, under
/// a time and an output limit, and ffmpeg reads local files of known audio and video formats only
/// (no playlists, no network).
public enum SpeechRecognizer {
    /// Why a recording could not be transcribed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Samples a second (16-bit, mono) of the decoded sound.
    public static let sampleRate = 16_000
    /// The longest recording read: twelve hours (the rest is left out, and said).
    public static let maximumSeconds = 12 * 3600
    /// The seconds of sound a pocketsphinx run reads.
    static let pieceSeconds = 120.0
    /// The demuxers ffmpeg may use: audio and video files, never a playlist (HLS, concat) that
    /// could name other files or addresses.
    static let formats = "wav,w64,aiff,au,caf,mp3,flac,ogg,aac,amr,mov,matroska,avi,asf,mpeg,mpegts,flv"

    static let noFFmpeg = "ffmpeg is not installed (Debian: apt-get install ffmpeg)"
    static let noPocketsphinx = "pocketsphinx is not installed (Debian: apt-get install pocketsphinx pocketsphinx-en-us)"

    /// The sound of a recording, decoded.
    public struct Audio: Sendable {
        /// Raw 16-bit little-endian mono samples at ``sampleRate``.
        public var path: String
        public var seconds: Double
        /// Whether the recording was longer than ``maximumSeconds`` and was cut there.
        public var cut: Bool
    }

    /// Decodes the sound of `file` into `folder/audio.raw`.
    public static func decode(_ file: String, into folder: String) throws(Failure) -> Audio {
        if let refusal = HelperBudget.refusal(file) { throw Failure(description: refusal) }
        let out = folder + "/audio.raw"
        let run = ChildProcess.run(ffmpeg(input: file) + ["-vn", "-sn", "-dn", "-ac", "1", "-ar", String(sampleRate), "-t", String(maximumSeconds + 1),
                                                          "-c:a", "pcm_s16le", "-f", "s16le", "-y", out],
                                   limits: HelperBudget.decoding(fileBytes: HelperBudget.size(of: file), outputBytes: 1 << 20))
        if run.status == -1 { throw Failure(description: noFFmpeg) }
        guard run.status == 0 else { throw Failure(description: "\(file): no sound could be read from it (\(reason(run)))") }
        guard let size = FileIO().stamp(out)?.size, size > 0 else {
            throw Failure(description: "\(file): it has no sound track")
        }
        let seconds = Double(size / 2) / Double(sampleRate)
        return Audio(path: out, seconds: min(seconds, Double(maximumSeconds)), cut: seconds > Double(maximumSeconds))
    }

    /// Writes the sound of `file` as Opus in Ogg (mono, 32 kbit/s: about 14 MB an hour) to `out`,
    /// to keep a video's sound without its pictures.
    public static func opus(_ file: String, to out: String) throws(Failure) {
        let run = ChildProcess.run(ffmpeg(input: file) + ["-vn", "-sn", "-dn", "-ac", "1", "-t", String(maximumSeconds),
                                                          "-c:a", "libopus", "-b:a", "32k", "-f", "ogg", "-y", out],
                                   limits: HelperBudget.decoding(fileBytes: HelperBudget.size(of: file), outputBytes: 1 << 20))
        if run.status == -1 { throw Failure(description: noFFmpeg) }
        guard run.status == 0 else { throw Failure(description: "\(file): its sound could not be kept (\(reason(run)))") }
    }

    /// ffmpeg's arguments to read `input`, a local file of a known format only.
    static func ffmpeg(input: String) -> [String] {
        ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-protocol_whitelist", "file", "-format_whitelist", formats,
         "-i", "file:" + ChildProcess.fileArgument(input)]
    }

    /// The last line a program wrote to its errors, or its status.
    static func reason(_ run: ChildProcess) -> String { PDFExtractor.lastLine(run.errorOutput) ?? "status \(run.status)" }

    /// Transcribes `audio` with `engine`, working in `folder`; `progress` hears the seconds done.
    public static func transcribe(_ audio: Audio, engine: SpeechEngine, in folder: String,
                                  progress: @escaping @Sendable (Double) -> Void = { _ in }) throws(Failure) -> Transcript {
        switch engine {
        case .pocketsphinx: try pocketsphinx(audio, in: folder, progress: progress)
        case .fasterWhisper(let model): try fasterWhisper(audio, model: model)
        }
    }

    // MARK: pocketsphinx

    static func pocketsphinx(_ audio: Audio, in folder: String, progress: @escaping @Sendable (Double) -> Void) throws(Failure) -> Transcript {
        let file: ReadOnlyFile
        do { file = try ReadOnlyFile(path: audio.path, io: FileIO()) } catch { throw Failure(description: "\(audio.path): \(error)") }
        let frames: [Float]
        do { frames = try levels(file, seconds: audio.seconds) } catch { throw Failure(description: "\(audio.path): \(error)") }
        let bounds = [0] + cuts(levels: frames, frameSeconds: frameSeconds, every: pieceSeconds) + [audio.seconds]
        let pieces = Array(zip(bounds, bounds.dropFirst())).filter { $0.1 > $0.0 }
        let results = ResultSlots<Result<Transcript, Failure>>(count: pieces.count)
        let done = Mutex(0.0)
        inParallelChunks(of: pieces.count, chunk: 1, concurrency: nil) { range in
            for k in range {
                let (start, end) = pieces[k]
                let path = folder + "/piece-\(k).raw"
                do {
                    let first = Int64(start * Double(sampleRate)) * 2, last = Int64(end * Double(sampleRate)) * 2
                    try FileIO().createNew(path, with: try file.read(at: first, count: Int(last - first)))
                } catch {
                    results[k] = .failure(Failure(description: "\(folder): \(error)"))
                    return false
                }
                let run = ChildProcess.run(["pocketsphinx_continuous", "-infile", path, "-time", "yes", "-logfn", "/dev/null"],
                                           limits: HelperBudget.recognizing(seconds: end - start))
                _ = FileIO().removeFile(path)
                if run.status == -1 {
                    results[k] = .failure(Failure(description: noPocketsphinx))
                    return false
                }
                guard run.status == 0 else {
                    results[k] = .failure(Failure(description: "pocketsphinx could not read the sound at \(TimeAnchor.clock(Int(start))) (\(reason(run)))"))
                    return false
                }
                results[k] = .success(Transcript(pocketsphinx: run.output, offset: start, duration: end - start))
                let seconds = done.withLock { $0 += end - start; return $0 }
                progress(seconds)
            }
            return true
        }
        var words: [Transcript.Word] = []
        for k in pieces.indices {
            switch results.take(k) {
            case .success(let piece)?: words += piece.words
            case .failure(let error)?: throw error
            case nil: break
            }
        }
        return Transcript(words: words, duration: audio.seconds)
    }

    /// The length of a frame of ``levels(_:seconds:)``: 10 ms.
    static let frameSeconds = 0.01

    /// The loudness of each 10 ms frame of the samples in `file`, in dB below full scale (at most
    /// 0, at least -100), read a megabyte at a time.
    static func levels(_ file: ReadOnlyFile, seconds: Double) throws(FileIOError) -> [Float] {
        let frameBytes = Int(Double(sampleRate) * frameSeconds) * 2
        let total = Int64(seconds * Double(sampleRate)) * 2
        var out: [Float] = []
        out.reserveCapacity(Int(total) / frameBytes + 1)
        var offset: Int64 = 0
        while offset < total {
            let block = try file.read(at: offset, count: Int(min(Int64(frameBytes * 100), total - offset)))
            if block.isEmpty { break }
            var k = 0
            while k + 1 < block.count {
                let end = min(block.count, k + frameBytes)
                var sum = 0.0
                var j = k
                while j + 1 < end {
                    let sample = Double(Int16(bitPattern: UInt16(block[j]) | UInt16(block[j + 1]) << 8))
                    sum += sample * sample
                    j += 2
                }
                let rms = (sum / Double(max(1, (end - k) / 2))).squareRoot() / 32768
                out.append(Float(max(-100, 20 * log10(max(rms, 1e-5)))))
                k = end
            }
            offset += Int64(block.count)
        }
        return out
    }

    /// Where to cut a recording into pieces of about `every` seconds: at the middle of the longest
    /// pause within 20 s of each target (a pause: 100 ms or more of frames near the recording's
    /// quiet floor, its 10th percentile: within half the way to its median, 3 to 10 dB), else at
    /// the quietest 200 ms there, so that no word is cut. Seconds, ascending; none for a recording shorter than one and a half pieces.
    public static func cuts(levels: [Float], frameSeconds: Double, every: Double) -> [Double] {
        let perPiece = Int(every / frameSeconds), slack = Int(20 / frameSeconds)
        guard levels.count > perPiece * 3 / 2, perPiece > slack else { return [] }
        let sorted = levels.sorted()
        let floor = sorted[sorted.count / 10], median = sorted[sorted.count / 2]
        let quiet = floor + max(3, min(10, (median - floor) / 2))
        var cuts: [Double] = []
        var last = 0
        while levels.count - last > perPiece * 3 / 2 {
            let target = last + perPiece
            let window = max(last + 1, target - slack)..<min(levels.count, target + slack)
            // The longest run of quiet frames in the window.
            var best: (start: Int, length: Int)?
            var run: Int?
            for k in window.lowerBound...window.upperBound {
                if k < window.upperBound, levels[k] <= quiet {
                    if run == nil { run = k }
                } else if let start = run {
                    if k - start > (best?.length ?? 0) { best = (start, k - start) }
                    run = nil
                }
            }
            var cut: Int
            // A pause of 100 ms or more; one filling half the window says nothing (all of it is
            // near the floor: a silent or evenly noisy stretch), so the quietest moment decides.
            if let best, best.length >= 10, best.length < window.count / 2 {
                cut = best.start + best.length / 2
            } else {
                // The quietest 200 ms (20 frames) of the window.
                cut = target
                var lowest = Float.infinity
                var sum: Float = 0
                for k in window {
                    sum += levels[k]
                    if k - window.lowerBound >= 20 { sum -= levels[k - 20] }
                    if k - window.lowerBound >= 19, sum < lowest { lowest = sum; cut = k - 10 }
                }
            }
            cuts.append(Double(cut) * frameSeconds)
            last = cut
        }
        return cuts
    }

    // MARK: faster-whisper

    /// The Python program that runs faster-whisper on the samples and prints a line a word. It
    /// drops the current folder from Python's path first (with `-P`), so that no file where Quire
    /// runs (a vault) is imported in faster-whisper's place.
    static let whisperRunner = """
        import sys
        sys.path[:] = [p for p in sys.path if p not in ("", ".")]
        import numpy
        from faster_whisper import WhisperModel
        model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8", cpu_threads=int(sys.argv[3]))
        samples = numpy.fromfile(sys.argv[2], dtype="<i2").astype(numpy.float32) / 32768.0
        segments, info = model.transcribe(samples, word_timestamps=True, condition_on_previous_text=False, vad_filter=True)
        for segment in segments:
            for w in segment.words or []:
                text = " ".join(w.word.split())
                sys.stdout.write("%.3f\\t%.3f\\t%.3f\\t%s\\n" % (w.start, w.end, w.probability, text))
            sys.stdout.flush()
        """

    static let noFasterWhisper = "faster-whisper is not installed for python3 (pip install faster-whisper)"

    /// Whether `python3` can import faster-whisper.
    public static func hasFasterWhisper() -> Bool {
        ChildProcess.run(["python3", "-P", "-c", "import faster_whisper"], limits: HelperBudget.python(seconds: 60, outputBytes: 1 << 16)).status == 0
    }

    static func fasterWhisper(_ audio: Audio, model: String) throws(Failure) -> Transcript {
        let io = FileIO()
        guard io.stamp(model + "/model.bin") != nil, io.stamp(model + "/config.json") != nil else {
            throw Failure(description: "\(model): not a faster-whisper model folder (it needs model.bin and config.json)")
        }
        let run = ChildProcess.run(["python3", "-P", "-c", whisperRunner, model, audio.path, String(System.coreCount)],
                                   limits: HelperBudget.python(seconds: max(600, Int(audio.seconds * 4)), outputBytes: 64 << 20))
        if run.status == -1 { throw Failure(description: "python3 is not installed (Debian: apt-get install python3)") }
        guard run.status == 0 else {
            let errors = String(decoding: run.errorOutput.suffix(8192), as: UTF8.self)
            if errors.contains("No module named 'faster_whisper'") || errors.contains("No module named 'numpy'") {
                throw Failure(description: noFasterWhisper)
            }
            throw Failure(description: "faster-whisper failed (\(reason(run)))")
        }
        return Transcript(whisper: run.output, duration: audio.seconds)
    }
}
