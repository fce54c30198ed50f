//! The global allocator of the `render` binary and the Python extension: mimalloc (its v2:
//! v3's aligned path costs more for the small blocks the algebra allocates).
//!
//! The `mimalloc` crate sends every request through `mi_malloc_aligned`, whose alignment
//! checks cost 5.5% of evaluating the corpus (callgrind, `eval_block` over the 4,186 lines of
//! `cute-cases.jsonl`: 78.0 M instructions through it, 73.7 M here). Nearly every request is
//! word-aligned (the algebra's vectors, strings), and mimalloc aligns every block to a word:
//! those go to `mi_malloc`'s fast path, the rest to the aligned calls.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// What `mi_malloc` guarantees for any size: one machine word.
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator (`#[global_allocator] static A: MiMalloc = MiMalloc;`).
pub struct MiMalloc;

// SAFETY: each method returns mimalloc memory aligned as `layout` asks (a word always; more
// through the aligned calls), and frees or resizes only pointers mimalloc returned.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every alignment up to a page, small and large sizes, zeroed and grown: aligned as
    /// asked, contents kept.
    #[test]
    fn blocks_are_aligned_as_asked_and_keep_their_contents() {
        let a = MiMalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 7, 8, 24, 100, 4096, 1 << 20] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero size; every pointer is freed with its layout.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    p.write_bytes(0xab, size);
                    let q = a.realloc(p, layout, size * 3);
                    assert!(
                        !q.is_null() && (q as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    assert!((0..size).all(|i| *q.add(i) == 0xab));
                    a.dealloc(q, Layout::from_size_align(size * 3, align).unwrap());
                    let z = a.alloc_zeroed(layout);
                    assert!(
                        (z as usize).is_multiple_of(align) && (0..size).all(|i| *z.add(i) == 0)
                    );
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
