// swift-tools-version: 6.1
import PackageDescription

// `QUIRE_CMARK_PUBLIC_API=1 swift build …` compiles the cmark-gfm shim's public-API path even where
// its fast path would be chosen (Sources/CCmarkGFMShim/CCmarkGFMShim.c), so CI tests both. The
// switch is read here rather than passed as `-Xcc -DQUIRE_CMARK_PUBLIC_API` because it then
// reaches the shim's C compile only (not every C compile and module import) and `swift test
// --skip-build` needs no matching flags; SwiftPM re-evaluates the manifest when the variable
// changes and compiles the shim again (the Makefile switches one build folder between the two).
let cmarkPublicAPI = !["", "0"].contains(Context.environment["QUIRE_CMARK_PUBLIC_API"] ?? "")

let package = Package(
    name: "Quire",
    platforms: [.macOS(.v15)],
    products: [
        .library(
            name: "QuireKit",
            // Every library module: a Swift program may import any of them (the model's Card and
            // Note, the parser, the scheduler, the writers, the application layer).
            targets: ["QuireSupport", "QuireModel", "QuireYAML", "QuireMarkdown", "QuireScheduling", "QuireSystem", "QuireVault", "QuireArchive",
                      "QuireParsing", "QuireIndex", "QuireReview", "QuireWatch", "QuireStudy", "QuireSync", "QuireCuration",
                      "QuireReport", "QuireEmbedding", "QuireGeneration", "QuireQuiz", "QuireSearch", "QuireInterchange",
                      "QuireApp", "QuireServer", "QuireNetwork", "QuireIngest", "QuireTerminal"]
        ),
        .executable(name: "quire", targets: ["quire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // The web review page's HTTP server (quire serve); its default traits would add
        // swift-configuration, which Quire does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The language-model client's HTTP (QuireNetwork); Hummingbird runs on it too.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // MARK: - System C libraries (Debian packages)
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // The QR code `quire serve` prints for a phone (QuireServer's QRCode).
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // What QuireMarkdown needs from cmark-gfm beyond its public API: node readers, the parse's
        // allocator, paragraphs left unparsed; a fast path for the one version it was written
        // against, cmark's public API for any other.
        .target(
            name: "CCmarkGFMShim",
            dependencies: ["CCmarkGFM"],
            cSettings: cmarkPublicAPI ? [.define("QUIRE_CMARK_PUBLIC_API")] : []
        ),
        // The sentence encoder's 8-bit matrix products (AVX-512 VNNI), wrapped by QuireEmbedding's
        // Int8Linear; optimised in debug builds too, as QuireEmbedding is.
        .target(name: "CEncoderKernels", cSettings: [.unsafeFlags(["-O2"])]),
        // The C library's allocator settings (glibc's mallopt); part of libc, nothing to install.
        .systemLibrary(name: "CMalloc"),
        // System calls glibc's headers declare only with _GNU_SOURCE (renameat2), through syscall(2).
        .systemLibrary(name: "CLinux"),

        // MARK: - Library modules
        // Lowest first; each depends only on modules above it in this list (docs/ARCHITECTURE.md,
        // scripts/module-graph.py, which `make test` runs, checks that the imports agree).
        .target(name: "QuireSupport"),
        .target(name: "QuireModel", dependencies: ["QuireSupport"]),
        .target(name: "QuireScheduling", dependencies: ["QuireModel", "QuireSupport"]),
        .target(name: "QuireYAML", dependencies: ["QuireSupport", "CLibYAML"]),
        .target(name: "QuireMarkdown", dependencies: ["QuireSupport", "CCmarkGFM", "CCmarkGFMShim"]),
        .target(name: "QuireSystem", dependencies: ["QuireSupport", "CMalloc", "CLinux"]),
        // The vault as files: its folder and paths, write lock, import journal and scanner.
        .target(name: "QuireVault", dependencies: ["QuireSupport", "QuireModel", "QuireSystem"]),
        .target(name: "QuireParsing", dependencies: ["QuireSupport", "QuireModel", "QuireYAML", "QuireMarkdown"]),
        .target(
            name: "QuireIndex",
            dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireScheduling", "QuireYAML", "QuireSystem", "QuireParsing"]
        ),
        .target(
            name: "QuireReview",
            dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireScheduling", "QuireYAML", "QuireSystem", "QuireParsing", "QuireIndex"]
        ),
        .target(name: "QuireWatch", dependencies: ["QuireSupport", "QuireVault", "QuireModel", "QuireSystem", "QuireParsing", "QuireIndex"]),
        .target(
            name: "QuireSync",
            dependencies: ["QuireVault", "QuireModel", "QuireScheduling", "QuireYAML", "QuireSystem", "QuireParsing", "QuireIndex", "QuireReview"]
        ),
        .target(
            name: "QuireStudy",
            dependencies: ["QuireSupport", "QuireModel", "QuireScheduling", "QuireParsing", "QuireIndex", "QuireReview"]
        ),
        .target(
            name: "QuireCuration",
            dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireYAML", "QuireSystem", "QuireReview"]
        ),
        .target(name: "QuireReport", dependencies: ["QuireSupport", "QuireModel", "QuireScheduling", "QuireStudy", "QuireCuration"]),
        // Sentence embeddings (all-MiniLM-L6-v2: WordPiece, the BERT encoder through OpenBLAS).
        // Optimised in debug builds too: its loops run a neural network, 50 times slower unoptimised.
        .target(
            name: "QuireEmbedding",
            dependencies: ["QuireSupport", "QuireSystem", "QuireArchive", "CEncoderKernels"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Search: notes cut into chunks (by heading and size, cards apart) for the full-text index.
        // Network clients: a local language model's chat API over SwiftNIO's HTTP/1.1.
        .target(name: "QuireNetwork", dependencies: ["QuireSupport", .product(name: "NIOCore", package: "swift-nio"),
                                                     .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio")]),
        .target(name: "QuireGeneration", dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireMarkdown", "QuireYAML", "QuireSystem", "QuireParsing", "QuireNetwork"]),
        // Quizzes: questions, distractors and the grading of typed answers and explanations.
        .target(name: "QuireQuiz", dependencies: ["QuireSupport", "QuireModel"]),
        .target(name: "QuireSearch", dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireMarkdown", "QuireYAML", "QuireArchive", "QuireIndex", "QuireSystem", "QuireEmbedding", "QuireNetwork"]),
        // The application layer the front ends share (the terminal's commands; a web page next):
        // a vault loaded for an action, what studying needs.
        .target(name: "QuireApp", dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireScheduling", "QuireMarkdown", "QuireSystem", "QuireIndex", "QuireReview", "QuireStudy",
                                                 "QuireCuration", "QuireQuiz", "QuireSearch", "QuireEmbedding", "QuireGeneration", "QuireInterchange", "QuireIngest", "QuireParsing", "QuireSync", "QuireWatch", "QuireYAML",
                                                 "QuireArchive", "QuireNetwork"]),
        // The web review page (quire serve): an HTTP front end over QuireApp, on Hummingbird.
        .target(
            name: "QuireServer",
            dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireScheduling", "QuireMarkdown", "QuireSystem", "QuireIndex",
                           "QuireReview", "QuireWatch", "QuireStudy", "QuireCuration", "QuireSearch", "QuireGeneration", "QuireApp", "QuireReport", "CQREncode",
                           .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        // Packages from other programs: zip archives, zstd, SQLite databases (C libraries wrapped).
        .target(
            name: "QuireArchive",
            dependencies: ["QuireSupport", "CSQLite", "CZstd", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .target(
            name: "QuireInterchange",
            dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireYAML", "QuireMarkdown", "QuireParsing", "QuireScheduling", "QuireIndex", "QuireReview", "QuireSystem", "QuireArchive"]
        ),
        // Ingest: PDFs (poppler, tesseract), photos (tesseract) and recordings (ffmpeg,
        // pocketsphinx, faster-whisper) read into notes' Markdown.
        .target(name: "QuireIngest", dependencies: ["QuireSupport", "QuireModel", "QuireSystem", "QuireArchive", "QuireParsing", "QuireInterchange"]),

        // The terminal front end: its screens and line-by-line loops, keys, output and tables,
        // over QuireApp (the executable's commands draw through it).
        .target(name: "QuireTerminal", dependencies: ["QuireSupport", "QuireModel", "QuireScheduling", "QuireMarkdown", "QuireSystem", "QuireVault",
                                                      "QuireIndex", "QuireReview", "QuireStudy", "QuireQuiz", "QuireCuration", "QuireApp",
                                                      "QuireParsing", "QuireGeneration", "QuireWatch", "QuireSearch", "QuireEmbedding"]),

        // MARK: - Executables
        .executableTarget(
            name: "quire",
            dependencies: [
                "QuireSupport", "QuireModel", "QuireScheduling", "QuireMarkdown", "QuireSystem", "QuireParsing",
                "QuireIndex", "QuireReview", "QuireWatch", "QuireStudy", "QuireSync", "QuireCuration", "QuireReport", "QuireInterchange",
                "QuireSearch", "QuireEmbedding", "QuireGeneration", "QuireQuiz", "QuireApp", "QuireServer", "QuireNetwork", "QuireVault", "QuireIngest", "QuireTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "QuireBench",
            dependencies: [
                "QuireVault", "QuireModel", "QuireScheduling", "QuireYAML", "QuireMarkdown", "QuireSystem", "QuireParsing",
                "QuireIndex", "QuireReview", "QuireSearch", "QuireEmbedding", "QuireSupport",
            ],
            path: "Benchmarks/QuireBench"
        ),

        // The parsers' fuzz targets (scripts/fuzz.sh builds them with libFuzzer); built plainly, a
        // replayer of the seed corpus.
        .executableTarget(
            name: "QuireFuzz",
            dependencies: [
                "QuireVault", "QuireSupport", "QuireModel", "QuireMarkdown", "QuireSystem", "QuireParsing", "QuireIndex",
                "QuireReview", "QuireInterchange", "QuireArchive", "QuireIngest", "QuireEmbedding", "QuireGeneration",
            ],
            path: "Fuzz/QuireFuzz"
        ),

        // MARK: - Tests
        .testTarget(name: "QuireSupportTests", dependencies: ["QuireSupport"]),
        .testTarget(name: "QuireModelTests", dependencies: ["QuireModel"]),
        .testTarget(name: "QuireSchedulingTests", dependencies: ["QuireScheduling", "QuireTestSupport"], exclude: ["Oracle", "Fixtures"]),
        .testTarget(name: "QuireYAMLTests", dependencies: ["QuireYAML"]),
        .testTarget(name: "QuireMarkdownTests", dependencies: ["QuireMarkdown"], exclude: ["Golden"]),
        // Helpers the library's test targets share (temporary folders, a note parsed in one call, a
        // vault set up for grading): a plain target, as test targets cannot import one another.
        .target(
            name: "QuireTestSupport",
            dependencies: ["QuireVault", "QuireSupport", "QuireModel", "QuireScheduling", "QuireSystem", "QuireParsing", "QuireReview", "QuireEmbedding"],
            path: "Tests/QuireTestSupport"
        ),
        .testTarget(name: "QuireSystemTests", dependencies: ["QuireVault", "QuireSystem", "QuireTestSupport"]),
        .testTarget(name: "QuireVaultTests", dependencies: ["QuireVault", "QuireSystem", "QuireTestSupport"]),
        .testTarget(name: "QuireNetworkTests", dependencies: ["QuireNetwork"]),
        .testTarget(name: "QuireTerminalTests", dependencies: ["QuireTerminal"]),
        .testTarget(
            name: "QuireParsingTests",
            dependencies: ["QuireParsing", "QuireTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "QuireIndexTests", dependencies: ["QuireVault", "QuireIndex", "QuireTestSupport"]),
        .testTarget(name: "QuireReviewTests", dependencies: ["QuireVault", "QuireReview", "QuireTestSupport"]),
        .testTarget(name: "QuireWatchTests", dependencies: ["QuireVault", "QuireWatch", "QuireIndex", "QuireTestSupport"]),
        .testTarget(name: "QuireStudyTests", dependencies: ["QuireStudy", "QuireIndex", "QuireWatch", "QuireTestSupport"]),
        .testTarget(name: "QuireSyncTests", dependencies: ["QuireVault", "QuireSync", "QuireTestSupport"]),
        .testTarget(name: "QuireCurationTests", dependencies: ["QuireCuration", "QuireTestSupport"]),
        .testTarget(name: "QuireEmbeddingTests", dependencies: ["QuireEmbedding", "QuireSystem", "QuireTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "QuireQuizTests", dependencies: ["QuireQuiz", "QuireModel", "QuireEmbedding", "QuireTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "QuireServerTests", dependencies: ["QuireVault", "QuireServer", "QuireModel", "QuireParsing", "QuireReview", "QuireIndex", "QuireScheduling", "QuireSupport", "QuireSystem", "QuireWatch", "QuireTestSupport"]),
        .testTarget(name: "QuireAppTests", dependencies: ["QuireVault", "QuireApp", "QuireModel", "QuireIndex", "QuireStudy", "QuireSystem", "QuireTestSupport",
                                                     "QuireReview", "QuireScheduling", "QuireCuration", "QuireGeneration", "QuireInterchange", "QuireSupport"]),
        .testTarget(name: "QuireGenerationTests", dependencies: ["QuireGeneration", "QuireParsing", "QuireModel", "QuireTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "QuireSearchTests", dependencies: ["QuireSearch", "QuireParsing", "QuireModel", "QuireArchive", "QuireEmbedding", "QuireTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "QuireReportTests", dependencies: ["QuireVault", "QuireReport", "QuireStudy", "QuireCuration", "QuireReview", "QuireScheduling", "QuireModel"]),
        .testTarget(name: "QuireArchiveTests", dependencies: ["QuireArchive", "QuireTestSupport"]),
        .testTarget(name: "QuireInterchangeTests", dependencies: ["QuireVault", "QuireInterchange", "QuireModel", "QuireParsing", "QuireIndex", "QuireReview", "QuireSystem", "QuireTestSupport"], exclude: ["Tools"]),
        .testTarget(name: "QuireIngestTests", dependencies: ["QuireIngest", "QuireModel", "QuireParsing", "QuireSystem", "QuireTestSupport"],
                    exclude: ["Tools"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["QuireVault", "quire", "QuireTestSupport"],
            exclude: ["Tools", "Fixtures"],
            resources: [.copy("Golden")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
