@testable import QuireWatch
import QuireIndex
import Testing

/// Coalescing: one change per path, the last state winning, rescans first and once.
@Suite struct ChangeBatchTests {
    @Test func createdThenDeletedIsRemoved() {
        var batch = ChangeBatch()
        batch.add(.changed("a.md"))
        batch.add(.changed("a.md"))
        batch.add(.removed("a.md"))
        #expect(batch.changes == [.removed("a.md")])
    }

    @Test func deletedThenRecreatedIsChanged() {
        var batch = ChangeBatch()
        batch.add(.removed("a.md"))
        batch.add(.changed("a.md"))
        #expect(batch.changes == [.changed("a.md")])
    }

    @Test func rescansFirstOnceThenPathsInByteOrder() {
        var batch = ChangeBatch()
        #expect(batch.isEmpty)
        for change: FileChange in [.changed("b/z.md"), .removed("B.md"), .rescan(reason: "lost"),
                                   .changed("a.md"), .rescan(reason: "limit"), .rescan(reason: "lost"),
                                   .changed("b.md")] {
            batch.add(change)
        }
        #expect(!batch.isEmpty)
        #expect(batch.changes == [.rescan(reason: "lost"), .rescan(reason: "limit"), .removed("B.md"),
                                  .changed("a.md"), .changed("b.md"), .changed("b/z.md")])
    }

    @Test func mergingKeepsTheLaterState() {
        var earlier = ChangeBatch()
        earlier.add(.changed("a.md"))
        earlier.add(.changed("b.md"))
        earlier.add(.rescan(reason: "limit"))
        var later = ChangeBatch()
        later.add(.removed("a.md"))
        later.add(.rescan(reason: "limit"))
        earlier.add(contentsOf: later)
        #expect(earlier.changes == [.rescan(reason: "limit"), .removed("a.md"), .changed("b.md")])
    }
}
