#ifndef QUIRE_CLIBYAML_SHIM_H
#define QUIRE_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
