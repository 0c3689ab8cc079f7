/// Where the models Quire runs are kept for a user, outside any vault:
/// `$XDG_DATA_HOME/quire/models/NAME`, else `~/.local/share/quire/models/NAME`.
package enum ModelFolder {
    /// The folder of model `name` for `environment` (nil with neither XDG_DATA_HOME nor HOME set to
    /// an absolute path).
    package static func path(of name: String, environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/quire/models/" + name }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/share/quire/models/" + name
    }
}
