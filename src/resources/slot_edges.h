// Private to the resources layer: how a slot's state may change. The states are SlotState
// (registry.h, docs/adr/0014); the legal edges are listed here, once, and each is one function
// that asserts the state it leaves. A record's `state` is assigned nowhere else.
//
//   edge                  leaves                       reaches   where
//   occupied              (a new occupant)             Live      insert: create_*, adopt_*, import_*
//   registered_lost       Live, no object yet          Lost      create_* while the device is lost
//   registered_waiting    Live, no object yet          Waiting   create_* from a loading thread (GL)
//   made_by_frame_thread  Waiting                      Live      the frame thread's poll made it
//   rebuilt               Lost, Waiting                Live      the rebuild made it again (Waiting:
//                                                                created by a loading thread while lost)
//   swapped_in            any                          Live      replace_*, recreate_*, rerecord
//   refused               Waiting, Lost, Live, Failed  Failed    the device refused its recipe
//   lost                  any                          Lost      a loss's walk
//
// Lost and Failed hold no object; Waiting holds none until made. The rebuild tries a Failed
// slot again only after the next loss has made it Lost.
#pragma once

#include <cassert>
#include <string>
#include <utility>

#include "warden/core/submission_clock.h"
#include "warden/resources/registry.h"

namespace warden::resources::slot_edges {

template <typename Record>
void occupied(Record& rec) {
  rec.state = SlotState::Live;
  rec.failure.clear();
  rec.made_after_waiting = false;
}

template <typename Record>
void registered_lost(Record& rec) {
  assert(rec.state == SlotState::Live);
  rec.state = SlotState::Lost;
}

template <typename Record>
void registered_waiting(Record& rec) {
  assert(rec.state == SlotState::Live);
  rec.state = SlotState::Waiting;
}

template <typename Record>
void made_by_frame_thread(Record& rec) {
  assert(rec.state == SlotState::Waiting);
  rec.state = SlotState::Live;
  rec.made_after_waiting = true;
}

template <typename Record>
void rebuilt(Record& rec) {
  assert(rec.state == SlotState::Lost || rec.state == SlotState::Waiting);
  rec.state = SlotState::Live;
  rec.made_after_waiting = false;
}

// A new object under the handle: no submission has used it yet.
template <typename Record>
void swapped_in(Record& rec) {
  rec.state = SlotState::Live;
  rec.failure.clear();
  rec.last_used = Serial{};
}

// The device's words are kept: resolve() and what names the slot say them.
template <typename Record>
void refused(Record& rec, std::string why) {
  rec.state = SlotState::Failed;
  rec.failure = std::move(why);
}

// A use on the lost device holds nothing back on the next one.
template <typename Record>
void lost(Record& rec) {
  rec.state = SlotState::Lost;
  rec.failure.clear();
  rec.last_used = Serial{};
}

}  // namespace warden::resources::slot_edges
