// A GeForce Blackwell (SM120) FP8 GEMM: e4m3 A (row-major) and B (column-major), the only
// layouts SM120's builder takes, float accumulators, a 128x128x128 tile on a 1x1x1 cluster
// (SM120 has no multicast). StageCountAuto fills the 99 KiB of shared memory with A and B
// alone: the report shows how little is left for the epilogue, which is why CUTLASS's
// examples pass the epilogue's shared storage as the carveout.
using ElementA = cutlass::float_e4m3_t;
using LayoutA = cutlass::layout::RowMajor;
constexpr int AlignmentA = 128 / cutlass::sizeof_bits<ElementA>::value;
using ElementB = cutlass::float_e4m3_t;
using LayoutB = cutlass::layout::ColumnMajor;
constexpr int AlignmentB = 128 / cutlass::sizeof_bits<ElementB>::value;
using ElementAccumulator = float;
using TileShape = Shape<_128,_128,_128>;
using ClusterShape = Shape<_1,_1,_1>;
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm120, cutlass::arch::OpClassTensorOp,
    ElementA, LayoutA, AlignmentA,
    ElementB, LayoutB, AlignmentB,
    ElementAccumulator,
    TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAuto,
    cutlass::gemm::collective::KernelScheduleAuto
  >::CollectiveOp;
