#include "warden/core/result.h"

namespace warden {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidArgument: return "invalid argument";
    case ErrorKind::NotFound: return "not found";
    case ErrorKind::Io: return "i/o error";
    case ErrorKind::LibraryMissing: return "webgpu library missing";
    case ErrorKind::SymbolMissing: return "webgpu symbol missing";
    case ErrorKind::NoAdapter: return "no adapter";
    case ErrorKind::DeviceFailed: return "device failed";
    case ErrorKind::StaleHandle: return "stale handle";
    case ErrorKind::PoolFull: return "pool full";
    case ErrorKind::MissingUsage: return "missing usage";
    case ErrorKind::Refused: return "refused";
    case ErrorKind::Validation: return "validation error";
    case ErrorKind::Compilation: return "compilation error";
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Internal: return "internal error";
  }
  return "unknown error";
}

}  // namespace warden
