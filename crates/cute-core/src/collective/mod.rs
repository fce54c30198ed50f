//! CUTLASS's GEMM mainloop builders (`cutlass::gemm::collective::CollectiveBuilder` of
//! `OpClassTensorOp`): what one `CollectiveBuilder<...>::CollectiveOp` line picks out of
//! sight, resolved as CUTLASS resolves it when nvcc 12.9 compiles the headers. Hopper's TMA
//! warp-specialized GMMA mainloops (`sm90_gmma_builder.inl`), Blackwell's dense TMA UMMA
//! mainloop (`sm100_umma_builder.inl`: 1-SM or 2-SM MMA) and the GeForce Blackwell F8F6F4
//! mainloop (`sm120_mma_builder.inl`), and Blackwell's block-scaled mainloop
//! (`sm100_blockscaled_umma_builder.inl`: NVFP4 / MXFP4/6/8 with their scale factors) and
//! GeForce Blackwell's (`sm120_blockscaled_mma_builder.inl`): the schedule `KernelScheduleAuto` stands for, the
//! majors, the shared-memory atoms and layouts with their stages, the tiled MMA, the TMA
//! loads, the stage count for the arch's shared memory and the dispatch policy, with each
//! step written down, and CUTLASS's refusals in its own words.
//!
//! ```
//! use cute_core::arch::Arch;
//! use cute_core::collective::{build_mainloop, GemmLayout, MainloopConfig, Schedule, Stages};
//! use cute_core::elem::Elem;
//! let cfg = MainloopConfig {
//!     arch: Arch::Sm90,
//!     a: (Elem::F16, GemmLayout::RowMajor, 8),
//!     b: (Elem::F16, GemmLayout::ColumnMajor, 8),
//!     acc: Elem::F32,
//!     tile: [128, 128, 64],
//!     cluster: [1, 2, 1],
//!     stages: Stages::Auto,
//!     schedule: Schedule::Auto,
//!     scaled: None,
//! };
//! let m = build_mainloop(&cfg).unwrap();
//! assert_eq!(m.stages, 7);
//! assert_eq!(m.schedule, Schedule::Cooperative);
//! assert_eq!(m.smem_layout_a.to_string(),
//!            "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,7)):((64,512),(1,0),(0,8192))");
//!
//! // The same line for Blackwell: an even cluster M and a 128-row tile take the 2-SM UMMA.
//! let m = build_mainloop(&MainloopConfig { arch: Arch::Sm100, cluster: [2, 1, 1], ..cfg }).unwrap();
//! assert_eq!(m.schedule, Schedule::TmaWs2SmSm100);
//! assert_eq!(m.stages, 14);
//! assert_eq!(m.policy_name(), "MainloopSm100TmaUmmaWarpSpecialized<14, 2, 4, Shape<_2,_1,_1>, arch::Sm100>");
//!
//! // Block-scaled (OpClassBlockScaledTensorOp): NVFP4 operands take the MXF4 UMMA, and
//! // the scale factors are staged beside A and B.
//! use cute_core::collective::ScaledElem;
//! let nv = ScaledElem::nv(Elem::E2M1).unwrap();
//! let m = build_mainloop(&MainloopConfig {
//!     arch: Arch::Sm100,
//!     a: (Elem::E2M1, GemmLayout::RowMajor, 32),
//!     b: (Elem::E2M1, GemmLayout::ColumnMajor, 32),
//!     tile: [256, 256, 256],
//!     cluster: [2, 4, 1],
//!     scaled: Some([nv, nv]),
//!     ..cfg
//! }).unwrap();
//! assert_eq!(m.stages, 5);
//! assert_eq!(m.block_scale.as_ref().unwrap().layouts[0].to_string(),
//!            "((((32,4),1),(16,4)),1,(1,4),5):((((16,4),512),(0,1)),0,(4,512),2048)");
//! assert_eq!(m.tma_transaction_bytes().unwrap(), 77824);
//!
//! // The same operands on GeForce Blackwell: eight warps of the block-scaled mma.sync, one
//! // CTA a cluster, A, B and the scale factors in 99 KiB.
//! let m = build_mainloop(&MainloopConfig {
//!     arch: Arch::Sm120,
//!     tile: [128, 128, 128],
//!     cluster: [1, 1, 1],
//!     scaled: Some([nv, nv]),
//!     a: (Elem::E2M1, GemmLayout::RowMajor, 32),
//!     b: (Elem::E2M1, GemmLayout::ColumnMajor, 32),
//!     ..cfg
//! }).unwrap();
//! assert_eq!(m.op, "SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>");
//! assert_eq!((m.stages, m.smem_bytes().unwrap()), (5, 93184));
//! ```

mod blockscaled;
mod common;
mod sm100;
mod sm100_blockscaled;
mod sm120;
mod sm120_blockscaled;
mod sm90;

pub use blockscaled::{sf_chunk_atom, sf_tensor_layout};
pub(crate) use common::{round_up, smem_layout};
pub use common::{
    BlockScale, BlockScaledInstr, BlockScaledTag, DispatchPolicy, GemmLayout, Mainloop,
    MainloopConfig, ScaledElem, Schedule, Stages, TmaLoad, SM100_SMEM_CAPACITY,
    SM120_SMEM_CAPACITY, SM90_PIPELINE_BYTES, SM90_SMEM_CAPACITY, TMA_ALIGNMENT_BYTES,
};

use crate::arch::Arch;
use crate::error::{Error, Result};

/// CUTLASS's mainloop builder for the configuration's arch.
pub fn build_mainloop(cfg: &MainloopConfig) -> Result<Mainloop> {
    common::check_shapes(cfg)?;
    match (cfg.arch, cfg.scaled) {
        (Arch::Sm100, Some(scaled)) => return sm100_blockscaled::build(cfg, scaled),
        (Arch::Sm120, Some(scaled)) => return sm120_blockscaled::build(cfg, scaled),
        (arch, Some(_)) => {
            return Err(crate::err!(
                "the {} block-scaled builder (arch::OpClassBlockScaledTensorOp) is not resolved yet: SM100's and SM120's are",
                arch.name()
            ))
        }
        (_, None) => {}
    }
    match cfg.arch {
        Arch::Sm90 => sm90::build(cfg),
        Arch::Sm100 => sm100::build(cfg),
        Arch::Sm120 => sm120::build(cfg),
        Arch::Sm80 => Err(Error::new(
            "CUTLASS's SM80 GEMMs are not written with the 3.x CollectiveBuilder (it builds SM90 and newer mainloops)",
        )),
    }
}
