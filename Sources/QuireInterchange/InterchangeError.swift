import QuireModel
import QuireSupport

/// Why an import or an export could not be done.
public enum InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is not what it should be: where, and what.
    case invalid(Diagnostic)
    /// A file could not be written: nothing of the import or export was left behind.
    case cannotWrite(path: String, reason: String)
    /// The import would write more than its budget of bytes (``StagedFiles/write(_:to:budget:progress:)``):
    /// refused before anything reached the vault.
    case overBudget(limit: Int)

    public var description: String {
        switch self {
        case .invalid(let d): d.description
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason); nothing was written"
        case .overBudget(let limit): "the import would write more than \(ByteCount.text(limit)); refused, nothing was written"
        }
    }
}
