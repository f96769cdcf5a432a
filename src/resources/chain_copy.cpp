// ChainCopy: a chain of webgpu.h extension structs, copied so that a recipe owns it.
#include <cstring>

#include <fmt/format.h>

#include "warden/resources/descriptions.h"

namespace warden::resources {

namespace {

// The chained structs a recipe may keep: each is made of values only, so its bytes are the
// whole struct and the copy is the same request on any device. A struct that names a device
// object (WGPUExternalTextureBindingEntry, WGPUStaticSamplerBindingLayout) is not here: after a
// loss its object would be the lost device's. A struct is added with its size and its name.
struct KeptStruct {
  WGPUSType type;
  size_t size;
  const char* name;
};
constexpr KeptStruct kKeptStructs[] = {
    {WGPUSType_ExternalTextureBindingLayout, sizeof(WGPUExternalTextureBindingLayout), "ExternalTextureBindingLayout"},
};

std::string kept_names() {
  std::string names;
  for (const KeptStruct& kept : kKeptStructs) {
    if (!names.empty()) names += ", ";
    names += kept.name;
  }
  return names;
}

}  // namespace

size_t ChainCopy::kept_size(WGPUSType type) {
  for (const KeptStruct& kept : kKeptStructs) {
    if (kept.type == type) return kept.size;
  }
  return 0;
}

Result<ChainCopy> ChainCopy::of(const WGPUChainedStruct* head) {
  ChainCopy copy;
  WGPUChainedStruct* last = nullptr;
  size_t index = 0;
  for (const WGPUChainedStruct* link = head; link != nullptr; link = link->next, ++index) {
    if (index == kLongest) {
      return make_error(ErrorKind::InvalidArgument, MessageId::ChainStructNotKept,
                        fmt::format("the chain has more than {} structs (does a `next` lead back into it?)",
                                    kLongest));
    }
    const size_t size = kept_size(link->sType);
    if (size == 0) {
      return make_error(ErrorKind::InvalidArgument, MessageId::ChainStructNotKept,
                        fmt::format("chained struct {} (sType {:#x}) cannot be kept in a recipe: warden keeps only "
                                    "structs made of values, which a rebuild can hand to a new device ({})",
                                    index, static_cast<uint32_t>(link->sType), kept_names()));
    }
    // Whole blocks of max_align_t: every webgpu.h struct is aligned within one.
    auto block = std::make_unique<std::max_align_t[]>((size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
    std::memcpy(block.get(), link, size);
    auto* copied = reinterpret_cast<WGPUChainedStruct*>(block.get());
    copied->next = nullptr;
    if (last != nullptr) last->next = copied;
    last = copied;
    copy.structs_.push_back(std::move(block));
  }
  return copy;
}

ChainCopy::ChainCopy(const ChainCopy& other) { *this = other; }

ChainCopy& ChainCopy::operator=(const ChainCopy& other) {
  if (this == &other) return *this;
  // Every struct of `other` passed of(): copying it again cannot fail.
  *this = std::move(of(other.head()).value());
  return *this;
}

WGPUChainedStruct* ChainCopy::head() const {
  return structs_.empty() ? nullptr : reinterpret_cast<WGPUChainedStruct*>(structs_.front().get());
}

std::vector<WGPUSType> ChainCopy::types() const {
  std::vector<WGPUSType> types;
  for (const WGPUChainedStruct* link = head(); link != nullptr; link = link->next) types.push_back(link->sType);
  return types;
}

}  // namespace warden::resources
