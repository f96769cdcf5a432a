// A slippy-map viewer through the warden Engine and an engine::TileLayer: three zoom levels of
// generated tiles, fetched by a fetcher that answers at once, drawn with one instanced draw; the
// device is lost on purpose and the viewer keeps going:
//   tile_viewer before.png after.png
// Both files show the settled view (every tile drawn as itself) and are identical. A view that
// does not settle within ten seconds ends the program with the last reason, exit status 1.
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "example_support.h"
#include "warden/engine/tile_layer.h"
#include "warden/gpu/objects.h"

using namespace warden;
using example::fail;
using example::must;
using tiles::TileKey;

constexpr uint32_t kTile = 64, kZoom = 2, kGrid = 1u << kZoom, kSize = kGrid * kTile;

// A tile server stand-in: each tile a colour of its own with a darker border, answered at once.
class GeneratedTiles : public tiles::TileFetcher {
 public:
  void fetch(tiles::TileReply reply) override {
    const TileKey k = reply.ticket().key;
    std::vector<uint8_t> texels(kTile * kTile * 4);
    for (uint32_t y = 0; y < kTile; ++y) {
      for (uint32_t x = 0; x < kTile; ++x) {
        const bool border = x < 2 || y < 2 || x >= kTile - 2 || y >= kTile - 2;
        const uint8_t shade = border ? 2 : 1;
        uint8_t* t = &texels[(y * kTile + x) * 4];
        t[0] = static_cast<uint8_t>((60 + 60 * k.z) / shade);
        t[1] = static_cast<uint8_t>((40 + 50 * k.x) / shade);
        t[2] = static_cast<uint8_t>((40 + 50 * k.y) / shade);
        t[3] = 255;
      }
    }
    reply.deliver(std::move(texels));
  }
};

int main(int argc, char** argv) {
  example::start("tile_viewer", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  engine::TileLayerOptions options;
  options.tile_size = kTile;
  options.budget_bytes = 4 << 20;
  options.max_instances = kGrid * kGrid;
  auto layer = must(engine::TileLayer::create(*engine, options));
  resources::Registry& reg = engine->registry();
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "viewer frame"}));
  auto target_view = must(reg.create_texture_view(target));
  GeneratedTiles fetcher;

  // The view: every tile of zoom 2; its ancestors (zooms 1 and 0) are asked for too, so a
  // coarser tile stands in while the finer ones arrive.
  std::vector<TileKey> visible, wanted;
  for (uint32_t y = 0; y < kGrid; ++y) {
    for (uint32_t x = 0; x < kGrid; ++x) visible.push_back({kZoom, x, y});
  }
  for (uint32_t z = 0; z <= kZoom; ++z) {
    for (uint32_t y = 0; y < (1u << z); ++y) {
      for (uint32_t x = 0; x < (1u << z); ++x) wanted.push_back({z, x, y});
    }
  }

  // One frame: whether every visible tile was drawn as itself (false: an ancestor still stands
  // in somewhere), or why no frame was submitted (recovering; an object that could not be used).
  auto frame = [&]() -> Result<bool> {
    engine->poll();
    auto f = engine->begin_frame();
    if (!f) return f.error();  // recovering: skip the frame
    must(layer->begin_frame({visible, 0.5, 0.5}));
    for (const TileKey& key : wanted) must(layer->request(key));
    must(layer->dispatch(fetcher));
    must(layer->deliver(*f));
    std::vector<tiles::TileInstance> instances;
    bool settled = true;
    for (const TileKey& key : visible) {
      auto source = layer->draw_source(key);
      if (!source) {
        settled = false;
        continue;
      }
      settled = settled && source->levels_up == 0;
      instances.push_back(engine::TileLayer::place(*source, float(key.x * kTile), float(key.y * kTile), kTile, kSize, kSize));
    }
    if (auto view = f->use(target_view)) {
      const gpu::Procs& p = engine->procs();
      WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, f->encoder(), *view);
      must(layer->draw(pass, instances));
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
    }
    if (auto submitted = engine->submit(std::move(*f)); !submitted) return submitted.error();
    return settled;
  };
  // Frames until the view settles; bounded, so that an object that stays lost (or an engine that
  // gave up) ends the program with the reason instead of a loop that never ends.
  auto run_until_settled = [&](const char* png) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int frames = 1;
    for (auto settled = frame(); !settled || !*settled; settled = frame(), ++frames) {
      if (engine->state() == engine::EngineState::Failed || std::chrono::steady_clock::now() > deadline) {
        fail(settled ? make_error(ErrorKind::Timeout, "the view did not settle within ten seconds") : settled.error());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    example::snapshot(*engine, target, png);
    return frames;
  };

  const int cold = run_until_settled(argv[1]);
  must(engine->force_device_loss("the viewer pulls the plug"));
  const int after = run_until_settled(argv[2]);
  example::require_frames_whole(*engine);
  std::printf("settled in %d frames cold, %d after the loss (generation %llu); wrote %s and %s\n", cold, after,
              static_cast<unsigned long long>(engine->device_generation()), argv[1], argv[2]);
  layer.reset();
  must(reg.destroy_texture_view(target_view));
  must(reg.destroy_texture(target));
  return 0;
}
