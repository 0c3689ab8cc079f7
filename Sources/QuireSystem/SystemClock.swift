#if canImport(Glibc)
import Glibc
#endif

/// The wall clock and the local time zone, read only where a command reads them (the CLI's
/// `Clock`, a session's StudyClock), and passed down from there as Timestamps.
package enum SystemClock {
    /// The current time, in milliseconds since 1970-01-01 UTC.
    package static func milliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// The local time zone's offset from UTC at `milliseconds` since 1970, in seconds east (from
    /// `TZ` or the system).
    package static func utcOffset(atMilliseconds milliseconds: Int64) -> Int {
        var t = time_t(milliseconds / 1000)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }
}
