// Private to the resources layer: the standby preparer. Ahead of a loss it makes on the spare
// device the registry's shader modules, layouts and pipelines (and textures within a byte
// budget), and rehearses draws with them there (Registry::prepare_rebuild; docs/adr/0034, 0044,
// 0045); a rebuild onto that device takes what it made instead of making it again. What it made
// is owned here until a rebuild takes it or discard() lets go of it; the slots never hold it
// (other threads resolve the slots meanwhile).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "warden/core/handle.h"
#include "warden/gpu/abi.h"
#include "warden/gpu/procs.h"
#include "warden/gpu/ref.h"
#include "warden/resources/registry.h"

namespace warden::resources {

class RegistryImpl;

namespace detail {

struct KeptSubresource;

// The kinds prepared ahead of a rebuild: none holds memory of its own, so a second set of them
// costs the other device little, and the compile cache they share makes them cheap.
template <typename Tag>
constexpr bool kPreparedKind = std::is_same_v<Tag, ShaderModuleTag> || std::is_same_v<Tag, BindGroupLayoutTag> ||
                               std::is_same_v<Tag, PipelineLayoutTag> || std::is_same_v<Tag, RenderPipelineTag> ||
                               std::is_same_v<Tag, ComputePipelineTag>;
// And the kinds that may be prepared as well: textures, within the byte budget given (they hold
// memory: a second copy of each while the other device waits, docs/adr/0045).
template <typename Tag>
constexpr bool kMayBePrepared = kPreparedKind<Tag> || std::is_same_v<Tag, TextureTag>;

// The bytes a texture holds at most: every level of every layer (or slice), every sample, at
// the widest its format's texels can take, so that a budget is never undercounted.
uint64_t texture_storage_bytes(const TextureDescription& desc);

class StandbyPreparer {
 public:
  template <typename Tag>
  using Object = typename GpuType<Tag>::type;

  // `registry` is the one whose objects are prepared; it owns this.
  StandbyPreparer(RegistryImpl& registry, const gpu::Procs& procs) : registry_(registry), procs_(procs) {}
  StandbyPreparer(const StandbyPreparer&) = delete;
  StandbyPreparer& operator=(const StandbyPreparer&) = delete;

  // Lets go of what was prepared, then makes on `device` what the registry holds now, with
  // textures up to `texture_bytes`, stages kept texture contents there up to `contents_bytes`
  // where a rebuild onto it would stage them (ContentsUpload::Staging), and rehearses its draws
  // there. Run by the registry, under its lock, on its frame thread, with its own device live and
  // not `device`. The objects made.
  size_t prepare(WGPUDevice device, uint64_t texture_bytes, uint64_t contents_bytes = 0);
  // Lets go of everything prepared.
  void discard();

  // The spare what is held was made on; null: nothing prepared.
  WGPUDevice device() const { return device_; }
  size_t count() const { return objects_.size(); }
  bool empty() const { return objects_.empty(); }
  uint64_t texture_bytes() const { return texture_bytes_; }
  uint64_t staged_bytes() const { return staged_bytes_; }
  // Stages kept texture contents on the prepared spare that are not staged there yet, in
  // creation order, while the staged total stays within `budget`, at most `step` bytes in this
  // call; returns the bytes it staged. The engine stages a step a poll, so that no frame pays
  // for all of it (docs/adr/0058); prepare() stages up to its budget at once. 0 once nothing
  // more fits, or with no spare prepared.
  uint64_t stage_contents(uint64_t budget, uint64_t step);

  // Where kept subresource `kept` of texture slot `bits` was staged on the spare, if it was and
  // the texture's kept bytes are still at `version` (KindData<TextureTag>::kept_version).
  struct StagedPlace {
    WGPUBuffer buffer = nullptr;
    uint64_t offset = 0;
    uint64_t version = 0;
  };
  const StagedPlace* staged_place(uint64_t bits, const KeptSubresource& kept, uint64_t version) const;
  const DrawRehearsal& last_rehearsal() const { return last_rehearsal_; }

  // While prepare() makes its objects, what it made of slot `bits` stands in for the slot's own
  // object in the registry's own resolves, so that a pipeline is made of the spare's layout and
  // modules; null otherwise.
  template <typename Tag>
  Object<Tag> stand_in(uint64_t bits) const {
    if constexpr (kPreparedKind<Tag>) {
      if (preparing_) {
        if (auto found = objects_.find({Tag::kind, bits}); found != objects_.end()) {
          return static_cast<Object<Tag>>(found->second);
        }
      }
    }
    return nullptr;
  }
  bool preparing() const { return preparing_; }
  // A rebuild onto the spare takes the object prepared for slot `bits`, if any.
  template <typename Tag>
  Object<Tag> take(uint64_t bits) {
    if constexpr (!kMayBePrepared<Tag>) {
      return nullptr;
    } else {
      auto found = objects_.find({Tag::kind, bits});
      if (found == objects_.end()) return nullptr;
      auto object = static_cast<Object<Tag>>(found->second);
      objects_.erase(found);
      return object;
    }
  }
  // Lets go of what was prepared for the slot `bits` of `kind`, whose occupant ends now;
  // `texture`, its recipe where it is a texture, takes its bytes off the budget used.
  void drop(ResourceKind kind, uint64_t bits, const TextureDescription* texture);

 private:
  // What stands in for the application's objects in the rehearsal, held until it is submitted.
  struct StandIns {
    std::vector<gpu::Ref<WGPUBuffer>> buffers;
    std::vector<gpu::Ref<WGPUTexture>> textures;
    std::vector<gpu::Ref<WGPUTextureView>> views;
    std::vector<gpu::Ref<WGPUSampler>> samplers;
    std::vector<gpu::Ref<WGPUBindGroup>> groups;
  };

  // The live slots that hold an object and a recipe to make it again from, in slot order.
  template <typename Tag>
  std::vector<SlotId> live_with_recipes() const;
  template <typename Tag>
  void prepare_all();
  void prepare_textures(uint64_t budget);

  // Draws rehearsed on the spare (draw_rehearsal.cpp, docs/adr/0044).
  DrawRehearsal rehearse_draws();
  std::optional<std::string> bound_state_of(const BindGroupDescription& group) const;
  WGPUBindGroup stand_in_bind_group(const BindGroupDescription& group, StandIns& held);
  template <typename StandInFor>
  uint32_t rehearse_pipeline(const RenderPipelineDescription& pipeline, WGPURenderPipeline prepared,
                             WGPUCommandEncoder encoder,
                             const std::map<uint64_t, std::vector<BindGroupHandle>>& groups_by_layout,
                             StandInFor&& stand_in_for, StandIns& held);

  RegistryImpl& registry_;
  const gpu::Procs& procs_;
  WGPUDevice device_ = nullptr;  // the spare prepared (or being prepared); null: none
  // By kind and slot bits: a kind's object, type-erased (the kind says which).
  std::map<std::pair<ResourceKind, uint64_t>, void*> objects_;
  uint64_t texture_bytes_ = 0;  // of the textures among them, against the preparation's budget
  // Kept texture contents staged on the spare (docs/adr/0058): buffers made mapped, filled and
  // unmapped at preparation, and each subresource's place in them, by texture bits, aspect, level and layer.
  std::vector<gpu::Ref<WGPUBuffer>> staging_;
  std::map<std::tuple<uint64_t, WGPUTextureAspect, uint32_t, uint32_t>, StagedPlace> staged_;
  uint64_t staged_bytes_ = 0;
  bool staging_done_ = false;   // the last stage_contents() found nothing more within its budget
  bool preparing_ = false;      // inside prepare(): the registry's own resolves look here first
  DrawRehearsal last_rehearsal_;  // what the last preparation drew on the spare
};

}  // namespace detail
}  // namespace warden::resources
