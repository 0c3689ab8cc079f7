import QuireSupport
import QuireVault
import QuireModel
import Synchronization
import QuireTerminal
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
        RecordingNote(file: file, keeping: keeping, title: title, destination: ImportedFiles.Destination(to: to, deck: deck),
                      engine: try resolved, generate: generate)
    }
}

extension RecordingNote {
    /// Makes the note as the terminal shows it: the warnings, a line saying what is transcribed
    /// and a bar, then what was written (and, with pocketsphinx, how to get a better transcript).
    func writeShowingProgress(to vault: Vault, now: Timestamp) throws {
        var progress = Progress()
        progress.warning = { Output.error("quire: warning: " + $0) }
        let bar = Mutex<ProgressBar?>(nil)
        let engine = engine
        progress.transcribing = { seconds in
            let minutes = max(1, Int(seconds / 60))
            Output.error("Transcribing \(TimeAnchor.clock(Int(seconds.rounded()))) of sound with \(engine.name)"
                         + (engine.isRough ? "" : " (this can take \(minutes == 1 ? "a minute" : "minutes"))") + "…")
            bar.withLock { $0 = ProgressBar("Transcribing", total: max(1, Int(seconds)), minimum: 60); $0?.update(0) }
        }
        progress.transcribed = { done in bar.withLock { $0?.update(Int(done)) } }
        var writing = ProgressBar("Writing", total: 2)
        progress.writing = { writing.update($0) }
        let written: Written
        do { written = try write(to: vault, now: now, progress: progress) } catch { throw CLIError(error.description) }
        Output.line("wrote \(written.path) (\(TimeAnchor.clock(Int(written.seconds.rounded()))), \(Plural.counted(written.words, "word")), "
                    + "\(Plural.counted(written.sections, "section")), \(Plural.counted(written.liveNotes, "live note"))"
                    + (generate ? ", \(Plural.counted(written.generatedCards, "card")) generated" : "") + "; the sound kept as \(written.asset))")
        if engine.isRough, written.words > 0 {
            Output.line("  the transcript is rough (pocketsphinx); `quire model install whisper` (with pip install faster-whisper) "
                        + "makes faster-whisper the engine, which writes a far better one")
        }
    }
}
