#include "fuzz/registry_support.h"

#include "fuzz/fuzz_support.h"
#include "fuzz/null_device.h"

namespace warden::fuzz {

std::unique_ptr<resources::Registry> make_fuzz_registry(resources::RegistryOptions options) {
  NullDevice& dev = null_device();
  return std::make_unique<resources::Registry>(*dev.context, dev.device, dev.queue, std::move(options));
}

Serial submit_empty(resources::Registry& registry) {
  const gpu::Procs& procs = null_device().procs();
  WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(null_device().device, nullptr);
  WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
  const Serial serial = registry.submit(commands);
  procs.CommandBufferRelease(commands);
  procs.CommandEncoderRelease(encoder);
  return serial;
}

void submit_and_poll(resources::Registry& registry) {
  submit_empty(registry);
  registry.poll();
}

LedgerBalance::LedgerBalance() {
  // The device is opened first, so the references it keeps for the process are the baseline.
  null_device();
  at_start_ = gpu::Ledger::process().outstanding();
}

LedgerBalance::~LedgerBalance() {
  null_device().context->process_events();  // callbacks that still hold a reference run now
  const gpu::ReferenceCounts left = gpu::Ledger::process().outstanding() - at_start_;
  if (!left.balanced()) fail("Dawn references not given back: " + gpu::to_string(left));
}

}  // namespace warden::fuzz
