import QuireTerminal
import QuireIngest
import QuireApp
import ArgumentParser
import Foundation
import QuireInterchange
import QuireModel
import QuireSystem

extension Quire {
    /// `quire record [--title T] [--seconds N] [--device D] [--deck D] [--to FOLDER]`.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Record from the microphone until Ctrl-C, then make a note of the transcript, as `quire import audio` does.",
            discussion: """
                ffmpeg (Debian: ffmpeg) records the default input (PulseAudio or PipeWire when running, else \
                ALSA's default device), or --device pulse:NAME or alsa:NAME, as Opus (about 14 MB an hour). \
                Ctrl-C or --seconds stops it; the recording is kept in assets/ and transcribed. When the \
                transcript cannot be made, the recording is still kept in assets/. Where the machine has no \
                input device, it says so.

                Example: quire record --deck Biology
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var speech: SpeechOptions
        @Option(help: ArgumentHelp("The note's title (default: Recording and the date and time).", valueName: "TITLE")) var title: String?
        @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "N")) var seconds: Int?
        @Option(help: ArgumentHelp("The input: pulse:NAME or alsa:NAME (default: pulse:default when PulseAudio or PipeWire runs, "
                                   + "else alsa:default).", valueName: "DEVICE")) var device: String?

        func validate() throws {
            if let seconds, seconds < 1 || seconds > SpeechRecognizer.maximumSeconds {
                throw ValidationError("--seconds is from 1 to \(SpeechRecognizer.maximumSeconds)")
            }
            if let device, Self.input(device) == nil { throw ValidationError("--device is pulse:NAME or alsa:NAME") }
        }

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            // The engine checked before anything is recorded.
            _ = try speech.resolved
            let now = options.now
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH-mm"
            let stamp = formatter.string(from: Date(timeIntervalSince1970: now.secondsSinceEpoch))
            let scratch = try ScratchFolder("quire-record")
            defer { scratch.remove() }
            let file = scratch.path + "/Recording \(stamp).ogg"
            try Self.record(into: file, from: device ?? Self.defaultDevice, seconds: seconds, io: vault.io)
            let note = try speech.note(of: file, keeping: .original,
                                       title: title ?? "Recording " + stamp.prefix(10) + " " + stamp.suffix(5).replacing("-", with: ":"))
            do {
                try note.writeShowingProgress(to: vault, now: now)
            } catch {
                // The recording is never lost: kept in assets/ without a note.
                let asset = ImportedFiles.assetPath(for: "Recording \(stamp).ogg", in: vault)
                let bytes = (try? FileIO().read(file).bytes) ?? []
                if !bytes.isEmpty, (try? ImportCommand.write([StagedFiles.File(asset, .file) { bytes }], to: vault)) != nil {
                    Output.error("quire: the recording is kept as \(asset); `quire import audio \(asset)` makes its note once the problem below is solved")
                }
                throw error
            }
        }

        /// Records from `device` (pulse:NAME or alsa:NAME) into `file` with ffmpeg until Ctrl-C or
        /// `seconds`; a device that gives nothing is an error saying what to do.
        static func record(into file: String, from device: String, seconds: Int?, io: FileIO) throws {
            guard let (format, name) = Self.input(device) else { throw CLIError("--device is pulse:NAME or alsa:NAME") }
            Output.error("Recording from \(format) \(name)" + (seconds.map { " for \($0) s" } ?? "") + "; Ctrl-C stops it.")
            let status = ChildProcess.runPassingInterrupts(
                ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-stats", "-f", format, "-i", name]
                + (seconds.map { ["-t", String($0)] } ?? ["-t", String(SpeechRecognizer.maximumSeconds)])
                + ["-ac", "1", "-c:a", "libopus", "-b:a", "32k", "-f", "ogg", "-y", file])
            if status == -1 { throw CLIError("ffmpeg is not installed (Debian: apt-get install ffmpeg)") }
            let size = io.stamp(file)?.size ?? 0
            // ffmpeg ends with 255 when interrupted, the recording written.
            guard (status == 0 || status == 255 || status == 130), size > 200 else {
                let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
                let none = format == "alsa" && (cards.isEmpty || cards.contains("no soundcards"))
                throw CLIError(none ? "no input device: this machine has no sound card to record from (and no PulseAudio or PipeWire); "
                                      + "connect a microphone, or record elsewhere and use `quire import audio FILE`"
                                    : "the input \(format):\(name) could not be recorded from (see ffmpeg's message above); "
                                      + "name another with --device")
            }
        }

        /// The default input: PulseAudio's (or PipeWire's) when its server runs, else ALSA's.
        static var defaultDevice: String {
            let environment = ProcessInfo.processInfo.environment
            if let server = environment["PULSE_SERVER"], !server.isEmpty { return "pulse:default" }
            if let runtime = environment["XDG_RUNTIME_DIR"], FileIO().stamp(runtime + "/pulse/native") != nil { return "pulse:default" }
            return "alsa:default"
        }

        /// ffmpeg's input format and device name for `pulse:NAME` or `alsa:NAME`.
        static func input(_ device: String) -> (String, String)? {
            guard let colon = device.firstIndex(of: ":") else { return nil }
            let format = String(device[..<colon]), name = String(device[device.index(after: colon)...])
            guard ["pulse", "alsa"].contains(format), !name.isEmpty, !name.hasPrefix("-") else { return nil }
            return (format, name)
        }
    }
}
