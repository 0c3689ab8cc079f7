internal import CEncoderKernels

/// The encoder's elementwise functions: sixteen values at a time in C where the processor has
/// AVX-512 (CEncoderKernels), else four at a time here (an SSE register: wider SIMD types compiled
/// to loops over the values, slower than libm). Both compute GELU through a rational
/// approximation of erf (Eigen's, largest error 4.2 × 10⁻⁷ against the exact erf) and exp through
/// Cephes' range reduction and polynomial (relative error under 10⁻⁷ on softmax's inputs). libm's
/// `erff` and `expf`, called once a value, were a quarter of the encoder's time.
enum VectorMath {
    /// Whether the sixteen-lane functions run here (AVX-512 F, BW, DQ and VL).
    static let wide = quire_wide_available() != 0

    typealias Lanes = SIMD4<Float>
    static let width = 4

    /// erf(x) for four values (x clamped to ±4, where erf is 1 to within a float's precision).
    @inline(__always)
    static func erf(_ v: Lanes) -> Lanes {
        let x = clamped(v, -4, 4)
        let x2 = x * x
        var p = Lanes(repeating: -2.72614225801306e-10)
        p = p * x2 + Lanes(repeating: 2.77068142495902e-08)
        p = p * x2 + Lanes(repeating: -2.10102402082508e-06)
        p = p * x2 + Lanes(repeating: -5.69250639462346e-05)
        p = p * x2 + Lanes(repeating: -7.34990630326855e-04)
        p = p * x2 + Lanes(repeating: -2.95459980854025e-03)
        p = p * x2 + Lanes(repeating: -1.60960333262415e-02)
        p = p * x
        var q = Lanes(repeating: -1.45660718464996e-05)
        q = q * x2 + Lanes(repeating: -2.13374055278905e-04)
        q = q * x2 + Lanes(repeating: -1.68282697438203e-03)
        q = q * x2 + Lanes(repeating: -7.37332916720468e-03)
        q = q * x2 + Lanes(repeating: -1.42647390514189e-02)
        return p / q
    }

    /// exp(x) for four values (x clamped to the range where the result is a normal float).
    @inline(__always)
    static func exp(_ v: Lanes) -> Lanes {
        let x = clamped(v, -87.3, 88.7)
        // n = x·log₂e rounded to the nearest integer, by adding 1.5 × 2²³: the sum's low bits are
        // then n itself (no per-lane conversion call).
        let magic = Lanes(repeating: 12_582_912)
        let shifted = x * Lanes(repeating: 1.44269504088896341) + magic
        let n = shifted - magic
        let r = x - n * Lanes(repeating: 0.693359375) - n * Lanes(repeating: -2.12194440e-4)
        var p = Lanes(repeating: 1.9875691500e-4)
        p = p * r + Lanes(repeating: 1.3981999507e-3)
        p = p * r + Lanes(repeating: 8.3334519073e-3)
        p = p * r + Lanes(repeating: 4.1665795894e-2)
        p = p * r + Lanes(repeating: 1.6666665459e-1)
        p = p * r + Lanes(repeating: 5.0000001201e-1)
        let y = p * r * r + r + Lanes(repeating: 1)
        // 2ⁿ built from its exponent bits (n is within ±127 after the clamp).
        let integer = unsafeBitCast(shifted, to: SIMD4<Int32>.self) &- SIMD4<Int32>(repeating: 0x4B40_0000)
        return y * unsafeBitCast((integer &+ 127) &<< 23, to: Lanes.self)
    }

    /// `v` with each value brought within `low`…`high`.
    @inline(__always)
    static func clamped(_ v: Lanes, _ low: Float, _ high: Float) -> Lanes {
        v.replacing(with: high, where: v .> high).replacing(with: low, where: v .< low)
    }

    /// GELU in place, `x · (1 + erf(x / √2)) / 2`, over `count` values (`wide`: sixteen at a
    /// time where the processor can).
    static func gelu(_ values: UnsafeMutablePointer<Float>, count: Int, wide: Bool = wide) {
        if wide { return quire_wide_gelu(values, count) }
        var i = 0
        while i + width <= count {
            let raw = UnsafeMutableRawPointer(values + i)
            let x = raw.loadUnaligned(as: Lanes.self)
            raw.storeBytes(of: Lanes(repeating: 0.5) * x * (Lanes(repeating: 1) + erf(x * Lanes(repeating: 0.70710678118654752))),
                           as: Lanes.self)
            i += width
        }
        while i < count {
            let x = values[i]
            values[i] = 0.5 * x * (1 + erf(Lanes(repeating: x * 0.70710678118654752))[0])
            i += 1
        }
    }

    /// Softmax in place over each of `rows` rows of `width` values.
    static func softmax(_ values: UnsafeMutablePointer<Float>, rows: Int, width: Int, wide: Bool = wide) {
        if wide { return quire_wide_softmax(values, Int32(rows), Int32(width)) }
        let whole = width / Self.width * Self.width
        for r in 0..<rows {
            let row = values + r * width
            var tops = Lanes(repeating: -Float.infinity)
            var c = 0
            while c < whole {
                tops = tops.replacing(with: load(row + c), where: load(row + c) .> tops)
                c += Self.width
            }
            var top = tops.max()
            while c < width { top = max(top, row[c]); c += 1 }
            let shift = Lanes(repeating: top)
            var sums = Lanes(repeating: 0)
            c = 0
            while c < whole {
                let e = exp(load(row + c) - shift)
                store(e, row + c)
                sums += e
                c += Self.width
            }
            var sum = sums.sum()
            while c < width {
                let e = exp(Lanes(repeating: row[c] - top))[0]
                row[c] = e
                sum += e
                c += 1
            }
            let inverse = 1 / sum
            let scale = Lanes(repeating: inverse)
            c = 0
            while c < whole { store(load(row + c) * scale, row + c); c += Self.width }
            while c < width { row[c] *= inverse; c += 1 }
        }
    }

    /// Layer normalisation in place of each of `rows` rows of `weight.count` values (ε = 1e-12, BERT's).
    static func layerNorm(_ x: UnsafeMutablePointer<Float>, rows: Int, weight: [Float], bias: [Float], wide: Bool = wide) {
        let d = weight.count
        guard bias.count == d else { return }
        if wide { return quire_wide_layer_norm(x, Int32(rows), Int32(d), weight, bias) }
        for r in 0..<rows {
            let p = r * d
            var mean: Float = 0
            for j in 0..<d { mean += x[p + j] }
            mean /= Float(d)
            var variance: Float = 0
            for j in 0..<d { let c = x[p + j] - mean; variance += c * c }
            variance /= Float(d)
            let inv = 1 / (variance + 1e-12).squareRoot()
            for j in 0..<d { x[p + j] = (x[p + j] - mean) * inv * weight[j] + bias[j] }
        }
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> Lanes { UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) }

    @inline(__always)
    static func store(_ v: Lanes, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self) }

    /// `into[i] += add[i]` for `count` values.
    static func add(_ add: UnsafePointer<Float>, into: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i + width <= count {
            let target = UnsafeMutableRawPointer(into + i)
            target.storeBytes(of: target.loadUnaligned(as: Lanes.self) + UnsafeRawPointer(add + i).loadUnaligned(as: Lanes.self),
                              as: Lanes.self)
            i += width
        }
        while i < count { into[i] += add[i]; i += 1 }
    }
}

extension VectorMath {
    /// out[r] = scales[r] · Σ codes[r·d + i] · query[i] for `rows` stored vectors (``VectorCoding``'s
    /// bytes): in C sixteen at a time where `wide`, else here.
    static func scores(codes: UnsafePointer<Int8>, scales: UnsafePointer<Float>, query: UnsafePointer<Float>, rows: Range<Int>,
                       dimension d: Int, out: UnsafeMutablePointer<Float>, wide: Bool = wide) {
        if wide {
            return quire_wide_scores(codes + rows.lowerBound * d, scales + rows.lowerBound, query, rows.count, Int32(d),
                                     out + rows.lowerBound)
        }
        let lanes = d / 16 * 16
        for row in rows {
            let r = codes + row * d
            var acc = SIMD16<Float>(repeating: 0)
            var i = 0
            while i < lanes {
                let bytes = UnsafeRawPointer(r + i).loadUnaligned(as: SIMD16<Int8>.self)
                let values = UnsafeRawPointer(query + i).loadUnaligned(as: SIMD16<Float>.self)
                acc += SIMD16<Float>(SIMD16<Int32>(truncatingIfNeeded: bytes)) * values
                i += 16
            }
            var sum = acc.sum()
            while i < d { sum += Float(r[i]) * query[i]; i += 1 }
            out[row] = sum * scales[row]
        }
    }
}

