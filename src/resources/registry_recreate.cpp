// Registry: a new object from a new recipe under the same handle (recreate_texture,
// recreate_buffer), and what still waits for its owner after a rebuild (docs/adr/0024).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "resources/error_object.h"
#include "resources/kind_order.h"
#include "resources/requests.h"
#include "resources/registry_impl.h"

namespace warden::resources {

namespace {

template <typename Handles, typename H>
bool contains(const Handles& handles, H handle) {
  return std::find(handles.begin(), handles.end(), handle) != handles.end();
}

}  // namespace

Result<void> RegistryImpl::recreate_texture(TextureHandle handle, const TextureDescription& desc) {
  return recreate<TextureTag>("recreate_texture", handle, desc);
}

Result<void> RegistryImpl::recreate_buffer(BufferHandle handle, const BufferDescription& desc) {
  return recreate<BufferTag>("recreate_buffer", handle, desc);
}

Result<void> RegistryImpl::rerecord_render_bundle(RenderBundleHandle handle) {
  if (auto refused = refuse_inside_recording("rerecord_render_bundle")) return *refused;
  if (auto refused = carrier_.refuse("rerecord_render_bundle")) return *refused;
  auto* rec = record(handle);
  if (rec == nullptr) {
    Error error = stale_error(handle);
    error.message = fmt::format("rerecord_render_bundle: {}", error.message);
    return error;
  }
  if (!rec->recipe) {
    const ErrorObject object = object_of(handle, rec->label);
    return make_error(ErrorKind::Refused, MessageId::RenderBundleNoRecipe, object,
                      fmt::format("rerecord_render_bundle {}: warden has no record callback for it (adopted, or "
                                  "replaced by the caller's own); its owner swaps in a new one with "
                                  "replace_render_bundle",
                                  describe(object)));
  }
  Remaking remaking(remaking_);  // what the callback resolved may be kept for it (docs/adr/0049)
  auto made = make_object<RenderBundleTag>(*rec->recipe);
  if (!made) return made.error();  // nothing changed: the old bundle stays under the handle
  std::vector<detail::NamedHandle> uses = std::move(recorded_uses_);
  swap_in<RenderBundleTag>(SlotId{handle.index(), handle.generation(), handle.bits()}, *made);
  if (auto* settled = record(handle)) set_recorded_uses(*settled, std::move(uses));  // a release hook may have destroyed it
  return {};
}

template <typename Tag>
Result<void> RegistryImpl::recreate(const char* call, Handle<Tag> handle, detail::Recipe<Tag> recipe) {
  if (auto refused = refuse_inside_recording(call)) return *refused;
  if (auto refused = carrier_.refuse(call)) return *refused;
  auto* rec = record(handle);
  if (rec == nullptr) {
    Error error = stale_error(handle);
    error.message = fmt::format("{}: {}", call, error.message);
    return error;
  }
  const ErrorObject object = object_of(handle, rec->label);
  const std::string what = describe(object);
  if (rec->ownership != Ownership::Owned) {
    // The object is the caller's: warden may not end it, nor put one of its own in its place.
    return make_error(ErrorKind::Refused, MessageId::RecreateNotOwned, object,
                      fmt::format("{} {}: it is {}; warden makes again only objects it owns (its owner swaps "
                                  "in a new one with replace_{})",
                                  call, what, to_string(rec->ownership), call_suffix(Tag::kind)));
  }
  Result<void> checked = [&] {
    if constexpr (std::is_same_v<Tag, TextureTag>) return check_texture_description(call, recipe);
    else return check_buffer_description(call, recipe);
  }();
  if (!checked) return checked;
  Remaking remaking(remaking_);  // what the views and groups made again name may be kept for them
  auto made = make_object<Tag>(recipe);
  if (!made) return made.error();  // nothing changed: the old object stays under the handle

  const SlotId id{handle.index(), handle.generation(), handle.bits()};
  swap_in<Tag>(id, *made);
  // What the registry knows of the object comes from the new recipe; views and bind groups are
  // counted on the handle, which stays.
  if constexpr (std::is_same_v<Tag, TextureTag>) {
    rec->data.usage = recipe.usage;
    rec->data.size = recipe.size;
    rec->data.format = recipe.format;
    rec->data.mip_level_count = recipe.mip_level_count;
  } else {
    rec->data.usage = recipe.usage;
    rec->data.size = recipe.size;
  }
  rec->data.kept = {};  // bytes of the old object: they would be restored into (or overrun) the new one
  if constexpr (std::is_same_v<Tag, BufferTag>) rec->data.mapping_kept = false;
  rec->recipe = std::move(recipe);

  // Users next, in dependency order: views made of the texture, then the bind groups that bind
  // those views or the buffer. Their recipes name handles, so make_object finds the new objects.
  std::vector<std::string> failed;
  std::vector<TextureViewHandle> views;
  if constexpr (std::is_same_v<Tag, TextureTag>) {
    auto vs = store<TextureViewTag>();
    std::vector<SlotId> made_of_it;
    vs.pool.for_each_live([&](SlotId view, WGPUTextureView) {
      const auto& view_rec = vs.records[view.index];
      if (view_rec.data.texture == handle && view_rec.recipe) made_of_it.push_back(view);
    });
    for (SlotId view : made_of_it) {
      remake_from_recipe<TextureViewTag>(view, failed);
      views.push_back(TextureViewHandle::from_bits(view.bits));
    }
    // Views destroyed while a bind group binds them are kept for it (docs/adr/0049).
    std::vector<uint64_t> kept_of_it;
    for (const auto& [bits, kept] : custody<TextureViewTag>()) {
      if (kept.record.recipe && kept.record.recipe->texture == handle) kept_of_it.push_back(bits);
    }
    for (uint64_t bits : kept_of_it) {
      remake_kept<TextureViewTag>(bits, failed);
      views.push_back(TextureViewHandle::from_bits(bits));
    }
  }
  auto gs = store<BindGroupTag>();
  std::vector<SlotId> groups;
  gs.pool.for_each_live([&](SlotId group, WGPUBindGroup) {
    const auto& group_rec = gs.records[group.index];
    if (!group_rec.recipe) return;
    bool uses = false;
    if constexpr (std::is_same_v<Tag, BufferTag>) uses = contains(group_rec.data.buffers, handle);
    for (TextureViewHandle view : views) uses = uses || contains(group_rec.data.views, view);
    if (uses) groups.push_back(group);
  });
  for (SlotId group : groups) remake_from_recipe<BindGroupTag>(group, failed);
  std::vector<uint64_t> kept_groups;
  for (const auto& [bits, kept] : custody<BindGroupTag>()) {
    if (!kept.record.recipe) continue;
    bool uses = false;
    if constexpr (std::is_same_v<Tag, BufferTag>) uses = contains(kept.record.data.buffers, handle);
    for (TextureViewHandle view : views) uses = uses || contains(kept.record.data.views, view);
    if (uses) kept_groups.push_back(bits);
  }
  for (uint64_t bits : kept_groups) remake_kept<BindGroupTag>(bits, failed);

  if (!failed.empty()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::RecreateDependentFailed, object,
                      fmt::format("{} {}: made, but the device refused {} of what uses it, now failed: {}", call,
                                  what, failed.size(), fmt::join(failed, "; ")));
  }
  return {};
}

template <typename Tag>
void RegistryImpl::remake_from_recipe(SlotId id, std::vector<std::string>& failed) {
  auto s = store<Tag>();
  detail::Record<Tag>& rec = s.records[id.index];
  auto made = make_object<Tag>(*rec.recipe);
  if (made) {
    swap_in<Tag>(id, *made);
    return;
  }
  // As after a rebuild: the slot keeps the device's words, and what uses it fails naming it. The
  // old object is not kept: it shows the texture or buffer that was replaced.
  Object<Tag> old = s.pool.exchange(id.bits, nullptr);
  auto due = release_when_retired<Tag>(old, rec, id.index, id.generation);
  slot_edges::refused(rec, made.error().message);
  failed.push_back(fmt::format("{} \"{}\": {}", to_string(Tag::kind), rec.label, rec.failure));
  if (due) releases_.release(*due);  // last: its hook may call the registry again
}

template <typename Tag>
void RegistryImpl::remake_kept(uint64_t bits, std::vector<std::string>& failed) {
  auto found = custody<Tag>().find(bits);
  if (found == custody<Tag>().end()) return;
  detail::Custody<Tag>& kept = found->second;
  auto made = make_object<Tag>(*kept.record.recipe);
  const Object<Tag> old = std::exchange(kept.object, made ? *made : nullptr);
  const auto handle = Handle<Tag>::from_bits(bits);
  auto due = release_when_retired<Tag>(old, kept.record, handle.index(), handle.generation());
  if (made) {
    slot_edges::swapped_in(kept.record);
  } else {
    kept.record.last_used = Serial{};
    slot_edges::refused(kept.record, made.error().message);
    failed.push_back(fmt::format("{} \"{}\" (destroyed, kept for what names it): {}", to_string(Tag::kind),
                                 kept.record.label, kept.record.failure));
  }
  if (due) releases_.release(*due);  // last: its hook may call the registry again
}

// ---- what waits for its owner -------------------------------------------------------------------

size_t RegistryImpl::report_awaiting_owner() {
  size_t count = 0;
  detail::for_each_kind(detail::KindOrder::Build, [&]<typename Tag>() { report_awaiting_owner_of<Tag>(count); });
  return count;
}

template <typename Tag>
void RegistryImpl::report_awaiting_owner_of(size_t& count) {
  auto s = store<Tag>();
  std::vector<std::string> messages;
  s.pool.for_each_live([&](SlotId id, Object<Tag>) {
    const detail::Record<Tag>& rec = s.records[id.index];
    if (rec.state != SlotState::Lost || rec.recipe) return;
    messages.push_back(fmt::format(
        "{} is {} and was lost with its device; warden keeps no recipe for it, so it stays lost until its owner "
        "re-supplies it with replace_{} (a frame that uses it fails meanwhile)",
        describe(ErrorObject{to_string(Tag::kind), id.index, id.generation, rec.label}), to_string(rec.ownership), call_suffix(Tag::kind)));
  });
  // Reported once the walk is done: a sink may call the registry.
  for (const std::string& message : messages) {
    diagnostics_.warning(MessageId::SlotAwaitsOwner, message);
  }
  count += messages.size();
}

}  // namespace warden::resources
