// Private to the resources layer: what the registry made on the spare device ahead of a rebuild
// (Registry::prepare_rebuild; docs/adr/0034, 0044, 0045), kept together. The objects are owned by
// the registry until a rebuild onto that device takes them or discard_prepared lets go of them;
// the slots themselves never hold them (other threads resolve the slots meanwhile).
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "warden/core/handle.h"
#include "warden/gpu/abi.h"
#include "warden/resources/registry.h"

namespace warden::resources::detail {

struct SpareObjects {
  WGPUDevice device = nullptr;  // the spare they were made on; null: none made
  // By kind and slot bits: a kind's object, type-erased (the kind says which).
  std::map<std::pair<ResourceKind, uint64_t>, void*> objects;
  uint64_t texture_bytes = 0;  // of the textures among them, against the preparation's budget
  bool preparing = false;      // inside prepare_rebuild: the registry's own resolves look here first
  DrawRehearsal last_rehearsal;  // what the last preparation drew on the spare
};

}  // namespace warden::resources::detail
