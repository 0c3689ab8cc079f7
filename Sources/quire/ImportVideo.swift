import QuireTerminal
import QuireApp
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

                Example: quire import video talk.mp4
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var speech: SpeechOptions
        @Option(help: ArgumentHelp("The note's title (default: the file's name).", valueName: "TITLE")) var title: String?
        @Argument(help: "The video file.") var file: String

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            try speech.note(of: file, keeping: .opus, title: title).writeShowingProgress(to: vault, now: options.now)
        }
    }
}
