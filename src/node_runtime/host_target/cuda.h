/* cuda.h (host target): see cuda_runtime.h. */
#include "cuda_runtime.h"
