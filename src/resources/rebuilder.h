// Private to the resources layer: the rebuilder. After a loss, when the registry is on its new
// device, it makes every object that has a recipe again under the same handle, in dependency
// order (what an object uses first; what is kept for its dependents before the slots of its
// kind, docs/adr/0049), takes what the standby preparer made on that device instead of making it,
// writes kept contents back (texture contents by the faster path, docs/adr/0058), and runs the
// application's refills once every object exists (docs/adr/0013, 0014;
// docs/lifecycle-in-detail.md).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "warden/core/result.h"
#include "warden/gpu/procs.h"
#include "warden/resources/registry.h"
#include "resources/staged_upload.h"

namespace warden::resources {

class RegistryImpl;

namespace detail {

template <typename Tag>
struct Record;

class Rebuilder {
 public:
  template <typename Tag>
  using Object = typename GpuType<Tag>::type;

  // `registry` is the one rebuilt; it owns this.
  Rebuilder(RegistryImpl& registry, const gpu::Procs& procs) : registry_(registry), procs_(procs) {}
  Rebuilder(const Rebuilder&) = delete;
  Rebuilder& operator=(const Rebuilder&) = delete;

  // Makes the registry's objects again on its device, which is device generation `generation`,
  // then runs the refills; the report has no total time (the registry times its whole rebuild).
  RebuildReport rebuild(uint64_t generation);
  // A loss: the refills of a rebuild in progress belong to a device that is gone.
  void forget_refills() { refills_.clear(); }

 private:
  template <typename Tag>
  void rebuild_slots(RebuildReport& report);
  template <typename Tag>
  void rebuild_custody(RebuildReport& report);
  // The object put back for `rec`: the one the standby preparer made, if any, else one made from
  // its recipe on the new device.
  template <typename Tag>
  Result<Object<Tag>> remake(uint64_t bits, Record<Tag>& rec, RebuildReport& report);
  // What a buffer is made from: unmapped, unless its kept bytes came through the mapping at
  // creation; then mapped again, so that write_kept writes them there (it may lack CopyDst).
  static BufferDescription as_rebuilt(const Record<BufferTag>& rec);
  // Its contents as its recipe says: kept bytes written, a refill queued, or reported lost.
  void restore_contents(BufferHandle handle, Record<BufferTag>& rec, RebuildReport& report);
  void restore_contents(TextureHandle handle, Record<TextureTag>& rec, RebuildReport& report);
  // Writes kept contents into `object` (ContentsSource::Kept); a buffer mapped at creation
  // through its mapping, then unmapped.
  void write_kept(WGPUBuffer object, const Record<BufferTag>& rec);
  // `bits`: its slot, by which the standby preparer staged its contents on the spare.
  void write_kept(WGPUTexture object, const Record<TextureTag>& rec, uint64_t bits);

  RegistryImpl& registry_;
  const gpu::Procs& procs_;
  // The refills of the rebuild in progress, run once every object is made again.
  std::vector<std::function<void()>> refills_;
  // With ContentsUpload::Staging, the rebuild in progress's kept texture contents, submitted
  // together once every object is made (before any refill, which may write over them); null
  // otherwise.
  StagedTextureUpload* staging_ = nullptr;
};

}  // namespace detail
}  // namespace warden::resources
