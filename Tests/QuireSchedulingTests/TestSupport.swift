import QuireModel

extension Timestamp {
    /// This time moved by whole days (test shorthand).
    func adding(days: Int) -> Timestamp {
        Timestamp(milliseconds: milliseconds + Int64(days) * 86_400_000)
    }
}
