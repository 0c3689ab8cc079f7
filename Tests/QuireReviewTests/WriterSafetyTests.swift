@testable import QuireReview
import Foundation
import Synchronization
import Testing
import QuireModel
import QuireScheduling
@testable import QuireSystem
@testable import QuireIndex
@testable import QuireTestSupport
import QuireVault

/// What the writers promise when other writers, other programs and a hostile vault are about:
/// no edit lost, nothing written or read outside the vault or through a link, a torn log healed.
@Suite struct WriterSafetyTests {
    private let path = "Biology/organelles.md"

    // MARK: - Concurrent writers

    /// Threads grade, undo and tag the same note at once, round after round: every reported
    /// success is in the note at the end, and the note agrees with the log.
    @Test func concurrentWritersLoseNoEdit() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let cards = try v.cards(path)
            let rounds = 200
            let lost = Mutex<[String]>([])
            for round in 0..<rounds {
                let time = Timestamp(milliseconds: at(22).milliseconds + Int64(round) * 60_000)
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    do {
                        switch worker {
                        case 0, 1:
                            // Two grades of different cards of one note.
                            _ = try v.writer().grade(cards[worker].id, .good, inNote: path, at: time)
                        case 2:
                            let edits = v.vault.plan(.addTag(Tag("r\(round)")!), paths: [path])
                            _ = try v.vault.withWriteLock {
                                let again = v.vault.plan(.addTag(Tag("r\(round)")!), paths: [path])
                                return v.vault.apply(again.edits)
                            }
                            _ = edits
                        default:
                            if round % 2 == 1 { _ = try v.writer().undoLast(at: time) }
                        }
                    } catch {
                        lost.withLock { $0.append("round \(round) worker \(worker): \(error)") }
                    }
                }
            }
            #expect(lost.withLock { $0 } == [])
            let text = try dir.text(path)
            for round in 0..<rounds { #expect(text.contains("r\(round)"), "tag of round \(round) lost") }
            let replay = v.replay()
            #expect(replay.differences.isEmpty, "\(replay.differences.map(\.summary))")
            #expect(replay.diagnostics.isEmpty)
        }
    }

    /// Another program appends a line to the note every 2 ms while it is graded: each appended
    /// line is still in the note at the end (a grade that met one was refused and undone in the
    /// log), and replay finds nothing to fix.
    @Test func anOutsideAppenderLosesNoLine() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let stop = Atomic<Bool>(false)
            let appended = Atomic<Int>(0)
            let appender = Thread {
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    if let handle = FileHandle(forWritingAtPath: dir.full(path)) {
                        handle.seekToEndOfFile()
                        handle.write(Data("appended line \(n)\n".utf8))
                        try? handle.close()
                        n += 1
                        appended.store(n, ordering: .relaxed)
                    }
                    // Every 2 ms, with a pause now and then in which a grade can get through (long
                    // enough for one on a loaded machine).
                    usleep(n % 20 == 0 ? 150_000 : 2_000)
                }
            }
            appender.start()
            var refused = 0, written = 0, conflicts = 0
            // At least 150 grades, and on until the appender has written 100 lines (its pauses are
            // long, and a fast machine grades 150 times within a few of them).
            var i = 0
            while i < 150 || appended.load(ordering: .relaxed) < 100 {
                defer { i += 1 }
                let time = Timestamp(milliseconds: at(22).milliseconds + Int64(i) * 1000)
                do {
                    _ = try v.writer().grade(card.id, .good, inNote: path, at: time)
                    written += 1
                } catch ReviewError.io(.changedOnDisk) {
                    refused += 1
                } catch ReviewError.io(.conflictKept) {
                    // Written to through two descriptors at once: both versions are kept, and the
                    // note may hold the refused grade until `quire replay`.
                    refused += 1
                    conflicts += 1
                }
            }
            stop.store(true, ordering: .relaxed)
            while !appender.isFinished { usleep(1_000) }
            // The note, and any version kept beside it.
            let text = try dir.entries("Biology").filter { $0.hasPrefix("organelles.md") }
                .map { try dir.text("Biology/" + $0) }.joined()
            let total = appended.load(ordering: .relaxed)
            #expect(total > 50)
            let missing = (0..<total).filter { !text.contains("appended line \($0)\n") }
            #expect(missing.isEmpty, "lines lost: \(missing)")
            #expect(written > 0)
            if conflicts > 0 { _ = v.vault.apply(v.replay().plan(vault: v.vault).edits) }
            let replay = v.replay()
            #expect(replay.differences.isEmpty, "\(replay.differences.map(\.summary)) (\(refused) refused)")
        }
    }

    /// A second process-wide holder waits: the lock is taken again by its own thread at once, and
    /// another thread waits until it is released.
    @Test func theLockIsReentrantAndExclusive() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let outer = try v.vault.lockForWriting()
            let inner = try v.vault.lockForWriting()
            inner.release()
            let order = Mutex<[String]>([])
            let other = Thread {
                if let token = try? v.vault.lockForWriting() {
                    order.withLock { $0.append("other") }
                    token.release()
                }
            }
            other.start()
            usleep(50_000)
            order.withLock { $0.append("first") }
            outer.release()
            while !other.isFinished { usleep(1_000) }
            #expect(order.withLock { $0 } == ["first", "other"])
            #expect(try dir.text(".quire/lock") == "\(getpid())\n")
        }
    }

    /// A lock held by another process (here: a `flock` on another descriptor) makes a writer wait,
    /// say so once, and give up after the timeout with nothing written.
    @Test func aLockHeldElsewhereTimesOut() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let before = try dir.read(path)
            let fd = open(dir.full(".quire/lock"), O_RDWR | O_CREAT, 0o644)
            defer { close(fd) }
            #expect(flock(fd, LOCK_EX) == 0)
            let told = Atomic<Int>(0)
            FileLock.configure(FileLock.Waiting(timeout: 0.2) { _ in told.add(1, ordering: .relaxed) })
            defer { FileLock.configure(FileLock.Waiting(timeout: 30) { _ in }) }
            #expect {
                try v.writer().grade(card.id, .good, inNote: path, at: at(22))
            } throws: { error in
                if case ReviewError.io(.locked) = error { return true }
                return false
            }
            #expect(told.load(ordering: .relaxed) == 1)
            #expect(try dir.read(path) == before)
            #expect(try v.logLines().isEmpty)
        }
    }

    // MARK: - Undo names one event

    /// Two grades of one card at the same millisecond, the second refused: its automatic undo
    /// takes back exactly that grade, never the first.
    @Test func anUndoTakesBackTheEventItNames() throws {
        let card = CardID("abcdefabcdef")!
        let time = at(22)
        let first = ReviewEvent(time: time, card: card, action: .grade(.good), fields: [("id", "aaaaaaaaaa")])
        let second = ReviewEvent(time: time, card: card, action: .grade(.again), fields: [("id", "bbbbbbbbbb")])
        let undo = ReviewEvent(time: time, card: card, action: .undo(of: time), fields: [("of-id", "bbbbbbbbbb")])
        #expect(ReviewHistory([first, second, undo]).events[card] == [first])
        // The refused grade's line may come first in the log (another process appended the other
        // after it): the undo still removes its own.
        #expect(ReviewHistory([second, first, undo]).events[card] == [first])
        // Logs from before event IDs: the last event at that time.
        let old = ReviewEvent(time: time, card: card, action: .undo(of: time))
        #expect(ReviewHistory([first, second, old]).events[card] == [first])
        // An undo naming an event that is not there changes nothing.
        let dangling = ReviewEvent(time: time, card: card, action: .undo(of: time), fields: [("of-id", "cccccccccc")])
        let history = ReviewHistory([first, dangling])
        #expect(history.events[card] == [first])
        #expect(history.danglingUndos == [dangling])
    }

    /// An undo whose note write failed leaves the grade in the note; replay removes it, because
    /// the log leaves the card no event.
    @Test func replayAppliesAnUndoToACardWithNoEventLeft() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let original = try dir.read(path)
            _ = try v.writer().grade(card.id, .good, inNote: path, at: at(22))
            let graded = try dir.read(path)
            // The undo's log line, as if its note write had failed.
            let id = try #require(v.logLines().first.flatMap(eventID))
            let log = dir.full(Vault.logPath(device: "test0001"))
            try FileIO().append(log, Array("2026-11-22T09:01:00.000Z undo \(card.id) of=2026-11-22T09:00:00.000Z of-id=\(id) path=\(path)\n".utf8))
            #expect(try dir.read(path) == graded)
            let replay = v.replay()
            #expect(replay.differences.map(\.card) == [card.id])
            let plan = replay.plan(vault: v.vault)
            #expect(v.vault.apply(plan.edits).diagnostics.isEmpty)
            #expect(try dir.read(path) == original)
            #expect(v.replay().differences.isEmpty)
        }
    }

    // MARK: - The log

    /// A log whose last line was torn (no line break): the next event starts a line of its own,
    /// and the torn line is reported with its location and skipped.
    @Test func aTornLogLineIsReportedAndTheNextEventStartsAFreshLine() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let cards = try v.cards(path)
            _ = try v.writer().grade(cards[0].id, .good, inNote: path, at: at(22))
            let log = dir.full(Vault.logPath(device: "test0001"))
            try FileIO().append(log, Array("2026-11-22T09:00:30.000Z grade \(cards[1].id) go".utf8))
            _ = try v.writer().grade(cards[1].id, .easy, inNote: path, at: at(22, 9, 1))
            let lines = try v.logLines()
            try #require(lines.count == 3)
            #expect(lines[1] == "2026-11-22T09:00:30.000Z grade \(cards[1].id) go")
            #expect(lines[2].hasPrefix("2026-11-22T09:01:00.000Z grade \(cards[1].id) easy id="))
            let read = v.vault.reviewLog()
            #expect(read.events.count == 2)
            #expect(read.diagnostics.map(\.description) == [
                "\(Vault.logPath(device: "test0001")):3:45: error: expected a rating (again, hard, good, easy)",
            ])
        }
    }

    /// The disk fills during an append: the log is cut back to where it was (no partial line),
    /// the grade is refused with nothing in the note, and the next grade's line is whole.
    @Test func aFullDiskDuringAnAppendLeavesNoPartialLine() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let cards = try v.cards(path)
            _ = try v.writer().grade(cards[0].id, .good, inNote: path, at: at(22))
            let logBefore = try dir.read(Vault.logPath(device: "test0001"))
            let noteBefore = try dir.read(path)
            var sys = SystemCalls.live
            let live = SystemCalls.live
            let logFDs = Mutex<Set<Int32>>([])
            sys.open = { p, flags, mode in
                let fd = live.open(p, flags, mode)
                if p.hasSuffix(".log") { logFDs.withLock { _ = $0.insert(fd) } }
                return fd
            }
            sys.close = { fd in
                logFDs.withLock { _ = $0.remove(fd) }
                return live.close(fd)
            }
            // Half the line goes out, then the disk is full.
            sys.write = { fd, buf, n in
                guard logFDs.withLock({ $0.contains(fd) }) else { return live.write(fd, buf, n) }
                if n > 20 { return live.write(fd, buf, n / 2) }
                errno = ENOSPC
                return -1
            }
            #expect(throws: ReviewError.self) {
                try v.writer(io: FileIO(sys: sys)).grade(cards[1].id, .good, inNote: path, at: at(22, 9, 1))
            }
            #expect(try dir.read(Vault.logPath(device: "test0001")) == logBefore)
            #expect(try dir.read(path) == noteBefore)
            _ = try v.writer().grade(cards[1].id, .good, inNote: path, at: at(22, 9, 2))
            #expect(v.vault.reviewLog().diagnostics.isEmpty)
            #expect(v.replay().differences.isEmpty)
        }
    }

    /// A real full disk: a vault on a small tmpfs (where mounting is permitted, as root here),
    /// filled up; grades are refused with nothing torn, and once space is freed the next grade is
    /// whole and replay agrees.
    @Test func aRealFullDiskTearsNothing() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("quire-tmpfs-\(getpid())").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        func sh(_ args: [String]) -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", args.joined(separator: " ") + " 2>/dev/null"]
            try? p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        guard sh(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint]) == 0 else { return }  // not permitted here
        defer { _ = sh(["umount", mountPoint]) }
        let dir = TempDir(path: mountPoint)
        let v = try GradingVault.make(dir)
        let cards = try v.cards(path)
        _ = try v.writer().grade(cards[0].id, .good, inNote: path, at: at(22))
        // Fill the disk to the last block.
        let filler = FileHandle(forWritingAtPath: dir.full("filler")) ?? {
            FileManager.default.createFile(atPath: dir.full("filler"), contents: nil)
            return FileHandle(forWritingAtPath: dir.full("filler"))!
        }()
        let block = Data(repeating: 0x41, count: 4096)
        while (try? filler.write(contentsOf: block)) != nil {}
        let small = Data(repeating: 0x41, count: 1)
        while (try? filler.write(contentsOf: small)) != nil {}
        try? filler.close()
        let logBefore = try dir.read(Vault.logPath(device: "test0001"))
        let noteBefore = try dir.read(path)
        var refused = 0
        for (i, card) in cards.enumerated() {
            do {
                _ = try v.writer().grade(card.id, .easy, inNote: path, at: at(22, 10, i))
            } catch {
                refused += 1
            }
        }
        #expect(refused == cards.count)
        #expect(try dir.read(path) == noteBefore)
        let logNow = try dir.read(Vault.logPath(device: "test0001"))
        // The log is as it was, or holds whole lines only (an undo may have found room).
        #expect(Array(logNow.prefix(logBefore.count)) == logBefore && logNow.last == 0x0A)
        #expect(v.vault.reviewLog().diagnostics.isEmpty)
        try FileManager.default.removeItem(atPath: dir.full("filler"))
        _ = try v.writer().grade(cards[1].id, .good, inNote: path, at: at(22, 11))
        #expect(v.vault.reviewLog().diagnostics.isEmpty)
        let replay = v.replay()
        #expect(replay.differences.isEmpty, "\(replay.differences.map(\.summary))")
        #expect(try dir.entries("Biology") == ["organelles.md"])
    }

    /// Reading a log backward costs its length once, however long its lines: a 48 MB line read in
    /// 4 KB blocks would copy terabytes if each block copied the line's pieces seen so far.
    @Test func theBackwardScanIsLinearInALinesLength() throws {
        try withTempDir { dir in
            var bytes = Array("first\n".utf8)
            bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 48 << 20)
            bytes += Array("\nlast\n".utf8)
            try dir.write("log", bytes: bytes)
            // Every byte read from the file is counted: a linear scan reads each about once.
            let readBytes = Mutex(0)
            var sys = SystemCalls.live
            sys.pread = { fd, buffer, count, offset in
                let n = SystemCalls.live.pread(fd, buffer, count, offset)
                if n > 0 { readBytes.withLock { $0 += n } }
                return n
            }
            var seen: [Int] = []
            let start = ContinuousClock.now
            try FileIO(sys: sys).scanLinesBackward(dir.full("log"), blockSize: 4096) { line in
                seen.append(line.count)
                return false
            }
            #expect(seen == [4, 48 << 20, 5])
            #expect(readBytes.withLock { $0 } <= 2 * bytes.count)
            // Not a benchmark: only a hang (a quadratic scan takes hours here) comes near it.
            #expect(ContinuousClock.now - start < .seconds(300))
        }
    }

    // MARK: - Nothing outside the vault

    /// A log line naming `path=../outside.md`: grading the card by that hint writes nothing
    /// outside the vault, and the event is reported and skipped.
    @Test func aLogPathOutsideTheVaultIsNeverOpened() throws {
        try withTempDir { dir in
            try dir.makeFolder("vault")
            let vaultDir = TempDir(path: dir.full("vault"))
            let v = try GradingVault.make(vaultDir)
            let card = try #require(v.cards(path).first)
            try dir.write("outside.md", GradingVault.biology)
            let outside = try dir.read("outside.md")
            for bad in ["../outside.md", "/etc/passwd", "Biology/../../outside.md", ".quire/config.yaml", "a//b.md", "./x.md"] {
                #expect(throws: ReviewError.self) { try v.writer().grade(card.id, .good, inNote: bad, at: at(22)) }
            }
            let log = vaultDir.full(Vault.logPath(device: "test0001"))
            try FileIO().makeDirectories(vaultDir.full(Vault.logFolder))
            try FileIO().append(log, Array("2026-11-22T09:00:00.000Z grade \(card.id) good path=../outside.md\n".utf8))
            #expect(v.vault.lastLoggedPath(of: card.id) == nil)
            let read = v.vault.reviewLog()
            #expect(read.events.isEmpty)
            #expect(read.diagnostics.first?.message.contains("'..' in the path") == true)
            #expect(try dir.read("outside.md") == outside)
        }
    }

    /// A folder inside the vault that is a link out of it: a note path through it is refused.
    @Test func aNotePathThroughALinkOutIsRefused() throws {
        try withTempDir { dir in
            try dir.makeFolder("vault")
            try dir.makeFolder("elsewhere")
            try dir.write("elsewhere/n.md", "a :: b\n")
            let vaultDir = TempDir(path: dir.full("vault"))
            let v = try GradingVault.make(vaultDir)
            try vaultDir.link("Out", to: dir.full("elsewhere"))
            #expect(throws: FileIOError.unsafePath(path: "Out/n.md", reason: "leads outside the vault through a symbolic link")) {
                try v.vault.notePath("Out/n.md")
            }
            try vaultDir.link("Biology/alias.md", to: vaultDir.full(path))
            #expect(throws: FileIOError.symbolicLink(path: "Biology/alias.md")) { try v.vault.notePath("Biology/alias.md") }
        }
    }

    /// A `cfg=` that is a path is never read as a settings file.
    @Test func aSettingsIDThatIsAPathIsNotRead() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let resolver = SettingsResolver(vault: v.vault, config: VaultConfig())
            let event = ReviewEvent(time: at(22), card: CardID("abcdefabcdef")!, action: .grade(.good),
                                    fields: [("cfg", "../../../../etc/passwd")])
            _ = resolver.settings(for: event, deck: nil)
            #expect(resolver.missing == ["../../../../etc/passwd"])
        }
    }

    /// One resolver shared by threads (it is `Sendable`): every thread gets the snapshot's
    /// settings, and a missing snapshot is recorded once.
    @Test func aSettingsResolverIsSafeToShare() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let custom = try SchedulerSettings(desiredRetention: 0.8)
            let id = try v.vault.storeSnapshot(of: custom)
            let resolver = SettingsResolver(vault: v.vault, config: VaultConfig())
            let card = CardID("abcdefabcdef")!
            let results = Mutex<[Double]>([])
            DispatchQueue.concurrentPerform(iterations: 64) { i in
                let cfg = i % 2 == 0 ? id : "missing\(i % 4)"
                let event = ReviewEvent(time: at(22), card: card, action: .grade(.good), fields: [("cfg", cfg)])
                let s = resolver.settings(for: event, deck: nil)
                if i % 2 == 0 { results.withLock { $0.append(s.desiredRetention) } }
            }
            #expect(results.withLock { $0 } == Array(repeating: 0.8, count: 32))
            #expect(resolver.missing == ["missing1", "missing3"])
        }
    }

    /// Quire's own files reached through links are refused: `.quire` itself, the log folder, the
    /// journal; the link's target is never written.
    @Test func nothingUnderDotQuireIsUsedThroughALink() throws {
        try withTempDir { dir in
            try dir.makeFolder("vault")
            try dir.makeFolder("target")
            let vaultDir = TempDir(path: dir.full("vault"))
            let v = try GradingVault.make(vaultDir)
            let cards = try v.cards(path)
            // The journal is a link: the grade is written, the link's target is not.
            try dir.write("target/journal", "")
            try vaultDir.link(".quire/journal", to: dir.full("target/journal"))
            _ = try v.writer().grade(cards[0].id, .good, inNote: path, at: at(22))
            #expect(try dir.text("target/journal") == "")
            // The log folder is a link: the grade is refused, nothing written there or in the note.
            try FileManager.default.moveItem(atPath: vaultDir.full(".quire/log"), toPath: dir.full("target/log"))
            try vaultDir.link(".quire/log", to: dir.full("target/log"))
            let logBefore = try dir.read("target/log/test0001.log")
            let noteBefore = try vaultDir.read(path)
            #expect(throws: ReviewError.self) {
                try v.writer().grade(cards[1].id, .good, inNote: path, at: at(22, 9, 1))
            }
            #expect(try dir.read("target/log/test0001.log") == logBefore)
            #expect(try vaultDir.read(path) == noteBefore)
            // `.quire` itself a link: the vault does not open.
            try FileManager.default.moveItem(atPath: vaultDir.full(".quire"), toPath: dir.full("target/quire"))
            try vaultDir.link(".quire", to: dir.full("target/quire"))
            #expect(throws: VaultError.linkedQuireFolder(vaultDir.full(".quire"))) { try Vault(root: vaultDir.path) }
            #expect(throws: VaultError.linkedQuireFolder(vaultDir.full(".quire"))) { try Vault.discover(from: vaultDir.full("Biology")) }
        }
    }

    /// FIFOs and devices are not read: a FIFO note, a FIFO index cache, a FIFO config, and
    /// `/dev/zero` are refused at once instead of blocking or filling memory.
    @Test func fifosAndDevicesAreNeverRead() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            #expect(mkfifo(dir.full("Biology/pipe.md"), 0o644) == 0)
            #expect(throws: FileIOError.notRegularFile(path: dir.full("Biology/pipe.md"), kind: "FIFO")) {
                try FileIO().read(dir.full("Biology/pipe.md"))
            }
            #expect(throws: FileIOError.notRegularFile(path: "/dev/zero", kind: "device")) { try FileIO().read("/dev/zero") }
            #expect(throws: FileIOError.self) { try FileIO().append("/dev/null", [1]) }
            // A whole index with a FIFO note and a FIFO cache finishes.
            try FileManager.default.createDirectory(atPath: dir.full(".quire/cache"), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: dir.full(".quire/cache/index"))
            #expect(mkfifo(dir.full(".quire/cache/index"), 0o644) == 0)
            let index = v.vault.index(concurrency: 1)
            #expect(index.notes.map(\.path) == [path])
            // A FIFO config is an error, not a hang and not silent defaults.
            try dir.remove(".quire/config.yaml")
            #expect(mkfifo(dir.full(".quire/config.yaml"), 0o644) == 0)
            let config = v.vault.config()
            #expect(config.diagnostics.map(\.description) == [
                ".quire/config.yaml: error: is a FIFO, not a regular file; not read; the default settings are used",
            ])
        }
    }

    // MARK: - Temporary files of killed writers

    /// A temporary file left by a process that is gone is removed by the next write in its folder;
    /// one of a live process is kept.
    @Test func leftoverTemporaryFilesAreRemovedByTheNextWrite() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            // A process that has ended: its ID is free (until reused, which a test cannot rule out
            // but which only keeps the file).
            let gone = Process()
            gone.executableURL = URL(fileURLWithPath: "/bin/true")
            try gone.run()
            gone.waitUntilExit()
            let dead = ".organelles.md.quire-\(gone.processIdentifier)-12345.tmp"
            let alive = ".organelles.md.quire-\(getpid())-6789.tmp"
            try dir.write("Biology/" + dead, "half a note")
            try dir.write("Biology/" + alive, "being written")
            #expect(TemporaryFiles.writer(ofName: dead) == gone.processIdentifier)
            #expect(TemporaryFiles.writer(ofName: "notes.md") == nil)
            #expect(TemporaryFiles.writer(ofName: ".a.quire-x-1.tmp") == nil)
            _ = try v.writer().grade(card.id, .good, inNote: path, at: at(22))
            #expect(try dir.entries("Biology").sorted() == [alive, "organelles.md"])
        }
    }
}
