import Testing
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport

/// The session's clock: pinned by --now it moves a second per reading, peeking moves nothing and
/// every answer takes a second; unpinned it is the system's.
@Suite struct StudyClockTests {
    @Test func aPinnedClockMovesOneSecondPerReading() {
        let clock = StudyClock(fixed: at(22, 10))
        #expect(clock.peek() == at(22, 10) && clock.peek() == at(22, 10))
        let first = clock.now(), second = clock.now()
        #expect(first == at(22, 10) && second.milliseconds == first.milliseconds + 1000)
        #expect(clock.milliseconds(from: first, to: second) == 1000)
    }

    @Test func theRealClockIsTheSystems() {
        let clock = StudyClock(fixed: nil)
        let before = SystemClock.milliseconds()
        let now = clock.now().milliseconds
        #expect(now >= before && now - before < 5000)
        #expect(clock.milliseconds(from: Timestamp(milliseconds: 10), to: Timestamp(milliseconds: 5)) == 0)
    }
}
