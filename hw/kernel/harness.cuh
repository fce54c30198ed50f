// harness.cuh -- what the whole-GEMM programs of hw/kernel share: checked CUDA calls, the
// problem size from the command line, random half inputs, a reference GEMM on the GPU and the
// relative error of a half C against it.
#pragma once
#include <cute/tensor.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CK(call)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, \
              __LINE__, #call);                                                        \
      exit(2);                                                                         \
    }                                                                                  \
  } while (0)

namespace harness {
using cute::half_t;

// `prog [M N K]`: multiples of 128, 128, 64 (default 4096 each); exits on anything else.
inline void problem_size(int argc, char** argv, int& M, int& N, int& K) {
  M = N = K = 4096;
  if (argc >= 4) {
    M = atoi(argv[1]);
    N = atoi(argv[2]);
    K = atoi(argv[3]);
  }
  if (M <= 0 || N <= 0 || K <= 0 || M % 128 || N % 128 || K % 64) {
    fprintf(stderr, "M, N, K must be positive multiples of 128, 128, 64\n");
    exit(1);
  }
}

// A (M x K) and B (N x K), K-major, uniform in [-0.5, 0.5), copied to the GPU.
inline void random_inputs(int M, int N, int K, half_t** dA, half_t** dB) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::vector<half_t> a(size_t(M) * K), b(size_t(N) * K);
  for (auto& x : a) x = half_t(dist(rng));
  for (auto& x : b) x = half_t(dist(rng));
  CK(cudaMalloc(dA, sizeof(half_t) * a.size()));
  CK(cudaMalloc(dB, sizeof(half_t) * b.size()));
  CK(cudaMemcpy(*dA, a.data(), sizeof(half_t) * a.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(*dB, b.data(), sizeof(half_t) * b.size(), cudaMemcpyHostToDevice));
}

// One thread per element of C = A B^T, float accumulation, C(m,n) at m*sm + n*sn.
__global__ void reference_gemm(const half_t* A, const half_t* B, float* C, int M, int N, int K,
                               int sm, int sn) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y;
  if (m >= M) return;
  float s = 0;
  for (int k = 0; k < K; ++k) s += float(A[size_t(m) * K + k]) * float(B[size_t(n) * K + k]);
  C[size_t(m) * sm + size_t(n) * sn] = s;
}

// ||C - reference|| / ||reference|| of the half C on the GPU (strides sm, sn); a NaN (the
// poison C starts as) makes it infinite.
inline double rel_error(const half_t* dA, const half_t* dB, const half_t* dC, int M, int N, int K,
                        int sm, int sn) {
  float* dRef;
  CK(cudaMalloc(&dRef, sizeof(float) * size_t(M) * N));
  reference_gemm<<<dim3((M + 127) / 128, N), 128>>>(dA, dB, dRef, M, N, K, sm, sn);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<half_t> c(size_t(M) * N);
  std::vector<float> ref(c.size());
  CK(cudaMemcpy(c.data(), dC, sizeof(half_t) * c.size(), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ref.data(), dRef, sizeof(float) * ref.size(), cudaMemcpyDeviceToHost));
  CK(cudaFree(dRef));
  double err = 0, norm = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    double d = double(float(c[i])) - ref[i];
    if (!std::isfinite(float(c[i]))) d = INFINITY;
    err += d * d;
    norm += double(ref[i]) * ref[i];
  }
  return std::sqrt(err / norm);
}

// The line summarize.py reads.
inline bool report(const char* name, dim3 grid, int K, double rel, double tolerance) {
  bool ok = rel < tolerance;
  printf("%s grid=%dx%d ctas=%d k_tiles=%d rel_err=%.3g %s\n", name, grid.x, grid.y,
         grid.x * grid.y, K / 64, rel, ok ? "PASS" : "FAIL");
  return ok;
}
}  // namespace harness
