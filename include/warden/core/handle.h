/// @file
/// Handle<Tag>: a generational, typed reference to an object kept in a warden pool.
///
/// Layout (64 bits, docs/adr/0002-handle-layout-and-generation-overflow.md):
///
///   bits  0..19  slot index        (up to 1,048,576 slots per kind)
///   bits 20..23  kind              (ResourceKind; 0 only in the null handle)
///   bits 24..31  registry id       (1..255; reused ids start above the generations their earlier
///                                  holders issued, so a gone registry's handle never matches)
///   bits 32..63  generation        (1..2^32-1; 0 only in the null handle)
///
/// All bits zero is the null handle. A live handle always has a non-zero generation, so no live
/// handle equals null. Kind and registry travel in the bits so that a handle which reached the
/// wrong place at run time (a foreign registry, a reinterpreted value) is named as such instead
/// of resolving to whatever object sits in that slot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace warden {

/// Every object kind warden keeps, in one list: X(PascalName, snake_name). Per-kind code is
/// generated from it (docs/design.md, rule C8). The order is the kind number, not the teardown order.
#define WARDEN_RESOURCE_KINDS(X)                                                               \
  X(Buffer, buffer)                                                                            \
  X(Texture, texture)                                                                          \
  X(TextureView, texture_view)                                                                 \
  X(Sampler, sampler)                                                                          \
  X(ShaderModule, shader_module)                                                               \
  X(BindGroupLayout, bind_group_layout)                                                        \
  X(PipelineLayout, pipeline_layout)                                                           \
  X(BindGroup, bind_group)                                                                     \
  X(RenderPipeline, render_pipeline)                                                           \
  X(ComputePipeline, compute_pipeline)                                                         \
  X(QuerySet, query_set)                                                                       \
  X(RenderBundle, render_bundle)

/// The kind of object a handle names; the number is the kind field of its bits.
enum class ResourceKind : uint8_t {
  None = 0,  ///< only the null handle carries it
#define WARDEN_KIND_ENUM(Name, snake) Name,
  WARDEN_RESOURCE_KINDS(WARDEN_KIND_ENUM)
#undef WARDEN_KIND_ENUM
};

/// How many kinds WARDEN_RESOURCE_KINDS lists.
inline constexpr size_t kResourceKindCount = 0
#define WARDEN_KIND_COUNT(Name, snake) +1
    WARDEN_RESOURCE_KINDS(WARDEN_KIND_COUNT)
#undef WARDEN_KIND_COUNT
    ;

/// "buffer", "texture view", ... as messages print them; "none" for ResourceKind::None and
/// "unknown" for a value outside the list.
const char* to_string(ResourceKind kind);

/// Position of a kind in per-kind arrays (0-based); kind must not be None.
constexpr size_t kind_index(ResourceKind kind) { return static_cast<size_t>(kind) - 1; }

/// The bit layout, written once. Everything that packs or unpacks a handle uses these.
struct HandleLayout {
  /// Field widths, in bits.
  ///@{
  static constexpr unsigned kIndexBits = 20;
  static constexpr unsigned kKindBits = 4;
  static constexpr unsigned kRegistryBits = 8;
  static constexpr unsigned kGenerationBits = 32;
  ///@}

  /// Where each field starts.
  ///@{
  static constexpr unsigned kIndexShift = 0;
  static constexpr unsigned kKindShift = kIndexShift + kIndexBits;
  static constexpr unsigned kRegistryShift = kKindShift + kKindBits;
  static constexpr unsigned kGenerationShift = kRegistryShift + kRegistryBits;
  ///@}

  /// Each field's mask, before shifting.
  ///@{
  static constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
  static constexpr uint64_t kKindMask = (uint64_t{1} << kKindBits) - 1;
  static constexpr uint64_t kRegistryMask = (uint64_t{1} << kRegistryBits) - 1;
  static constexpr uint64_t kGenerationMask = (uint64_t{1} << kGenerationBits) - 1;
  ///@}

  /// The largest number of slots one pool can have.
  static constexpr uint32_t kMaxSlots = uint32_t{1} << kIndexBits;
  /// Generations run 1..kMaxGeneration; a slot whose generation would pass it is exhausted.
  static constexpr uint32_t kMaxGeneration = static_cast<uint32_t>(kGenerationMask);
  /// Registry ids run 1..kMaxRegistryId; 0 appears only in the null handle.
  static constexpr uint32_t kMaxRegistryId = static_cast<uint32_t>(kRegistryMask);

  static_assert(kIndexBits + kKindBits + kRegistryBits + kGenerationBits == 64);
  static_assert(kGenerationBits >= 32, "docs/design.md rule C1: 32 generation bits in a 64-bit handle");
  static_assert(kResourceKindCount < (uint64_t{1} << kKindBits), "kinds must fit the kind bits");

  /// The kind and registry part of a handle: one compare checks both on resolve.
  static constexpr uint64_t owner_bits(ResourceKind kind, uint32_t registry) {
    return (static_cast<uint64_t>(kind) << kKindShift) |
           (static_cast<uint64_t>(registry) << kRegistryShift);
  }
  /// The kind and registry fields, in place.
  static constexpr uint64_t kOwnerMask = (kKindMask << kKindShift) | (kRegistryMask << kRegistryShift);
};

/// Tags: empty types that make handles of different kinds distinct at compile time.
#define WARDEN_KIND_TAG(Name, snake) \
  struct Name##Tag {                 \
    static constexpr ResourceKind kind = ResourceKind::Name; \
  };
WARDEN_RESOURCE_KINDS(WARDEN_KIND_TAG)
#undef WARDEN_KIND_TAG

template <typename Tag>
/// A typed, generational reference to an object in a warden pool (64 bits; see HandleLayout).
class Handle {
 public:
  /// The tag that makes this handle type distinct.
  using tag_type = Tag;
  /// The kind of object this handle type names.
  static constexpr ResourceKind kind = Tag::kind;

  /// The null handle.
  constexpr Handle() = default;

  /// Packs a handle. Values outside their fields are masked; the registry checks every field
  /// again on resolve, so a forged handle is an error, never an out-of-bounds access.
  static constexpr Handle make(uint32_t index, uint32_t generation, uint32_t registry) {
    using L = HandleLayout;
    return Handle((uint64_t{index} & L::kIndexMask) << L::kIndexShift |
                  L::owner_bits(kind, registry & L::kRegistryMask) |
                  (uint64_t{generation} & L::kGenerationMask) << L::kGenerationShift);
  }
  /// For storage and transport outside C++ (e.g. an application's own tables).
  static constexpr Handle from_bits(uint64_t bits) { return Handle(bits); }
  /// The 64 bits, for storage and transport outside C++.
  constexpr uint64_t bits() const { return bits_; }

  /// True for the null handle (all bits zero).
  constexpr bool is_null() const { return bits_ == 0; }
  /// True for any handle but the null one: `if (handle)`. It says nothing about the object:
  /// a handle whose object was destroyed, or whose registry is gone, is still true; only the
  /// registry's resolve() says whether it names a live object.
  constexpr explicit operator bool() const { return bits_ != 0; }
  /// The slot index field.
  constexpr uint32_t index() const {
    return static_cast<uint32_t>(bits_ >> HandleLayout::kIndexShift & HandleLayout::kIndexMask);
  }
  /// The generation field: which occupant of the slot.
  constexpr uint32_t generation() const {
    return static_cast<uint32_t>(bits_ >> HandleLayout::kGenerationShift & HandleLayout::kGenerationMask);
  }
  /// The registry id field: which Registry issued it.
  constexpr uint32_t registry() const {
    return static_cast<uint32_t>(bits_ >> HandleLayout::kRegistryShift & HandleLayout::kRegistryMask);
  }
  /// The kind written in the bits: equal to `kind` unless the value was forged or reinterpreted.
  constexpr ResourceKind kind_in_bits() const {
    return static_cast<ResourceKind>(bits_ >> HandleLayout::kKindShift & HandleLayout::kKindMask);
  }

  /// Equal when all 64 bits are.
  friend constexpr bool operator==(Handle, Handle) = default;

 private:
  constexpr explicit Handle(uint64_t bits) : bits_(bits) {}
  uint64_t bits_ = 0;
};

#define WARDEN_KIND_HANDLE_ALIAS(Name, snake) using Name##Handle = Handle<Name##Tag>;
WARDEN_RESOURCE_KINDS(WARDEN_KIND_HANDLE_ALIAS)
#undef WARDEN_KIND_HANDLE_ALIAS

static_assert(sizeof(BufferHandle) == sizeof(uint64_t));

}  // namespace warden

template <typename Tag>
/// Hashes a handle by its bits, for unordered containers.
struct std::hash<warden::Handle<Tag>> {
  /// The hash of the handle's bits.
  size_t operator()(warden::Handle<Tag> h) const noexcept { return std::hash<uint64_t>{}(h.bits()); }
};
