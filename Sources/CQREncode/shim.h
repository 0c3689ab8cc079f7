#ifndef QUIRE_CQRENCODE_SHIM_H
#define QUIRE_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
