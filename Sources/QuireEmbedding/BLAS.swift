internal import CEncoderKernels
import QuireSystem

/// The two routines of OpenBLAS the encoder uses, loaded from Debian's libopenblas when the first
/// encoder is made (``SharedLibrary``), not at the start of every command.
enum BLAS {
    /// `cblas_sgemm`: C = alpha · op(A) · op(B) + beta · C, in single precision.
    typealias SGEMM = @convention(c) (Int32, Int32, Int32, Int32, Int32, Int32, Float, UnsafePointer<Float>?, Int32,
                                      UnsafePointer<Float>?, Int32, Float, UnsafeMutablePointer<Float>?, Int32) -> Void
    /// `openblas_set_num_threads`.
    typealias SetThreads = @convention(c) (Int32) -> Void

    /// CBLAS's constants (cblas.h): row-major storage, a matrix as it is or transposed.
    static let rowMajor: Int32 = 101, noTrans: Int32 = 111, trans: Int32 = 112

    /// The library's names, most specific first (Debian's runtime package names the first).
    static let names = ["libopenblas.so.0", "libopenblas.so", "libblas.so.3"]

    /// What OpenBLAS is told when the user's environment does not say: the kernels to use
    /// (`OPENBLAS_CORETYPE`), the widest this processor runs — OpenBLAS picks its kernels by the
    /// processor's model, and one newer than its release gets its oldest, SSE3 ones (Debian's
    /// 0.3.21 on a 2023 Xeon: a fifth of the speed); and one thread (`OPENBLAS_NUM_THREADS`):
    /// the encoder runs its own threads and asks OpenBLAS for one, but a library opened with more
    /// starts a pool whose threads spin on `sched_yield` (a quarter of a search's processor time).
    static let presets: [String: String] = {
        var out = ["OPENBLAS_NUM_THREADS": "1"]
        if let kernels = quire_vector_kernels() { out["OPENBLAS_CORETYPE"] = String(cString: kernels) }
        return out
    }()

    /// The routines, or nil when no OpenBLAS could be opened.
    static let routines: (sgemm: SGEMM, setThreads: SetThreads?, coreName: CoreName?)? = {
        guard let library = SharedLibrary(names, presets: presets), let sgemm = library.symbol("cblas_sgemm") else { return nil }
        let setThreads = library.symbol("openblas_set_num_threads").map { unsafeBitCast($0, to: SetThreads.self) }
        let coreName = library.symbol("openblas_get_corename").map { unsafeBitCast($0, to: CoreName.self) }
        return (unsafeBitCast(sgemm, to: SGEMM.self), setThreads, coreName)
    }()

    /// `openblas_get_corename`.
    typealias CoreName = @convention(c) () -> UnsafePointer<CChar>?

    /// The name of the kernels OpenBLAS uses, or nil.
    static var kernels: String? { routines?.coreName?().map { String(cString: $0) } }

    /// `cblas_sgemm` (``routines`` must be there: the encoder checks when it is made).
    @inline(__always)
    static func sgemm(_ transA: Int32, _ transB: Int32, _ m: Int32, _ n: Int32, _ k: Int32, _ alpha: Float,
                      _ a: UnsafePointer<Float>?, _ lda: Int32, _ b: UnsafePointer<Float>?, _ ldb: Int32, _ beta: Float,
                      _ c: UnsafeMutablePointer<Float>?, _ ldc: Int32) {
        routines?.sgemm(rowMajor, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}
