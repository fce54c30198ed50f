# The Hopper dense GEMM's set-up in CuTeDSL (examples/python/CuTeDSL/cute/hopper/kernel/dense_gemm/dense_gemm.py):
# half A and B, K-major, a 128x128x64 CTA tile in 4 stages, two warpgroups of WGMMA, TMA loads.
a_dtype = cutlass.Float16
b_dtype = cutlass.Float16
acc_dtype = cutlass.Float32
a_layout = utils.LayoutEnum.ROW_MAJOR
b_layout = utils.LayoutEnum.ROW_MAJOR
atom_layout_mnk = (2, 1, 1)
tile_shape_mnk = (128, 128, 64)
ab_stage = 4
tiled_mma = sm90_utils.make_trivial_tiled_mma(
    a_dtype,
    b_dtype,
    a_layout.sm90_mma_major_mode(),
    b_layout.sm90_mma_major_mode(),
    acc_dtype,
    atom_layout_mnk,
    tiler_mn=(64, tile_shape_mnk[1]),
)
a_smem_layout_staged = sm90_utils.make_smem_layout_a(a_layout, tile_shape_mnk, a_dtype, ab_stage)
b_smem_layout_staged = sm90_utils.make_smem_layout_b(b_layout, tile_shape_mnk, b_dtype, ab_stage)
mA = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.gmem), cute.make_layout((4096, 4096), stride=(4096, 1)))
mB = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.gmem), cute.make_layout((4096, 4096), stride=(4096, 1)))
a_smem_layout = cute.slice_(a_smem_layout_staged, (None, None, 0))
b_smem_layout = cute.slice_(b_smem_layout_staged, (None, None, 0))
tma_atom_a, tma_tensor_a = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), mA, a_smem_layout, (128, 64))
tma_atom_b, tma_tensor_b = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), mB, b_smem_layout, (128, 64))
