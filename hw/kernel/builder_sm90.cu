// builder_sm90.cu -- the GEMM that CUTLASS's two CollectiveBuilder lines make for the
// configuration of crates/cute-lang/kernels/sm90_collective_builder.cpp, as a whole GEMM under
// Nsight Compute: what the builders chose is then read off the hardware, not assumed.
//
// Configuration (the same types, unchanged):
//   half A (M x K) row-major, half B (K x N) column-major (so both K-major), alignment 8;
//   half C and D (M x N) row-major, alignment 8; float accumulator and compute;
//   Sm90, OpClassTensorOp, tile 128x128x64, cluster 1x2x1;
//   epilogue: CollectiveBuilder<..., EpilogueTileAuto, ..., EpilogueScheduleAuto>;
//   mainloop: CollectiveBuilder<..., StageCountAutoCarveout<sizeof(epilogue SharedStorage)>,
//             KernelScheduleAuto>;
//   kernel: GemmUniversal<Shape<int,int,int,int>, mainloop, epilogue>, GemmUniversalAdapter.
// Problem M=N=K=4096, L=1, alpha=1, beta=0. C is a separate buffer poisoned with NaN: if the
// epilogue read it (0 * NaN = NaN) the check fails, and the ncu global-load counters show it.
//
// Usage: builder_sm90 [M N K]   (multiples of 128, 128, 64; default 4096 4096 4096)
// Prints `builder_config KEY VALUE` lines (what the builders picked, what the adapter launches)
// and `builder grid=GxG ctas=C k_tiles=T rel_err=E PASS|FAIL` (hw/kernel/summarize.py).
// Build: nvcc -std=c++17 -arch=sm_90a -O3 --expt-relaxed-constexpr -I<cutlass>/include
#include <cutlass/cutlass.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

#include <cxxabi.h>

#include <cstdlib>
#include <string>
#include <typeinfo>

#include "harness.cuh"

using namespace cute;

// ---- the two builder lines, as in sm90_collective_builder.cpp ----
using ElementA = cutlass::half_t;
using LayoutA = cutlass::layout::RowMajor;
constexpr int AlignmentA = 128 / cutlass::sizeof_bits<ElementA>::value;
using ElementB = cutlass::half_t;
using LayoutB = cutlass::layout::ColumnMajor;
constexpr int AlignmentB = 128 / cutlass::sizeof_bits<ElementB>::value;
using ElementC = cutlass::half_t;
using LayoutC = cutlass::layout::RowMajor;
constexpr int AlignmentC = 128 / cutlass::sizeof_bits<ElementC>::value;
using ElementAccumulator = float;
using ArchTag = cutlass::arch::Sm90;
using OperatorClass = cutlass::arch::OpClassTensorOp;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _2, _1>;
using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    ArchTag, OperatorClass, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, ElementAccumulator, ElementAccumulator,
    ElementC, LayoutC, AlignmentC, ElementC, LayoutC, AlignmentC,
    cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    ArchTag, OperatorClass, ElementA, LayoutA, AlignmentA, ElementB, LayoutB, AlignmentB,
    ElementAccumulator, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<
        static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;
// ---- the kernel and the device adapter ----
using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>,
                                                        CollectiveMainloop, CollectiveEpilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

#define CUTLASS_CK(call)                                                               \
  do {                                                                                 \
    cutlass::Status s_ = (call);                                                       \
    if (s_ != cutlass::Status::kSuccess) {                                             \
      fprintf(stderr, "CUTLASS error %s at %s:%d: %s\n", cutlassGetStatusString(s_),   \
              __FILE__, __LINE__, #call);                                              \
      exit(2);                                                                         \
    }                                                                                  \
  } while (0)

// The C++ name of T, demangled: the builders' choices are types, so their names are the record.
template <class T>
static std::string type_name() {
  int status = 0;
  char* s = abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status);
  std::string out = status == 0 && s ? s : typeid(T).name();
  free(s);
  return out;
}

// One fact per line; summarize.py keeps these lines as the record's "config".
static void fact(const char* key, const std::string& value) {
  printf("builder_config %s %s\n", key, value.c_str());
}
static void fact(const char* key, long long value) { fact(key, std::to_string(value)); }
static std::string dims(dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}
template <class Layout>
static void fact_layout(const char* key, Layout const& layout) {
  printf("builder_config %s ", key);
  print(layout);
  printf("\n");
}

int main(int argc, char** argv) {
  int M, N, K;
  harness::problem_size(argc, argv, M, N, K);
  const int L = 1;
  const float alpha = 1.0f, beta = 0.0f;

  using Mainloop = CollectiveMainloop;
  using Policy = typename Mainloop::DispatchPolicy;
  fact("sizeof_kernel_shared_storage", sizeof(typename GemmKernel::SharedStorage));
  fact("kernel_shared_storage_size", GemmKernel::SharedStorageSize);
  fact("sizeof_mainloop_shared_storage", sizeof(typename Mainloop::SharedStorage));
  fact("sizeof_epilogue_shared_storage", sizeof(typename CollectiveEpilogue::SharedStorage));
  fact("stages", Policy::Stages);
  fact("schedule", type_name<typename Policy::Schedule>());
  fact("dispatch_policy", type_name<Policy>());
  fact("gmem_tiled_copy_a", type_name<typename Mainloop::GmemTiledCopyA>());
  fact("gmem_tiled_copy_b", type_name<typename Mainloop::GmemTiledCopyB>());
  fact_layout("smem_layout_a", typename Mainloop::SmemLayoutA{});
  fact_layout("smem_layout_b", typename Mainloop::SmemLayoutB{});
  fact("tiled_mma", type_name<typename Mainloop::TiledMma>());
  fact("mma_threads", size(typename Mainloop::TiledMma{}));
  fact("epilogue", type_name<CollectiveEpilogue>());
  fact("tile_scheduler", type_name<typename GemmKernel::TileScheduler>());
  fact("max_threads_per_block", GemmKernel::MaxThreadsPerBlock);

  ElementA* dA;
  ElementB* dB;
  ElementC *dC, *dD;
  // harness: A is M x K with K contiguous (row-major); B is N x K with K contiguous, which is
  // CUTLASS's column-major K x N B.
  harness::random_inputs(M, N, K, &dA, &dB);
  CK(cudaMalloc(&dC, sizeof(ElementC) * size_t(M) * N));
  CK(cudaMalloc(&dD, sizeof(ElementC) * size_t(M) * N));
  CK(cudaMemset(dC, 0xff, sizeof(ElementC) * size_t(M) * N));  // NaN: must not be read
  CK(cudaMemset(dD, 0xff, sizeof(ElementC) * size_t(M) * N));  // NaN until written

  // Packed strides (leading, 1, batch): A and B step K between rows, C and D step N.
  auto packed = [](auto stride, int64_t ld, int64_t batch) {
    get<0>(stride) = ld;
    get<2>(stride) = batch;
    return stride;
  };
  auto stride_A = packed(typename GemmKernel::StrideA{}, K, int64_t(M) * K);
  auto stride_B = packed(typename GemmKernel::StrideB{}, K, int64_t(N) * K);
  auto stride_C = packed(typename GemmKernel::StrideC{}, N, int64_t(M) * N);
  auto stride_D = packed(typename GemmKernel::StrideD{}, N, int64_t(M) * N);

  cutlass::KernelHardwareInfo hw_info;
  hw_info.device_id = 0;
  hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                {M, N, K, L},
                                {dA, stride_A, dB, stride_B},
                                {{alpha, beta}, dC, stride_C, dD, stride_D},
                                hw_info};

  // The epilogue's own answer to "is C read?" for these alpha, beta.
  typename CollectiveEpilogue::ThreadEpilogueOp thread_op(args.epilogue.thread);
  fact("epilogue_source_needed", int(thread_op.is_source_needed()));
  fact("sm_count", hw_info.sm_count);

  Gemm gemm;
  CUTLASS_CK(gemm.can_implement(args));
  size_t workspace_size = Gemm::get_workspace_size(args);
  fact("workspace_bytes", (long long)workspace_size);
  void* workspace = nullptr;
  if (workspace_size) CK(cudaMalloc(&workspace, workspace_size));
  CUTLASS_CK(gemm.initialize(args, workspace));

  // What run() launches: the same calls the adapter makes.
  dim3 grid = Gemm::get_grid_shape(gemm.params());
  dim3 block = GemmKernel::get_block_shape();
  dim3 cluster(size<0>(ClusterShape{}), size<1>(ClusterShape{}), size<2>(ClusterShape{}));
  fact("launch_grid", dims(grid));
  fact("launch_block", dims(block));
  fact("launch_cluster", dims(cluster));
  fact("launch_dynamic_smem", GemmKernel::SharedStorageSize);
  fact("output_tiles", (long long)(M / 128) * (N / 128));

  CUTLASS_CK(gemm.run());
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  // D is row-major (N-major); float accumulation, a half result
  double rel = harness::rel_error(dA, dB, dD, M, N, K, N, 1);
  bool ok = harness::report("builder", grid, K, rel, 1e-2);
  if (grid.z != 1) printf("builder_config note grid.z=%d: ctas above counts x*y only\n", grid.z);
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
  CK(cudaFree(dD));
  if (workspace) CK(cudaFree(workspace));
  return ok ? 0 : 3;
}
