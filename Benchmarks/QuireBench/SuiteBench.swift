#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import QuireModel
import QuireParsing
import QuireSystem
import QuireYAML
import QuireVault

/// The live-index suite (`QuireBench --suite`, or `make bench`): the built `quire` run as a user
/// runs it, on copies of generated vaults, against baselines run in the same invocation — reading
/// every file's bytes, `rg -c` over the vault, a python-frontmatter script, and the one-core C
/// reference indexer `parsebench both` (libyaml + cmark-gfm) in alternating pairs with the cold
/// index — with ratios.
///
/// Measures, per vault: cold index (no cache), warm index, `quire due`, `quire list` with a query,
/// one `quire grade` write-back, `quire due` right after it (one note changed), `quire due --prompt`
/// against the process start alone, and the watcher's
/// latency (`quire watch --json`: from a note's write to the line reporting it) over many edits.
enum SuiteBench {
    static func run(sizes: [Int], vaultsDir: String, runs: Int, edits: Int) throws {
        let quire = try quireBinary()
        print("Quire live-index suite — \(System.describe())")
        print("release build; median of \(runs) runs (the Python baseline: 1 run); warm page cache; peak RSS of the process\n")
        for n in sizes {
            let source = vaultsDir + "/n\(n)"
            try QuireBench.ensureVault(source, files: n)
            let work = vaultsDir + "/work-n\(n)"
            try QuireBench.initializedCopy(of: source, at: work, quire: quire)
            let scheduled = try schedule(vault: work)
            print("scheduling lines written for \(scheduled) cards (every card of every other note)")
            try measure(vault: work, files: n, quire: quire, runs: runs, edits: min(edits, n))
        }
    }

    /// Gives every card of every other note a scheduling line, as a vault in use has: review
    /// states due from 30 days ago to 60 days ahead of now, with some learning (due within the
    /// hour), suspended and buried cards. Deterministic but for the clock. Returns the cards.
    static func schedule(vault: String) throws -> Int {
        let io = FileIO()
        let now = SystemClock.milliseconds()
        var written = 0
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(range))
        }
        for (k, file) in VaultScanner(io: io).scan(root: vault).files.enumerated() where k % 2 == 0 {
            let bytes = try io.read(file.fullPath).bytes
            guard let note = NoteParser.parse(bytes, path: file.relativePath).note, !note.cards.isEmpty else { continue }
            var editor = try FrontMatterEditor(file: bytes)
            for card in note.cards {
                var s = SchedulingState()
                let kind = next(100)
                s.state = kind < 5 ? .learning : .review
                s.due = Timestamp(milliseconds: kind < 5 ? now + Int64(next(3_600)) * 1000 : now + Int64(next(90) - 30) * 86_400_000)
                s.lastReview = Timestamp(milliseconds: now - Int64(next(30) + 1) * 86_400_000)
                s.stability = Double(next(3_000)) / 10 + 0.5
                s.difficulty = Double(next(900)) / 100 + 1
                s.reps = next(20) + 1
                s.suspended = (5..<7).contains(kind)
                if (7..<9).contains(kind) { s.buriedUntil = Timestamp(milliseconds: now + 86_400_000) }
                try editor.setEntry(card.id.rawValue, in: "quire", to: SchedulingLine.encode(s))
                written += 1
            }
            try io.replace(file.fullPath, with: editor.file, expected: bytes)
        }
        return written
    }

    static func measure(vault: String, files: Int, quire: String, runs: Int, edits: Int) throws {
        let io = FileIO()
        let scanned = VaultScanner(io: io).scan(root: vault).files
        QuireBench.readAll(scanned, io: io, threads: System.cores)  // warm the page cache
        print("vault: \(scanned.count) files (\(vault))")
        print("  " + QuireBench.pad("measurement", 46) + QuireBench.pad("median", 11) + QuireBench.pad("peak RSS", 11) + "ratio")
        func row(_ name: String, _ r: Timing, vs base: (String, Double)? = nil) {
            let ratio = base.map { String(format2: r.seconds / $0.1) + "× " + $0.0 } ?? ""
            print("  " + QuireBench.pad(name, 46) + QuireBench.pad(String(format3: r.seconds) + " s", 11)
                  + QuireBench.pad(r.peakKB > 0 ? "\(r.peakKB / 1024) MB" : "—", 11) + ratio)
        }

        let readAll = Timing(seconds: QuireBench.median(runs) { QuireBench.readAll(scanned, io: io, threads: System.cores) }, peakKB: 0)
        let rg = try Child.median(runs, ["rg", "-c", "--no-messages", "Q:", vault])
        let python = try Child.median(1, ["python3", "Benchmarks/baselines/frontmatter_baseline.py", vault])
        let cache = vault + "/.quire/cache"
        let cold = try Child.median(runs, [quire, "-C", vault, "list", "--count"], before: { _ = system("rm -rf '\(cache)'") })
        // The one-core C reference indexer (libyaml + cmark-gfm: what a native indexer costs), run
        // in alternating pairs with a cold index so both see the same machine.
        let reference = try parsebenchBinary()
        var pairs: [(quire: Timing, c: Timing)] = []
        for _ in 0..<max(1, runs) {
            _ = system("rm -rf '\(cache)'")
            let q = try Child.run([quire, "-C", vault, "list", "--count"]).timing
            let c = try Child.run([reference, "both", vault]).timing
            pairs.append((q, c))
        }
        let warm = try Child.median(runs, [quire, "-C", vault, "list", "--count"])
        let due = try Child.median(runs, [quire, "-C", vault, "due"])
        let list = try Child.median(runs, [quire, "-C", vault, "list", "deck:Biology", "tag:biology"])
        // A card to grade: the first of the query.
        let listed = try Child.run([quire, "-C", vault, "list", "deck:Biology"])
        let card = String(listed.output.prefix(while: { $0 != "\t" && $0 != " " && $0 != "\n" }))
        let grade = try Child.median(runs, [quire, "-C", vault, "grade", card, "good"])
        let dueAfterGrade = try Child.median(1, [quire, "-C", vault, "due"])
        let dueAgain = try Child.median(runs, [quire, "-C", vault, "due"])
        // A shell prompt's count against the process start alone, alternated so both see the same
        // machine; short runs, so many of them.
        var start: [Double] = [], prompt: [Double] = []
        for _ in 0..<max(21, runs) {
            start.append(try Child.run([quire, "--version"]).timing.seconds)
            prompt.append(try Child.run([quire, "-C", vault, "due", "--prompt"]).timing.seconds)
        }
        let startMedian = Timing(seconds: start.sorted()[start.count / 2], peakKB: 0)
        let promptMedian = Timing(seconds: prompt.sorted()[prompt.count / 2], peakKB: 0)

        row("baseline: read every file (\(System.cores) threads)", readAll)
        row("baseline: rg -c 'Q:' over the vault", rg)
        row("baseline: python-frontmatter, every file", python)
        row("quire list --count, cold (no cache)", cold, vs: ("python", python.seconds))
        let wallRatios = pairs.map { $0.quire.seconds / $0.c.seconds }.sorted()
        let cpuRatios = pairs.map { $0.quire.cpuSeconds / max($0.c.cpuSeconds, 0.001) }.sorted()
        let cMedian = pairs.map(\.c.seconds).sorted()[pairs.count / 2]
        print("  " + QuireBench.pad("baseline: parsebench both (C, 1 core)", 46) + QuireBench.pad(String(format3: cMedian) + " s", 11)
              + QuireBench.pad("—", 11))
        print("  " + QuireBench.pad("cold index ÷ parsebench, \(pairs.count) pairs", 46)
              + "wall \(String(format2: wallRatios[wallRatios.count / 2]))×, processor "
              + "\(String(format2: cpuRatios[cpuRatios.count / 2]))× (medians of the pairs' ratios)")
        row("quire list --count, warm cache", warm, vs: ("read all", readAll.seconds))
        row("quire due, warm cache", due, vs: ("rg", rg.seconds))
        row("quire list deck:Biology tag:biology", list, vs: ("rg", rg.seconds))
        row("quire grade (one write-back)", grade)
        row("quire due after that grade (1 note re-read)", dueAfterGrade, vs: ("rg", rg.seconds))
        row("quire due, warm again", dueAgain, vs: ("rg", rg.seconds))
        row("baseline: quire --version (the start alone)", startMedian)
        row("quire due --prompt", promptMedian, vs: ("--version", startMedian.seconds))
        if edits > 0 {
            let latency = try watchLatency(vault: vault, quire: quire, files: scanned, edits: edits)
            print("  watcher: \(edits) edits, write → `quire watch --json` line: median \(String(format1: latency.median)) ms, "
                  + "p99 \(String(format1: latency.p99)) ms, worst \(String(format1: latency.worst)) ms")
        }
        print("")
    }

    /// Edits `edits` different notes one after another and times each until `quire watch --json`
    /// reports it.
    static func watchLatency(vault: String, quire: String, files: [ScannedFile], edits: Int) throws
        -> (median: Double, p99: Double, worst: Double) {
        let child = try Child.start([quire, "-C", vault, "watch", "--json"])
        defer { child.stop() }
        guard child.readLine(timeoutMilliseconds: 120_000)?.contains("\"ready\"") == true else { throw BenchError("quire watch did not start") }
        var times: [Double] = []
        let step = max(1, files.count / edits)
        for i in 0..<edits {
            let file = files[(i * step) % files.count]
            let start = DispatchTime.now().uptimeNanoseconds
            try FileIO().append(file.fullPath, Array("\nbench edit \(i) :: answer \(i)\n".utf8), sync: false)
            while true {
                guard let line = child.readLine(timeoutMilliseconds: 5_000) else { throw BenchError("no event for \(file.relativePath)") }
                if line.contains("\"path\":\"\(file.relativePath)\"") { break }
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)], times.last ?? 0)
    }

    /// The C reference indexer, compiled from `Benchmarks/parsebench.c` (or
    /// `QUIRE_PARSEBENCH_SOURCE`) into `.build/parsebench` when that is missing or older.
    static func parsebenchBinary() throws -> String {
        let source = getenv("QUIRE_PARSEBENCH_SOURCE").map { String(cString: $0) } ?? "Benchmarks/parsebench.c"
        let binary = ".build/parsebench"
        var built = stat(), src = stat()
        guard stat(source, &src) == 0 else { throw BenchError("no \(source): set QUIRE_PARSEBENCH_SOURCE") }
        if stat(binary, &built) != 0 || built.st_mtim.tv_sec < src.st_mtim.tv_sec {
            let command = "gcc -O2 -o '\(binary)' '\(source)' $(pkg-config --cflags --libs libcmark-gfm yaml-0.1) -lcmark-gfm-extensions"
            guard system(command) == 0 else { throw BenchError("cannot build \(source)") }
        }
        return binary
    }

    static func quireBinary() throws -> String {
        let me = CommandLine.arguments[0]
        let dir = me.contains("/") ? String(me[..<(me.lastIndex(of: "/") ?? me.endIndex)]) : "."
        let path = dir + "/quire"
        guard access(path, X_OK) == 0 else { throw BenchError("\(path) not found: build it with `swift build -c release --product quire`") }
        return path
    }
}

/// A measured run: wall time and the child's peak resident memory.
struct Timing {
    var seconds: Double
    var peakKB: Int
    /// User plus system processor time, when GNU time measured it.
    var cpuSeconds: Double = 0
}

/// A child process started with no signals blocked, its standard output a pipe.
final class Child {
    let pid: pid_t
    private let output: Int32
    private var buffer: [UInt8] = []

    private init(pid: pid_t, output: Int32) {
        self.pid = pid
        self.output = output
    }

    static func start(_ args: [String]) throws -> Child {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, args[0], &actions, &attributes, argv, environ)
        close(pipeFDs[1])
        guard rc == 0 else {
            close(pipeFDs[0])
            throw BenchError("cannot run \(args[0]): \(String(cString: strerror(rc)))")
        }
        return Child(pid: pid, output: pipeFDs[0])
    }

    /// Runs to the end; returns the time, peak memory and output.
    ///
    /// The peak memory comes from GNU time, which forks: a child spawned from this process
    /// directly (vfork) would report this process's peak as its own.
    static func run(_ args: [String]) throws -> (timing: Timing, output: String) {
        let report = "/tmp/quire-bench-rss-\(getpid())"
        defer { unlink(report) }
        let began = DispatchTime.now().uptimeNanoseconds
        let child = try Child.start(["/usr/bin/time", "-f", "%M %U %S", "-o", report] + args)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            if out.count < 1 << 20 { out += chunk[0..<n] }
        }
        let status = child.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        // A baseline that failed (a missing Python package) would be timed as a fast one.
        guard status == 0 else { throw BenchError("\(args.joined(separator: " ")) failed (wait status \(status))") }
        var peak = 0, cpu = 0.0
        if let f = fopen(report, "r") {
            var line = [CChar](repeating: 0, count: 128)
            if fgets(&line, 128, f) != nil {
                let fields = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .split(separator: " ")
                peak = fields.first.flatMap { Int($0) } ?? 0
                cpu = fields.dropFirst().compactMap { Double($0) }.reduce(0, +)
            }
            fclose(f)
        }
        return (Timing(seconds: seconds, peakKB: peak, cpuSeconds: cpu), String(decoding: out, as: UTF8.self))
    }

    /// The median time of `runs` runs, with the largest peak memory seen.
    static func median(_ runs: Int, _ args: [String], before: () -> Void = {}) throws -> Timing {
        var times: [Double] = []
        var peak = 0
        for _ in 0..<max(1, runs) {
            before()
            let r = try run(args).timing
            times.append(r.seconds)
            peak = max(peak, r.peakKB)
        }
        times.sort()
        return Timing(seconds: times[times.count / 2], peakKB: peak)
    }

    /// The next line of output, or nil after the timeout or at the end.
    func readLine(timeoutMilliseconds: Int32) -> String? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            var fds = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32((deadline - now) / 1_000_000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Waits for the child; returns its wait status.
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(output)
        return status
    }

    func stop() {
        kill(pid, SIGTERM)
        wait()
    }
}
