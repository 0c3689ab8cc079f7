// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Quire",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QuireVault", targets: ["QuireVault"]),
        .executable(name: "quire", targets: ["quire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // MARK: - System C libraries (Debian packages)
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The C library's allocator settings (glibc's mallopt); part of libc, nothing to install.
        .systemLibrary(name: "CMalloc"),
        // System calls glibc's headers declare only with _GNU_SOURCE (renameat2), through syscall(2).
        .systemLibrary(name: "CSystem"),

        // MARK: - Library modules
        .target(name: "QuireModel"),
        .target(name: "QuireScheduling", dependencies: ["QuireModel"]),
        .target(name: "QuireYAML", dependencies: ["CLibYAML"]),
        .target(name: "QuireMarkdown", dependencies: ["CCmarkGFM"]),
        .target(
            name: "QuireVault",
            dependencies: ["QuireModel", "QuireScheduling", "QuireYAML", "QuireMarkdown", "CMalloc", "CSystem"]
        ),

        // MARK: - Executables
        .executableTarget(
            name: "quire",
            dependencies: [
                "QuireVault",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "QuireBench",
            dependencies: ["QuireVault"],
            path: "Benchmarks/QuireBench"
        ),

        // The parsers' fuzz targets (scripts/fuzz.sh builds them with libFuzzer); built plainly, a
        // replayer of the seed corpus.
        .executableTarget(
            name: "QuireFuzz",
            dependencies: ["QuireVault", "QuireYAML", "QuireMarkdown", "QuireModel"],
            path: "Fuzz/QuireFuzz"
        ),

        // MARK: - Tests
        .testTarget(name: "QuireModelTests", dependencies: ["QuireModel"]),
        .testTarget(name: "QuireSchedulingTests", dependencies: ["QuireScheduling"], exclude: ["Oracle"]),
        .testTarget(name: "QuireYAMLTests", dependencies: ["QuireYAML"]),
        .testTarget(name: "QuireMarkdownTests", dependencies: ["QuireMarkdown"]),
        .testTarget(
            name: "QuireVaultTests",
            dependencies: ["QuireVault"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["quire"],
            resources: [.copy("Golden")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
