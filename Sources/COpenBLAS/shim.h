#ifndef QUIRE_COPENBLAS_SHIM_H
#define QUIRE_COPENBLAS_SHIM_H
#include <cblas.h>
#endif
