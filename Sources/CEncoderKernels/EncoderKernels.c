#include "CEncoderKernels.h"
#include <math.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Packed layout: panels of 64 outputs; within a panel, for each group of 4 inputs, the 64
   outputs' 4 weights side by side (256 bytes), so one 64-byte load gives 16 outputs' 4 weights,
   the shape VPDPBUSD multiplies against 4 input bytes broadcast to every lane. */
enum { PANEL = 64, GROUP = 4, ROWS = 6 };

long quire_int8_packed_size(int outputs, int inputs) { return (long)outputs * (long)inputs; }

int quire_int8_available(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}

const char *quire_vector_kernels(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512cd")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
    return 0;
}

void quire_int8_pack(const float *weight, int outputs, int inputs,
                     int8_t *packed, float *scales, int32_t *sums) {
    for (int o = 0; o < outputs; o++) {
        const float *row = weight + (long)o * inputs;
        float largest = 0;
        for (int i = 0; i < inputs; i++) { float a = fabsf(row[i]); if (a > largest) largest = a; }
        float scale = largest > 0 ? largest / 127.0f : 1.0f;
        scales[o] = scale;
        int32_t sum = 0;
        long panel = (long)(o / PANEL) * PANEL * inputs;
        int lane = o % PANEL;
        for (int i = 0; i < inputs; i++) {
            long q = lrintf(row[i] / scale);
            if (q > 127) q = 127;
            if (q < -127) q = -127;
            sum += (int32_t)q;
            packed[panel + (long)(i / GROUP) * PANEL * GROUP + lane * GROUP + i % GROUP] = (int8_t)q;
        }
        sums[o] = sum;
    }
}

#if defined(__x86_64__)
#define KERNEL_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))

/* Each row to bytes: q = round((x - minimum) / scale), scale = (maximum - minimum) / 255. */
KERNEL_TARGET static void quantise_rows(const float *input, int rows, int inputs, uint8_t *scratch,
                                        float *rowScales, float *rowMinimums) {
    const __m512i zero = _mm512_setzero_si512();
    for (int r = 0; r < rows; r++) {
        const float *x = input + (long)r * inputs;
        __m512 lo = _mm512_loadu_ps(x), hi = lo;
        for (int i = 16; i < inputs; i += 16) {
            __m512 v = _mm512_loadu_ps(x + i);
            lo = _mm512_min_ps(lo, v);
            hi = _mm512_max_ps(hi, v);
        }
        float minimum = _mm512_reduce_min_ps(lo), maximum = _mm512_reduce_max_ps(hi);
        float scale = (maximum - minimum) / 255.0f;
        if (!(scale > 0)) scale = 1.0f;
        rowScales[r] = scale;
        rowMinimums[r] = minimum;
        __m512 inverse = _mm512_set1_ps(1.0f / scale), shift = _mm512_set1_ps(minimum);
        uint8_t *q = scratch + (long)r * inputs;
        for (int i = 0; i < inputs; i += 16) {
            __m512 v = _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(x + i), shift), inverse);
            __m512i n = _mm512_max_epi32(_mm512_cvtps_epi32(v), zero);
            _mm_storeu_si128((__m128i *)(q + i), _mm512_cvtusepi32_epi8(n));
        }
    }
}

KERNEL_TARGET void quire_int8_linear(const float *input, int rows, int inputs,
                                     const int8_t *packed, const float *scales, const int32_t *sums,
                                     const float *bias, int outputs, float *out,
                                     uint8_t *scratch, float *rowScales, float *rowMinimums) {
    quantise_rows(input, rows, inputs, scratch, rowScales, rowMinimums);
    const int groups = inputs / GROUP;
    for (int p = 0; p < outputs / PANEL; p++) {
        const int8_t *w = packed + (long)p * PANEL * inputs;
        for (int r0 = 0; r0 < rows; r0 += ROWS) {
            const int count = rows - r0 < ROWS ? rows - r0 : ROWS;
            const uint8_t *x[ROWS];
            /* Past the last row, the block repeats its first (computed, never stored). */
            for (int r = 0; r < ROWS; r++) x[r] = scratch + (long)(r0 + (r < count ? r : 0)) * inputs;
            __m512i acc[ROWS][4];
            for (int r = 0; r < ROWS; r++)
                for (int c = 0; c < 4; c++) acc[r][c] = _mm512_setzero_si512();
            for (int g = 0; g < groups; g++) {
                const int8_t *wg = w + (long)g * PANEL * GROUP;
                __m512i w0 = _mm512_loadu_si512(wg), w1 = _mm512_loadu_si512(wg + 64);
                __m512i w2 = _mm512_loadu_si512(wg + 128), w3 = _mm512_loadu_si512(wg + 192);
                for (int r = 0; r < ROWS; r++) {
                    int32_t four;
                    memcpy(&four, x[r] + g * GROUP, sizeof four);
                    __m512i b = _mm512_set1_epi32(four);
                    acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], b, w0);
                    acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], b, w1);
                    acc[r][2] = _mm512_dpbusd_epi32(acc[r][2], b, w2);
                    acc[r][3] = _mm512_dpbusd_epi32(acc[r][3], b, w3);
                }
            }
            /* x ≈ minimum + scale·q and w = weightScale·wq, so Σ x·w = weightScale·(scale·Σ q·wq + minimum·Σ wq). */
            for (int r = 0; r < count; r++) {
                __m512 scale = _mm512_set1_ps(rowScales[r0 + r]), minimum = _mm512_set1_ps(rowMinimums[r0 + r]);
                for (int c = 0; c < 4; c++) {
                    int o = p * PANEL + c * 16;
                    __m512 products = _mm512_cvtepi32_ps(acc[r][c]);
                    __m512 weightSums = _mm512_cvtepi32_ps(_mm512_loadu_si512(sums + o));
                    __m512 v = _mm512_fmadd_ps(products, scale, _mm512_mul_ps(weightSums, minimum));
                    v = _mm512_fmadd_ps(v, _mm512_loadu_ps(scales + o), _mm512_loadu_ps(bias + o));
                    _mm512_storeu_ps(out + (long)(r0 + r) * outputs + o, v);
                }
            }
        }
    }
}
#else
void quire_int8_linear(const float *input, int rows, int inputs,
                       const int8_t *packed, const float *scales, const int32_t *sums,
                       const float *bias, int outputs, float *out,
                       uint8_t *scratch, float *rowScales, float *rowMinimums) {
    (void)input; (void)rows; (void)inputs; (void)packed; (void)scales; (void)sums;
    (void)bias; (void)outputs; (void)out; (void)scratch; (void)rowScales; (void)rowMinimums;
}
#endif

/* ---- Elementwise functions, sixteen lanes ---- */

int quire_wide_available(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

#if defined(__x86_64__)
#define WIDE_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

WIDE_TARGET static inline __m512 wide_clamp(__m512 v, float low, float high) {
    return _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(low)), _mm512_set1_ps(high));
}

/* erf(x), x clamped to ±4 (Eigen's rational approximation, as VectorMath.erf). */
WIDE_TARGET static inline __m512 wide_erf(__m512 v) {
    __m512 x = wide_clamp(v, -4.0f, 4.0f), x2 = _mm512_mul_ps(x, x);
    __m512 p = _mm512_set1_ps(-2.72614225801306e-10f);
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(2.77068142495902e-08f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(-2.10102402082508e-06f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(-5.69250639462346e-05f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(-7.34990630326855e-04f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(-2.95459980854025e-03f));
    p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(-1.60960333262415e-02f));
    p = _mm512_mul_ps(p, x);
    __m512 q = _mm512_set1_ps(-1.45660718464996e-05f);
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(-2.13374055278905e-04f));
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(-1.68282697438203e-03f));
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(-7.37332916720468e-03f));
    q = _mm512_fmadd_ps(q, x2, _mm512_set1_ps(-1.42647390514189e-02f));
    return _mm512_div_ps(p, q);
}

/* exp(x), x clamped to where the result is a normal float (Cephes, as VectorMath.exp). */
WIDE_TARGET static inline __m512 wide_exp(__m512 v) {
    __m512 x = wide_clamp(v, -87.3f, 88.7f);
    __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    __m512 y = _mm512_add_ps(_mm512_fmadd_ps(_mm512_mul_ps(p, r), r, r), _mm512_set1_ps(1.0f));
    return _mm512_scalef_ps(y, n);
}

/* The lanes of a block of `left` values (all sixteen when left ≥ 16). */
static inline __mmask16 lanes(long left) { return left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1); }

WIDE_TARGET void quire_wide_gelu(float *values, long count) {
    const __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f), root = _mm512_set1_ps(0.70710678118654752f);
    for (long i = 0; i < count; i += 16) {
        __mmask16 m = lanes(count - i);
        __m512 x = _mm512_maskz_loadu_ps(m, values + i);
        __m512 g = _mm512_mul_ps(_mm512_mul_ps(half, x), _mm512_add_ps(one, wide_erf(_mm512_mul_ps(x, root))));
        _mm512_mask_storeu_ps(values + i, m, g);
    }
}

WIDE_TARGET void quire_wide_softmax(float *values, int rows, int width) {
    for (int r = 0; r < rows; r++) {
        float *row = values + (long)r * width;
        __m512 tops = _mm512_set1_ps(-INFINITY);
        for (int c = 0; c < width; c += 16) {
            __mmask16 m = lanes(width - c);
            tops = _mm512_mask_max_ps(tops, m, tops, _mm512_maskz_loadu_ps(m, row + c));
        }
        __m512 shift = _mm512_set1_ps(_mm512_reduce_max_ps(tops));
        __m512 sums = _mm512_setzero_ps();
        for (int c = 0; c < width; c += 16) {
            __mmask16 m = lanes(width - c);
            __m512 e = wide_exp(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, row + c), shift));
            _mm512_mask_storeu_ps(row + c, m, e);
            sums = _mm512_mask_add_ps(sums, m, sums, e);
        }
        __m512 scale = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(sums));
        for (int c = 0; c < width; c += 16) {
            __mmask16 m = lanes(width - c);
            _mm512_mask_storeu_ps(row + c, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, row + c), scale));
        }
    }
}

WIDE_TARGET void quire_wide_layer_norm(float *values, int rows, int width, const float *weight, const float *bias) {
    for (int r = 0; r < rows; r++) {
        float *row = values + (long)r * width;
        __m512 sums = _mm512_setzero_ps();
        for (int c = 0; c < width; c += 16) sums = _mm512_add_ps(sums, _mm512_maskz_loadu_ps(lanes(width - c), row + c));
        float mean = _mm512_reduce_add_ps(sums) / (float)width;
        __m512 center = _mm512_set1_ps(mean), squares = _mm512_setzero_ps();
        for (int c = 0; c < width; c += 16) {
            __mmask16 m = lanes(width - c);
            __m512 d = _mm512_maskz_sub_ps(m, _mm512_maskz_loadu_ps(m, row + c), center);
            squares = _mm512_fmadd_ps(d, d, squares);
        }
        float variance = _mm512_reduce_add_ps(squares) / (float)width;
        __m512 inverse = _mm512_set1_ps(1.0f / sqrtf(variance + 1e-12f));
        for (int c = 0; c < width; c += 16) {
            __mmask16 m = lanes(width - c);
            __m512 n = _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, row + c), center), inverse);
            __m512 y = _mm512_fmadd_ps(n, _mm512_maskz_loadu_ps(m, weight + c), _mm512_maskz_loadu_ps(m, bias + c));
            _mm512_mask_storeu_ps(row + c, m, y);
        }
    }
}

WIDE_TARGET void quire_wide_scores(const int8_t *codes, const float *scales, const float *query, long count, int dim, float *out) {
    for (long r = 0; r < count; r++) {
        const int8_t *row = codes + r * dim;
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
        int i = 0;
        for (; i + 32 <= dim; i += 32) {
            __m512i x0 = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(row + i)));
            __m512i x1 = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(row + i + 16)));
            a0 = _mm512_fmadd_ps(_mm512_cvtepi32_ps(x0), _mm512_loadu_ps(query + i), a0);
            a1 = _mm512_fmadd_ps(_mm512_cvtepi32_ps(x1), _mm512_loadu_ps(query + i + 16), a1);
        }
        for (; i < dim; i += 16) {
            __mmask16 m = lanes(dim - i);
            __m512i x = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, row + i));
            a0 = _mm512_fmadd_ps(_mm512_cvtepi32_ps(x), _mm512_maskz_loadu_ps(m, query + i), a0);
        }
        out[r] = _mm512_reduce_add_ps(_mm512_add_ps(a0, a1)) * scales[r];
    }
}
#else
void quire_wide_scores(const int8_t *codes, const float *scales, const float *query, long count, int dim, float *out) {
    (void)codes; (void)scales; (void)query; (void)count; (void)dim; (void)out;
}
void quire_wide_gelu(float *values, long count) { (void)values; (void)count; }
void quire_wide_softmax(float *values, int rows, int width) { (void)values; (void)rows; (void)width; }
void quire_wide_layer_norm(float *values, int rows, int width, const float *weight, const float *bias) {
    (void)values; (void)rows; (void)width; (void)weight; (void)bias;
}
#endif
