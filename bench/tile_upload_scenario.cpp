// Scenario: tile uploads two ways against a one-thread memcpy of the same bytes, in one run on
// one device (tiles::measure_upload_paths): 64 tiles of 512x512 RGBA8 (64 MB) per round, each
// round submitted and waited for, best of 5 rounds.
// Prints: tile_upload_writetexture_gbps, tile_upload_ring_gbps, memcpy_gbps (GB/s of texels),
// tile_upload_ring_vs_writetexture, tile_upload_ring_over_memcpy, tile_upload_faster (the path
// warden picks on this backend) and tile_upload_backend.
// Targets (issue 14): on the H200 ring >= 2.5x writeTexture and >= 75% of memcpy; on the CPU
// machine never slower than writeTexture (there warden picks writeTexture).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/tiles/upload_ring.h"

namespace {

constexpr uint32_t kTileSize = 512;
constexpr uint32_t kTiles = 64;
constexpr uint32_t kRounds = 5;

double memcpy_gbps(size_t bytes) {
  std::vector<uint8_t> src(bytes, 1), dst(bytes, 0);
  double best = 0;
  for (uint32_t round = 0; round < kRounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    asm volatile("" : : "r"(dst.data()) : "memory");  // the copy is used
    best = std::max(best, static_cast<double>(bytes) / s * 1e-9);
  }
  return best;
}

}  // namespace

int main() {
  using namespace warden;
  auto ctx = gpu::Context::create();
  if (!ctx) return bench::exit_for("tile_upload_scenario", ctx.error());
  auto opened = bench::open_bench_device(*ctx.value());
  if (!opened) return bench::exit_for("tile_upload_scenario", opened.error());
  auto m = tiles::measure_upload_paths(*ctx.value(), opened->device.get(), opened->queue.get(), kTileSize, kTiles,
                                       kRounds);
  if (!m) return bench::exit_for("tile_upload_scenario", m.error());
  const double copy = memcpy_gbps(size_t{kTileSize} * kTileSize * 4 * kTiles);
  fmt::print(stderr, "tile_upload_scenario: backend {}, writeTexture {:.2f} GB/s, ring {:.2f} GB/s, memcpy {:.2f} GB/s\n",
             bench::backend_name(*opened), m->write_texture_gbps, m->ring_gbps, copy);
  nlohmann::json out = {{"tile_upload_writetexture_gbps", m->write_texture_gbps},
                        {"tile_upload_ring_gbps", m->ring_gbps},
                        {"memcpy_gbps", copy},
                        {"tile_upload_ring_vs_writetexture", m->ring_gbps / m->write_texture_gbps},
                        {"tile_upload_ring_over_memcpy", m->ring_gbps / copy},
                        {"tile_upload_faster", tiles::to_string(m->faster)},
                        {"tile_upload_backend", bench::backend_name(*opened)}};
  opened->queue.reset();
  opened->device.reset();
  ctx.value()->process_events();
  fmt::print("{}\n", out.dump());
  return 0;
}
