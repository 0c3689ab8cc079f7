#if canImport(Glibc)
import Glibc
#endif

/// Facts about the machine.
enum System {
    /// Online processor count.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
