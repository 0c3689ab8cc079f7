import ArgumentParser
import QuireInterchange

extension Quire {
    /// `quire import video FILE [--title T] [--deck D] [--to FOLDER] [--engine E] [--whisper-model DIR]`.
    struct ImportVideo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "video",
            abstract: "Make a note of a video's spoken transcript, with time anchors; its sound kept in assets/ as Opus.",
            discussion: """
                As `quire import audio`, from the video's sound track (ffmpeg reads MP4, MKV, WebM, AVI, MOV…). \
                The sound alone is kept, as Opus in Ogg (about 14 MB an hour), not the pictures.
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var speech: SpeechOptions
        @Option(help: ArgumentHelp("The note's title (default: the file's name).", valueName: "TITLE")) var title: String?
        @Option(help: ArgumentHelp("The deck (A::B or A/B): its folder holds the note.", valueName: "DECK")) var deck: String?
        @Option(help: ArgumentHelp("The folder of the vault to write the note in.", valueName: "FOLDER")) var to: String?
        @Flag(help: "Also propose cards from the transcript, written under ## Cards (as quire generate --write).") var generate = false
        @Argument(help: "The video file.") var file: String

        func run() throws {
            let vault = try options.open()
            try ImportCommand.requireQuireSyntax(vault)
            try RecordingNote(file: file, keeping: .opus, title: title, folder: ImportCommand.folder(to: to, deck: deck),
                              engine: speech.resolved, generate: generate).write(to: vault, now: options.now)
        }
    }
}
