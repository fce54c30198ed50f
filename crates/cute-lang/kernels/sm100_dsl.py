# The Blackwell dense GEMM's set-up in CuTeDSL (the dense_gemm example), its class's
# attributes as top-level names: F16 A and B, K-major, a 1-CTA 128x256 UMMA tile, TMA
# store epilogue, the stage count the example computes.
import cutlass
a_dtype = cutlass.Float16
b_dtype = cutlass.Float16
c_dtype = cutlass.Float16
acc_dtype = cutlass.Float32
c_layout = utils.LayoutEnum.ROW_MAJOR
use_2cta_instrs = False
use_tma_store = True
occupancy = 1
tiled_mma = sm100_utils.make_trivial_tiled_mma(a_dtype, tcgen05.OperandMajorMode.K, tcgen05.OperandMajorMode.K, acc_dtype, tcgen05.CtaGroup.ONE, (128, 256))
mma_inst_shape_k = cute.size(tiled_mma.shape_mnk, mode=[2])
mma_tiler = (128, 256, mma_inst_shape_k * 4)
cta_tile_shape_mnk = (mma_tiler[0] // cute.size(tiled_mma.thr_id.shape), mma_tiler[1], mma_tiler[2])
epi_tile = sm100_utils.compute_epilogue_tile_shape(cta_tile_shape_mnk, use_2cta_instrs, c_layout, c_dtype)
smem_capacity = utils.get_smem_capacity_in_bytes()
# _compute_stages
num_acc_stage = 1
num_c_stage = 2 if use_tma_store else 0
a_smem_layout_stage_one = sm100_utils.make_smem_layout_a(tiled_mma, mma_tiler, a_dtype, 1)
b_smem_layout_staged_one = sm100_utils.make_smem_layout_b(tiled_mma, mma_tiler, b_dtype, 1)
c_smem_layout_staged_one = sm100_utils.make_smem_layout_epi(c_dtype, c_layout, epi_tile, 1)
ab_bytes_per_stage = cute.size_in_bytes(a_dtype, a_smem_layout_stage_one) + cute.size_in_bytes(b_dtype, b_smem_layout_staged_one)
mbar_helpers_bytes = 1024
c_bytes_per_stage = cute.size_in_bytes(c_dtype, c_smem_layout_staged_one)
c_bytes = c_bytes_per_stage * num_c_stage
num_ab_stage = (smem_capacity - (occupancy + 1) * (mbar_helpers_bytes + c_bytes)) // ab_bytes_per_stage
num_c_stage += (smem_capacity - ab_bytes_per_stage * num_ab_stage - (occupancy + 1) * (mbar_helpers_bytes + c_bytes)) // ((occupancy + 1) * c_bytes_per_stage)
# The staged layouts
a_smem_layout_staged = sm100_utils.make_smem_layout_a(tiled_mma, mma_tiler, a_dtype, num_ab_stage)
b_smem_layout_staged = sm100_utils.make_smem_layout_b(tiled_mma, mma_tiler, b_dtype, num_ab_stage)
c_smem_layout_staged = sm100_utils.make_smem_layout_epi(c_dtype, c_layout, epi_tile, num_c_stage)
copy_atom_t2r = sm100_utils.get_tmem_load_op(cta_tile_shape_mnk, c_layout, c_dtype, acc_dtype, epi_tile, use_2cta_instrs)
