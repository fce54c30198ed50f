//! What C++ and CuTeDSL spell as types: the words with a fixed meaning ([`names`]), the
//! class templates whose default-constructed value is a layout, swizzle, atom or tuple
//! (`Int<8>{}`, `Layout<Shape<..>,Stride<..>>{}`, `GMMA::Layout_K_SW128_Atom<half_t>{}`,
//! `MMA_Atom<SM80_...>{}`, `TiledMMA<...>{}`) and their member types. Above the op table:
//! a type's value is built by the typed functions the ops call.

pub(crate) mod families;
pub(crate) mod names;
pub(crate) mod policy;
pub(crate) mod resolve;
pub(crate) mod smem;
pub(crate) mod table;
