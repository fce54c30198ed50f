// bank_bench.cu — one-warp shared-memory micro-benchmark for Nsight Compute.
//
// Each launch runs ONE warp (1 block x 32 threads) that reads its lane's byte
// offset from global memory and executes exactly ONE shared-memory instruction
// of the requested kind (inline PTX), then writes whatever it loaded to global
// memory.  No other shared-memory access happens in the kernels.  Profile every
// launch with ncu; the launch order is the order of the input file (plus a
// control launch at the start and at the end, see below).
//
// Input (text, produced by corpus_to_launches.py), one launch per line:
//     <launch_id> <op> <a0> <a1> ... <a31>
// where <op> is one of ld8 ld16 ld32 ld64 ld128 st8 st16 st32 st64 st128 ldsm_x1 ...
// stsm_x4_t cpasync_ca32 cpasync_ca64 cpasync_ca128 cpasync_cg128 (and the same four with
// _gm) or "control", and a value of -1 marks an inactive lane.  cp.async copies from a
// global buffer at lane * size (coalesced), or with _gm at the lane's shared offset, then
// waits for the copy (cp.async.wait_all: LDGDEPBAR + DEPBAR, no shared-memory access).
//
// Output: a side log (argv[2]) with one line per launch:
//     <launch_id> <op> <kernel name> <smem base address (shared window)>
//
// Build: nvcc -arch=sm_90 -O3 -o bank_bench bank_bench.cu
// Usage: bank_bench launches.txt launchlog.tsv
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(call)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n", cudaGetErrorName(e_),  \
              (int)e_, __FILE__, __LINE__, #call);                                \
      fprintf(stderr, "  %s\n", cudaGetErrorString(e_));                          \
      exit(2);                                                                    \
    }                                                                             \
  } while (0)

static const int kSmemBytes = 96 * 1024;
// out layout: 32 lanes x 4 words, then word 128 = shared base address.
static const int kOutWords = 32 * 4 + 4;

__device__ __forceinline__ unsigned smem_base() {
  extern __shared__ __align__(1024) unsigned char dyn_smem[];
  return (unsigned)__cvta_generic_to_shared(dyn_smem);
}

// ---------------------------------------------------------------------------
// Plain ld.shared / st.shared. Inactive lanes (address < 0) skip the asm.
// ---------------------------------------------------------------------------
#define PROLOGUE                                   \
  const int lane = threadIdx.x;                    \
  const int a = addrs[lane];                       \
  const unsigned base = smem_base();               \
  if (lane == 0) out[128] = base;                  \
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;

#define EPILOGUE                                   \
  out[lane * 4 + 0] = r0;                          \
  out[lane * 4 + 1] = r1;                          \
  out[lane * 4 + 2] = r2;                          \
  out[lane * 4 + 3] = r3;

// 8- and 16-bit loads and stores (LDS.U8 / LDS.U16 / STS.U8 / STS.U16).
extern "C" __global__ void bb_ld8(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  if (a >= 0) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r0) : "r"(base + a) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_ld16(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  if (a >= 0) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(r0) : "r"(base + a) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_st8(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  r0 = lane + 1u;
  if (a >= 0) asm volatile("st.shared.u8 [%0], %1;" :: "r"(base + a), "r"(r0) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_st16(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  r0 = lane + 1u;
  if (a >= 0) asm volatile("st.shared.u16 [%0], %1;" :: "r"(base + a), "r"(r0) : "memory");
  EPILOGUE
}

// ---------------------------------------------------------------------------
// cp.async (LDGSTS): global -> shared, 4/8/16 bytes (.ca) or 16 bytes (.cg).
// ---------------------------------------------------------------------------
__device__ __align__(1024) unsigned char g_src[kSmemBytes];

#define CPASYNC(NAME, CACHE, BYTES, MIRROR)                                                 \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                                 \
    if (a >= 0) {                                                                            \
      const unsigned char* src = g_src + (MIRROR ? a : lane * BYTES);                        \
      asm volatile("cp.async." CACHE ".shared.global [%0], [%1], " #BYTES ";"                \
                   :: "r"(base + a), "l"(__cvta_generic_to_global(src)) : "memory");         \
    }                                                                                        \
    asm volatile("cp.async.wait_all;" ::: "memory");                                         \
    r0 = (unsigned)a;                                                                        \
    EPILOGUE                                                                                 \
  }
CPASYNC(cpasync_ca32, "ca", 4, 0)
CPASYNC(cpasync_ca64, "ca", 8, 0)
CPASYNC(cpasync_ca128, "ca", 16, 0)
CPASYNC(cpasync_cg128, "cg", 16, 0)
CPASYNC(cpasync_ca32_gm, "ca", 4, 1)
CPASYNC(cpasync_ca64_gm, "ca", 8, 1)
CPASYNC(cpasync_ca128_gm, "ca", 16, 1)
CPASYNC(cpasync_cg128_gm, "cg", 16, 1)

// _gx: the global offset of lane l is given too (launch line: 32 shared offsets, then 32
// global offsets into g_src), to vary the global side independently of the shared one.
#define CPASYNC_GX(NAME, CACHE, BYTES)                                                      \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                                 \
    const int g = addrs[32 + lane];                                                          \
    if (a >= 0) {                                                                            \
      const unsigned char* src = g_src + g;                                                  \
      asm volatile("cp.async." CACHE ".shared.global [%0], [%1], " #BYTES ";"                \
                   :: "r"(base + a), "l"(__cvta_generic_to_global(src)) : "memory");         \
    }                                                                                        \
    asm volatile("cp.async.wait_all;" ::: "memory");                                         \
    r0 = (unsigned)a;                                                                        \
    EPILOGUE                                                                                 \
  }
// _gxw: as _gx, but each lane first loads its global 16 bytes (ld.global.ca), so that the
// cp.async finds its lines in L1 (a hit) instead of missing.
#define CPASYNC_GXW(NAME, CACHE, BYTES)                                                     \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                                 \
    const int g = addrs[32 + lane];                                                          \
    if (a >= 0) {                                                                            \
      const unsigned char* src = g_src + g;                                                  \
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(r1)                                   \
                   : "l"(__cvta_generic_to_global(src)) : "memory");                         \
      asm volatile("cp.async." CACHE ".shared.global [%0], [%1], " #BYTES ";"                \
                   :: "r"(base + a), "l"(__cvta_generic_to_global(src)) : "memory");         \
    }                                                                                        \
    asm volatile("cp.async.wait_all;" ::: "memory");                                         \
    r0 = (unsigned)a;                                                                        \
    EPILOGUE                                                                                 \
  }
CPASYNC_GXW(cpasync_ca128_gxw, "ca", 16)
CPASYNC_GX(cpasync_ca32_gx, "ca", 4)
CPASYNC_GX(cpasync_ca64_gx, "ca", 8)
CPASYNC_GX(cpasync_ca128_gx, "ca", 16)
CPASYNC_GX(cpasync_cg128_gx, "cg", 16)

extern "C" __global__ void bb_control(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  r0 = (unsigned)a;  // no shared-memory access at all
  EPILOGUE
}

extern "C" __global__ void bb_ld32(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  if (a >= 0) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(base + a) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_ld64(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  if (a >= 0)
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(base + a) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_ld128(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  if (a >= 0)
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(base + a) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_st32(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  r0 = lane * 4u;
  if (a >= 0) asm volatile("st.shared.u32 [%0], %1;" :: "r"(base + a), "r"(r0) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_st64(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  r0 = lane * 4u; r1 = r0 + 1;
  if (a >= 0) asm volatile("st.shared.v2.u32 [%0], {%1, %2};" :: "r"(base + a), "r"(r0), "r"(r1) : "memory");
  EPILOGUE
}
extern "C" __global__ void bb_st128(const int* __restrict__ addrs, unsigned* __restrict__ out) {
  PROLOGUE
  r0 = lane * 4u; r1 = r0 + 1; r2 = r0 + 2; r3 = r0 + 3;
  if (a >= 0)
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "r"(base + a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
  EPILOGUE
}

// ---------------------------------------------------------------------------
// ldmatrix / stmatrix (.sync.aligned: every lane of the warp must execute it).
// Inactive lanes (-1) are NOT skipped here, since that is undefined behaviour;
// corpus_to_launches.py replaces -1 by 0 for these ops and records that.
// ---------------------------------------------------------------------------
#define LDSM(NAME, SUFFIX)                                                                \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                               \
    asm volatile("ldmatrix.sync.aligned.m8n8.x1" SUFFIX ".shared.b16 {%0}, [%1];"          \
                 : "=r"(r0) : "r"(base + a) : "memory");                                   \
    EPILOGUE                                                                               \
  }
#define LDSM2(NAME, SUFFIX)                                                               \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                               \
    asm volatile("ldmatrix.sync.aligned.m8n8.x2" SUFFIX ".shared.b16 {%0, %1}, [%2];"      \
                 : "=r"(r0), "=r"(r1) : "r"(base + a) : "memory");                         \
    EPILOGUE                                                                               \
  }
#define LDSM4(NAME, SUFFIX)                                                               \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                               \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4" SUFFIX ".shared.b16 {%0, %1, %2, %3}, [%4];" \
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(base + a) : "memory");     \
    EPILOGUE                                                                               \
  }
#define STSM(NAME, SUFFIX)                                                                \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                               \
    r0 = lane * 4u;                                                                        \
    asm volatile("stmatrix.sync.aligned.m8n8.x1" SUFFIX ".shared.b16 [%0], {%1};"          \
                 :: "r"(base + a), "r"(r0) : "memory");                                    \
    EPILOGUE                                                                               \
  }
#define STSM2(NAME, SUFFIX)                                                               \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                               \
    r0 = lane * 4u; r1 = r0 + 1;                                                           \
    asm volatile("stmatrix.sync.aligned.m8n8.x2" SUFFIX ".shared.b16 [%0], {%1, %2};"      \
                 :: "r"(base + a), "r"(r0), "r"(r1) : "memory");                           \
    EPILOGUE                                                                               \
  }
#define STSM4(NAME, SUFFIX)                                                               \
  extern "C" __global__ void bb_##NAME(const int* __restrict__ addrs, unsigned* __restrict__ out) { \
    PROLOGUE                                                                               \
    r0 = lane * 4u; r1 = r0 + 1; r2 = r0 + 2; r3 = r0 + 3;                                 \
    asm volatile("stmatrix.sync.aligned.m8n8.x4" SUFFIX ".shared.b16 [%0], {%1, %2, %3, %4};" \
                 :: "r"(base + a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");         \
    EPILOGUE                                                                               \
  }

LDSM(ldsm_x1, "")
LDSM2(ldsm_x2, "")
LDSM4(ldsm_x4, "")
LDSM(ldsm_x1_t, ".trans")
LDSM2(ldsm_x2_t, ".trans")
LDSM4(ldsm_x4_t, ".trans")
STSM(stsm_x1, "")
STSM2(stsm_x2, "")
STSM4(stsm_x4, "")
STSM(stsm_x1_t, ".trans")
STSM2(stsm_x2_t, ".trans")
STSM4(stsm_x4_t, ".trans")

typedef void (*KernelFn)(const int*, unsigned*);
struct OpEntry {
  const char* op;
  KernelFn fn;
};
static const OpEntry kOps[] = {
    {"control", bb_control},
    {"ld8", bb_ld8},         {"ld16", bb_ld16},       {"st8", bb_st8},         {"st16", bb_st16},
    {"cpasync_ca32", bb_cpasync_ca32},   {"cpasync_ca64", bb_cpasync_ca64},
    {"cpasync_ca128", bb_cpasync_ca128}, {"cpasync_cg128", bb_cpasync_cg128},
    {"cpasync_ca32_gm", bb_cpasync_ca32_gm},   {"cpasync_ca64_gm", bb_cpasync_ca64_gm},
    {"cpasync_ca128_gm", bb_cpasync_ca128_gm}, {"cpasync_cg128_gm", bb_cpasync_cg128_gm},
    {"cpasync_ca32_gx", bb_cpasync_ca32_gx},   {"cpasync_ca64_gx", bb_cpasync_ca64_gx},
    {"cpasync_ca128_gx", bb_cpasync_ca128_gx}, {"cpasync_cg128_gx", bb_cpasync_cg128_gx},
    {"cpasync_ca128_gxw", bb_cpasync_ca128_gxw},
    {"ld32", bb_ld32},       {"ld64", bb_ld64},       {"ld128", bb_ld128},
    {"st32", bb_st32},       {"st64", bb_st64},       {"st128", bb_st128},
    {"ldsm_x1", bb_ldsm_x1}, {"ldsm_x2", bb_ldsm_x2}, {"ldsm_x4", bb_ldsm_x4},
    {"ldsm_x1_t", bb_ldsm_x1_t}, {"ldsm_x2_t", bb_ldsm_x2_t}, {"ldsm_x4_t", bb_ldsm_x4_t},
    {"stsm_x1", bb_stsm_x1}, {"stsm_x2", bb_stsm_x2}, {"stsm_x4", bb_stsm_x4},
    {"stsm_x1_t", bb_stsm_x1_t}, {"stsm_x2_t", bb_stsm_x2_t}, {"stsm_x4_t", bb_stsm_x4_t},
};
static const int kNumOps = sizeof(kOps) / sizeof(kOps[0]);

static int find_op(const char* op) {
  for (int i = 0; i < kNumOps; ++i)
    if (strcmp(kOps[i].op, op) == 0) return i;
  return -1;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s launches.txt launchlog.tsv\n", argv[0]);
    return 1;
  }
  FILE* in = fopen(argv[1], "r");
  if (!in) { perror(argv[1]); return 1; }
  FILE* log = fopen(argv[2], "w");
  if (!log) { perror(argv[2]); return 1; }

  int dev = 0;
  CK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  fprintf(stderr, "device: %s (sm_%d%d), smem/block optin %zu\n", prop.name, prop.major,
          prop.minor, (size_t)prop.sharedMemPerBlockOptin);
  for (int i = 0; i < kNumOps; ++i)
    CK(cudaFuncSetAttribute((const void*)kOps[i].fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            kSmemBytes));

  int* d_addrs = nullptr;
  unsigned* d_out = nullptr;
  CK(cudaMalloc(&d_addrs, 64 * sizeof(int)));
  CK(cudaMalloc(&d_out, kOutWords * sizeof(unsigned)));
  CK(cudaMemset(d_out, 0, kOutWords * sizeof(unsigned)));

  std::vector<unsigned> h_out(kOutWords);
  char opbuf[64];
  long launch_id;
  long n = 0;
  while (fscanf(in, "%ld %63s", &launch_id, opbuf) == 2) {
    int addrs[64] = {0};
    const size_t oplen = strlen(opbuf);
    const bool gx = (oplen > 3 && strcmp(opbuf + oplen - 3, "_gx") == 0) ||
                    (oplen > 4 && strcmp(opbuf + oplen - 4, "_gxw") == 0);
    const int n_in = gx ? 64 : 32;
    for (int l = 0; l < n_in; ++l) {
      if (fscanf(in, "%d", &addrs[l]) != 1) {
        fprintf(stderr, "bad input line for launch %ld (lane %d)\n", launch_id, l);
        return 1;
      }
      if (addrs[l] >= kSmemBytes || addrs[l] < (l < 32 ? -1 : 0)) {
        fprintf(stderr, "launch %ld: lane %d offset %d out of range\n", launch_id, l, addrs[l]);
        return 1;
      }
    }
    int k = find_op(opbuf);
    if (k < 0) {
      fprintf(stderr, "launch %ld: unknown op '%s'\n", launch_id, opbuf);
      return 1;
    }
    CK(cudaMemcpy(d_addrs, addrs, sizeof(addrs), cudaMemcpyHostToDevice));
    void* args[] = {(void*)&d_addrs, (void*)&d_out};
    CK(cudaLaunchKernel((const void*)kOps[k].fn, dim3(1), dim3(32), args, (size_t)kSmemBytes, 0));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_out.data(), d_out, kOutWords * sizeof(unsigned), cudaMemcpyDeviceToHost));
    fprintf(log, "%ld\t%s\tbb_%s\t%u\n", launch_id, opbuf, opbuf, h_out[128]);
    ++n;
  }
  if (!feof(in)) {
    fprintf(stderr, "trailing garbage in %s after %ld launches\n", argv[1], n);
    return 1;
  }
  fclose(in);
  if (fclose(log) != 0) { perror(argv[2]); return 1; }
  CK(cudaFree(d_addrs));
  CK(cudaFree(d_out));
  fprintf(stderr, "done: %ld launches\n", n);
  return 0;
}
