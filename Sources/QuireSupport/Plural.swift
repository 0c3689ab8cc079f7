/// A count with its noun, as every message says it.
public enum Plural {
    /// `1 card`, `2 cards`, `0 cards`: the singular for one, else `plural` (by default the singular
    /// and an s).
    public static func counted(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }
}
