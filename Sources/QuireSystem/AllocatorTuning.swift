internal import CMalloc

/// How the C allocator serves a process that builds an index.
public enum AllocatorTuning {
    /// Building an index allocates millions of small objects on every core. glibc grows each
    /// thread's heap a few pages at a time (an `mprotect` call each: about 49,000 of them for a
    /// 100,000-file vault) and gives a freed top back to the system, only to fault it in again.
    /// Growing by 64 MB at a time and keeping up to 512 MB of freed memory avoids both; padding
    /// that is never touched costs no physical memory. Call once, at the start of the process.
    public static func forIndexing() {
        quire_tune_allocator(64 << 20, 512 << 20)
    }
}
