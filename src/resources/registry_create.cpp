// Registry: create_* (checked before Dawn sees them), usage contracts, contents-only updates.
#include <algorithm>
#include <cstring>
#include <variant>
#include <memory>

#include <fmt/format.h>

#include "resources/kind_order.h"
#include "resources/registry_impl.h"
#include "warden/resources/pipeline_parts.h"
#include "resources/error_object.h"
#include "resources/requests.h"
#include "gpu/error_capture.h"
#include "warden/gpu/error_scope.h"
#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"
#include "warden/gpu/ref.h"

namespace warden::resources {

namespace {

// Prefixes a lookup error with what the lookup was for.
Error in_context(const std::string& what, Error error) {
  error.message = fmt::format("{}: {}", what, error.message);
  return error;
}

Error missing_usage(const std::string& object, const std::string& missing, const std::string& had) {
  return make_error(ErrorKind::MissingUsage, MessageId::ResourceMissingUsage,
                    fmt::format("{} lacks usage {} (created with {})", object, missing, had));
}

uint32_t mip_extent(uint32_t base, uint32_t mip) { return std::max(1u, mip >= 32 ? 0u : base >> mip); }

template <typename Recipe>
const std::string& recipe_label(const Recipe& recipe) {
  return recipe.label;
}
const std::string& recipe_label(const TextureAndViewDescription& recipe) { return recipe.desc.label; }

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

// ---- usage contracts --------------------------------------------------------------------------

// ---- objects warden made ------------------------------------------------------------------------

std::string RegistryImpl::run_scoped(const std::function<void()>& call) {
  procs_.DevicePushErrorScope(device_, WGPUErrorFilter_OutOfMemory);
  procs_.DevicePushErrorScope(device_, WGPUErrorFilter_Validation);
  call();
  // Dawn knows a creation's (or a queue write's) errors when the call returns, so each scope
  // settles inside its pop. A deferred callback is not seen with this Dawn build; if an
  // implementation defers it, a bounded wait (counted by gpu::blocking_wait_count) is better
  // than handing out an unchecked object.
  const gpu::PendingScope validation = gpu::pop_scope(procs_, device_, gpu::Completion::WithinCall);
  const gpu::PendingScope out_of_memory = gpu::pop_scope(procs_, device_, gpu::Completion::WithinCall);
  constexpr auto kDeferredScopeWait = std::chrono::seconds(5);
  (void)gpu::settle(context_, validation.future, validation.outcome->done, kDeferredScopeWait,
                    gpu::Completion::WithinCall);
  (void)gpu::settle(context_, out_of_memory.future, out_of_memory.outcome->done, kDeferredScopeWait,
                    gpu::Completion::WithinCall);
  if (validation.outcome->has_error()) return validation.outcome->message;
  if (out_of_memory.outcome->has_error()) return out_of_memory.outcome->message;
  return {};
}

bool RegistryImpl::errors_reach_capture() {
  if (device_ != capture_checked_device_) {
    capture_checked_device_ = device_;
    capture_reaches_ = gpu::errors_reach_capture(device_);
  }
  return capture_reaches_;
}

template <typename Call>
std::string RegistryImpl::run_checked(Call&& call) {
  if (errors_reach_capture()) {
    gpu::ErrorCapture capture(device_);
    call();
    return capture.caught() ? capture.message() : std::string{};
  }
  return run_scoped(call);
}

// Runs `make` (one device create call) under run_checked. Dawn answers a rejected creation with
// an error object that looks like any other and says why only to an error scope or the
// uncaptured-error callback, so a rejection is caught here and returned as a Validation error
// naming the call, the label and Dawn's words; the error object is released.
template <typename Tag, typename Make>
Result<RegistryImpl::Object<Tag>> RegistryImpl::create_checked(const char* call, std::string_view label, Make&& make) {
  if (device_lost()) return device_lost_error(fmt::format("{} \"{}\"", call, label));
  Object<Tag> object = nullptr;
  const std::string rejection = run_checked([&] { object = make(); });
  auto named = [&] { return ErrorObject{to_string(Tag::kind), {}, {}, std::string(label)}; };  // made only on a failure
  if (!rejection.empty()) {
    if (object != nullptr) gpu::release(procs_, object);
    return make_error(ErrorKind::Validation, MessageId::CreateRejected, named(),
                      fmt::format("{} \"{}\": the device rejected it: {}", call, label, rejection));
  }
  if (object == nullptr) {
    return make_error(ErrorKind::Validation, MessageId::CreateReturnedNull, named(),
                      fmt::format("{} \"{}\": the device returned no {}", call, label, to_string(Tag::kind)));
  }
  return object;
}

template <typename Tag, typename RecipeRef>
Result<Handle<Tag>> RegistryImpl::create_from_recipe(const char* call, RecipeRef&& recipe, detail::KindData<Tag> data) {
  static_assert(std::is_same_v<std::remove_cvref_t<RecipeRef>, detail::Recipe<Tag>>);
  if (auto refused = refuse_inside_recording(call)) return *refused;
  const bool carried = !device_lost() && carrier_.carries();
  if (!carried) settle_carried();  // what it uses may be waiting
  if constexpr (std::is_same_v<Tag, BufferTag>) {
    if (carried && recipe.mapped_at_creation) {
      return make_error(ErrorKind::Refused, MessageId::WrongThread,
                        fmt::format("{} \"{}\": mapped at creation from a thread other than the frame thread, on a "
                                    "device that takes calls on one thread (GL, GLES): the mapping would reach no "
                                    "context; create it on the frame thread, or unmapped and written with write_buffer",
                                    call, recipe.label));
    }
  }
  if (device_lost() || carried) {
    // A loading thread need not know about a loss: the object is registered Lost with its
    // recipe, and the rebuild makes it on the next device with the others. On a device that
    // takes calls on one thread it is registered Waiting, and the frame thread's next poll
    // makes it (docs/threads.md).
    auto handle = insert<Tag>(nullptr, recipe_label(recipe), Ownership::Owned, std::move(data));
    if (handle) {
      auto& rec = store<Tag>().records[handle->index()];
      carried ? slot_edges::registered_waiting(rec) : slot_edges::registered_lost(rec);
      rec.recipe.emplace(std::forward<RecipeRef>(recipe));
      count_names(rec);
      if (carried) carrier_.wait(Tag::kind, handle->bits());
    }
    return handle;
  }
  auto object = make_object<Tag>(recipe);
  if (!object) return object.error();
  auto handle = insert<Tag>(*object, recipe_label(recipe), Ownership::Owned, std::move(data));
  if (handle) {
    auto& rec = store<Tag>().records[handle->index()];
    rec.recipe.emplace(std::forward<RecipeRef>(recipe));
    count_names(rec);
  }
  return handle;
}

template <typename Tag>
Result<void> RegistryImpl::require_recorded_usage(Handle<Tag> handle, WGPUFlags needed,
                                              std::string (*usage_names)(WGPUFlags)) const {
  const auto* rec = record(handle);
  if (rec == nullptr) return stale_error(handle);
  const WGPUFlags missing = needed & ~rec->data.usage;
  if (missing == 0) return {};
  const ErrorObject object = object_of(handle, rec->label);
  return about(missing_usage(describe(object), usage_names(missing), usage_names(rec->data.usage)), object);
}

Result<void> RegistryImpl::require_usage(BufferHandle handle, WGPUBufferUsage needed) const {
  return require_recorded_usage(handle, needed, gpu::buffer_usage_names);
}

Result<void> RegistryImpl::require_usage(TextureHandle handle, WGPUTextureUsage needed) const {
  return require_recorded_usage(handle, needed, gpu::texture_usage_names);
}

Result<void> RegistryImpl::require_usage(TextureViewHandle handle, WGPUTextureUsage needed) const {
  const auto* rec = record(handle);
  if (rec == nullptr) return stale_error(handle);
  if (rec->data.texture.is_null()) return {};  // adopted or imported: usages unknown to warden
  auto checked = require_usage(rec->data.texture, needed);
  if (!checked) {
    return in_context(fmt::format("view \"{}\"", rec->label), checked.error());
  }
  return {};
}

// ---- contents-only updates --------------------------------------------------------------------

Result<void> RegistryImpl::unmap_buffer(BufferHandle handle) {
  // On GL and GLES the mapping lives in the frame thread's context (creation refuses a mapped
  // buffer from elsewhere), and so does its unmap.
  if (auto refused = carrier_.refuse("unmap_buffer")) return *refused;
  auto* rec = record(handle);
  if (rec == nullptr) return in_context("unmap_buffer", stale_error(handle));
  auto buffer = resolve_now(handle);
  if (!buffer) return in_context("unmap_buffer", buffer.error());
  const ErrorObject object = object_of(handle, rec->label);
  if (procs_.BufferGetMapState(*buffer) != WGPUBufferMapState_Mapped) {
    return make_error(ErrorKind::InvalidArgument, MessageId::UnmapBufferNotMapped, object,
                      fmt::format("unmap_buffer {}: it is not mapped", describe(object)));
  }
  // The mapping at creation covers the whole buffer and is its first contents: kept as a first
  // write_buffer keeps them. Later mappings (MapWrite, MapRead) are the GPU's side of a copy.
  const bool keep = rec->recipe && rec->recipe->mapped_at_creation && rec->recipe->contents == ContentsSource::Kept &&
                    !rec->data.mapping_kept;
  if (keep) {
    const auto* mapped = static_cast<const uint8_t*>(procs_.BufferGetMappedRange(*buffer, 0, rec->data.size));
    if (mapped != nullptr) {
      rec->data.kept.assign(mapped, mapped + rec->data.size);
      rec->data.mapping_kept = true;
    }
  }
  procs_.BufferUnmap(*buffer);
  return {};
}

Result<void> RegistryImpl::write_buffer(BufferHandle handle, uint64_t offset, const void* data, size_t size) {
  auto* rec = record(handle);
  if (rec == nullptr) return in_context("write_buffer", stale_error(handle));
  const bool carried = carrier_.carries();
  if (!carried) settle_carried();  // what other threads wrote first goes first
  // A Lost or Failed slot has no buffer to write; a Waiting one takes carried writes.
  WGPUBuffer buffer = nullptr;
  if (!carried || rec->state != SlotState::Waiting) {
    auto resolved = resolve_now(handle);
    if (!resolved) return in_context("write_buffer", resolved.error());
    buffer = *resolved;
  }
  if (auto usage = require_usage(handle, WGPUBufferUsage_CopyDst); !usage) {
    return in_context("write_buffer", usage.error());
  }
  auto object = [&] { return object_of(handle, rec->label); };  // made only on a failure
  const std::string what = describe(object());
  if (size > 0 && data == nullptr) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteBufferNullData, object(),
                      fmt::format("write_buffer to {}: data is null", what));
  }
  if (offset % 4 != 0 || size % 4 != 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteBufferMisaligned, object(),
                      fmt::format("write_buffer to {}: offset {} and size {} must be multiples of 4",
                                  what, offset, size));
  }
  if (offset > rec->data.size || size > rec->data.size - offset) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteBufferOutOfRange, object(),
                      fmt::format("write_buffer to {}: bytes [{}, {}) lie outside its {} bytes", what,
                                  offset, offset + size, rec->data.size));
  }
  if (carried) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    carrier_.carry(detail::FrameThreadCarrier::Write{.kind = ResourceKind::Buffer,
                                                     .bits = handle.bits(),
                                                     .offset = offset,
                                                     .bytes = std::vector<uint8_t>(bytes, bytes + size)});
  } else if (const std::string rejection =
                 run_checked([&] { procs_.QueueWriteBuffer(queue_, buffer, offset, data, size); });
             !rejection.empty()) {
    return make_error(ErrorKind::Validation, MessageId::WriteBufferRejected, object(),
                      fmt::format("write_buffer to {}: the device rejected it: {}", what, rejection));
  }
  if (rec->recipe && rec->recipe->contents == ContentsSource::Kept && size > 0) {
    std::vector<uint8_t>& kept = rec->data.kept;
    if (kept.empty()) kept.resize(rec->data.size);
    std::memcpy(kept.data() + offset, data, size);
  }
  return {};
}

namespace {

// The bytes a write's data must hold, as WebGPU lays a buffer-to-texture copy out: every row
// but the last at bytes_per_row, every image but the last at rows_per_image rows.
struct TextureWriteLayout {
  uint32_t texel_bytes = 0;
  uint32_t row_bytes = 0;   // one row of the region, packed
  uint32_t row_pitch = 0;   // bytes_per_row, or row_bytes when the caller left it 0 or undefined
  uint32_t image_rows = 0;  // rows_per_image, or the region's height when undefined
};

// Layers (or depth slices) a mip level has: a 3D texture's depth shrinks with its mips.
uint32_t level_layers(const detail::KindData<TextureTag>& t, WGPUTextureDimension dimension, uint32_t mip) {
  return dimension == WGPUTextureDimension_3D ? mip_extent(t.size.depthOrArrayLayers, mip)
                                                 : t.size.depthOrArrayLayers;
}

Result<TextureWriteLayout> texture_write_layout(const std::string& what, WGPUTextureFormat format,
                                                const TextureWrite& where, size_t size) {
  const std::optional<uint32_t> texel = gpu::copy_texel_bytes(format);
  if (!texel) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureFormatNotCopyable,
                      fmt::format("write_texture to {}: its format {} cannot be written from memory", what,
                                  gpu::to_string(format)));
  }
  TextureWriteLayout layout;
  layout.texel_bytes = *texel;
  layout.row_bytes = where.size.width * *texel;
  const bool packed = where.bytes_per_row == 0 || where.bytes_per_row == WGPU_COPY_STRIDE_UNDEFINED;
  layout.row_pitch = packed ? layout.row_bytes : where.bytes_per_row;
  if (layout.row_pitch < layout.row_bytes) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureRowTooShort,
                      fmt::format("write_texture to {}: bytes_per_row {} is shorter than a row of the region ({} "
                                  "texels of {} bytes: {} bytes)",
                                  what, where.bytes_per_row, where.size.width, *texel, layout.row_bytes));
  }
  layout.image_rows = where.rows_per_image == WGPU_COPY_STRIDE_UNDEFINED ? where.size.height : where.rows_per_image;
  if (layout.image_rows < where.size.height) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureRowsPerImageTooShort,
                      fmt::format("write_texture to {}: rows_per_image {} is below the region's height {}", what,
                                  where.rows_per_image, where.size.height));
  }
  const uint64_t image_bytes = uint64_t{layout.row_pitch} * layout.image_rows;
  const uint64_t required = image_bytes * (where.size.depthOrArrayLayers - 1) +
                            uint64_t{layout.row_pitch} * (where.size.height - 1) + layout.row_bytes;
  if (size < required) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureDataTooSmall,
                      fmt::format("write_texture to {}: {} bytes given, the {}x{}x{} region needs {} ({} bytes a "
                                  "row, {} rows an image)",
                                  what, size, where.size.width, where.size.height, where.size.depthOrArrayLayers,
                                  required, layout.row_pitch, layout.image_rows));
  }
  return layout;
}

// Copies a checked write into the kept subresources it covers, each made zeroed on its first
// write (a new texture is zeroed too, so texels never written come back as they were).
void keep_texture_write(detail::KindData<TextureTag>& t, const TextureWrite& where, const TextureWriteLayout& layout,
                        const uint8_t* data) {
  ++t.kept_version;
  const uint32_t level_width = mip_extent(t.size.width, where.mip_level);
  const uint32_t level_height = mip_extent(t.size.height, where.mip_level);
  for (uint32_t z = 0; z < where.size.depthOrArrayLayers; ++z) {
    const uint32_t layer = where.origin.z + z;
    auto kept = std::find_if(t.kept.begin(), t.kept.end(), [&](const detail::KeptSubresource& k) {
      return k.aspect == where.aspect && k.mip_level == where.mip_level && k.layer == layer;
    });
    if (kept == t.kept.end()) {
      detail::KeptSubresource made{where.aspect, where.mip_level, layer, level_width, level_height,
                                   level_width * layout.texel_bytes, {}};
      made.texels.resize(size_t{made.row_bytes} * made.rows);
      kept = t.kept.insert(t.kept.end(), std::move(made));
    }
    const uint8_t* image = data + uint64_t{layout.row_pitch} * layout.image_rows * z;
    for (uint32_t y = 0; y < where.size.height; ++y) {
      uint8_t* row = kept->texels.data() + size_t{kept->row_bytes} * (where.origin.y + y) +
                     size_t{where.origin.x} * layout.texel_bytes;
      std::memcpy(row, image + uint64_t{layout.row_pitch} * y, layout.row_bytes);
    }
  }
}

}  // namespace

Result<void> RegistryImpl::write_texture(TextureHandle handle, const TextureWrite& where, const void* data,
                                     size_t size) {
  auto* rec = record(handle);
  if (rec == nullptr) return in_context("write_texture", stale_error(handle));
  const bool carried = carrier_.carries();
  if (!carried) settle_carried();  // what other threads wrote first goes first
  // A Lost or Failed slot has no texture to write; a Waiting one takes carried writes.
  WGPUTexture texture = nullptr;
  if (!carried || rec->state != SlotState::Waiting) {
    auto resolved = resolve_now(handle);
    if (!resolved) return in_context("write_texture", resolved.error());
    texture = *resolved;
  }
  if (auto usage = require_usage(handle, WGPUTextureUsage_CopyDst); !usage) {
    return in_context("write_texture", usage.error());
  }
  auto object = [&] { return object_of(handle, rec->label); };  // made only on a failure
  const std::string what = describe(object());
  const auto& t = rec->data;
  if (where.size.width == 0 || where.size.height == 0 || where.size.depthOrArrayLayers == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureEmptyRegion, object(),
                      fmt::format("write_texture to {}: the region {}x{}x{} is empty", what,
                                  where.size.width, where.size.height, where.size.depthOrArrayLayers));
  }
  if (where.mip_level >= t.mip_level_count) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureMipOutOfRange, object(),
                      fmt::format("write_texture to {}: mip level {} does not exist ({} levels)", what,
                                  where.mip_level, t.mip_level_count));
  }
  const WGPUTextureDimension dimension = rec->recipe ? rec->recipe->dimension : WGPUTextureDimension_2D;
  const uint32_t w = mip_extent(t.size.width, where.mip_level);
  const uint32_t h = mip_extent(t.size.height, where.mip_level);
  const uint32_t d = level_layers(t, dimension, where.mip_level);
  auto outside = [](uint32_t origin, uint32_t extent, uint32_t limit) {
    return origin > limit || extent > limit - origin;
  };
  if (outside(where.origin.x, where.size.width, w) || outside(where.origin.y, where.size.height, h) ||
      outside(where.origin.z, where.size.depthOrArrayLayers, d)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureOutOfRange, object(),
                      fmt::format("write_texture to {}: region at ({}, {}, {}) of {}x{}x{} lies outside "
                                  "mip {} ({}x{}x{})",
                                  what, where.origin.x, where.origin.y, where.origin.z, where.size.width,
                                  where.size.height, where.size.depthOrArrayLayers, where.mip_level, w,
                                  h, d));
  }
  if (data == nullptr || size == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WriteTextureNoData, object(),
                      fmt::format("write_texture to {}: no data", what));
  }
  auto layout = texture_write_layout(what, t.format, where, size);
  if (!layout) return about(layout.error(), object());

  // A write Dawn refuses for a reason the checks above do not know (an aspect the format
  // lacks) is an error here and never replaces the kept contents. A carried write's refusal
  // is reported when the frame thread makes it.
  if (carried) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    carrier_.carry(detail::FrameThreadCarrier::Write{.kind = ResourceKind::Texture,
                                                     .bits = handle.bits(),
                                                     .where = where,
                                                     .bytes_per_row = layout->row_pitch,
                                                     .rows_per_image = layout->image_rows,
                                                     .bytes = std::vector<uint8_t>(bytes, bytes + size)});
  } else if (const std::string rejection =
                 queue_write_texture(texture, where, layout->row_pitch, layout->image_rows, data, size);
             !rejection.empty()) {
    return make_error(ErrorKind::Validation, MessageId::WriteTextureRejected, object(),
                      fmt::format("write_texture to {}: the device rejected it: {}", what, rejection));
  }
  if (rec->recipe && rec->recipe->contents == ContentsSource::Kept) {
    keep_texture_write(rec->data, where, *layout, static_cast<const uint8_t*>(data));
  }
  return {};
}

// ---- carried to the frame thread (devices that take calls on one thread) ----------------------

void RegistryImpl::read_device_backend() {
  carrier_.set_device_on_one_thread(false);
  backend_ = WGPUBackendType_Undefined;
  if (device_ == nullptr) return;
  WGPUAdapterInfo info{};
  if (procs_.DeviceGetAdapterInfo(device_, &info) != WGPUStatus_Success) return;
  backend_ = info.backendType;
  carrier_.set_device_on_one_thread(info.backendType == WGPUBackendType_OpenGL ||
                                    info.backendType == WGPUBackendType_OpenGLES);
  procs_.AdapterInfoFreeMembers(info);
}

void RegistryImpl::settle_carried_now() {
  if (device_lost() || carrier_.carries()) return;
  // Taken first: a report below reaches the application's sink, which may create again.
  const detail::FrameThreadCarrier::Carried carried = carrier_.take();
  // Dependency order, as a rebuild makes them: a view's texture before the view.
  Remaking remaking(remaking_);
  detail::for_each_kind(detail::KindOrder::Build, [&]<typename Tag>() {
    for (const auto& [kind, bits] : carried.waiting) {
      if (kind == Tag::kind) make_waiting<Tag>(bits);
    }
  });
  for (const detail::FrameThreadCarrier::Write& write : carried.writes) {
    if (device_lost()) return;  // lost from inside a report: the rest went with the device
    write_carried(write);
  }
}

template <typename Tag>
void RegistryImpl::make_waiting(uint64_t bits) {
  const auto handle = Handle<Tag>::from_bits(bits);
  auto* rec = record(handle);
  Object<Tag>* kept_object = nullptr;  // destroyed since, and kept for what names it (docs/adr/0049)
  if (rec == nullptr) {
    if (auto found = custody<Tag>().find(bits); found != custody<Tag>().end()) {
      rec = &found->second.record;
      kept_object = &found->second.object;
    }
  }
  if (rec == nullptr || rec->state != SlotState::Waiting || !rec->recipe) return;  // destroyed since
  auto made = make_object<Tag>(*rec->recipe);
  if (!made) {
    slot_edges::refused(*rec, made.error().message);
    diagnostics_.error(made.error().id, fmt::format("{} \"{}\", created from another thread, could not be made by "
                                                    "the frame thread: {}",
                                                    to_string(Tag::kind), rec->label, rec->failure));
    return;
  }
  if (kept_object != nullptr) {
    *kept_object = *made;
  } else {
    store<Tag>().pool.exchange(bits, *made);
  }
  slot_edges::made_by_frame_thread(*rec);
  if constexpr (std::is_same_v<Tag, RenderBundleTag>) set_recorded_uses(*rec, std::move(recorded_uses_));
}

std::string RegistryImpl::queue_write_texture(WGPUTexture texture, const TextureWrite& where, uint32_t bytes_per_row,
                                              uint32_t rows_per_image, const void* data, size_t size) {
  WGPUTexelCopyTextureInfo dst{};
  dst.texture = texture;
  dst.mipLevel = where.mip_level;
  dst.origin = where.origin;
  dst.aspect = where.aspect;
  WGPUTexelCopyBufferLayout copy{};
  copy.bytesPerRow = bytes_per_row;
  copy.rowsPerImage = rows_per_image;
  return run_checked([&] { procs_.QueueWriteTexture(queue_, &dst, data, size, &copy, &where.size); });
}

void RegistryImpl::write_carried(const detail::FrameThreadCarrier::Write& write) {
  std::string rejection;
  std::string_view call;
  if (write.kind == ResourceKind::Buffer) {
    auto buffer = resolve_now(BufferHandle::from_bits(write.bits));
    if (!buffer) return;  // destroyed since, or it could not be made (reported there)
    call = "write_buffer";
    rejection = run_checked([&] {
      procs_.QueueWriteBuffer(queue_, *buffer, write.offset, write.bytes.data(), write.bytes.size());
    });
  } else {
    auto texture = resolve_now(TextureHandle::from_bits(write.bits));
    if (!texture) return;
    call = "write_texture";
    rejection = queue_write_texture(*texture, write.where, write.bytes_per_row, write.rows_per_image,
                                    write.bytes.data(), write.bytes.size());
  }
  if (!rejection.empty()) {
    diagnostics_.error(write.kind == ResourceKind::Buffer ? MessageId::WriteBufferRejected
                                                          : MessageId::WriteTextureRejected,
                       fmt::format("{} from another thread, made by the frame thread: the device rejected it: {}",
                                   call, rejection));
  }
}

// ---- make_object: one per kind, what create_* and rebuild() both run ---------------------------

template <>
Result<WGPUBuffer> RegistryImpl::make_object<BufferTag>(const BufferDescription& desc) {
  WGPUBufferDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.size = desc.size;
  d.usage = desc.usage;
  d.mappedAtCreation = desc.mapped_at_creation ? 1 : 0;
  return create_checked<BufferTag>("create_buffer", desc.label, [&] { return procs_.DeviceCreateBuffer(device_, &d); });
}

template <>
Result<WGPUTexture> RegistryImpl::make_object<TextureTag>(const TextureDescription& desc) {
  WGPUTextureBindingViewDimensionDescriptor binding_dimension{};
  binding_dimension.chain.sType = WGPUSType_TextureBindingViewDimensionDescriptor;
  binding_dimension.textureBindingViewDimension = desc.binding_view_dimension;
  WGPUTextureDescriptor d{};
  if (desc.binding_view_dimension != WGPUTextureViewDimension_Undefined) {
    d.nextInChain = &binding_dimension.chain;
  }
  d.label = gpu::string_view(desc.label);
  d.usage = desc.usage;
  d.dimension = desc.dimension;
  d.size = desc.size;
  d.format = desc.format;
  d.mipLevelCount = desc.mip_level_count;
  d.sampleCount = desc.sample_count;
  d.viewFormatCount = desc.view_formats.size();
  d.viewFormats = desc.view_formats.data();
  return create_checked<TextureTag>("create_texture", desc.label, [&] { return procs_.DeviceCreateTexture(device_, &d); });
}

template <>
Result<WGPUTextureView> RegistryImpl::make_object<TextureViewTag>(const TextureAndViewDescription& recipe) {
  const TextureViewDescription& desc = recipe.desc;
  auto texture = resolve_named(recipe.texture);
  if (!texture) return in_context(fmt::format("create_texture_view \"{}\"", desc.label), texture.error());
  const WGPUTextureViewDescriptor d = detail::view_descriptor(desc);
  return create_checked<TextureViewTag>("create_texture_view", desc.label,
                                       [&] { return procs_.TextureCreateView(*texture, &d); });
}

template <>
Result<WGPUSampler> RegistryImpl::make_object<SamplerTag>(const SamplerDescription& desc) {
  WGPUSamplerDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.addressModeU = desc.address_mode_u.value_or(desc.address_mode);
  d.addressModeV = desc.address_mode_v.value_or(desc.address_mode);
  d.addressModeW = desc.address_mode_w.value_or(desc.address_mode);
  d.magFilter = desc.mag_filter;
  d.minFilter = desc.min_filter;
  d.mipmapFilter = desc.mipmap_filter;
  d.lodMinClamp = desc.lod_min_clamp;
  d.lodMaxClamp = desc.lod_max_clamp;
  d.compare = desc.compare;
  d.maxAnisotropy = desc.max_anisotropy;
  return create_checked<SamplerTag>("create_sampler", desc.label, [&] { return procs_.DeviceCreateSampler(device_, &d); });
}

template <>
Result<WGPUShaderModule> RegistryImpl::make_object<ShaderModuleTag>(const ShaderModuleDescription& desc) {
  return create_checked<ShaderModuleTag>("create_shader_module", desc.label, [&] {
    return gpu::create_wgsl_module(procs_, device_, desc.wgsl, desc.label);
  });
}

template <>
Result<WGPUBindGroupLayout> RegistryImpl::make_object<BindGroupLayoutTag>(const BindGroupLayoutDescription& desc) {
  std::vector<WGPUBindGroupLayoutEntry> entries = desc.entries;
  for (size_t i = 0; i < entries.size() && i < desc.entry_chains.size(); ++i) {
    entries[i].nextInChain = desc.entry_chains[i].head();
  }
  WGPUBindGroupLayoutDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.entryCount = entries.size();
  d.entries = entries.data();
  return create_checked<BindGroupLayoutTag>("create_bind_group_layout", desc.label,
                                           [&] { return procs_.DeviceCreateBindGroupLayout(device_, &d); });
}

template <>
Result<WGPUPipelineLayout> RegistryImpl::make_object<PipelineLayoutTag>(const PipelineLayoutDescription& desc) {
  std::vector<WGPUBindGroupLayout> raw;
  raw.reserve(desc.layouts.size());
  for (size_t i = 0; i < desc.layouts.size(); ++i) {
    auto layout = resolve_named(desc.layouts[i]);
    if (!layout) {
      return in_context(fmt::format("create_pipeline_layout \"{}\", bind group layout {}", desc.label, i),
                        layout.error());
    }
    raw.push_back(*layout);
  }
  WGPUPipelineLayoutDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.bindGroupLayoutCount = raw.size();
  d.bindGroupLayouts = raw.data();
  return create_checked<PipelineLayoutTag>("create_pipeline_layout", desc.label,
                                          [&] { return procs_.DeviceCreatePipelineLayout(device_, &d); });
}

template <>
Result<WGPUBindGroup> RegistryImpl::make_object<BindGroupTag>(const BindGroupDescription& desc) {
  auto layout = resolve_named(desc.layout);
  if (!layout) return in_context(fmt::format("create_bind_group \"{}\"", desc.label), layout.error());
  std::vector<WGPUBindGroupEntry> raw;
  for (size_t i = 0; i < desc.entries.size(); ++i) {
    const BindGroupEntryDescription& entry = desc.entries[i];
    const std::string where =
        fmt::format("create_bind_group \"{}\" entry {} (binding {})", desc.label, i, entry.binding);
    WGPUBindGroupEntry out{};
    out.nextInChain = entry.chain.head();
    out.binding = entry.binding;
    out.size = WGPU_WHOLE_SIZE;
    Result<void> resolved = std::visit(
        Overloaded{
            [&](const BufferBinding& b) -> Result<void> {
              auto buffer = resolve_named(b.buffer);
              if (!buffer) return buffer.error();
              out.buffer = *buffer;
              out.offset = b.offset;
              out.size = b.size;
              return {};
            },
            [&](TextureViewHandle v) -> Result<void> {
              auto view = resolve_named(v);
              if (!view) return view.error();
              out.textureView = *view;
              return {};
            },
            [&](SamplerHandle h) -> Result<void> {
              auto sampler = resolve_named(h);
              if (!sampler) return sampler.error();
              out.sampler = *sampler;
              return {};
            },
        },
        entry.resource);
    if (!resolved) return in_context(where, resolved.error());
    raw.push_back(out);
  }
  WGPUBindGroupDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.layout = *layout;
  d.entryCount = raw.size();
  d.entries = raw.data();
  return create_checked<BindGroupTag>("create_bind_group", desc.label,
                                     [&] { return procs_.DeviceCreateBindGroup(device_, &d); });
}

// A pipeline's layout; null when the description derives it from the shaders ("auto").
Result<WGPUPipelineLayout> RegistryImpl::pipeline_layout_of(PipelineLayoutHandle handle, const std::string& where) const {
  if (handle.is_null()) return WGPUPipelineLayout{nullptr};
  auto resolved = resolve_named(handle);
  if (!resolved) return in_context(where + ", layout", resolved.error());
  return *resolved;
}

template <>
Result<WGPURenderPipeline> RegistryImpl::make_object<RenderPipelineTag>(const RenderPipelineDescription& d) {
  const std::string where = fmt::format("create_render_pipeline \"{}\"", d.label);
  auto layout = pipeline_layout_of(d.layout, where);
  if (!layout) return layout.error();
  auto vertex = resolve_named(d.vertex.module);
  if (!vertex) return in_context(fmt::format("{}, vertex stage", where), vertex.error());
  WGPUShaderModule fragment = nullptr;
  if (d.fragment) {
    auto resolved = resolve_named(d.fragment->module);
    if (!resolved) return in_context(fmt::format("{}, fragment stage", where), resolved.error());
    fragment = *resolved;
  }
  const auto parts = render_pipeline_parts(d, *layout, *vertex, fragment);
  return create_checked<RenderPipelineTag>("create_render_pipeline", d.label,
                                          [&] { return procs_.DeviceCreateRenderPipeline(device_, &parts->desc); });
}

template <>
Result<WGPUComputePipeline> RegistryImpl::make_object<ComputePipelineTag>(const ComputePipelineDescription& d) {
  const std::string where = fmt::format("create_compute_pipeline \"{}\"", d.label);
  auto layout = pipeline_layout_of(d.layout, where);
  if (!layout) return layout.error();
  auto module = resolve_named(d.compute.module);
  if (!module) return in_context(fmt::format("{}, compute stage", where), module.error());
  const auto parts = compute_pipeline_parts(d, *layout, *module);
  return create_checked<ComputePipelineTag>("create_compute_pipeline", d.label,
                                           [&] { return procs_.DeviceCreateComputePipeline(device_, &parts->desc); });
}

template <>
Result<WGPUQuerySet> RegistryImpl::make_object<QuerySetTag>(const QuerySetDescription& desc) {
  WGPUQuerySetDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.type = desc.type;
  d.count = desc.count;
  return create_checked<QuerySetTag>("create_query_set", desc.label,
                                    [&] { return procs_.DeviceCreateQuerySet(device_, &d); });
}

template <>
Result<WGPURenderBundle> RegistryImpl::make_object<RenderBundleTag>(const RenderBundleDescription& desc) {
  const ErrorObject named{to_string(ResourceKind::RenderBundle), {}, {}, desc.label};
  if (!desc.record) {
    return make_error(ErrorKind::InvalidArgument, MessageId::RenderBundleNoRecord, named,
                      fmt::format("create_render_bundle \"{}\": no record callback; a bundle's commands come "
                                  "only from it",
                                  desc.label));
  }
  WGPURenderBundleEncoderDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.colorFormatCount = desc.color_formats.size();
  d.colorFormats = desc.color_formats.data();
  d.depthStencilFormat = desc.depth_stencil_format;
  d.sampleCount = desc.sample_count;
  d.depthReadOnly = desc.depth_read_only;
  d.stencilReadOnly = desc.stencil_read_only;
  std::optional<Error> failure;
  recorded_uses_.clear();
  // The callback runs inside the creation's error scopes: what the device says of its commands is
  // the bundle's rejection, with the bundle's label.
  auto made = create_checked<RenderBundleTag>("create_render_bundle", desc.label, [&]() -> WGPURenderBundle {
    gpu::Ref<WGPURenderBundleEncoder> encoder(&procs_, procs_.DeviceCreateRenderBundleEncoder(device_, &d));
    RenderBundleRecording recording(facade_, procs_, encoder.get(), desc.label);
    {
      // Cleared however the callback leaves, an exception included.
      recording_ = &desc.label;
      struct Recording {
        const std::string*& slot;
        ~Recording() { slot = nullptr; }
      } inside{recording_};
      if (Result<void> recorded = desc.record(recording); !recorded) failure = recorded.error();
    }
    if (!failure && recording.failure_) failure = std::move(recording.failure_);
    if (failure) return nullptr;
    recorded_uses_ = std::move(recording.used_);
    std::sort(recorded_uses_.begin(), recorded_uses_.end());
    recorded_uses_.erase(std::unique(recorded_uses_.begin(), recorded_uses_.end()), recorded_uses_.end());
    WGPURenderBundleDescriptor finish{};
    finish.label = gpu::string_view(desc.label);
    return procs_.RenderBundleEncoderFinish(encoder.get(), &finish);
  });
  if (failure) {
    failure->id = MessageId::RenderBundleRecordFailed;
    failure->message = fmt::format("render bundle \"{}\": its record callback failed: {}", desc.label, failure->message);
    failure->object = named;
    return std::move(*failure);
  }
  return made;
}

// ---- create: checks, then make_object, then the slot with its recipe ---------------------------

Result<void> RegistryImpl::check_buffer_description(const char* call, const BufferDescription& desc) const {
  auto described = [&desc] { return ErrorObject{"buffer", {}, {}, desc.label}; };  // made only on a failure
  if (desc.size == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::BufferZeroSize, described(),
                      fmt::format("{} \"{}\": size is 0", call, desc.label));
  }
  if (desc.usage == WGPUBufferUsage_None) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ResourceNoUsage, described(),
                      fmt::format("{} \"{}\": no usage declared", call, desc.label));
  }
  if (desc.contents == ContentsSource::Callback && !desc.refill) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ResourceRefillMissing, described(),
                      fmt::format("{} \"{}\": contents come from a callback, but refill is empty", call,
                                  desc.label));
  }
  if (auto rule = resources::broken_buffer_rule(desc, limits_)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::BufferDescriptionInvalid, described(),
                      fmt::format("{} \"{}\": {}", call, desc.label, *rule));
  }
  return {};
}

Result<BufferHandle> RegistryImpl::create_buffer(const BufferDescription& desc) {
  if (auto checked = check_buffer_description("create_buffer", desc); !checked) return checked.error();
  detail::KindData<BufferTag> data;
  data.usage = desc.usage;
  data.size = desc.size;
  return create_from_recipe<BufferTag>("create_buffer", desc, std::move(data));
}

Result<void> RegistryImpl::check_texture_description(const char* call, const TextureDescription& desc) const {
  auto described = [&desc] { return ErrorObject{"texture", {}, {}, desc.label}; };  // made only on a failure
  if (desc.size.width == 0 || desc.size.height == 0 || desc.size.depthOrArrayLayers == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TextureZeroSize, described(),
                      fmt::format("{} \"{}\": size {}x{}x{} has a zero dimension", call, desc.label,
                                  desc.size.width, desc.size.height, desc.size.depthOrArrayLayers));
  }
  if (desc.mip_level_count == 0 || desc.sample_count == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TextureZeroLevelsOrSamples, described(),
                      fmt::format("{} \"{}\": mip level count {} and sample count {} must "
                                  "be at least 1",
                                  call, desc.label, desc.mip_level_count, desc.sample_count));
  }
  if (desc.usage == WGPUTextureUsage_None) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ResourceNoUsage, described(),
                      fmt::format("{} \"{}\": no usage declared", call, desc.label));
  }
  if (desc.contents == ContentsSource::Callback && !desc.refill) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ResourceRefillMissing, described(),
                      fmt::format("{} \"{}\": contents come from a callback, but refill is empty", call,
                                  desc.label));
  }
  if (auto rule = resources::broken_texture_rule(desc, limits_)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TextureDescriptionInvalid, described(),
                      fmt::format("{} \"{}\": {}", call, desc.label, *rule));
  }
  return {};
}

Result<TextureHandle> RegistryImpl::create_texture(const TextureDescription& desc) {
  if (auto checked = check_texture_description("create_texture", desc); !checked) return checked.error();
  detail::KindData<TextureTag> data;
  data.usage = desc.usage;
  data.size = desc.size;
  data.format = desc.format;
  data.mip_level_count = desc.mip_level_count;
  return create_from_recipe<TextureTag>("create_texture", desc, std::move(data));
}

Result<TextureViewHandle> RegistryImpl::create_texture_view(TextureHandle texture, const TextureViewDescription& desc) {
  auto* parent = record(texture);
  if (parent == nullptr) {
    return in_context(fmt::format("create_texture_view \"{}\"", desc.label), stale_error(texture));
  }
  auto handle = create_from_recipe<TextureViewTag>("create_texture_view", TextureAndViewDescription{texture, desc}, {texture});
  if (handle) ++record(texture)->data.live_views;
  return handle;
}

Result<SamplerHandle> RegistryImpl::create_sampler(const SamplerDescription& desc) {
  return create_from_recipe<SamplerTag>("create_sampler", desc, {});
}

Result<ShaderModuleHandle> RegistryImpl::create_shader_module(ShaderModuleDescription desc) {
  return create_from_recipe<ShaderModuleTag>("create_shader_module", std::move(desc), {});
}

Result<BindGroupLayoutHandle> RegistryImpl::create_bind_group_layout(
    std::span<const WGPUBindGroupLayoutEntry> entries, std::string label) {
  BindGroupLayoutDescription desc{{entries.begin(), entries.end()}, {}, std::move(label)};
  // The caller's chains do not outlive the call: the recipe keeps copies.
  for (size_t i = 0; i < desc.entries.size(); ++i) {
    WGPUBindGroupLayoutEntry& entry = desc.entries[i];
    if (entry.nextInChain != nullptr) {
      auto chain = ChainCopy::of(entry.nextInChain);
      if (!chain) {
        return in_context(fmt::format("create_bind_group_layout \"{}\" entry {} (binding {})", desc.label, i,
                                      entry.binding),
                          chain.error());
      }
      desc.entry_chains.resize(desc.entries.size());
      desc.entry_chains[i] = std::move(*chain);
    }
    entry.nextInChain = nullptr;
  }
  detail::KindData<BindGroupLayoutTag> data;
  data.entries = desc.entries;
  return create_from_recipe<BindGroupLayoutTag>("create_bind_group_layout", std::move(desc), std::move(data));
}

Result<PipelineLayoutHandle> RegistryImpl::create_pipeline_layout(std::span<const BindGroupLayoutHandle> layouts,
                                                              std::string label) {
  return create_from_recipe<PipelineLayoutTag>(
      "create_pipeline_layout", PipelineLayoutDescription{{layouts.begin(), layouts.end()}, std::move(label)}, {});
}

Result<BindGroupHandle> RegistryImpl::create_bind_group(const BindGroupDescription& desc) {
  if (!carrier_.carries()) settle_carried();  // the entries checked below may be waiting
  const auto* layout = record(desc.layout);
  if (layout == nullptr) {
    return in_context(fmt::format("create_bind_group \"{}\"", desc.label), stale_error(desc.layout));
  }
  auto layout_entry = [&](uint32_t binding) -> const WGPUBindGroupLayoutEntry* {
    if (!layout->data.entries) return nullptr;  // adopted layout: nothing to check against
    for (const auto& e : *layout->data.entries) {
      if (e.binding == binding) return &e;
    }
    return nullptr;
  };
  // Usage contracts first: make_object resolves and creates, a rebuild replays only that.
  detail::KindData<BindGroupTag> data;
  for (size_t i = 0; i < desc.entries.size(); ++i) {
    const BindGroupEntryDescription& entry = desc.entries[i];
    const std::string where =
        fmt::format("create_bind_group \"{}\" entry {} (binding {})", desc.label, i, entry.binding);
    const WGPUBindGroupLayoutEntry* declared = layout_entry(entry.binding);
    if (const auto* b = std::get_if<BufferBinding>(&entry.resource)) {
      if (auto usable = check_usable(b->buffer); !usable) return in_context(where, usable.error());
      if (declared != nullptr) {
        WGPUFlags needed = 0;
        switch (declared->buffer.type) {
          case WGPUBufferBindingType_Uniform: needed = WGPUBufferUsage_Uniform; break;
          case WGPUBufferBindingType_Storage:
          case WGPUBufferBindingType_ReadOnlyStorage: needed = WGPUBufferUsage_Storage; break;
          default: break;
        }
        if (auto usage = require_usage(b->buffer, needed); !usage) return in_context(where, usage.error());
      }
      data.buffers.push_back(b->buffer);
    } else if (const auto* v = std::get_if<TextureViewHandle>(&entry.resource)) {
      if (auto usable = check_usable(*v); !usable) return in_context(where, usable.error());
      if (declared != nullptr) {
        WGPUFlags needed = 0;
        if (declared->texture.sampleType != WGPUTextureSampleType_BindingNotUsed) {
          needed = WGPUTextureUsage_TextureBinding;
        } else if (declared->storageTexture.access != WGPUStorageTextureAccess_BindingNotUsed) {
          needed = WGPUTextureUsage_StorageBinding;
        }
        if (auto usage = require_usage(*v, needed); !usage) return in_context(where, usage.error());
      }
      data.views.push_back(*v);
    } else {
      const SamplerHandle sampler = std::get<SamplerHandle>(entry.resource);
      if (auto usable = check_usable(sampler); !usable) return in_context(where, usable.error());
      data.samplers.push_back(sampler);
    }
  }
  return create_from_recipe<BindGroupTag>("create_bind_group", desc, std::move(data));
}

Result<RenderPipelineHandle> RegistryImpl::create_render_pipeline(const RenderPipelineDescription& description) {
  return create_from_recipe<RenderPipelineTag>("create_render_pipeline", description, {});
}

Result<ComputePipelineHandle> RegistryImpl::create_compute_pipeline(const ComputePipelineDescription& description) {
  return create_from_recipe<ComputePipelineTag>("create_compute_pipeline", description, {});
}

Result<QuerySetHandle> RegistryImpl::create_query_set(const QuerySetDescription& desc) {
  if (desc.count == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::QuerySetZeroCount,
                      fmt::format("create_query_set \"{}\": count is 0", desc.label));
  }
  if (desc.count > resources::kMaxQueryCount) {
    return make_error(ErrorKind::InvalidArgument, MessageId::QuerySetTooLarge,
                      fmt::format("create_query_set \"{}\": count {} exceeds WebGPU's limit of {} queries per "
                                  "set",
                                  desc.label, desc.count, resources::kMaxQueryCount));
  }
  return create_from_recipe<QuerySetTag>("create_query_set", desc, {});
}

Result<RenderBundleHandle> RegistryImpl::create_render_bundle(const RenderBundleDescription& desc) {
  auto handle = create_from_recipe<RenderBundleTag>("create_render_bundle", desc, {});
  if (handle) set_recorded_uses(*record(*handle), std::move(recorded_uses_));
  return handle;
}

}  // namespace warden::resources
