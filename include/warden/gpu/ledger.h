/// @file
/// The reference ledger: how many references to Dawn objects warden holds, per object type,
/// counted where they are taken and given back — in the proc table (docs/adr/0011).
///
/// Leak checkers cannot see a forgotten wgpu*Release: the object lives in Dawn's heap, which the
/// sanitizer and valgrind suppressions hide. The ledger sees it from warden's side of the call.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "warden/gpu/abi.h"

namespace warden::gpu {

#define WARDEN_GPU_OBJECT_TYPE_ENUMERATOR(Name) Name,
/// The webgpu.h object types the ledger counts, one per WARDEN_GPU_OBJECT_TYPES entry.
enum class ObjectType : uint8_t { WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_OBJECT_TYPE_ENUMERATOR) };
#undef WARDEN_GPU_OBJECT_TYPE_ENUMERATOR

#define WARDEN_GPU_OBJECT_TYPE_COUNT(Name) +1
/// How many object types there are.
inline constexpr size_t kObjectTypeCount = 0 WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_OBJECT_TYPE_COUNT);
#undef WARDEN_GPU_OBJECT_TYPE_COUNT

/// "Buffer", "TextureView": the webgpu.h type name without the "WGPU" prefix.
const char* to_string(ObjectType type);

/// References held per object type. Negative means more released than taken.
struct ReferenceCounts {
  /// The count of each type, indexed by ObjectType.
  std::array<int64_t, kObjectTypeCount> by_type{};

  /// The count of one type.
  ///@{
  int64_t operator[](ObjectType type) const { return by_type[static_cast<size_t>(type)]; }
  int64_t& operator[](ObjectType type) { return by_type[static_cast<size_t>(type)]; }
  ///@}
  bool balanced() const;  ///< every type zero
  /// Adds another set of counts, type by type.
  ReferenceCounts& operator+=(const ReferenceCounts& other);
  /// The counts of `a` less those of `b`, type by type: what happened between two snapshots.
  friend ReferenceCounts operator-(const ReferenceCounts& a, const ReferenceCounts& b);
  /// Equal when every type's count is.
  friend bool operator==(const ReferenceCounts&, const ReferenceCounts&) = default;
};

/// "Buffer 1, Queue 1": the types that are not zero, in declaration order; "none" when balanced.
std::string to_string(const ReferenceCounts& counts);

/// Whether a loaded library's proc table counts references.
enum class LedgerMode {
  FromEnvironment,  ///< WARDEN_LEDGER=1 on, =0 off; unset: on in debug builds, off otherwise
  On,
  Off,
};

/// The environment variable read by LedgerMode::FromEnvironment.
inline constexpr const char* kLedgerEnvVar = "WARDEN_LEDGER";

/// FromEnvironment resolved to On or Off; nullopt with `*why` set when the variable holds
/// something other than 0 or 1.
std::optional<bool> ledger_enabled(LedgerMode mode, std::string* why);

/// One ledger per process: the counting proc table is plain C function pointers with no context
/// to carry, so its entries reach this object as a global.
class Ledger {
 public:
  /// The process's ledger.
  static Ledger& process();

  /// One more reference of `type` held (called by the counting proc table).
  void taken(ObjectType type) { slot(type).fetch_add(1, std::memory_order_relaxed); }
  /// One reference of `type` released (called by the counting proc table).
  void given_back(ObjectType type) { slot(type).fetch_sub(1, std::memory_order_relaxed); }

  /// References of `type` held now.
  int64_t outstanding(ObjectType type) const {
    return outstanding_[static_cast<size_t>(type)].load(std::memory_order_relaxed);
  }
  /// References held now, every type.
  ReferenceCounts outstanding() const;
  /// "Dawn references outstanding: Buffer 1, Queue 1" (or "...: none").
  std::string report() const;

  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

 private:
  Ledger() = default;
  std::atomic<int64_t>& slot(ObjectType type) { return outstanding_[static_cast<size_t>(type)]; }
  std::array<std::atomic<int64_t>, kObjectTypeCount> outstanding_{};
};

}  // namespace warden::gpu
