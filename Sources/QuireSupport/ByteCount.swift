/// Sizes in bytes as messages say them.
public enum ByteCount {
    /// `512 bytes`, `40 KB`, `256 MB`, `2 GB` (powers of 1,024, rounded down).
    public static func text(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: "\(Plural.counted(bytes, "byte"))"
        case ..<(1 << 20): "\(bytes >> 10) KB"
        case ..<(1 << 30): "\(bytes >> 20) MB"
        default: "\(bytes >> 30) GB"
        }
    }
}
