import Foundation
import Testing
@_spi(Testing) @testable import QuireYAML

/// The fast readers (``SimpleMappingReader``, ``FlowLineBlock``) against libyaml alone: for every
/// file, the same tree with every mark, or the same error at the same place with the same message.
@Suite struct FrontMatterPathTests {
    /// The YAML texts of the fast readers' tests, between fences.
    static let readerSamples: [String] = (SimpleMappingReaderTests.taken + SimpleMappingReaderTests.leftToLibyaml
        + FlowLineBlockTests.taken + FlowLineBlockTests.leftToLibyaml).map { "---\n" + $0 + "---\nbody\n" }

    /// Whole files of the other YAML tests.
    static let files: [String] = [
        uglyFile, FrontMatterEditorTests.crlfFile, FrontMatterEditorTests.bomFile, "---\n---\nbody\n",
        "\u{FEFF}---\r\n# c\r\n...\r\n", "---\nsame: [a,b]\nk: 'x' # c\n---", "---\n{title: x}\n---\n",
        "---  \t\na: 1\n...   \nbody", "---\na: 1\n---", "---\n# nothing yet\n---\n",
    ] + FrontMatterEditorFlowLineTests.files

    @Test(arguments: FrontMatterSamples.refused)
    func refusedAlikeByBothPaths(_ sample: FrontMatterSamples.Refused) {
        #expect(FrontMatter.fastPathDifference(file: sample.file) == nil)
        #expect(FrontMatterSamples.error(sample.file, fastPath: true) == sample.error)
        #expect(FrontMatterSamples.error(sample.file, fastPath: false) == sample.error)
    }

    @Test(arguments: readerSamples + files)
    func sameResultFromBothPaths(_ file: String) {
        #expect(FrontMatter.fastPathDifference(file: Array(file.utf8)) == nil)
    }

    @Test(arguments: FrontMatterSamples.differencesFound)
    func formerDifferencesAreGone(_ yaml: String) {
        #expect(FrontMatter.fastPathDifference(file: Array(("---\n" + yaml + "---\nbody\n").utf8)) == nil)
    }

    /// Every note of SampleVault (CRLF, BOM, quoting and list traps), those it refuses included.
    @Test func sampleVaultAlike() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleVault")
        let files = try #require(FileManager.default.enumerator(atPath: root.path))
        var notes = 0
        while let relative = files.nextObject() as? String {
            guard relative.hasSuffix(".md") else { continue }
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent(relative)))
            #expect(FrontMatter.fastPathDifference(file: bytes) == nil, "\(relative)")
            notes += 1
        }
        #expect(notes >= 20)
    }

    /// Random front matter from pieces the fast readers take and pieces that trip them or libyaml
    /// (errors included): both paths always give the same.
    @Test func generatedFrontMatterAlike() {
        var rng = UInt64(0xD1FF)
        func next(_ n: Int) -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int((rng >> 33) % UInt64(n))
        }
        let keys = ["title", "tags", "quire", "a-b", "9", "ü", "k k", "-", String(repeating: "k", count: 1024 + next(3))]
        let values = [
            "x", "Cells", "2026-11-25", "a: b", "a:b", "[a, b]", "[a,", "\"q\"", "\"open", "'s'", "{a: b}", "*x", "&x v",
            "b: c", "- a", "|", "x #c", "é", "a\u{2028}b", "[[[", "]", "}", "\t", "",
        ]
        let lines = [
            "\n", "# c\n", "# c\u{2028}k: v\n", "# c\rk: v\n", "\u{FEFF}k: v\n", "\u{85}\n", "   \n", " \r \n", "--- x\n",
            "...\n", "- a\n", "? k\n", ": v\n", "{a: b,\n", "[a,\n", "}\n", "]\n", "\tk: v\n", "  x: y\n",
        ]
        var sawError = false, sawBlock = false
        for _ in 0..<1500 {
            var yaml = ""
            for _ in 0..<(1 + next(7)) {
                switch next(10) {
                case 0, 1: yaml += lines[next(lines.count)]
                case 2, 3:
                    yaml += keys[next(keys.count)] + ":" + (next(3) == 0 ? "  " : "") + "\n"
                    for e in 0..<next(4) {
                        let fields = (0..<(1 + next(3))).map { "f\($0): " + ["v", "1.5", "12:30", "a:", "'q'", "[1]"][next(6)] }
                        yaml += "  " + keys[next(keys.count)] + "\(e): {" + fields.joined(separator: ", ") + "}\n"
                    }
                    sawBlock = true
                case 4:
                    yaml += keys[next(keys.count)] + ":\n"
                    for _ in 0..<next(3) { yaml += String(repeating: " ", count: 1 + next(3)) + "- " + values[next(values.count)] + "\n" }
                default: yaml += keys[next(keys.count)] + ": " + values[next(values.count)] + "\n"
                }
            }
            let file = Array(("---\n" + yaml + "---\nbody\n").utf8)
            if FrontMatterSamples.error(file, fastPath: false) != nil { sawError = true }
            #expect(FrontMatter.fastPathDifference(file: file) == nil, "\(yaml.debugDescription)")
        }
        #expect(sawError && sawBlock)
    }

    /// The comparison itself sees a difference in a mark, a style, the key order or an error.
    @Test func comparisonSeesEveryDifference() throws {
        let file = Array("---\ntitle: x\ntags: [a]\n---\n".utf8)
        let root = try #require(try FrontMatter(file: file).root)
        var moved = root
        moved.entries[0].key.end.column += 1
        var restyled = root
        restyled.entries[0].value = .scalar(YAMLScalar(value: "x", style: .doubleQuoted, start: root.entries[0].value.start,
                                                       end: root.entries[0].value.end))
        var reordered = root
        reordered.entries.swapAt(0, 1)
        for changed in [moved, restyled, reordered] {
            #expect(YAMLNode.mapping(root).firstDifference(from: .mapping(changed)) != nil)
        }
        #expect(YAMLNode.mapping(root).firstDifference(from: .mapping(root)) == nil)
    }
}
