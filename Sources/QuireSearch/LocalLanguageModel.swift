import QuireNetwork
import QuireSupport
import QuireSystem

/// A language model served on this machine through the OpenAI-compatible chat API (llama.cpp's
/// server, Ollama), asked to phrase an answer from retrieved chunks only, citing them by number.
/// Its reply is never shown unchecked: ``ExtractiveAnswer/checked(_:chunks:encoder:)`` keeps only
/// the sentences that cite a chunk that supports them.
public struct LocalLanguageModel: Sendable {
    public var chat: ChatModel

    /// The endpoint `url` (a base such as `http://127.0.0.1:8080` gets `/v1/chat/completions`).
    /// A host other than this machine is refused unless `allowRemote`: notes never leave it by default.
    public init(url: String, model: String, allowRemote: Bool) throws(HTTPClient.Failure) {
        chat = try ChatModel(url: url, model: model, allowRemote: allowRemote)
    }

    /// The model behind `chat`.
    public init(chat: ChatModel) { self.chat = chat }

    /// The instructions the model gets.
    static let instructions = """
        Answer the question using only the numbered passages from the user's notes. End every sentence \
        with the number of the passage that supports it in square brackets, like [2]. Do not use \
        knowledge from outside the passages. If the passages do not answer the question, reply \
        exactly: NOT FOUND
        """

    /// The passages and the question, as the user's message.
    static func message(_ question: String, chunks: [(hit: SearchHit, text: String)]) -> String {
        var passages = ""
        for (k, chunk) in chunks.enumerated() {
            passages += "[\(k + 1)] (\(chunk.hit.path), \(chunk.hit.headingPath.joined(separator: " › ")))\n\(chunk.text)\n\n"
        }
        return passages + "Question: " + question
    }

    /// The request's JSON body.
    public func request(_ question: String, chunks: [(hit: SearchHit, text: String)]) -> [UInt8] {
        chat.request(system: Self.instructions, user: Self.message(question, chunks: chunks))
    }

    /// Asks the model; returns its reply's text.
    public func ask(_ question: String, chunks: [(hit: SearchHit, text: String)]) throws(HTTPClient.Failure) -> String {
        try chat.complete(system: Self.instructions, user: Self.message(question, chunks: chunks))
    }
}
