import QuireTerminal
import ArgumentParser

/// A size given on the command line: a number of bytes, or with a suffix `K`, `M`, `G` or `T`
/// (powers of 1,024; `MB`, `MiB` read the same).
struct ByteSize: ExpressibleByArgument {
    /// The bytes.
    var bytes: Int

    init?(argument: String) {
        var text = argument.lowercased()
        for unit in ["ib", "b"] where text.hasSuffix(unit) && text.count > unit.count {
            text.removeLast(unit.count)
            break
        }
        let shifts: [Character: Int] = ["k": 10, "m": 20, "g": 30, "t": 40]
        var shift = 0
        if let last = text.last, let s = shifts[last] {
            shift = s
            text.removeLast()
        }
        guard let n = Int(text), n >= 0, n <= Int.max >> shift else { return nil }
        bytes = n << shift
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
