import QuireGeneration
import QuireNetwork
import QuireSystem

/// The language model one command uses: the endpoint the user named (`--llm URL`,
/// `$QUIRE_LLM_URL`), else the installed model served on this machine for the command's length,
/// else none (the rules and quotes alone). Holding it keeps the server running; ``close()`` (or
/// releasing it) stops a server it started.
public final class LanguageModelSession: @unchecked Sendable {
    /// The chat endpoint to ask.
    public let chat: ChatModel
    /// The server started for this command, when the installed model is used.
    public let server: LanguageModelServer?

    init(chat: ChatModel, server: LanguageModelServer?) {
        self.chat = chat
        self.server = server
    }

    /// How cards are asked of it: the installed model is small (a sentence at a time), a server
    /// the user names is taken to be able to read a whole note.
    public var cardStyle: ModelCards.Style { server == nil ? .note : .sentence }

    /// Stops the server this session started, if any.
    public func close() { server?.stop() }

    /// Where the model comes from.
    public enum Choice: Sendable, Equatable {
        /// An endpoint: refused unless on this machine or `allowRemote`.
        case endpoint(url: String, model: String, allowRemote: Bool)
        /// The installed model when there is one, else none.
        case installed
        /// None (`--no-llm`).
        case none
    }

    /// The session for `choice`, each reply bounded by `timeoutSeconds`: nil for none, or when no
    /// model is installed. A refused endpoint, or an installed model whose server does not start,
    /// throws (the caller says so, and may go on without).
    public static func open(_ choice: Choice, timeoutSeconds: Int, environment: [String: String]) throws(AppError) -> LanguageModelSession? {
        switch choice {
        case .none:
            return nil
        case .endpoint(let url, let model, let allowRemote):
            do {
                return LanguageModelSession(chat: try ChatModel(url: url, model: model, allowRemote: allowRemote, timeoutSeconds: timeoutSeconds),
                                            server: nil)
            } catch { throw .languageModel(error.description) }
        case .installed:
            guard let folder = LanguageModelFiles.folder(environment: environment),
                  LanguageModelFiles.installed(in: folder) != nil else { return nil }
            let server = try LanguageModelServer.start(folder: folder)
            do {
                return LanguageModelSession(chat: try ChatModel(url: server.url, model: server.model, allowRemote: false, timeoutSeconds: timeoutSeconds),
                                            server: server)
            } catch {
                server.stop()
                throw .languageModel(error.description)
            }
        }
    }
}
