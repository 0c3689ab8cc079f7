#if canImport(Glibc)
import Glibc
#endif
import QuireModel

/// The wall clock and the local time zone, read only where a command reads them (the CLI's
/// `Clock`), and passed down from there.
package enum SystemClock {
    /// The current time.
    package static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(milliseconds: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }

    /// The local time zone's offset from UTC at `time`, in seconds east (from `TZ` or the system).
    package static func utcOffset(at time: Timestamp) -> Int {
        var t = time_t(time.milliseconds / 1000)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }
}
