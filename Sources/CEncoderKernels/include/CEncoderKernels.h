#ifndef QUIRE_CENCODERKERNELS_H
#define QUIRE_CENCODERKERNELS_H
#include <stdint.h>

/* The sentence encoder's hot loops in C, for the processor's widest instructions (QuireEmbedding's
   Int8Linear, VectorMath and BLAS wrap them; nothing else calls them).

   Matrix products of 8-bit integers for the encoder's linear layers. Weights are quantised once, per output row
   (symmetric, -127…127); each input row is quantised when it is used (asymmetric, 0…255, its own
   scale and minimum); products are summed in 32-bit integers by AVX-512 VNNI's dot products. */

/* Bytes of packed weights for `outputs` × `inputs` (outputs a multiple of 64, inputs of 16). */
long quire_int8_packed_size(int outputs, int inputs);

/* Whether this processor and system run the product (AVX-512 F, BW and VNNI). */
int quire_int8_available(void);

/* The widest vector instructions this processor and system run, as OpenBLAS names the kernels
   written for them: "SkylakeX" (AVX-512 F, BW, CD, DQ and VL), "Haswell" (AVX2 and FMA), or NULL. */
const char *quire_vector_kernels(void);

/* Quantises `weight` ([outputs][inputs], row-major, as PyTorch's Linear keeps it) into `packed`
   (quire_int8_packed_size bytes, 64-byte aligned), with each output's scale and the sum of its
   quantised weights. Portable C: runs anywhere. */
void quire_int8_pack(const float *weight, int outputs, int inputs,
                     int8_t *packed, float *scales, int32_t *sums);

/* out[r][o] = Σ input[r][i] · weight[o][i] + bias[o] for `rows` rows, through the quantised
   weights. `scratch` holds rows × inputs bytes, `rowScales` and `rowMinimums` rows floats each.
   Only where quire_int8_available() is true. */
void quire_int8_linear(const float *input, int rows, int inputs,
                       const int8_t *packed, const float *scales, const int32_t *sums,
                       const float *bias, int outputs, float *out,
                       uint8_t *scratch, float *rowScales, float *rowMinimums);

/* GELU, softmax and layer normalisation sixteen values at a time (AVX-512 F, BW, DQ and VL),
   with the same approximations as VectorMath's four-lane Swift: Eigen's rational erf, Cephes'
   exp. Only where quire_wide_available() is true. */
int quire_wide_available(void);
/* values[i] = x · (1 + erf(x / √2)) / 2, in place. */
void quire_wide_gelu(float *values, long count);
/* Each of `rows` rows of `width` values replaced by its softmax. */
void quire_wide_softmax(float *values, int rows, int width);
/* Each of `rows` rows of `width` values normalised (mean 0, variance 1, ε = 1e-12), then
   scaled by `weight` and shifted by `bias`, in place. */
void quire_wide_layer_norm(float *values, int rows, int width, const float *weight, const float *bias);
/* out[r] = scales[r] · Σ codes[r][i] · query[i] for `count` stored vectors of `dim` signed bytes
   (a search's cosines over VectorCoding's vectors). */
void quire_wide_scores(const int8_t *codes, const float *scales, const float *query, long count, int dim, float *out);

#endif
