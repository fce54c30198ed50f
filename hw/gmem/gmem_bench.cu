// gmem_bench.cu — one-warp global-memory micro-benchmark for Nsight Compute.
//
// Each launch runs ONE warp (1 block x 32 threads). Lane l takes its byte offset from
// constant memory (so no global or local load happens besides the one measured) and runs
// exactly ONE global load or store of 1, 2, 4, 8 or 16 bytes (inline PTX, `asm volatile`)
// at buffer + offset; an offset of -1 leaves the lane inactive (it skips the instruction,
// which the compiler predicates). A load's result is compared with a run-time value that
// never matches (ptxas drops a load whose result is unused), so the store behind it never
// runs; the store kernels contain no load. ncu profiles every launch; the launch
// log maps them back to (pattern, instruction) by order.
//
// Input (text, from corpus.py launches), one launch per line:
//     <launch_id> <op> <a0> ... <a31>
// op: ld8 ld16 ld32 ld64 ld128 st8 st16 st32 st64 st128 cpasync_ca32 cpasync_ca64
//     cpasync_ca128 cpasync_cg128 control
// Output (argv[2]): one line per launch: <launch_id> <op> <kernel> <buffer address mod 4096>
//
// Build: nvcc -arch=sm_90 -O3 -o gmem_bench gmem_bench.cu
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CK(call)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_),      \
              __FILE__, __LINE__, #call);                                        \
      exit(2);                                                                   \
    }                                                                            \
  } while (0)

// 1 MiB window; the base is aligned to 4 KiB so offsets are the address's low bits.
static const int kBufBytes = 1 << 20;
__constant__ int c_offs[32];

#define LANE_ADDR                                        \
  const int a = c_offs[threadIdx.x];                     \
  if (a < 0) return;                                     \
  char* p = buf + a;

// never true (the buffer holds zeros and magic is not 0): keeps the load alive
#define SINK(val) \
  if ((unsigned)(val) == magic) buf[threadIdx.x] = 1;

extern "C" __global__ void gb_control(char* buf, unsigned magic) { (void)buf; (void)magic; }

extern "C" __global__ void gb_ld8(char* buf, unsigned magic) {
  LANE_ADDR unsigned short v;
  asm volatile("ld.global.u8 %0, [%1];" : "=h"(v) : "l"(p));
  SINK(v);
}
extern "C" __global__ void gb_ld16(char* buf, unsigned magic) {
  LANE_ADDR unsigned short v;
  asm volatile("ld.global.u16 %0, [%1];" : "=h"(v) : "l"(p));
  SINK(v);
}
extern "C" __global__ void gb_ld32(char* buf, unsigned magic) {
  LANE_ADDR unsigned v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  SINK(v);
}
extern "C" __global__ void gb_ld64(char* buf, unsigned magic) {
  LANE_ADDR unsigned v0, v1;
  asm volatile("ld.global.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "l"(p));
  SINK(v0 ^ v1);
}
extern "C" __global__ void gb_ld128(char* buf, unsigned magic) {
  LANE_ADDR unsigned v0, v1, v2, v3;
  asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "l"(p));
  SINK(v0 ^ v1 ^ v2 ^ v3);
}
extern "C" __global__ void gb_st8(char* buf, unsigned magic) {
  LANE_ADDR unsigned short v = threadIdx.x;
  asm volatile("st.global.u8 [%0], %1;" :: "l"(p), "h"(v) : "memory");
}
extern "C" __global__ void gb_st16(char* buf, unsigned magic) {
  LANE_ADDR unsigned short v = threadIdx.x;
  asm volatile("st.global.u16 [%0], %1;" :: "l"(p), "h"(v) : "memory");
}
extern "C" __global__ void gb_st32(char* buf, unsigned magic) {
  LANE_ADDR unsigned v = threadIdx.x;
  asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
extern "C" __global__ void gb_st64(char* buf, unsigned magic) {
  LANE_ADDR unsigned v = threadIdx.x;
  asm volatile("st.global.v2.u32 [%0], {%1,%1};" :: "l"(p), "r"(v) : "memory");
}
extern "C" __global__ void gb_st128(char* buf, unsigned magic) {
  LANE_ADDR unsigned v = threadIdx.x;
  asm volatile("st.global.v4.u32 [%0], {%1,%1,%1,%1};" :: "l"(p), "r"(v) : "memory");
}

// cp.async: lane l reads `bytes` at its global offset into shared memory at l * bytes
// (distinct, conflict-free words), then waits; no other shared or global access.
#define CP_ASYNC(NAME, CACHE, BYTES)                                                   \
  extern "C" __global__ void gb_##NAME(char* buf, unsigned magic) {                    \
    (void)magic;                                                                       \
    __shared__ __align__(128) char s[32 * 16];                                          \
    LANE_ADDR                                                                          \
    unsigned d = (unsigned)__cvta_generic_to_shared(s + threadIdx.x * BYTES);          \
    asm volatile("cp.async." CACHE ".shared.global [%0], [%1], " #BYTES ";" ::"r"(d), "l"(p) \
                 : "memory");                                                          \
    asm volatile("cp.async.wait_all;" ::: "memory");                                   \
  }
CP_ASYNC(cpasync_ca32, "ca", 4)
CP_ASYNC(cpasync_ca64, "ca", 8)
CP_ASYNC(cpasync_ca128, "ca", 16)
CP_ASYNC(cpasync_cg128, "cg", 16)

struct Op { const char* name; void (*k)(char*, unsigned); int bytes; };
static const Op kOps[] = {
    {"control", gb_control, 1}, {"ld8", gb_ld8, 1},   {"ld16", gb_ld16, 2},
    {"ld32", gb_ld32, 4},       {"ld64", gb_ld64, 8}, {"ld128", gb_ld128, 16},
    {"st8", gb_st8, 1},         {"st16", gb_st16, 2}, {"st32", gb_st32, 4},
    {"st64", gb_st64, 8},       {"st128", gb_st128, 16},
    {"cpasync_ca32", gb_cpasync_ca32, 4},   {"cpasync_ca64", gb_cpasync_ca64, 8},
    {"cpasync_ca128", gb_cpasync_ca128, 16}, {"cpasync_cg128", gb_cpasync_cg128, 16},
};

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s launches.txt launchlog.tsv\n", argv[0]);
    return 1;
  }
  FILE* in = fopen(argv[1], "r");
  FILE* log = fopen(argv[2], "w");
  if (!in || !log) { perror("open"); return 1; }
  char* raw = nullptr;
  CK(cudaMalloc(&raw, kBufBytes + 4096));
  CK(cudaMemset(raw, 0, kBufBytes + 4096));
  char* buf = (char*)(((unsigned long long)raw + 4095) & ~4095ull);
  long id, n = 0;
  char opbuf[64];
  while (fscanf(in, "%ld %63s", &id, opbuf) == 2) {
    int offs[32];
    const Op* op = nullptr;
    for (const Op& o : kOps)
      if (!strcmp(o.name, opbuf)) op = &o;
    if (!op) { fprintf(stderr, "launch %ld: unknown op '%s'\n", id, opbuf); return 1; }
    for (int l = 0; l < 32; ++l) {
      if (fscanf(in, "%d", &offs[l]) != 1) { fprintf(stderr, "launch %ld: short line\n", id); return 1; }
      if (offs[l] < -1 || offs[l] > kBufBytes - op->bytes || (offs[l] >= 0 && offs[l] % op->bytes)) {
        fprintf(stderr, "launch %ld: lane %d offset %d out of range or misaligned\n", id, l, offs[l]);
        return 1;
      }
    }
    CK(cudaMemcpyToSymbol(c_offs, offs, sizeof offs));
    op->k<<<1, 32>>>(buf, 0x9e3779b9u);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    fprintf(log, "%ld\t%s\tgb_%s\t%llu\n", id, opbuf, opbuf, (unsigned long long)buf % 4096);
    ++n;
  }
  if (!feof(in)) { fprintf(stderr, "trailing garbage after %ld launches\n", n); return 1; }
  fclose(log);
  CK(cudaFree(raw));
  fprintf(stderr, "done: %ld launches\n", n);
  return 0;
}
