import QuireTerminal
import ArgumentParser
import Dispatch
import Foundation
import QuireReport
import QuireServer
import QuireSupport
import QuireSystem

extension Quire {
    /// `quire serve`.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Study in a web browser: today's plan, decks and review on a local page (Ctrl-C stops).",
            discussion: """
                Serves a page on this computer only (127.0.0.1) and prints its address, which carries a \
                token made for this run: the page answers nobody without it. The review has the terminal's \
                keys (Space, 1-4, u, e, s, b, !, p/P, q, ?), shows images, math (KaTeX) and code, plays the \
                vault's sounds, and follows notes edited meanwhile in another editor. e opens the card's note \
                in $VISUAL or $EDITOR in this terminal. --listen 0.0.0.0 (or one of this computer's \
                addresses) serves other devices of your network too, such as a phone: the address is \
                printed with a QR code. Needs a vault made by 'quire init'.

                Example: quire serve --open; quire serve --listen 0.0.0.0
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: "The port (0: any free one).") var port = 8427
        @Option(help: ArgumentHelp("How long a request may take to arrive whole, in seconds: a connection whose request is slower is closed.",
                                   valueName: "SECONDS"))
        var requestTimeout: Int64 = 30
        @Option(help: ArgumentHelp("The address to listen on: 127.0.0.1 (this computer only, the default), or 0.0.0.0 or one of its addresses to serve the network.",
                                   valueName: "ADDRESS"))
        var listen = "127.0.0.1"
        @Flag(help: "Open the page in the web browser.") var open = false
        @Flag(help: "Type each answer before it is shown, and see how it differs (also: 'type: true' in a note).") var type = false

        func validate() throws {
            if port < 0 || port > 65_535 { throw ValidationError("--port takes 0 to 65535") }
            if listen.isEmpty { throw ValidationError("--listen needs an address") }
            if !(1...3600).contains(requestTimeout) { throw ValidationError("--request-timeout takes 1 to 3600 seconds") }
        }

        func run() throws {
            let vault = try options.open()
            let options = self.options
            let settings = StudyServer.Settings(
                vault: vault, host: listen, port: port, cached: !options.noCache, pinnedNow: options.pinnedNow,
                openEditor: { path, line in
                    let status = ChildProcess.runAttached(EditorCommand.command.words + ["+\(line)", path])
                    return status == 0 ? nil : "quire serve: the editor (\(EditorCommand.command.name)) exited with status \(status)"
                })
            var configured = settings
            configured.typeEveryAnswer = type
            configured.requestSeconds = requestTimeout
            let server = StudyServer(configured)
            let listen = self.listen, open = self.open
            let failure = Failure()
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await server.run { port, url in
                        Self.announce(url: url, port: port, listen: listen, root: vault.root)
                        if open, !ChildProcess.openInBrowser(url) { Output.line("The browser could not be opened: open the address above.") }
                    }
                } catch {
                    failure.set("\(error)")
                }
                done.signal()
            }
            done.wait()
            if let message = failure.message { throw CLIError(Self.explain(message, port: port)) }
        }

        /// What a failure to serve means for the user.
        static func explain(_ message: String, port: Int) -> String {
            if message.contains("Address already in use") || message.contains("EADDRINUSE") {
                return "port \(port) is in use (another quire serve?): choose another with --port, or --port 0 for any free one"
            }
            return "cannot serve: \(message)"
        }

        /// Prints where the page is: the address with its token, and for other devices of the
        /// network each of this computer's addresses, the first as a QR code.
        static func announce(url: String, port: Int, listen: String, root: String) {
            var urls = [url]
            let token = url.split(separator: "=").last.map(String.init) ?? ""
            if listen == "0.0.0.0" || listen == "::" {
                urls += NetworkAddresses.local().map { "http://\($0):\(port)/#token=\(token)" }
            }
            Output.line("Serving \(root)")
            for u in urls { Output.line("  \(u)") }
            if urls.count > 1 || !(listen.hasPrefix("127.") || listen == "localhost" || listen == "::1"),
               Output.isTerminal, let phone = urls.last, let code = QRCode(phone, correction: .low) {
                Output.line("Scan with a phone on the same network:")
                for line in code.terminalLines() { Output.line(line) }
            }
            Output.line("The address carries this run's token; keep it to yourself. Ctrl-C stops.")
            Output.flush()
        }

        /// The server's error, set on its task and read once it ends.
        final class Failure: @unchecked Sendable {
            private let lock = NSLock()
            private var text: String?
            func set(_ message: String) { lock.withLock { text = message } }
            var message: String? { lock.withLock { text } }
        }
    }
}
