#include "warden/core/pool.h"

#include <cstdlib>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace warden {
namespace detail {

namespace {
constexpr size_t kLargePage = size_t{2} << 20;  // x86-64's 2 MiB page
constexpr size_t kCacheLine = 64;
}  // namespace

// A slot array of 2 MiB or more is put on large pages where the kernel gives them
// (transparent huge pages in their default "madvise" mode): a lookup in a pool of 256k slots
// or more lands on a random page, and 4 KiB pages there cost a page walk for the key's array
// and another for the object's on every lookup (resolve at 1M live objects on the H200 host:
// 6.4-7.0 ns against 7.6-9.2 on 4 KiB pages, docs/PERFORMANCE.md).
// Smaller arrays stay on ordinary pages, whose rounding would cost more memory than the
// misses it saved.
void* allocate_slot_array(size_t bytes) {
  const bool large = bytes >= kLargePage;
  const size_t alignment = large ? kLargePage : kCacheLine;
  const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* memory = std::aligned_alloc(alignment, rounded);
  if (memory == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (large) (void)madvise(memory, rounded, MADV_HUGEPAGE);  // advice only: refused, it is plain pages
#endif
  return memory;
}

void free_slot_array(void* memory) { std::free(memory); }

}  // namespace detail
}  // namespace warden
