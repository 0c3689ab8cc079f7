import Foundation
import QuireNetwork
import QuireSupport
import QuireSystem

/// The installed language model served on this machine for as long as one command needs it:
/// llama.cpp's OpenAI-compatible server started on a free port of 127.0.0.1, waited for (its
/// model list answers) within a timeout, used by every question of the command, and stopped with
/// its process group when the command ends (``stop()``, or when this is released). The server is
/// started through a few lines of Python that ask the kernel to end it when Quire ends, however
/// Quire ends, so that a killed Quire leaves no model running.
public final class LanguageModelServer: @unchecked Sendable {
    /// Its base URL (`http://127.0.0.1:PORT/v1`).
    public let url: String
    /// The model's name as the server knows it.
    public let model = "local"
    /// Seconds it took to answer after being started.
    public let startSeconds: Double
    private let process: BackgroundProcess

    private init(url: String, startSeconds: Double, process: BackgroundProcess) {
        self.url = url
        self.startSeconds = startSeconds
        self.process = process
    }

    deinit { process.stop(graceSeconds: 2) }

    /// Stops the server (and anything it started); waits for it.
    public func stop() { process.stop(graceSeconds: 2) }

    /// The launcher: the kernel sends the server SIGTERM when its parent (Quire) ends, and it ends
    /// at once if Quire ended before that was asked; then llama.cpp's server runs as `python -m`.
    static let launcher = """
        import ctypes, os, runpy, signal, sys
        parent = int(sys.argv[1])
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)
        if os.getppid() != parent: sys.exit(1)
        sys.argv = ["llama_cpp.server"] + sys.argv[2:]
        runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
        """

    /// How many threads the model computes on: the cores there are, at most 8.
    static var threads: Int { max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Starts the model installed in `folder` and waits until it answers, at most `timeoutSeconds`.
    /// Its output goes to `folder/server.log` (overwritten each start). Throws with the log's last
    /// lines when it ends or does not answer in time.
    public static func start(folder: String, timeoutSeconds: Double = 60, contextTokens: Int = 4096,
                             io: FileIO = FileIO()) throws(AppError) -> LanguageModelServer {
        guard let manifest = LanguageModelFiles.installed(in: folder, io: io) else {
            throw .languageModel("no language model is installed (`quire model install llm` installs one)")
        }
        guard LanguageModelFiles.isRuntime(manifest.runtime, io: io) else {
            throw .languageModel("\(manifest.runtime): llama-cpp-python's server is not there; run `quire model install llm` again")
        }
        guard let port = NetworkAddresses.freeLoopbackPort() else { throw .languageModel("no free port on 127.0.0.1 for the model's server") }
        let log = folder + "/server.log"
        _ = io.removeFile(log)
        let started = Date()
        let process: BackgroundProcess
        do {
            process = try BackgroundProcess.start(
                ["python3", "-c", launcher, String(getpid()), "--model", folder + "/" + LanguageModelFiles.weights,
                 "--host", "127.0.0.1", "--port", String(port), "--n_threads", String(threads), "--n_ctx", String(contextTokens)],
                environment: ["PYTHONPATH": manifest.runtime, "PYTHONNOUSERSITE": "1"], logPath: log)
        } catch { throw .languageModel("cannot start the language model's server: \(error.description)") }
        let url = "http://127.0.0.1:\(port)/v1"
        let models: HTTPClient.Endpoint
        do { models = try HTTPClient.Endpoint(url + "/models") } catch { throw .languageModel(error.description) }
        while Date().timeIntervalSince(started) < timeoutSeconds {
            if let status = process.exitStatus {
                throw .languageModel("the language model's server ended (status \(status)) before answering: \(lastLines(of: log, io: io))")
            }
            if let (status, _) = try? HTTPClient.get(models, timeoutSeconds: 5), status == 200 {
                return LanguageModelServer(url: url, startSeconds: Date().timeIntervalSince(started), process: process)
            }
            usleep(100_000)
        }
        process.stop()
        throw .languageModel("the language model's server did not answer within \(Int(timeoutSeconds)) s: \(lastLines(of: log, io: io))")
    }

    /// How fast the model reads a prompt and writes a reply here, in tokens a second: a passage of
    /// about 300 tokens read for a one-token reply, then a short question answered at length.
    public func measureSpeed() throws(AppError) -> (prompt: Double, reply: Double) {
        let chat: ChatModel
        do { chat = try ChatModel(url: url, model: model, allowRemote: false, timeoutSeconds: 120) } catch { throw .languageModel(error.description) }
        let passage = String(repeating: "The mitochondrion is the organelle that produces most of the cell's supply of ATP. ", count: 18)
        var reading = chat
        reading.maxTokens = 1
        var writing = chat
        writing.maxTokens = 64
        do {
            var started = Date()
            let read = try reading.exchange(system: "Reply with one word.", user: passage)
            let readSeconds = Date().timeIntervalSince(started)
            started = Date()
            let written = try writing.exchange(system: "You are a helpful tutor.", user: "Explain in a paragraph what a cell is.")
            let writeSeconds = Date().timeIntervalSince(started)
            guard let r = read.tokens, let w = written.tokens, readSeconds > 0, writeSeconds > 0 else {
                throw AppError.languageModel("the model's server does not say how many tokens it used")
            }
            let promptRate = Double(r.prompt) / readSeconds
            let replySeconds = max(0.001, writeSeconds - Double(w.prompt) / promptRate)
            return (promptRate, Double(w.reply) / replySeconds)
        } catch let error as AppError {
            throw error
        } catch { throw .languageModel("the model did not answer: \(error)") }
    }

    /// The end of the server's log, on one line, printable.
    static func lastLines(of log: String, io: FileIO) -> String {
        guard let bytes = try? io.read(log).bytes else { return "(no log)" }
        let lines = String(decoding: bytes.suffix(4096), as: UTF8.self).split(separator: "\n").suffix(3)
        return String(lines.joined(separator: " / ").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    }
}
