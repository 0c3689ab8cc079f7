import QuireApp
import QuireReview

/// Errors of the web front end, said to the page (or, before it serves, to the terminal) as they are.
public enum ServerError: Error, Sendable, CustomStringConvertible {
    /// The vault or its settings cannot be studied.
    case app(AppError)
    /// Recording failed; nothing was written.
    case review(ReviewError)
    /// The vault cannot be watched.
    case watch(String)
    /// A request the page never sends.
    case badRequest(String)
    /// The page's session is unknown (the server restarted, or it was let go).
    case noSession
    /// The page shows another card than its session's (a second click, or another tab answered it).
    case staleCard
    /// The server could not start.
    case start(String)

    public var description: String {
        switch self {
        case .app(let error): error.description
        case .review(let error): error.description
        case .watch(let message): "cannot watch the vault: \(message)"
        case .badRequest(let message): message
        case .noSession: "this page's session has ended; start again from today's plan"
        case .staleCard: "that card was already answered (here or in another tab)"
        case .start(let message): message
        }
    }
}
