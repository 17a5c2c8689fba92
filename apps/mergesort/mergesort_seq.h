/* mergesort_seq.h - the sequential merge and mergesort of mergesort.cu, shared by the GPU
 * program (device code) and the CPU baselines (C). */
#ifndef MERGESORT_SEQ_H
#define MERGESORT_SEQ_H

#if !defined(__CUDACC__) && !defined(GTAP_TARGET_HOST)
#define MS_FN static inline
#else
#define MS_FN static __host__ __device__ __forceinline__
#endif

/* Merges a[left..mid] and a[mid+1..right] (both non-empty and sorted) into buf, then copies
 * buf[left..right] back to a (as the paper's merge). Each side's next element is kept in a
 * register, so every element is loaded once. */
MS_FN void ms_merge(int *a, int *buf, int left, int mid, int right)
{
    int i = left, j = mid + 1, k = left;
    int x = a[i], y = a[j];
    for (;;) {
        if (x <= y) {
            buf[k++] = x;
            if (++i > mid)
                break;
            x = a[i];
        } else {
            buf[k++] = y;
            if (++j > right)
                break;
            y = a[j];
        }
    }
    while (i <= mid)
        buf[k++] = a[i++];
    while (j <= right)
        buf[k++] = a[j++];
    for (int t = left; t <= right; t++)
        a[t] = buf[t];
}

/* Sorts a[left..right] by the same recursion, down to single elements. */
#if !defined(__CUDACC__) && !defined(GTAP_TARGET_HOST)
static void ms_sort(int *a, int *buf, int left, int right)
#else
static __host__ __device__ void ms_sort(int *a, int *buf, int left, int right)
#endif
{
    if (left >= right)
        return;
    int mid = left + ((right - left) >> 1);
    ms_sort(a, buf, left, mid);
    ms_sort(a, buf, mid + 1, right);
    ms_merge(a, buf, left, mid, right);
}

#endif /* MERGESORT_SEQ_H */
