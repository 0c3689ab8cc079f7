import QuireReview

/// Errors of the application layer, said to the user as they are.
public enum AppError: Error, Sendable, CustomStringConvertible {
    /// The settings file cannot be read.
    case settings(String)
    /// Recording needs a vault made by `quire init`.
    case notInitialized(root: String)
    /// This device's ID cannot be read or made.
    case device(String)
    /// No card has this ID or prefix.
    case noSuchCard(String)
    /// Recording failed; nothing was written.
    case review(ReviewError)
    /// The curation log could not be written.
    case curation(String)
    /// The search index could not be opened or brought up to date.
    case search(String)
    /// No quiz can be made of the cards asked for.
    case quiz(String)
    /// Nothing FSRS schedules to simulate.
    case retention(String)
    /// An import cannot be written; nothing was.
    case importRefused(String)
    /// A temporary folder could not be made.
    case scratch(String)
    /// An export could not be made; nothing was written.
    case exportFailed(String)
    /// The local language model cannot be installed or started.
    case languageModel(String)

    public var description: String {
        switch self {
        case .settings(let message), .device(let message), .curation(let message), .search(let message), .quiz(let message),
             .retention(let message), .importRefused(let message), .scratch(let message),
             .exportFailed(let message), .languageModel(let message): message
        case .notInitialized(let root):
            "\(root) is not a Quire vault (no .quire/ here or above): run 'quire init' first; it also keeps this device's own files out of git"
        case .noSuchCard(let id): "no card '\(id)' in the vault (IDs are listed by 'quire list'; a prefix must be unique)"
        case .review(let error): error.description
        }
    }
}
