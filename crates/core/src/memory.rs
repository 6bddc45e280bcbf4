//! The process's memory: how much it holds (`-v` logs it after each stage) and the allocator's
//! control (keep freed pages for reuse, or give them back to the system between stages).

use crate::world::World;

/// The process's resident memory now, in MiB (Linux; `None` elsewhere), for `-v`: each stage
/// says how much memory the run holds after it.
pub fn rss_mib() -> Option<u64> {
    let statm = crate::world::REAL
        .read(std::path::Path::new("/proc/self/statm"))
        .ok()?;
    let statm = String::from_utf8(statm).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1 << 20))
}

/// Log the resident memory after a stage (`-v`).
pub fn memory(after: &str) {
    if let Some(m) = rss_mib() {
        tracing::info!(rss_mib = m, "memory after {after}");
    }
}

/// mimalloc's `mi_option_purge_delay`: how long freed pages are kept before they are handed
/// back to the kernel, `-1` for never. (Its place in `mi_option_t` of the `mimalloc.h` of
/// mimalloc 3, which libmimalloc-sys builds and names no constant for.)
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keep the memory freed from now on for the process's own reuse instead of handing it back
/// to the kernel. For a short batch command whose stages each free hundreds of MB that the
/// next stage allocates again: mimalloc's default (pages purged a second after they are
/// freed) made the next stage fault pages in afresh, each zeroed, which on a virtual machine
/// whose host has taken its free pages back costs up to about 4 µs a page. Measured on the
/// 476 MB USEBIO import, with and without, three rounds: 565,000–579,000 page faults ->
/// 447,000–460,000, 5.1–6.7 s -> 4.6–5.8 s, the same peak of resident memory. The cost: memory
/// freed by one thread's heap stays with it, so the 43 MB PBN import's peak grew from
/// 1.02–1.08 to 1.35–1.47 GB (session 25: `git show be4e385:docs/benchmarks.md`).
pub fn keep_freed_memory() {
    // SAFETY: mi_option_set stores one integer option; it takes no pointers.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
    }
}

#[test]
fn the_purge_delay_is_mimallocs_option_15() {
    // (the defaults of mimalloc 3's options.c for it and the options around it:
    // deprecated_eager_commit_delay 1, purge_delay 1000 ms, use_numa_nodes 0)
    // SAFETY: mi_option_get reads one integer option.
    let got = unsafe { [14, MI_OPTION_PURGE_DELAY, 16].map(|o| libmimalloc_sys::mi_option_get(o)) };
    assert_eq!(got, [1, 1000, 0]);
}

/// Give the memory freed so far back to the operating system: mimalloc's (the binary's
/// allocator, which hands freed pages back only a while after they are freed) and glibc's
/// (which keeps freed blocks in its arenas: the allocator of the library's tests, and of C
/// code). After a million events are parsed on one thread and freed on another, hundreds of
/// MB of them.
pub fn release_freed_memory() {
    // SAFETY: mi_collect only frees what mimalloc's heaps no longer use; it takes no pointers.
    // (In a process whose allocator is not mimalloc it has nothing to collect.)
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: malloc_trim only returns free heap pages to the kernel; it takes no
        // pointers and is thread-safe (glibc locks each arena).
        unsafe {
            malloc_trim(0);
        }
    }
}
