// A pipeline's implicit bind group layouts (wgpuRenderPipelineGetBindGroupLayout, ...) and the bind
// groups made with them. Such a layout is not a recipe of its own: it is what Dawn derived from
// the pipeline on one device. The library makes it again from the pipeline, and each bind group
// again from its kept descriptor, lazily, the first time either is used on a new device
// (PerGeneration). The registry still holds the pipeline and everything the groups bind; what
// is made here holds no contents, so nothing is lost by making it late. docs/adr/0059.
#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

namespace {

// The layout of group `index` of a pipeline, as the pipeline made on the current device has it.
class DerivedLayout final : public Object {
 public:
  DerivedLayout(Device& device, Object& pipeline, uint32_t index)
      : Object(Kind::BindGroupLayout, fmt::format("group {} of {}", index, describe(pipeline))),
        device_(device), pipeline_(pipeline), index_(index) {
    device_.add_ref();
    pipeline_.add_ref();
    follow(device_.live_generation_source());
  }
  ~DerivedLayout() override {
    layout_.reset();
    pipeline_.release();
    device_.release();
  }
  void* dawn(std::string* why) override {
    (void)device_.ready_device();
    return layout_.get(device_.live_generation(), [&]() -> WGPUBindGroupLayout {
      void* pipeline = pipeline_.dawn(why);
      if (pipeline == nullptr) return nullptr;
      if (pipeline_.kind() == Kind::RenderPipeline) {
        return dawn_procs().RenderPipelineGetBindGroupLayout(static_cast<WGPURenderPipeline>(pipeline), index_);
      }
      return dawn_procs().ComputePipelineGetBindGroupLayout(static_cast<WGPUComputePipeline>(pipeline), index_);
    });
  }
  Device* device() const override { return &device_; }

 private:
  Device& device_;    // a reference held
  Object& pipeline_;  // a reference held: the layout is the pipeline's
  uint32_t index_;
  PerGeneration<WGPUBindGroupLayout> layout_;
};

// A bind group of a derived layout: its descriptor kept with references on what it names.
class DerivedGroup final : public Object {
 public:
  struct Entry {
    uint32_t binding = 0;
    Object* resource = nullptr;  // a reference held: a buffer, a sampler or a texture view
    uint64_t offset = 0;
    uint64_t size = WGPU_WHOLE_SIZE;
  };
  DerivedGroup(Device& device, DerivedLayout& layout, std::vector<Entry> entries, std::string label)
      : Object(Kind::BindGroup, std::move(label)), device_(device), layout_(layout), entries_(std::move(entries)) {
    device_.add_ref();
    layout_.add_ref();
    for (Entry& e : entries_) e.resource->add_ref();
    follow(device_.live_generation_source());
  }
  ~DerivedGroup() override {
    group_.reset();
    for (Entry& e : entries_) e.resource->release();
    layout_.release();
    device_.release();
  }
  void* dawn(std::string* why) override {
    (void)device_.ready_device();
    return group_.get(device_.live_generation(), [&]() -> WGPUBindGroup {
      auto layout = static_cast<WGPUBindGroupLayout>(layout_.dawn(why));
      if (layout == nullptr) return nullptr;
      std::vector<WGPUBindGroupEntry> entries(entries_.size());
      for (size_t i = 0; i < entries_.size(); ++i) {
        const Entry& e = entries_[i];
        void* object = e.resource->dawn(why);
        if (object == nullptr) return nullptr;
        entries[i].binding = e.binding;
        entries[i].offset = e.offset;
        entries[i].size = e.size;
        if (e.resource->kind() == Kind::Buffer) entries[i].buffer = static_cast<WGPUBuffer>(object);
        if (e.resource->kind() == Kind::Sampler) entries[i].sampler = static_cast<WGPUSampler>(object);
        if (e.resource->kind() == Kind::TextureView) entries[i].textureView = static_cast<WGPUTextureView>(object);
      }
      WGPUBindGroupDescriptor desc{};
      desc.label = gpu::string_view(label());
      desc.layout = layout;
      desc.entryCount = entries.size();
      desc.entries = entries.data();
      WGPUDevice device = device_.engine().device();
      return device != nullptr ? dawn_procs().DeviceCreateBindGroup(device, &desc) : nullptr;
    });
  }
  Device* device() const override { return &device_; }

 private:
  Device& device_;         // a reference held
  DerivedLayout& layout_;  // a reference held
  std::vector<Entry> entries_;
  PerGeneration<WGPUBindGroup> group_;
};

template <typename Pipeline>
WGPUBindGroupLayout derived_layout(Pipeline pipeline, Kind kind, uint32_t index, ProcId id) {
  Object* self = checked(pipeline, kind, id);
  if (self == nullptr) return nullptr;
  return to_app<WGPUBindGroupLayout>(new DerivedLayout(*self->device(), *self, index));
}

}  // namespace

WGPUBindGroupLayout Entry<ProcId::RenderPipelineGetBindGroupLayout>::call(WGPURenderPipeline pipeline, uint32_t index) {
  return derived_layout(pipeline, Kind::RenderPipeline, index, ProcId::RenderPipelineGetBindGroupLayout);
}

WGPUBindGroupLayout Entry<ProcId::ComputePipelineGetBindGroupLayout>::call(WGPUComputePipeline pipeline, uint32_t index) {
  return derived_layout(pipeline, Kind::ComputePipeline, index, ProcId::ComputePipelineGetBindGroupLayout);
}

/// wgpuDeviceCreateBindGroup for a layout that is a pipeline's: null when `layout` is another.
Object* make_derived_group(Device& device, const WGPUBindGroupDescriptor& desc, std::string* failure) {
  auto* layout = dynamic_cast<DerivedLayout*>(from_app(desc.layout, Kind::BindGroupLayout));
  if (layout == nullptr) return nullptr;
  std::vector<DerivedGroup::Entry> entries;
  for (size_t i = 0; i < desc.entryCount; ++i) {
    const WGPUBindGroupEntry& e = desc.entries[i];
    Object* resource = e.buffer != nullptr    ? from_app(e.buffer, Kind::Buffer)
                       : e.sampler != nullptr ? from_app(e.sampler, Kind::Sampler)
                                              : from_app(e.textureView, Kind::TextureView);
    if (resource == nullptr) {
      *failure = fmt::format("entries[{}] (binding {}) binds no buffer, sampler or texture view warden's webgpu.h "
                             "library handed out", i, e.binding);
      return nullptr;
    }
    entries.push_back({e.binding, resource, e.offset, e.size});
  }
  return new DerivedGroup(device, *layout, std::move(entries), std::string(gpu::to_std(desc.label)));
}

}  // namespace warden::webgpu_h
