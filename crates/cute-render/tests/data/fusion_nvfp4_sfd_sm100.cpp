// NVFP4 x NVFP4 with block-scaled output: the epilogue writes D in FP4 and one UE8M0
// scale factor per 16 outputs (Blackwell, 1-SM).
using namespace cute;
#if defined(CUTLASS_ARCH_MMA_SM100_SUPPORTED)
using         ElementA     = cutlass::nv_float4_t<cutlass::float_e2m1_t>;
using         LayoutATag   = cutlass::layout::RowMajor;
constexpr int AlignmentA   = 32;
using         ElementB     = cutlass::nv_float4_t<cutlass::float_e2m1_t>;
using         LayoutBTag   = cutlass::layout::ColumnMajor;
constexpr int AlignmentB   = 32;
using         ElementD     = cutlass::float_e2m1_t;
using         ElementSFD   = cutlass::float_ue8m0_t;
using         ElementC     = float;
using         LayoutCTag   = cutlass::layout::RowMajor;
using         LayoutDTag   = cutlass::layout::RowMajor;
using         LayoutSFDTag = LayoutDTag;   // the output's scale factors follow D
constexpr int AlignmentD   = 128 / cutlass::sizeof_bits<ElementD>::value;
constexpr int AlignmentC   = 128 / cutlass::sizeof_bits<ElementC>::value;
using ElementAccumulator   = float;
using ElementCompute       = float;
using ArchTag              = cutlass::arch::Sm100;
using OperatorClass        = cutlass::arch::OpClassBlockScaledTensorOp;
using MmaTileShape         = Shape<_128,_128,_256>;
using ClusterShape         = Shape<_1,_1,_1>;
constexpr int InputSFVectorSize  = 16;
constexpr int OutputSFVectorSize = InputSFVectorSize;

using FusionOperation = cutlass::epilogue::fusion::LinCombBlockScaleFactor<
    OutputSFVectorSize, ElementD, ElementCompute, ElementSFD, LayoutSFDTag, ElementC>;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    ArchTag, OperatorClass,
    MmaTileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto,
    ElementAccumulator, ElementAccumulator,
    ElementC, LayoutCTag, AlignmentC,
    ElementD, LayoutDTag, AlignmentD,
    cutlass::epilogue::collective::EpilogueScheduleAuto,
    FusionOperation
  >::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    ArchTag, OperatorClass,
    ElementA, LayoutATag, AlignmentA,
    ElementB, LayoutBTag, AlignmentB,
    ElementAccumulator,
    MmaTileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::gemm::collective::KernelScheduleAuto
  >::CollectiveOp;

using GemmKernel = cutlass::gemm::kernel::GemmUniversal<
    Shape<int,int,int,int>, CollectiveMainloop, CollectiveEpilogue, void>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

using StrideA   = typename Gemm::GemmKernel::StrideA;
using LayoutA   = decltype(cute::make_layout(make_shape(0,0,0), StrideA{}));
using LayoutSFA = typename Gemm::GemmKernel::CollectiveMainloop::LayoutSFA;
using StrideB   = typename Gemm::GemmKernel::StrideB;
using LayoutSFB = typename Gemm::GemmKernel::CollectiveMainloop::LayoutSFB;
using StrideD   = typename Gemm::GemmKernel::StrideD;
using LayoutD   = decltype(cute::make_layout(make_shape(0,0,0), StrideD{}));
using FusionOp  = typename Gemm::EpilogueOutputOp;
constexpr bool IsBlockScaleSupported = FusionOp::IsBlockScaleSupported;
using SfdOutputCfg = cutlass::detail::Sm1xxBlockScaledOutputConfig<OutputSFVectorSize>;
using LayoutSFD = typename SfdOutputCfg::LayoutSF;
#endif
