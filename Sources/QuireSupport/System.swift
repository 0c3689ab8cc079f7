#if canImport(Glibc)
import Glibc
#endif

/// Facts about the machine.
package enum System {
    /// Online processor count.
    static package var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
