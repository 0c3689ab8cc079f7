/// The program that turns speech into words. Pocketsphinx (Debian's, with its en-us model) is
/// always there but rough; faster-whisper, where the user has installed it (`pip install
/// faster-whisper`) and named a model folder, is far better.
public enum SpeechEngine: Sendable, Equatable {
    case pocketsphinx
    /// faster-whisper run by `python3` with the CTranslate2 model in `model` (a folder with
    /// `model.bin` and `config.json`).
    case fasterWhisper(model: String)

    /// The engine's name, as the note says it.
    public var name: String {
        switch self {
        case .pocketsphinx: "pocketsphinx"
        case .fasterWhisper: "faster-whisper"
        }
    }

    /// Whether the engine's transcripts are rough (many words wrong), so that the note says so.
    public var isRough: Bool { self == .pocketsphinx }
}
