import QuireModel

/// Why an import or an export could not be done.
public enum InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is not what it should be: where, and what.
    case invalid(Diagnostic)
    /// A file could not be written: nothing of the import or export was left behind.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let d): d.description
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason); nothing was written"
        }
    }
}
