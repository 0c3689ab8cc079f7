import QuireSupport
import QuireSystem

/// A language model served on this machine through the OpenAI-compatible chat API (llama.cpp's
/// server, Ollama), asked to phrase an answer from retrieved chunks only, citing them by number.
/// Its reply is never shown unchecked: ``ExtractiveAnswer/checked(_:chunks:encoder:)`` keeps only
/// the sentences that cite a chunk that supports them.
public struct LocalLanguageModel: Sendable {
    public var endpoint: HTTPClient.Endpoint
    public var model: String

    /// The endpoint `url` (a base such as `http://127.0.0.1:8080` gets `/v1/chat/completions`).
    /// A host other than this machine is refused unless `allowRemote`: notes never leave it by default.
    public init(url: String, model: String, allowRemote: Bool) throws(HTTPClient.Failure) {
        var endpoint = try HTTPClient.Endpoint(url)
        guard endpoint.isLoopback || allowRemote else {
            throw HTTPClient.Failure(description: "\(url) is not on this machine: your notes would leave it (pass --allow-remote to send them there)")
        }
        if !endpoint.path.hasSuffix("/chat/completions") {
            var base = endpoint.path
            while base.hasSuffix("/") { base.removeLast() }
            endpoint.path = base.hasSuffix("/v1") ? base + "/chat/completions" : base + "/v1/chat/completions"
        }
        self.endpoint = endpoint
        self.model = model
    }

    /// The instructions the model gets.
    static let instructions = """
        Answer the question using only the numbered passages from the user's notes. End every sentence \
        with the number of the passage that supports it in square brackets, like [2]. Do not use \
        knowledge from outside the passages. If the passages do not answer the question, reply \
        exactly: NOT FOUND
        """

    /// The request's JSON body.
    public func request(_ question: String, chunks: [(hit: SearchHit, text: String)]) -> [UInt8] {
        var passages = ""
        for (k, chunk) in chunks.enumerated() {
            passages += "[\(k + 1)] (\(chunk.hit.path), \(chunk.hit.headingPath.joined(separator: " › ")))\n\(chunk.text)\n\n"
        }
        let body = JSONValue.object([
            ("model", .string(model)),
            ("temperature", .int(0)),
            ("messages", .array([
                .object([("role", .string("system")), ("content", .string(Self.instructions))]),
                .object([("role", .string("user")), ("content", .string(passages + "Question: " + question))]),
            ])),
        ])
        return Array(body.serialized().utf8)
    }

    /// The text of a chat-completion reply (`choices[0].message.content`).
    public static func content(ofReply bytes: [UInt8]) throws(HTTPClient.Failure) -> String {
        guard let reply = try? JSONValue(parsing: bytes), case .object(let fields) = reply,
              case .array(let choices)? = fields.first(where: { $0.0 == "choices" })?.1,
              case .object(let choice)? = choices.first,
              case .object(let message)? = choice.first(where: { $0.0 == "message" })?.1,
              case .string(let content)? = message.first(where: { $0.0 == "content" })?.1
        else { throw HTTPClient.Failure(description: "the language model's reply is not a chat completion") }
        return content
    }

    /// Asks the model; returns its reply's text.
    public func ask(_ question: String, chunks: [(hit: SearchHit, text: String)]) throws(HTTPClient.Failure) -> String {
        let (status, body) = try HTTPClient.post(endpoint, body: request(question, chunks: chunks))
        guard status == 200 else {
            throw HTTPClient.Failure(description: "the language model answered HTTP \(status): "
                                     + String(decoding: body.prefix(200), as: UTF8.self))
        }
        return try Self.content(ofReply: body)
    }
}
