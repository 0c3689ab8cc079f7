import Foundation
import Testing
import QuireSystem
import QuireTestSupport
@testable import QuireApp

@Suite struct LanguageModelFilesTests {
    /// `quire model install llm` and the tests' install-deps.sh pin the same runtime.
    @Test func theRuntimeIsPinnedInOnePlace() throws {
        let file = TestModel.root + "/scripts/llm-runtime-requirements.txt"
        let pinned = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(pinned.sorted() == LanguageModelFiles.runtime.sorted())
        #expect(LanguageModelFiles.runtime.allSatisfy { $0.contains("==") })
    }

    /// The weights must be a GGUF model before anything is written; a manifest reads back.
    @Test func weightsAreCheckedAndTheManifestReadsBack() throws {
        try withTempDir { temp in
            let dir = temp.path
            let io = FileIO()
            try Data("not a model".utf8).write(to: URL(fileURLWithPath: dir + "/x.gguf"))
            #expect(throws: AppError.self) { try LanguageModelFiles.installWeights(from: dir + "/x.gguf", into: dir + "/llm") }
            #expect(!FileManager.default.fileExists(atPath: dir + "/llm/model.gguf"))
            var fake = [UInt8]("GGUF".utf8) + [3, 0, 0, 0]
            fake += [UInt8](repeating: 7, count: 1 << 20)
            try Data(fake).write(to: URL(fileURLWithPath: dir + "/y.gguf"))
            let bytes = try LanguageModelFiles.installWeights(from: dir + "/y.gguf", into: dir + "/llm")
            #expect(bytes == fake.count)
            #expect(LanguageModelFiles.installed(in: dir + "/llm", io: io) == nil)
            let manifest = LanguageModelFiles.Manifest(name: "m", package: "p==1", bytes: bytes, runtime: "/r", promptTokensPerSecond: 300.5,
                                                       replyTokensPerSecond: 144, startSeconds: 0.6)
            try LanguageModelFiles.record(manifest, in: dir + "/llm")
            #expect(LanguageModelFiles.installed(in: dir + "/llm", io: io) == manifest)
            // Not a runtime: said so, with python's reason.
            #expect(!LanguageModelFiles.isRuntime(dir))
            #expect(LanguageModelFiles.runtimeProblem(dir)?.contains("cannot load llama.cpp's server") == true)
        }
    }
}
