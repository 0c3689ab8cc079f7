@testable import QuireSystem
import Glibc
import Testing

/// The processes `/proc` lists, as `quire sync` looks for a git command at work.
@Suite struct RunningProcessTests {
    /// A git that has ended and not been reaped (a zombie: where nothing reaps orphans, as in a
    /// container without an init, a killed sync's git stays one for good) works at nothing: it is
    /// not listed, so its stale lock is not taken for one held.
    @Test func aZombieGitIsNoProcessAtWork() throws {
        var pid: pid_t = 0
        let words: [String] = ["git", "--version"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        #expect(posix_spawnp(&pid, "git", &actions, nil, argv, environ) == 0)
        // Ended, not yet waited for: a zombie.
        var state: UInt8?
        for _ in 0..<200 {
            state = (try? FileIO().read("/proc/\(pid)/stat").bytes).flatMap(RunningProcess.state(ofStat:))
            if state == UInt8(ascii: "Z") { break }
            usleep(10_000)
        }
        #expect(state == UInt8(ascii: "Z"))
        #expect(!RunningProcess.all().contains { $0.pid == pid })
        #expect(RunningProcess.all().contains { $0.pid == getpid() })
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
    }

    @Test func theStateFollowsACommandWithParenthesesAndSpaces() {
        #expect(RunningProcess.state(ofStat: Array("42 (a) b) c) S 1 42".utf8)) == UInt8(ascii: "S"))
        #expect(RunningProcess.state(ofStat: Array("42 (git) Z 1".utf8)) == UInt8(ascii: "Z"))
        #expect(RunningProcess.state(ofStat: Array("42 (git".utf8)) == nil)
    }
}
