/* app_qualifiers.h - the CUDA function qualifiers for code the apps share between the GPU
 * program, its host-target build and the plain C / C++ baselines: outside CUDA they mean
 * nothing (the host target's cuda_runtime.h defines them already, hence the guards). */
#ifndef APP_QUALIFIERS_H
#define APP_QUALIFIERS_H

#if !defined(__CUDACC__)
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __forceinline__
#define __forceinline__ inline
#endif
#endif

#endif /* APP_QUALIFIERS_H */
