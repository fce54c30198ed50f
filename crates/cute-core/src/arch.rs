//! The GPU architectures the atoms are for, and each one's facts that the kernel report and
//! the configuration checks need.

use std::fmt;

/// An NVIDIA GPU architecture, as the atoms name it (`SM80_...`, `SM90_...`).
///
/// ```
/// use cute_core::arch::Arch;
/// assert_eq!(Arch::Sm90.to_string(), "SM90");
/// assert_eq!(Arch::Sm90.smem_per_cta(), 232_448);
/// assert!(Arch::Sm100 > Arch::Sm90);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arch {
    /// Ampere (A100): `mma.sync`, `cp.async`, `ldmatrix`.
    Sm80,
    /// Hopper (H100): GMMA (`wgmma`), TMA, `stmatrix`.
    Sm90,
    /// Blackwell datacenter (B200; SM103 atoms count here): UMMA (`tcgen05`), tensor memory.
    Sm100,
    /// Blackwell consumer (RTX 50): `mma.sync` with block-scaled types.
    Sm120,
}

impl Arch {
    /// Every architecture, oldest first.
    pub const ALL: [Arch; 4] = [Arch::Sm80, Arch::Sm90, Arch::Sm100, Arch::Sm120];

    /// The name the report prints (`SM90`).
    pub fn name(self) -> &'static str {
        match self {
            Arch::Sm80 => "SM80",
            Arch::Sm90 => "SM90",
            Arch::Sm100 => "SM100",
            Arch::Sm120 => "SM120",
        }
    }

    /// Shared memory one CTA may allocate, in bytes: the CUDA C++ Programming Guide's
    /// "maximum amount of shared memory per thread block" (compute capabilities 8.0: 163 KB,
    /// 9.0 and 10.0: 227 KB, 12.0: 99 KB), the opt-in limit a kernel gets with
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize`.
    pub fn smem_per_cta(self) -> i64 {
        match self {
            Arch::Sm80 => 166_912,
            Arch::Sm90 | Arch::Sm100 => 232_448,
            Arch::Sm120 => 101_376,
        }
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
