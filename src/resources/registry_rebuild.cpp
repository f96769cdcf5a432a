// Registry across device generations: on_device_lost() lets go of the lost device's objects,
// rebuild() moves the registry onto the new device and has the rebuilder (rebuilder.h) make them
// again (docs/adr/0013, 0014; docs/lifecycle-in-detail.md walks one object through both).
#include <chrono>
#include <utility>

#include <fmt/format.h>

#include "resources/kind_order.h"
#include "resources/registry_impl.h"
#include "warden/gpu/names.h"

namespace warden::resources {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

// A record callback runs in the middle of a create or of the rebuild's walk (docs/adr/0039):
// these calls are reported and refused there, like the calls that make or destroy objects.
bool RegistryImpl::refused_off_frame_thread(std::string_view call) {
  std::optional<Error> refused = refuse_off_frame_thread(call);
  if (refused) diagnostics_.error(refused->id, std::move(refused->message));
  return refused.has_value();
}

bool RegistryImpl::refused_inside_recording(std::string_view call) {
  std::optional<Error> refused = refuse_inside_recording(call);
  if (refused) diagnostics_.error(refused->id, std::move(refused->message));
  return refused.has_value();
}

void RegistryImpl::on_device_lost() {
  if (device_lost() || refused_inside_recording("on_device_lost")) return;
  // Let go of first: whatever the release events below reach sees a lost registry.
  device_ = nullptr;
  queue_ = nullptr;
  // Nothing of the lost device can still run: what waits for a submission goes now.
  assume_all_complete();
  detail::for_each_kind(detail::KindOrder::Teardown, [&]<typename Tag>() {
    lose_all<Tag>();
    lose_custody<Tag>();
  });
  rebuilder_.forget_refills();
  // Waiting objects are Lost now (lose_all) and the rebuild makes them; their carried writes
  // went with the device, as a write to the queue would have (kept contents come back).
  carrier_.clear();
  capture_checked_device_ = nullptr;  // the next device is asked about afresh, whatever its address
}

template <typename Tag>
void RegistryImpl::lose_all() {
  auto s = store<Tag>();
  std::vector<SlotId> imported;
  s.pool.for_each_live([&](SlotId id, Object<Tag> object) {
    detail::Record<Tag>& rec = s.records[id.index];
    if (rec.ownership == Ownership::Imported) {
      imported.push_back(id);
      return;
    }
    if (object != nullptr) {
      // Emptied before it is released: a resolve on another thread finds nothing rather than
      // an object on its way out.
      s.pool.exchange(id.bits, nullptr);
      releases_.release_now<Tag>(object, rec.ownership, id.index, id.generation, rec.label, rec.last_used);
    }
    slot_edges::lost(rec);
  });
  // Imported views belong to a presentation of the lost device: their handles die, and the
  // presentation imports the new device's views again.
  for (SlotId id : imported) {
    // A release hook during the walk may have forgotten it already.
    if (s.pool.contains(id.bits)) release_occupant(Handle<Tag>::from_bits(id.bits));
  }
}

ContentsUpload RegistryImpl::contents_upload_now() const { return contents_upload_on(device_); }

ContentsUpload RegistryImpl::contents_upload_on(WGPUDevice device) const {
  if (options_.contents_upload != ContentsUpload::Auto) return options_.contents_upload;
  if (measured_upload_device_ == device && measured_upload_ != ContentsUpload::Auto) return measured_upload_;
  // Unmeasured: as each backend measured in docs/perf (recovery_writetexture_gbps against
  // recovery_ring_gbps): Dawn's own staging for writeTexture is the slower path on Vulkan, and
  // the faster one on GL, where a mapped buffer is a copy of its own.
  switch (backend_) {
    case WGPUBackendType_Vulkan:
    case WGPUBackendType_D3D12:
    case WGPUBackendType_Metal: return ContentsUpload::Staging;
    default: return ContentsUpload::WriteTexture;
  }
}

uint64_t RegistryImpl::stage_prepared_contents(uint64_t budget, uint64_t step) {
  const WGPUDevice spare = standby_.device();
  if (device_lost() || spare == nullptr || contents_upload_on(spare) != ContentsUpload::Staging) return 0;
  return standby_.stage_contents(budget, step);
}

RebuildReport RegistryImpl::rebuild(WGPUDevice device, WGPUQueue queue, uint64_t generation) {
  if (refused_inside_recording("rebuild")) return RebuildReport{.generation = device_generation_};
  const auto started = Clock::now();
  on_device_lost();
  device_ = device;
  queue_ = queue;
  device_generation_ = generation;
  procs_.DeviceGetLimits(device_, &limits_);
  read_device_backend();
  releases_.queue_clock().rebind(queue_);
  // Prepared for another device (a spare that was lost, or not the one adopted): let go.
  if (standby_.device() != device) standby_.discard();
  RebuildReport report = rebuilder_.rebuild(generation);
  report.timings.total_ms = ms_since(started);
  return report;
}

}  // namespace warden::resources
