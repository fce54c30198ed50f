//! CuTe's element types (`half_t`, `float_e4m3_t`, ...): their width in bits, their C++
//! name and the letters an MMA atom's name spells them with (`F16`, `E4M3`, `S8`).
//!
//! ```
//! use cute_core::elem::Elem;
//! let t = Elem::from_cpp("bfloat16_t").unwrap();
//! assert_eq!((t.bits(), t.cpp_name(), t.letters()), (16, "bfloat16_t", Some("BF16")));
//! ```

use std::fmt;

/// An element type of CuTe (`cutlass/numeric_types.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// `uint1_t`.
    U1,
    /// `int4_t`.
    S4,
    /// `uint4_t`.
    U4,
    /// `float_e2m1_t` (FP4).
    E2M1,
    /// `float_e3m2_t` (FP6).
    E3M2,
    /// `float_e2m3_t` (FP6).
    E2M3,
    /// `int8_t`.
    S8,
    /// `uint8_t`.
    U8,
    /// `float_e4m3_t` (FP8).
    E4M3,
    /// `float_e5m2_t` (FP8).
    E5M2,
    /// `float_ue8m0_t` (a scale factor).
    UE8M0,
    /// `float_ue4m3_t` (a scale factor).
    UE4M3,
    /// `int16_t`.
    S16,
    /// `uint16_t`.
    U16,
    /// `half_t`.
    F16,
    /// `bfloat16_t`.
    BF16,
    /// `int32_t`.
    S32,
    /// `uint32_t`.
    U32,
    /// `float`.
    F32,
    /// `tfloat32_t`.
    TF32,
    /// `int64_t`.
    S64,
    /// `uint64_t`.
    U64,
    /// `double`.
    F64,
    /// `uint128_t`.
    U128,
    /// `complex<float>`.
    C32,
    /// `complex<double>`.
    C64,
}

impl Elem {
    /// Every element type, narrowest first.
    pub const ALL: &'static [Elem] = &[
        Elem::U1,
        Elem::S4,
        Elem::U4,
        Elem::E2M1,
        Elem::E3M2,
        Elem::E2M3,
        Elem::S8,
        Elem::U8,
        Elem::E4M3,
        Elem::E5M2,
        Elem::UE8M0,
        Elem::UE4M3,
        Elem::S16,
        Elem::U16,
        Elem::F16,
        Elem::BF16,
        Elem::S32,
        Elem::U32,
        Elem::F32,
        Elem::TF32,
        Elem::S64,
        Elem::U64,
        Elem::F64,
        Elem::U128,
        Elem::C32,
        Elem::C64,
    ];

    /// The C++ name (`half_t`, `float`, `complex<float>`).
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert_eq!(Elem::E4M3.cpp_name(), "float_e4m3_t");
    /// ```
    pub fn cpp_name(self) -> &'static str {
        match self {
            Elem::U1 => "uint1_t",
            Elem::S4 => "int4_t",
            Elem::U4 => "uint4_t",
            Elem::E2M1 => "float_e2m1_t",
            Elem::E3M2 => "float_e3m2_t",
            Elem::E2M3 => "float_e2m3_t",
            Elem::S8 => "int8_t",
            Elem::U8 => "uint8_t",
            Elem::E4M3 => "float_e4m3_t",
            Elem::E5M2 => "float_e5m2_t",
            Elem::UE8M0 => "float_ue8m0_t",
            Elem::UE4M3 => "float_ue4m3_t",
            Elem::S16 => "int16_t",
            Elem::U16 => "uint16_t",
            Elem::F16 => "half_t",
            Elem::BF16 => "bfloat16_t",
            Elem::S32 => "int32_t",
            Elem::U32 => "uint32_t",
            Elem::F32 => "float",
            Elem::TF32 => "tfloat32_t",
            Elem::S64 => "int64_t",
            Elem::U64 => "uint64_t",
            Elem::F64 => "double",
            Elem::U128 => "uint128_t",
            Elem::C32 => "complex<float>",
            Elem::C64 => "complex<double>",
        }
    }

    /// The element type of a C++ name, `None` if it names none.
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert_eq!(Elem::from_cpp("tfloat32_t"), Some(Elem::TF32));
    /// assert_eq!(Elem::from_cpp("fp16"), None);
    /// ```
    pub fn from_cpp(name: &str) -> Option<Elem> {
        // CUTLASS's names of the sub-byte integers beside CuTe's.
        let name = match name {
            "int4b_t" => "int4_t",
            "uint4b_t" => "uint4_t",
            "uint1b_t" | "bin1_t" => Elem::U1.cpp_name(),
            n => n,
        };
        Elem::ALL.iter().copied().find(|e| e.cpp_name() == name)
    }

    /// `sizeof_bits_v<T>`.
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert_eq!(Elem::E3M2.bits(), 6);
    /// assert_eq!(Elem::C64.bits(), 128);
    /// ```
    pub fn bits(self) -> i64 {
        match self {
            Elem::U1 => 1,
            Elem::S4 | Elem::U4 | Elem::E2M1 => 4,
            Elem::E3M2 | Elem::E2M3 => 6,
            Elem::S8 | Elem::U8 | Elem::E4M3 | Elem::E5M2 | Elem::UE8M0 | Elem::UE4M3 => 8,
            Elem::S16 | Elem::U16 | Elem::F16 | Elem::BF16 => 16,
            Elem::S32 | Elem::U32 | Elem::F32 | Elem::TF32 => 32,
            Elem::S64 | Elem::U64 | Elem::F64 | Elem::C32 => 64,
            Elem::U128 | Elem::C64 => 128,
        }
    }

    /// The unsigned integer type of `bits` bits (`uint_bit_t<N>`), if there is one.
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert_eq!(Elem::uint_of_bits(64), Some(Elem::U64));
    /// assert_eq!(Elem::uint_of_bits(2), None);
    /// ```
    pub fn uint_of_bits(bits: i64) -> Option<Elem> {
        [
            Elem::U1,
            Elem::U4,
            Elem::U8,
            Elem::U16,
            Elem::U32,
            Elem::U64,
            Elem::U128,
        ]
        .into_iter()
        .find(|e| e.bits() == bits)
    }

    /// The letters an MMA atom's name spells the type with (`SM80_16x8x16_F32BF16BF16F32_TN`,
    /// `SM90_64x8x32_S32S8U8_SS_TN`), for the types MMA names carry.
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert_eq!(Elem::U8.letters(), Some("U8"));
    /// assert_eq!(Elem::E2M1.letters(), None);
    /// ```
    pub fn letters(self) -> Option<&'static str> {
        Some(match self {
            Elem::F16 => "F16",
            Elem::BF16 => "BF16",
            Elem::F32 => "F32",
            Elem::TF32 => "TF32",
            Elem::F64 => "F64",
            Elem::E4M3 => "E4M3",
            Elem::E5M2 => "E5M2",
            Elem::S8 => "S8",
            Elem::U8 => "U8",
            Elem::S32 => "S32",
            Elem::S4 => "S4",
            Elem::U4 => "U4",
            Elem::U1 => "U1",
            _ => return None,
        })
    }

    /// The type an MMA name's letters spell (the inverse of [`Elem::letters`]).
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert_eq!(Elem::from_letters("BF16"), Some(Elem::BF16));
    /// ```
    pub fn from_letters(s: &str) -> Option<Elem> {
        Elem::ALL.iter().copied().find(|e| e.letters() == Some(s))
    }

    /// The FP8/FP6/FP4 types of the `F8F6F4` MMAs (`e2m1`, `e3m2`, `e2m3`, `e4m3`, `e5m2`).
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert!(Elem::E3M2.is_f8f6f4() && !Elem::S8.is_f8f6f4());
    /// ```
    pub fn is_f8f6f4(self) -> bool {
        matches!(
            self,
            Elem::E2M1 | Elem::E3M2 | Elem::E2M3 | Elem::E4M3 | Elem::E5M2
        )
    }

    /// A block-scale factor type (`float_ue8m0_t`, `float_ue4m3_t`).
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert!(Elem::UE4M3.is_scale_factor() && !Elem::E4M3.is_scale_factor());
    /// ```
    pub fn is_scale_factor(self) -> bool {
        matches!(self, Elem::UE8M0 | Elem::UE4M3)
    }

    /// An integer type standing for a run-time integer (`int`, `int64_t`, ...): a signed or
    /// unsigned integer of 8 bits or more.
    ///
    /// ```
    /// use cute_core::elem::Elem;
    /// assert!(Elem::U64.is_int_8_plus() && !Elem::S4.is_int_8_plus());
    /// ```
    pub fn is_int_8_plus(self) -> bool {
        matches!(
            self,
            Elem::S8
                | Elem::U8
                | Elem::S16
                | Elem::U16
                | Elem::S32
                | Elem::U32
                | Elem::S64
                | Elem::U64
                | Elem::U128
        )
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.cpp_name())
    }
}
