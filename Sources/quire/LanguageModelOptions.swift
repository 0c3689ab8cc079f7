import ArgumentParser
import Foundation
import QuireApp
import QuireMarkdown
import QuireTerminal

/// The options of the commands a language model helps (ask, generate, quiz): which model, if any.
/// By default the installed one (`quire model install llm`) is started on this machine for the
/// command's length; `--llm URL` names a server of the user's own; `--no-llm` uses none.
struct LanguageModelOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A language model's OpenAI-compatible endpoint to use instead of the installed one "
                               + "(default: $QUIRE_LLM_URL); `installed` names the installed one.", valueName: "URL"))
    var llm: String?
    @Option(help: ArgumentHelp("The model name sent to it (default: $QUIRE_LLM_MODEL, else \"local\").", valueName: "NAME"))
    var llmModel: String?
    @Flag(help: "Use no language model, even when one is installed.") var noLlm = false
    @Flag(help: "Allow an endpoint that is not on this machine (your notes are sent to it).") var allowRemote = false

    func validate() throws {
        if noLlm, llm != nil { throw ValidationError("--no-llm and --llm exclude each other") }
    }

    /// What the options choose; without any, the installed model when `installedByDefault`.
    func choice(installedByDefault: Bool) -> LanguageModelSession.Choice {
        let environment = ProcessInfo.processInfo.environment
        if noLlm { return .none }
        if let url = llm ?? environment["QUIRE_LLM_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            if url == "installed" { return .installed }
            return .endpoint(url: url, model: llmModel ?? environment["QUIRE_LLM_MODEL"] ?? "local", allowRemote: allowRemote)
        }
        return installedByDefault ? .installed : .none
    }

    /// The session, each reply bounded by `timeoutSeconds`. An endpoint the user named that is
    /// refused is an error before any work; an installed model that does not start is a warning,
    /// and the command goes on without it. `installedByDefault`: whether the installed model is
    /// used unless the options say otherwise (ask: yes; generate: no — see its help).
    func open(timeoutSeconds: Int = 300, installedByDefault: Bool = true) throws -> LanguageModelSession? {
        let choice = self.choice(installedByDefault: installedByDefault)
        do { return try LanguageModelSession.open(choice, timeoutSeconds: timeoutSeconds, environment: ProcessInfo.processInfo.environment) } catch {
            if case .installed = choice {
                Output.error("quire: warning: \(TerminalText.visible(error.description)); going on without the language model")
                return nil
            }
            throw CLIError(error.description)
        }
    }
}
