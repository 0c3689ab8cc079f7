#if canImport(Glibc)
import Glibc
#endif

/// A shared library opened when first needed rather than at start (`dlopen`): a command that does
/// not use it pays nothing for it — OpenBLAS, linked, started its thread pool and mapped a 128 MB
/// buffer in every `quire` process, about 2.4 ms of each start.
public final class SharedLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// The first of `names` (file names the dynamic loader looks up, such as `libopenblas.so.0`)
    /// that opens; nil when none does.
    ///
    /// - Parameter presets: environment variables set before the library is opened, each only
    ///   where the user's environment does not already set it (libraries read some at load).
    public init?(_ names: [String], presets: [String: String] = [:]) {
        for (variable, value) in presets.sorted(by: { $0.key < $1.key }) { setenv(variable, value, 0) }
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                return
            }
        }
        return nil
    }

    /// The address of the function or variable `name`, or nil.
    public func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
}
