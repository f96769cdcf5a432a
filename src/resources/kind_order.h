// The walks over every resource kind, in one place: each kind's facts are a Tag type, the order
// is kTeardownOrder (registry.h), and a walk hands each kind's Tag to a generic lambda, so the
// Registry's teardown, loss, rebuild and reports share one switch instead of one each.
#pragma once

#include "warden/resources/registry.h"

namespace warden::resources::detail {

/// Which way a walk goes over kTeardownOrder.
enum class KindOrder {
  Teardown,  ///< users of an object before the object they use (release, loss, leak report)
  Build,     ///< what an object uses before the object (rebuild, remaking after a loss)
};

/// Calls `visit.template operator()<Tag>()` once per resource kind, in `order`.
template <typename Visit>
void for_each_kind(KindOrder order, Visit&& visit) {
  auto one = [&](ResourceKind kind) {
    switch (kind) {
#define WARDEN_VISIT_KIND(Name, snake) \
  case ResourceKind::Name: visit.template operator()<Name##Tag>(); break;
      WARDEN_RESOURCE_KINDS(WARDEN_VISIT_KIND)
#undef WARDEN_VISIT_KIND
      case ResourceKind::None: break;
    }
  };
  if (order == KindOrder::Teardown) {
    for (ResourceKind kind : kTeardownOrder) one(kind);
  } else {
    for (auto kind = kTeardownOrder.rbegin(); kind != kTeardownOrder.rend(); ++kind) one(*kind);
  }
}

}  // namespace warden::resources::detail
