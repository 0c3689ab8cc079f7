import QuireSupport

/// A language model served on this machine through the OpenAI-compatible chat API (llama.cpp's
/// server, Ollama): a system message and a user message in, the reply's text out. Notes never
/// leave the machine by default: a host other than this one is refused unless allowed.
public struct ChatModel: Sendable {
    public var endpoint: HTTPClient.Endpoint
    public var model: String
    /// Seconds a reply may take.
    public var timeoutSeconds: Int
    /// The most tokens a reply may have (a small model can repeat itself without end).
    public var maxTokens = 700

    /// The endpoint `url` (a base such as `http://127.0.0.1:8080` gets `/v1/chat/completions`).
    public init(url: String, model: String, allowRemote: Bool, timeoutSeconds: Int = 300) throws(HTTPClient.Failure) {
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
        self.timeoutSeconds = timeoutSeconds
    }

    /// The request's JSON body: the two messages, temperature 0 (the same notes, the same reply).
    public func request(system: String, user: String) -> [UInt8] {
        request(messages: [("system", system), ("user", user)])
    }

    /// The request's JSON body for a conversation (`system`, `user` and `assistant` turns: worked
    /// examples for a small model), temperature 0.
    public func request(messages: [(role: String, content: String)]) -> [UInt8] {
        let body = JSONValue.object([
            ("model", .string(model)),
            ("temperature", .int(0)),
            ("max_tokens", .int(maxTokens)),
            ("messages", .array(messages.map { .object([("role", .string($0.role)), ("content", .string($0.content))]) })),
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

    /// The token counts a chat-completion reply gives (`usage`), when it gives them.
    public static func usage(ofReply bytes: [UInt8]) -> (prompt: Int, reply: Int)? {
        guard let reply = try? JSONValue(parsing: bytes), case .object(let fields) = reply,
              case .object(let usage)? = fields.first(where: { $0.0 == "usage" })?.1,
              case .int(let prompt)? = usage.first(where: { $0.0 == "prompt_tokens" })?.1,
              case .int(let completion)? = usage.first(where: { $0.0 == "completion_tokens" })?.1
        else { return nil }
        return (prompt, completion)
    }

    /// Asks the model; returns its reply's text and the tokens it read and wrote (when the server
    /// says).
    public func exchange(system: String, user: String) throws(HTTPClient.Failure) -> (text: String, tokens: (prompt: Int, reply: Int)?) {
        try exchange(messages: [("system", system), ("user", user)])
    }

    /// Asks the model in a conversation; returns its reply's text and the tokens it read and wrote.
    public func exchange(messages: [(role: String, content: String)]) throws(HTTPClient.Failure) -> (text: String, tokens: (prompt: Int, reply: Int)?) {
        let (status, body) = try HTTPClient.post(endpoint, body: request(messages: messages), timeoutSeconds: timeoutSeconds)
        guard status == 200 else {
            throw HTTPClient.Failure(description: "the language model answered HTTP \(status): "
                                     + String(String(decoding: body.prefix(200), as: UTF8.self).unicodeScalars.filter { $0.value >= 0x20 }))
        }
        return (try Self.content(ofReply: body), Self.usage(ofReply: body))
    }

    /// Asks the model; returns its reply's text. An HTTP status other than 200, a reply that is not
    /// a chat completion, or one later than ``timeoutSeconds`` is a failure.
    public func complete(system: String, user: String) throws(HTTPClient.Failure) -> String {
        try exchange(system: system, user: user).text
    }
}
