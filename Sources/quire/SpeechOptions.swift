import QuireIngest
import QuireApp
import ArgumentParser
import Foundation
import QuireInterchange

/// The options of the commands that transcribe speech (`import audio|video`, `record`): which
/// engine and whisper's model, where the note goes, and whether cards are proposed from it.
struct SpeechOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The speech engine: pocketsphinx (Debian's; a rough transcript) or whisper (faster-whisper; "
                               + "far better, needs a model). Default: whisper when a model is given or installed "
                               + "(quire model install whisper), else pocketsphinx.",
                               valueName: "ENGINE"))
    var engine: String?
    @Option(help: ArgumentHelp("A faster-whisper model folder (model.bin, config.json). Default: $QUIRE_WHISPER_MODEL, else the one "
                               + "`quire model install whisper` installed.", valueName: "DIR"))
    var whisperModel: String?
    @Option(help: ArgumentHelp("The deck (A::B or A/B): its folder holds the note.", valueName: "DECK"), completion: .custom(QueryCompletion.decks)) var deck: String?
    @Option(help: ArgumentHelp("The folder of the vault to write the note in.", valueName: "FOLDER")) var to: String?
    @Flag(help: "Also propose cards from the transcript, written under ## Cards (as quire generate --write).") var generate = false

    func validate() throws {
        if let engine, !["pocketsphinx", "whisper", "faster-whisper"].contains(engine) {
            throw ValidationError("--engine is pocketsphinx or whisper")
        }
    }

    /// The engine chosen: the model comes from the command line or the user's environment, never
    /// from the vault (a shared vault must not choose what runs).
    var resolved: SpeechEngine {
        get throws {
            let environment = ProcessInfo.processInfo.environment
            let installed = WhisperModel.folder(environment: environment).flatMap { WhisperModel.isInstalled(in: $0) ? $0 : nil }
            // QUIRE_WHISPER_MODEL set empty: none (the installed one not either).
            let named = environment["QUIRE_WHISPER_MODEL"].map { $0.isEmpty ? nil : $0 } ?? installed
            let model = whisperModel ?? named
            switch engine {
            case "pocketsphinx"?: return .pocketsphinx
            case nil: return model.map { .fasterWhisper(model: $0) } ?? .pocketsphinx
            default:
                guard let model else {
                    throw CLIError("--engine whisper needs a faster-whisper model folder: quire model install whisper, --whisper-model DIR "
                                   + "or QUIRE_WHISPER_MODEL")
                }
                return .fasterWhisper(model: model)
            }
        }
    }
}

extension SpeechOptions {
    /// The note `file` makes with these options (its title `title`, else the file's name).
    func note(of file: String, keeping: RecordingNote.Keeping, title: String?) throws -> RecordingNote {
        RecordingNote(file: file, keeping: keeping, title: title, folder: ImportedFiles.folder(to: to, deck: deck),
                      engine: try resolved, generate: generate)
    }
}
