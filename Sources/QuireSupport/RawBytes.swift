#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte routines — vectorized `memchr` and `memcmp`, and `malloc`'s family for
/// blocks that grow in place — for the modules above the system layer, which import no platform
/// module: a port to another C library changes this file, not the parsers.
public enum RawBytes {
    /// The first `byte` among the `count` bytes at `start`, or nil.
    @inlinable @inline(__always)
    public static func first(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
        memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) }
    }

    /// Whether the `count` bytes at `a` equal those at `b`.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }

    /// Whether the `count` bytes at `start` are all ASCII (below 0x80), read eight at a time.
    @inlinable
    public static func isASCII(_ start: UnsafeRawPointer, count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            if start.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if start.load(fromByteOffset: i, as: UInt8.self) >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// A block of `size` bytes from the C heap, or `block` grown or shrunk to `size` (moved when
    /// it must be, its bytes kept), or nil when there is no memory (`block` is then still valid).
    /// Give it back with ``release(_:)``.
    package static func resize(_ block: UnsafeMutableRawPointer?, to size: Int) -> UnsafeMutableRawPointer? {
        realloc(block, size)
    }

    /// Gives back a block of ``resize(_:to:)``; nil does nothing.
    package static func release(_ block: UnsafeMutableRawPointer?) { free(block) }
}

/// Byte-wise order of two strings' UTF-8 (what `sort` and `ls` in the C locale do), with memcmp:
/// the generic `lexicographicallyPrecedes` over UTF-8 views costs a second on 100,000 paths.
package func utf8Precedes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            let n = min(x.count, y.count)
            if n > 0, let xb = x.baseAddress, let yb = y.baseAddress {
                let c = memcmp(xb, yb, n)
                if c != 0 { return c < 0 }
            }
            return x.count < y.count
        }
    }
}
