import QuireTerminal
import QuireApp
import ArgumentParser
import QuireInterchange

extension Quire {
    /// `quire import audio FILE [--title T] [--deck D] [--to FOLDER] [--engine E] [--whisper-model DIR]`.
    struct ImportAudio: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audio",
            abstract: "Make a note of a recording's transcript, with time anchors search and ask cite; the recording kept in assets/.",
            discussion: """
                ffmpeg (Debian: ffmpeg) reads the sound; pocketsphinx (Debian: pocketsphinx pocketsphinx-en-us) \
                writes a rough English transcript, faster-whisper (pip install faster-whisper, with --whisper-model \
                or QUIRE_WHISPER_MODEL naming a model folder) a far better one. The note starts with live notes \
                (the most telling sentence of each few minutes), then the transcript in sections of about 100 \
                words, each headed by its time range and opened by <!-- time m:ss --> (FORMAT.md §8). The file \
                is copied into assets/ and linked. Nothing is written when the file cannot be read.

                Example: quire import audio lecture.mp3 --deck Biology
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var speech: SpeechOptions
        @Option(help: ArgumentHelp("The note's title (default: the file's name).", valueName: "TITLE")) var title: String?
        @Argument(help: "The recording (MP3, M4A, OGG, Opus, FLAC, WAV…).") var file: String

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            try speech.note(of: file, keeping: .original, title: title).writeShowingProgress(to: vault, now: options.now)
        }
    }
}
