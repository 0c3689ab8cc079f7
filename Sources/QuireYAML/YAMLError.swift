/// Everything that can go wrong while parsing or editing YAML front matter; every case has a location.
///
/// `description` reads `line:column: message`; the caller prefixes the file path.
public enum YAMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libyaml rejected the text; `message` is libyaml's problem plus its context, if any.
    case syntax(message: String, at: YAMLMark)
    /// An alias `*name` refers to an anchor that was never defined before it.
    case undefinedAlias(name: String, at: YAMLMark)
    /// A mapping key is a sequence or a mapping, which Quire does not support.
    case nonScalarKey(at: YAMLMark)
    /// Collections are nested deeper than ``YAMLParser/maximumDepth``.
    case nestingTooDeep(at: YAMLMark)
    /// The text holds more than one YAML document.
    case multipleDocuments(at: YAMLMark)
    /// A file starts with a `---` line but no closing `---` or `...` line follows.
    case unclosedFrontMatter(at: YAMLMark)
    /// The front matter is a scalar or a sequence instead of a mapping.
    case rootNotMapping(found: String, at: YAMLMark)
    /// The same key appears twice in one mapping; `at` is the second, `firstAt` the first.
    case duplicateKey(key: String, at: YAMLMark, firstAt: YAMLMark)
    /// An edit would remove or replace the anchor `&anchor` that an alias elsewhere still uses.
    case anchorInUse(anchor: String, at: YAMLMark, aliasAt: YAMLMark)
    /// An entry was to be edited under a key whose value is not a mapping.
    case notAMapping(key: String, at: YAMLMark)
    /// A list edit was asked of a key whose value is neither a list nor a comma-separated string.
    case notAList(key: String, at: YAMLMark)
    /// The edit cannot be made without losing or damaging the user's text.
    case unsupportedEdit(reason: String, at: YAMLMark)
    /// The edited file did not re-parse to the expected values, so the edit was abandoned.
    case verificationFailed(reason: String, at: YAMLMark)

    /// Where the problem is.
    public var mark: YAMLMark {
        switch self {
        case .syntax(_, let at), .undefinedAlias(_, let at), .nonScalarKey(let at),
             .nestingTooDeep(let at), .multipleDocuments(let at), .unclosedFrontMatter(let at),
             .rootNotMapping(_, let at), .duplicateKey(_, let at, _), .anchorInUse(_, let at, _),
             .notAMapping(_, let at), .notAList(_, let at), .unsupportedEdit(_, let at),
             .verificationFailed(_, let at):
            return at
        }
    }

    /// The message without its location.
    public var message: String {
        switch self {
        case .syntax(let message, _):
            return message
        case .undefinedAlias(let name, _):
            return "undefined alias '*\(name)'"
        case .nonScalarKey:
            return "only scalar mapping keys are supported"
        case .nestingTooDeep:
            return "collections are nested more than \(YAMLParser.maximumDepth) levels deep"
        case .multipleDocuments:
            return "front matter must be a single YAML document"
        case .unclosedFrontMatter:
            return "front matter opened here is never closed (expected a '---' or '...' line)"
        case .rootNotMapping(let found, _):
            return "front matter must be a mapping, found a \(found)"
        case .duplicateKey(let key, _, let first):
            return "duplicate key '\(key)' (first defined at \(first))"
        case .anchorInUse(let anchor, _, let aliasAt):
            return "cannot change a value carrying anchor '&\(anchor)': alias at \(aliasAt) uses it"
        case .notAMapping(let key, _):
            return "the value of '\(key)' is not a mapping"
        case .notAList(let key, _):
            return "the value of '\(key)' is not a list or a comma-separated string"
        case .unsupportedEdit(let reason, _):
            return reason
        case .verificationFailed(let reason, _):
            return "edit abandoned: \(reason)"
        }
    }

    /// `line:column: message`.
    public var description: String { "\(mark): \(message)" }
}
