// Render bundles: the application's bundle encoder records its commands into a list of warden's,
// by handle; wgpuRenderBundleEncoderFinish makes the bundle through the registry with a record
// callback that replays the list (docs/adr/0039), so every rebuild after a loss records the same
// commands again on the new device, with the objects they name made again under their handles.
#include <variant>

#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

namespace {

struct SetPipeline {
  RenderPipelineHandle pipeline;
};
struct SetBindGroup {
  uint32_t index;
  BindGroupHandle group;  // null: unbinds the index
  std::vector<uint32_t> offsets;
};
struct SetVertexBuffer {
  uint32_t slot;
  BufferHandle buffer;  // null: unbinds the slot
  uint64_t offset, size;
};
struct SetIndexBuffer {
  BufferHandle buffer;
  WGPUIndexFormat format;
  uint64_t offset, size;
};
struct Draw {
  uint32_t vertices, instances, first_vertex, first_instance;
};
struct DrawIndexed {
  uint32_t indices, instances, first_index;
  int32_t base_vertex;
  uint32_t first_instance;
};
struct DrawIndirect {
  BufferHandle buffer;
  uint64_t offset;
  bool indexed;
};
struct DebugMarker {
  enum class Kind { Insert, Push, Pop } kind;
  std::string text;
};
struct SetImmediateData {
  uint32_t offset;
  std::vector<uint8_t> bytes;
};
using Command = std::variant<SetPipeline, SetBindGroup, SetVertexBuffer, SetIndexBuffer, Draw, DrawIndexed,
                             DrawIndirect, DebugMarker, SetImmediateData>;

// Replays `commands` into a recording: what the registry calls on every device the bundle is made
// on. A handle that no longer resolves fails the recording (the registry names it).
Result<void> replay(const std::vector<Command>& commands, resources::RenderBundleRecording& recording) {
  const gpu::Procs& procs = recording.procs();
  WGPURenderBundleEncoder encoder = recording.encoder();
  for (const Command& command : commands) {
    Result<void> step = std::visit(
        [&](const auto& c) -> Result<void> {
          using T = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<T, SetPipeline>) {
            auto pipeline = recording.resolve(c.pipeline);
            if (!pipeline) return pipeline.error();
            procs.RenderBundleEncoderSetPipeline(encoder, *pipeline);
          } else if constexpr (std::is_same_v<T, SetBindGroup>) {
            WGPUBindGroup group = nullptr;
            if (!c.group.is_null()) {
              auto resolved = recording.resolve(c.group);
              if (!resolved) return resolved.error();
              group = *resolved;
            }
            procs.RenderBundleEncoderSetBindGroup(encoder, c.index, group, c.offsets.size(), c.offsets.data());
          } else if constexpr (std::is_same_v<T, SetVertexBuffer>) {
            WGPUBuffer buffer = nullptr;
            if (!c.buffer.is_null()) {
              auto resolved = recording.resolve(c.buffer);
              if (!resolved) return resolved.error();
              buffer = *resolved;
            }
            procs.RenderBundleEncoderSetVertexBuffer(encoder, c.slot, buffer, c.offset, c.size);
          } else if constexpr (std::is_same_v<T, SetIndexBuffer>) {
            auto buffer = recording.resolve(c.buffer);
            if (!buffer) return buffer.error();
            procs.RenderBundleEncoderSetIndexBuffer(encoder, *buffer, c.format, c.offset, c.size);
          } else if constexpr (std::is_same_v<T, Draw>) {
            procs.RenderBundleEncoderDraw(encoder, c.vertices, c.instances, c.first_vertex, c.first_instance);
          } else if constexpr (std::is_same_v<T, DrawIndexed>) {
            procs.RenderBundleEncoderDrawIndexed(encoder, c.indices, c.instances, c.first_index, c.base_vertex,
                                                 c.first_instance);
          } else if constexpr (std::is_same_v<T, DrawIndirect>) {
            auto buffer = recording.resolve(c.buffer);
            if (!buffer) return buffer.error();
            if (c.indexed) {
              procs.RenderBundleEncoderDrawIndexedIndirect(encoder, *buffer, c.offset);
            } else {
              procs.RenderBundleEncoderDrawIndirect(encoder, *buffer, c.offset);
            }
          } else if constexpr (std::is_same_v<T, DebugMarker>) {
            if (c.kind == DebugMarker::Kind::Insert) procs.RenderBundleEncoderInsertDebugMarker(encoder, gpu::string_view(c.text));
            if (c.kind == DebugMarker::Kind::Push) procs.RenderBundleEncoderPushDebugGroup(encoder, gpu::string_view(c.text));
            if (c.kind == DebugMarker::Kind::Pop) procs.RenderBundleEncoderPopDebugGroup(encoder);
          } else {
            procs.RenderBundleEncoderSetImmediateData(encoder, c.offset, c.bytes.data(), c.bytes.size());
          }
          return {};
        },
        command);
    if (!step) return step;
  }
  return {};
}

/// The application's render bundle encoder: a list of commands by handle, the recipe of the
/// bundle Finish makes. It has no Dawn object of its own.
class BundleRecorder final : public Object {
 public:
  BundleRecorder(Device& device, const WGPURenderBundleEncoderDescriptor& desc)
      : Object(Kind::RenderBundleEncoder, std::string(gpu::to_std(desc.label))), device_(device) {
    device_.add_ref();
    description_.label = label();
    description_.color_formats.assign(desc.colorFormats, desc.colorFormats + desc.colorFormatCount);
    description_.depth_stencil_format = desc.depthStencilFormat;
    description_.sample_count = desc.sampleCount == 0 ? 1 : desc.sampleCount;
    description_.depth_read_only = desc.depthReadOnly != 0;
    description_.stencil_read_only = desc.stencilReadOnly != 0;
  }
  ~BundleRecorder() override { device_.release(); }
  void* dawn(std::string* why) override {
    if (why != nullptr) *why = fmt::format("{} records warden's recipe of a bundle; it has no Dawn object", describe(*this));
    return nullptr;
  }
  Device* device() const override { return &device_; }

  // The handle behind an application's object, or a null one and the recording's failure.
  template <typename Tag>
  Handle<Tag> handle(const void* pointer, Kind kind, ProcId id, bool nullable = false) {
    if (pointer == nullptr && nullable) return {};
    auto* object = dynamic_cast<Custody<Tag>*>(from_app(pointer, kind));
    if (object == nullptr && failure_.empty()) {
      failure_ = fmt::format("{}: {}", entry_name(id),
                             pointer == nullptr ? fmt::format("the {} is null", kind_name(kind))
                                                : not_warden_object(pointer, kind));
    }
    return object != nullptr ? object->handle() : Handle<Tag>{};
  }
  void add(Command command) {
    if (finished_) {
      if (failure_.empty()) failure_ = fmt::format("{} was used after wgpuRenderBundleEncoderFinish", describe(*this));
      return;
    }
    commands_.push_back(std::move(command));
  }

  WGPURenderBundle finish(const WGPURenderBundleDescriptor* desc) {
    (void)device_.ready_device();
    description_.label = desc != nullptr && desc->label.data != nullptr ? std::string(gpu::to_std(desc->label)) : label();
    finished_ = true;
    std::string why = failure_;
    RenderBundleHandle made;
    if (why.empty()) {
      description_.record = [commands = std::move(commands_)](resources::RenderBundleRecording& recording) {
        return replay(commands, recording);
      };
      auto bundle = device_.registry().create_render_bundle(description_);
      if (bundle) {
        made = *bundle;
      } else {
        why = bundle.error().message;
      }
    }
    auto* object = new RenderBundle(Kind::RenderBundle, device_, made, description_.label);
    if (!why.empty()) {
      object->fail(why);
      Call call{ProcId::RenderBundleEncoderFinish, &device_, why};
      call.report();
    }
    return to_app<WGPURenderBundle>(object);
  }

 private:
  Device& device_;  // a reference held
  resources::RenderBundleDescription description_;
  std::vector<Command> commands_;
  std::string failure_{};  // the first command that could not be recorded
  bool finished_ = false;
};

}  // namespace

WGPURenderBundleEncoder Entry<ProcId::DeviceCreateRenderBundleEncoder>::call(
    WGPUDevice device, const WGPURenderBundleEncoderDescriptor* desc) {
  auto* self = checked<Device>(device, Kind::Device, ProcId::DeviceCreateRenderBundleEncoder);
  if (self == nullptr) return nullptr;
  const WGPURenderBundleEncoderDescriptor none{};
  return to_app<WGPURenderBundleEncoder>(new BundleRecorder(*self, desc != nullptr ? *desc : none));
}

void Entry<ProcId::RenderBundleEncoderSetPipeline>::call(WGPURenderBundleEncoder encoder, WGPURenderPipeline pipeline) {
  constexpr ProcId id = ProcId::RenderBundleEncoderSetPipeline;
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, id)) r->add(SetPipeline{r->handle<RenderPipelineTag>(pipeline, Kind::RenderPipeline, id)});
}

void Entry<ProcId::RenderBundleEncoderSetBindGroup>::call(WGPURenderBundleEncoder encoder, uint32_t index, WGPUBindGroup group,
                                                          size_t count, const uint32_t* offsets) {
  constexpr ProcId id = ProcId::RenderBundleEncoderSetBindGroup;
  BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, id);
  if (r == nullptr) return;
  std::vector<uint32_t> kept(offsets, offsets + (offsets != nullptr ? count : 0));
  r->add(SetBindGroup{index, r->handle<BindGroupTag>(group, Kind::BindGroup, id, true), std::move(kept)});
}

void Entry<ProcId::RenderBundleEncoderSetVertexBuffer>::call(WGPURenderBundleEncoder encoder, uint32_t slot, WGPUBuffer buffer,
                                                             uint64_t offset, uint64_t size) {
  constexpr ProcId id = ProcId::RenderBundleEncoderSetVertexBuffer;
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, id)) r->add(SetVertexBuffer{slot, r->handle<BufferTag>(buffer, Kind::Buffer, id, true), offset, size});
}

void Entry<ProcId::RenderBundleEncoderSetIndexBuffer>::call(WGPURenderBundleEncoder encoder, WGPUBuffer buffer,
                                                            WGPUIndexFormat format, uint64_t offset, uint64_t size) {
  constexpr ProcId id = ProcId::RenderBundleEncoderSetIndexBuffer;
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, id)) r->add(SetIndexBuffer{r->handle<BufferTag>(buffer, Kind::Buffer, id), format, offset, size});
}

void Entry<ProcId::RenderBundleEncoderDraw>::call(WGPURenderBundleEncoder encoder, uint32_t vertices, uint32_t instances,
                                                  uint32_t first_vertex, uint32_t first_instance) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderDraw)) r->add(Draw{vertices, instances, first_vertex, first_instance});
}

void Entry<ProcId::RenderBundleEncoderDrawIndexed>::call(WGPURenderBundleEncoder encoder, uint32_t indices, uint32_t instances,
                                                         uint32_t first_index, int32_t base_vertex, uint32_t first_instance) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderDrawIndexed)) {
    r->add(DrawIndexed{indices, instances, first_index, base_vertex, first_instance});
  }
}

void Entry<ProcId::RenderBundleEncoderDrawIndirect>::call(WGPURenderBundleEncoder encoder, WGPUBuffer buffer, uint64_t offset) {
  constexpr ProcId id = ProcId::RenderBundleEncoderDrawIndirect;
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, id)) r->add(DrawIndirect{r->handle<BufferTag>(buffer, Kind::Buffer, id), offset, false});
}

void Entry<ProcId::RenderBundleEncoderDrawIndexedIndirect>::call(WGPURenderBundleEncoder encoder, WGPUBuffer buffer, uint64_t offset) {
  constexpr ProcId id = ProcId::RenderBundleEncoderDrawIndexedIndirect;
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, id)) r->add(DrawIndirect{r->handle<BufferTag>(buffer, Kind::Buffer, id), offset, true});
}

void Entry<ProcId::RenderBundleEncoderInsertDebugMarker>::call(WGPURenderBundleEncoder encoder, WGPUStringView marker) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderInsertDebugMarker)) {
    r->add(DebugMarker{DebugMarker::Kind::Insert, std::string(gpu::to_std(marker))});
  }
}

void Entry<ProcId::RenderBundleEncoderPushDebugGroup>::call(WGPURenderBundleEncoder encoder, WGPUStringView group) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderPushDebugGroup)) {
    r->add(DebugMarker{DebugMarker::Kind::Push, std::string(gpu::to_std(group))});
  }
}

void Entry<ProcId::RenderBundleEncoderPopDebugGroup>::call(WGPURenderBundleEncoder encoder) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderPopDebugGroup)) r->add(DebugMarker{DebugMarker::Kind::Pop, {}});
}

void Entry<ProcId::RenderBundleEncoderSetImmediateData>::call(WGPURenderBundleEncoder encoder, uint32_t offset, const void* data,
                                                              size_t size) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderSetImmediateData)) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    r->add(SetImmediateData{offset, std::vector<uint8_t>(bytes, bytes + (bytes != nullptr ? size : 0))});
  }
}

void Entry<ProcId::RenderBundleEncoderSetLabel>::call(WGPURenderBundleEncoder encoder, WGPUStringView label) {
  if (BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderSetLabel)) r->set_label(gpu::to_std(label));
}

WGPURenderBundle Entry<ProcId::RenderBundleEncoderFinish>::call(WGPURenderBundleEncoder encoder,
                                                                const WGPURenderBundleDescriptor* desc) {
  BundleRecorder* r = checked<BundleRecorder>(encoder, Kind::RenderBundleEncoder, ProcId::RenderBundleEncoderFinish);
  return r != nullptr ? r->finish(desc) : nullptr;
}

}  // namespace warden::webgpu_h
