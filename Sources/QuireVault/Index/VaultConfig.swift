import QuireModel
import QuireScheduling
import QuireYAML

/// Which scheduler decides when cards are due (`fsrs`, `sm2`, `flow`).
public typealias SchedulerKind = SchedulerSettings.Kind

/// Settings from `.quire/config.yaml` (FORMAT.md §7).
public struct VaultConfig: Sendable, Equatable {
    public var scheduler: SchedulerKind = .fsrs
    /// Hour (0–23, local time) when a new study day begins.
    public var dayRollover = 4

    /// Default settings.
    public init() {}

    /// The file `quire init` writes.
    public static let template = """
        # Quire settings. See docs/FORMAT.md in the Quire repository.
        scheduler: fsrs        # fsrs | sm2 | flow
        day_rollover: 4        # hour (local time) when a new study day begins

        """

    /// Reads settings; problems come back as diagnostics for `path`, and the defaults are used for
    /// the settings in question.
    public static func parse(_ bytes: [UInt8], path: String) -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        var config = VaultConfig()
        var diagnostics: [Diagnostic] = []
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(bytes, baseMark: .start)
        } catch {
            return (config, [Diagnostic(.error, path: path, line: error.mark.line, column: error.mark.column,
                                        message: error.message)])
        }
        guard let root else { return (config, []) }
        guard let map = root.mapping else {
            return (config, [Diagnostic(.error, path: path, line: root.start.line, column: root.start.column,
                                        message: "settings must be a mapping")])
        }
        for (key, value) in map.entries {
            func warn(_ message: String) {
                diagnostics.append(Diagnostic(.warning, path: path, line: value.start.line, column: value.start.column,
                                              message: message))
            }
            switch key.value {
            case "scheduler":
                if let s = value.scalar.flatMap({ SchedulerKind(rawValue: $0.value.lowercased()) }) {
                    config.scheduler = s
                } else {
                    warn("'scheduler' must be fsrs, sm2 or flow; using \(config.scheduler.rawValue)")
                }
            case "day_rollover":
                if let h = value.scalar.flatMap({ Int($0.value) }), (0...23).contains(h) {
                    config.dayRollover = h
                } else {
                    warn("'day_rollover' must be an hour from 0 to 23; using \(config.dayRollover)")
                }
            default:
                diagnostics.append(Diagnostic(.warning, path: path, line: key.start.line, column: key.start.column,
                                              message: "unknown setting '\(key.value)'"))
            }
        }
        return (config, diagnostics)
    }
}

extension Vault {
    /// The vault's settings (defaults when there is no config file).
    public func config() -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        let rel = Vault.folderName + "/config.yaml"
        guard let (bytes, _) = try? io.read(fullPath(rel)) else { return (VaultConfig(), []) }
        return VaultConfig.parse(bytes, path: rel)
    }
}
