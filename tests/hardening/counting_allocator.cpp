// SPDX-License-Identifier: BSL-1.0
#include "counting_allocator.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

// Each block carries its size in 16 bytes before it (16 keeps the alignment new promises).
constexpr std::size_t header = 16;
std::atomic<std::size_t> live{0};
std::atomic<std::size_t> peak{0};
std::atomic<std::size_t> baseline{0};
std::atomic<std::size_t> calls{0};

void* allocate(std::size_t size) {
  void* block = std::malloc(size + header);
  if (block == nullptr) return nullptr;
  *static_cast<std::size_t*>(block) = size;
  const std::size_t now = live.fetch_add(size) + size;
  std::size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  calls.fetch_add(1);
  return static_cast<char*>(block) + header;
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  void* block = static_cast<char*>(p) - header;
  live.fetch_sub(*static_cast<std::size_t*>(block));
  std::free(block);
}

}  // namespace

namespace hardening {

void start_measuring() noexcept {
  baseline = live.load();
  peak = live.load();
  calls = 0;
}
heap_use stop_measuring() noexcept {
  return {peak.load() - baseline.load(), calls.load()};
}

}  // namespace hardening

void* operator new(std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
