#pragma once
#pragma gtap function
__device__ int f(int n) { return n; }
