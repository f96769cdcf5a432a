// References and destroy: webgpu.h's ownership rules on warden's objects. The last Release of a
// custody object gives its handle back to the registry, which keeps the Dawn object while a
// recipe still names it (a pipeline its module: docs/adr/0049) and lets it go once its last
// submission retired.
#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

#define WARDEN_WEBGPU_REFERENCES(Name)                                                     \
  void Entry<ProcId::Name##AddRef>::call(WGPU##Name object) {                              \
    if (Object* o = checked(object, Kind::Name, ProcId::Name##AddRef)) o->add_ref();       \
  }                                                                                        \
  void Entry<ProcId::Name##Release>::call(WGPU##Name object) {                             \
    if (Object* o = checked(object, Kind::Name, ProcId::Name##Release)) o->release();      \
  }
WARDEN_WEBGPU_REFERENCE_KINDS(WARDEN_WEBGPU_REFERENCES)
#undef WARDEN_WEBGPU_REFERENCES

// The queue is part of its device: its references are the device's.
void Entry<ProcId::QueueAddRef>::call(WGPUQueue queue) {
  if (Object* q = checked(queue, Kind::Queue, ProcId::QueueAddRef)) q->device()->add_ref();
}
void Entry<ProcId::QueueRelease>::call(WGPUQueue queue) {
  if (Object* q = checked(queue, Kind::Queue, ProcId::QueueRelease)) q->device()->release();
}

void Entry<ProcId::BufferDestroy>::call(WGPUBuffer buffer) {
  if (auto* b = static_cast<Buffer*>(checked(buffer, Kind::Buffer, ProcId::BufferDestroy))) b->destroy_now();
}
void Entry<ProcId::TextureDestroy>::call(WGPUTexture texture) {
  Object* t = checked(texture, Kind::Texture, ProcId::TextureDestroy);
  if (auto* custody = dynamic_cast<Texture*>(t)) custody->destroy_now();
}
void Entry<ProcId::QuerySetDestroy>::call(WGPUQuerySet set) {
  if (auto* q = static_cast<QuerySet*>(checked(set, Kind::QuerySet, ProcId::QuerySetDestroy))) q->destroy_now();
}

}  // namespace warden::webgpu_h
