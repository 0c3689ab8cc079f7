import Testing
@testable import QuireYAML

/// The fast reader of one-line flow-mapping blocks must give exactly what libyaml gives — values,
/// styles and every mark — or step aside.
@Suite struct FlowLineBlockTests {
    private func both(_ yaml: String) throws -> (fast: [String], slow: [String], usedFastPath: Bool) {
        let bytes = Array(("---\n" + yaml + "---\nbody\n").utf8)
        let range = 4..<(4 + yaml.utf8.count)
        let base = YAMLMark(offset: 4, line: 2, column: 1)
        var fast: [String] = [], slow: [String] = []
        dump(try FrontMatter.parseRoot(bytes[range], base: base, fastPath: true).map(YAMLNode.mapping), &fast)
        dump(try FrontMatter.parseRoot(bytes[range], base: base, fastPath: false).map(YAMLNode.mapping), &slow)
        return (fast, slow, !FlowLineBlock.find(in: bytes[range], base: base).isEmpty)
    }

    static let taken = [
        "quire:\n  7k2m9xq4v1ab: {fp: 3c9e0f51aa72d418, state: review, due: 2026-11-25T09:00:00Z, stability: 12.4021, reps: 4, lapses: 0}\n",
        "title: Cells\nquire:\n  a: {state: new}\n  b-c_d: {fp: 00ff, due: 2026-11-25, x: -1.5e+3}\ntags: [a, b]\n",
        "quire:\n    a: {k: v}\n    b: {k: v, l: 2}\n# a comment\n\n   # indented comment\ncycle: weekly\n",
        "quire:   \r\n  a: {k: v, z: 1}\r\n  b: {k: w}   \r\ntitle: x\r\n",
        "quire:\n  a: {k: true, n: null, t: 12:30}\nother:\n  b: {k: v}\n",
        "quire:\n  a: {k: v}\n\n\n",
        "quire:\n  a: {k: -v, l: -1.5}\n",
        "quire:\n  a: {k: v}\n\n  b: {k: v}\n\n",
        "quire:\n  a: {k: v}\n      \n \n  b: {k: v}\n\ntitle: x\n",
        "quire:\r\n  a: {k: v}\r\n  \r\n  b: {k: v}\r\n\r\n",
    ]

    static let leftToLibyaml = [
        "quire:\n  a: {k: 'quoted'}\n",
        "quire:\n  a: {k: v}  # comment\n",
        "quire:   # comment\n  a: {k: v}\n",
        "quire:\n  a: {k: v}\n    b: {k: v}\n",
        "quire:\n  a: {k: v}\n\n    b: {k: v}\n",
        "quire:\n  a: {k: v}\n\t\n  b: {k: v}\n",
        "quire:\n  a: {k: v}\n \r \n  b: {k: v}\n",
        "quire:\n  a: {k: v}\n\n  # c\n  b: {k: v}\n",
        "quire:\n  a: {k: [1, 2]}\n",
        "quire:\n  a: {k:  v}\n",
        "quire:\n  a: {k: v,l: w}\n",
        "quire:\n  a: {k: -}\n",
        "quire:\n  a: {k: ...}\n",
        "quire:\n  a: {k: v:}\n",
        "quire:\n  a: {}\n",
        "quire:\n\ta: {k: v}\n",
        "quire:\n  a: &x {k: v}\n  b: *x\n",
        "quire:\n  a:\n    k: v\n",
        "quire:\n  \"a\": {k: v}\n",
        "quire:\n  a: {k: v}\n  - b\n",
    ]

    @Test(arguments: taken)
    func fastPathGivesLibyamlsTree(_ yaml: String) throws {
        let r = try both(yaml)
        #expect(r.usedFastPath)
        #expect(r.fast == r.slow)
    }

    @Test(arguments: leftToLibyaml)
    func unusualShapesAreLeftToLibyaml(_ yaml: String) throws {
        let bytes = Array(yaml.utf8)
        #expect(FlowLineBlock.find(in: bytes[...], base: .start).isEmpty)
        // Whatever libyaml makes of them (or the error it gives), the result is the same.
        let fast = Result { try FrontMatter.parseRoot(bytes[...], base: .start, fastPath: true) }
        let slow = Result { try FrontMatter.parseRoot(bytes[...], base: .start, fastPath: false) }
        switch (fast, slow) {
        case (.success(let a), .success(let b)):
            var da: [String] = [], db: [String] = []
            dump(a.map(YAMLNode.mapping), &da)
            dump(b.map(YAMLNode.mapping), &db)
            #expect(da == db)
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)")
        default:
            Issue.record("the paths disagree on \(yaml.debugDescription)")
        }
    }

    @Test func generatedSchedulingBlocksMatchLibyaml() throws {
        var rng = UInt64(0x5eed)
        func next(_ n: Int) -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int((rng >> 33) % UInt64(n))
        }
        let values = ["review", "2026-11-25T09:00:00Z", "12.4021", "0", "-3", "1e5", "true", "null", "a.b", "x+y", "T", "3c9e0f51aa72d418"]
        for _ in 0..<200 {
            var yaml = next(2) == 0 ? "title: t\n" : ""
            yaml += "quire:\n"
            let indent = String(repeating: " ", count: 1 + next(4))
            for e in 0..<(1 + next(5)) {
                let fields = (0..<(1 + next(6))).map { "f\($0): \(values[next(values.count)])" }
                yaml += indent + "id\(e)x: {" + fields.joined(separator: ", ") + "}" + (next(4) == 0 ? "  " : "") + "\n"
                yaml += ["", "\n", "\n\n", "   \n"][next(4)]
            }
            if next(2) == 0 { yaml += (next(2) == 0 ? "# note\n" : "\n") + "tags: [a]\n" }
            let r = try both(yaml)
            #expect(r.usedFastPath)
            #expect(r.fast == r.slow, "\(yaml.debugDescription)")
        }
    }
}
