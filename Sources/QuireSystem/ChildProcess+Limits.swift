#if canImport(Glibc)
import Glibc
#endif
import QuireSupport

/// The gate that lets at most as many limited programs run at once as the machine has cores.
nonisolated(unsafe) private let helperSlots: UnsafeMutablePointer<sem_t> = {
    let slots = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    sem_init(slots, 0, UInt32(System.coreCount))
    return slots
}()

extension ChildProcess {
    /// What a helper program given an untrusted file (poppler's tools, tesseract, ImageMagick,
    /// ffmpeg, pocketsphinx, Python) may spend. Set in the child before the program starts
    /// (util-linux's `prlimit`, which execs it), so nothing it does escapes them; the parent's
    /// death kills it (`setpriv --pdeathsig KILL`).
    package struct Limits: Sendable, Equatable {
        /// Address space (`RLIMIT_AS`), or nil for none: a program whose runtime reserves large
        /// virtual areas it never touches (Python with CTranslate2) is bounded by its time alone.
        package var memoryBytes: Int?
        /// Processor time (`RLIMIT_CPU`).
        package var cpuSeconds: Int
        /// Time on the clock, after which it is killed.
        package var wallSeconds: Int
        /// What it may write to its standard output and error together.
        package var outputBytes: Int
        /// The largest file it may write (`RLIMIT_FSIZE`).
        package var fileBytes: Int
        /// Files it may hold open at once (`RLIMIT_NOFILE`).
        package var openFiles: Int

        package init(memoryBytes: Int?, cpuSeconds: Int, wallSeconds: Int, outputBytes: Int, fileBytes: Int, openFiles: Int = 256) {
            self.memoryBytes = memoryBytes
            self.cpuSeconds = cpuSeconds
            self.wallSeconds = wallSeconds
            self.outputBytes = outputBytes
            self.fileBytes = fileBytes
            self.openFiles = openFiles
        }

        /// The words that set them before `--` and the program (never above the hard limits
        /// this process has: a lower one stands).
        var prlimitArguments: [String] {
            var out = ["setpriv", "--pdeathsig", "KILL", "--", "prlimit"]
            if let memoryBytes { out.append("--as=\(memoryBytes)") }
            out += ["--cpu=\(cpuSeconds)", "--fsize=\(fileBytes)", "--nofile=\(min(openFiles, Self.hardLimit(RLIMIT_NOFILE)))", "--"]
            return out
        }

        /// This process's hard limit on `resource`.
        static func hardLimit(_ resource: __rlimit_resource) -> Int {
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_max < UInt(Int.max) else { return Int.max }
            return Int(limit.rlim_max)
        }

        /// `bytes` in words (`512 MB`, `1.5 GB`).
        static func size(_ bytes: Int) -> String {
            bytes >= 1 << 30 ? (bytes % (1 << 30) == 0 ? "\(bytes >> 30) GB" : String(format1: Double(bytes) / Double(1 << 30)) + " GB") : "\(bytes >> 20) MB"
        }

        /// Why a run under these limits ended at one of them, or nil: a signal the kernel sends
        /// at a limit, or a program's own words when memory ran out (some say so and exit 0).
        func reached(status: Int32, errors: [UInt8]) -> String? {
            switch status - 128 {
            case SIGXCPU, SIGKILL: return "stopped at its limit of \(cpuSeconds) s of processor time"
            case SIGXFSZ: return "stopped at its limit of \(Self.size(fileBytes)) per file written"
            default: break
            }
            guard let memoryBytes else { return nil }
            let text = String(decoding: errors.suffix(1 << 16), as: UTF8.self).lowercased()
            let words = ["out of memory", "bad_alloc", "cannot allocate memory", "memoryerror", "failed to allocate", "malloc(",
                         "failed to map segment", "insufficient memory", "memory allocation failed", "cannot allocate", "bogus memory allocation"]
            if [SIGABRT, SIGSEGV, SIGBUS].contains(status - 128) || words.contains(where: { text.contains($0) }) {
                return "stopped at its limit of \(Self.size(memoryBytes)) of memory"
            }
            return nil
        }
    }

    /// Runs `arguments` (the program found on `PATH`) under `limits`, once one of as many places
    /// as there are cores is free. Going over a limit ends it with status -2 and the reason in
    /// its error output (`pdftohtml: stopped at its limit of 256 MB of memory`), what it wrote
    /// dropped; a program that is not installed ends with -1, as with ``run(_:input:environment:timeoutSeconds:outputLimit:)``.
    package static func run(_ arguments: [String], limits: Limits, input: [UInt8] = [], environment: [String: String] = [:]) -> ChildProcess {
        let program = arguments.first ?? ""
        while sem_wait(helperSlots) != 0, errno == EINTR {}
        defer { sem_post(helperSlots) }
        var run = run(limits.prlimitArguments + arguments, input: input, environment: environment, timeoutSeconds: limits.wallSeconds,
                      outputLimit: limits.outputBytes)
        let said = run.errorText
        if run.status == -2 {
            // Stopped by time or output: said by the launcher's name, which is not the user's concern.
            run.errorOutput = Array((said.hasPrefix("setpriv:") ? program + said.dropFirst(7) : said).utf8)
            return run
        }
        // The launchers' own failures, said as the program's.
        if run.status == -1 || said.hasPrefix("setpriv: ") {
            return ChildProcess(status: -1, output: [], errorOutput: Array("\(program): Quire runs helper programs under limits with util-linux's setpriv and prlimit, which are not installed".utf8))
        }
        if run.status == 127 || run.status == 126, said.hasPrefix("prlimit: failed to execute") {
            return ChildProcess(status: -1, output: [], errorOutput: Array("\(program): not installed".utf8))
        }
        if let reason = limits.reached(status: run.status, errors: run.errorOutput) {
            return ChildProcess(status: -2, output: [], errorOutput: Array("\(program): \(reason)".utf8))
        }
        return run
    }
}

extension String {
    /// `value` with one decimal.
    fileprivate init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
