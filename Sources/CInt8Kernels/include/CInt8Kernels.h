#ifndef QUIRE_CINT8KERNELS_H
#define QUIRE_CINT8KERNELS_H
#include <stdint.h>

/* Matrix products of 8-bit integers for the sentence encoder's linear layers (QuireEmbedding's
   Int8Linear wraps them; nothing else calls them). Weights are quantised once, per output row
   (symmetric, -127…127); each input row is quantised when it is used (asymmetric, 0…255, its own
   scale and minimum); products are summed in 32-bit integers by AVX-512 VNNI's dot products. */

/* Bytes of packed weights for `outputs` × `inputs` (outputs a multiple of 64, inputs of 16). */
long quire_int8_packed_size(int outputs, int inputs);

/* Whether this processor and system run the product (AVX-512 F, BW and VNNI). */
int quire_int8_available(void);

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

#endif
