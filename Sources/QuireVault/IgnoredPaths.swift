import QuireSystem
import QuireModel
import QuireSupport

/// The paths a vault leaves out (`ignore:` in `.quire/config.yaml`, FORMAT.md §7): notes there are
/// no notes of the vault — not read, indexed, searched or watched — such as a folder of templates
/// whose placeholders are not YAML. Each pattern is a ``Glob`` over vault-relative paths: a folder
/// (`Templates`, `Templates/`) leaves out everything in it, `**/*.excalidraw.md` files anywhere.
public struct IgnoredPaths: Sendable, Equatable {
    /// The patterns as written.
    public let patterns: [String]
    private let globs: [Glob]

    /// Leaves out what `patterns` match.
    public init(_ patterns: [String]) {
        self.patterns = patterns
        globs = patterns.map(Glob.init)
    }

    /// Leaves nothing out.
    public static let none = IgnoredPaths([])

    /// Whether nothing is left out.
    public var isEmpty: Bool { globs.isEmpty }

    /// Whether the file or folder at `relativePath` is left out (a folder: with all it holds).
    public func contains(_ relativePath: String) -> Bool {
        globs.contains { $0.matches(relativePath) }
    }

    /// A digest of the patterns, kept with the index cache so that a changed list reads the vault
    /// again (0 for none).
    public var digest: UInt64 {
        guard !patterns.isEmpty else { return 0 }
        var h = SipHash24(k0: 0x6967_6E6F_7265_6421, k1: 0)
        for p in patterns {
            h.combine(p)
            h.combine(byte: 0)
        }
        return h.finalize() | 1
    }
}
