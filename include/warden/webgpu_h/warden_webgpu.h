/// @file
/// warden's extension of webgpu.h, for programs that link warden::webgpu in place of Dawn
/// (docs/webgpu-library.md). C11 and C++: a program written for webgpu.h needs none of it to
/// survive a device loss; it includes this header only to hear of losses warden recovers from,
/// to set the recovery's options, or to rehearse a loss.
///
/// Chain a WardenDeviceExtras on the WGPUDeviceDescriptor given to wgpuAdapterRequestDevice:
///
///     WardenDeviceExtras extras = WARDEN_DEVICE_EXTRAS_INIT;
///     extras.recoveryCallback = on_recovery;
///     WGPUDeviceDescriptor desc = {0};
///     desc.nextInChain = &extras.chain;
#ifndef WARDEN_WEBGPU_WARDEN_WEBGPU_H_
#define WARDEN_WEBGPU_WARDEN_WEBGPU_H_

#include <stddef.h>
#include <stdint.h>

#include <webgpu/webgpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The sType of WardenDeviceExtras: outside every range webgpu.h and Dawn use. */
#define WARDEN_STYPE_DEVICE_EXTRAS ((WGPUSType)0x57415200)

/** What a recovery callback is told. */
typedef enum WardenRecoveryEvent {
  /** The device's Dawn device was lost; warden is making the next one. The application's
   *  WGPUDevice and every object it holds stay valid. */
  WardenRecoveryEvent_Lost = 1,
  /** Every object alive was made again on the new device under the same pointers. */
  WardenRecoveryEvent_Rebuilt = 2,
  /** After Rebuilt: buffers and textures whose contents did not come back (what only the GPU
   *  wrote: storage, render targets; or a buffer mapped at creation and never unmapped). */
  WardenRecoveryEvent_ContentsLost = 3,
  /** The rebuild policy gave up: the device has ended for good (its device-lost callback runs
   *  too). */
  WardenRecoveryEvent_GaveUp = 4,
  /** Keeps the enum 32 bits wide, as webgpu.h's are. */
  WardenRecoveryEvent_Force32 = 0x7FFFFFFF
} WardenRecoveryEvent;

/** One recovery event; valid during the callback only. */
typedef struct WardenRecoveryInfo {
  /** What happened. */
  WardenRecoveryEvent event;
  /** The device generation the event is about: 1 is the first Dawn device, each recovery adds
   *  one. */
  uint64_t generation;
  /** Lost: the words Dawn gave; GaveUp: why warden stopped; otherwise empty. */
  WGPUStringView message;
  /** ContentsLost: how many buffers `buffers` holds. */
  size_t bufferCount;
  /** ContentsLost: the buffers whose contents are not what they were (the application's own
   *  pointers). */
  WGPUBuffer const* buffers;
  /** ContentsLost: how many textures `textures` holds. */
  size_t textureCount;
  /** ContentsLost: the textures whose contents are not what they were. */
  WGPUTexture const* textures;
} WardenRecoveryInfo;

/** Runs in wgpuInstanceProcessEvents, wgpuDeviceTick or a wait, on the calling thread, or in a
 *  call that waits for the recovery under way. It may call webgpu.h, except to release the
 *  device. */
typedef void (*WardenRecoveryCallback)(WGPUDevice device, WardenRecoveryInfo const* info, void* userdata);

/** Chained on WGPUDeviceDescriptor (sType WARDEN_STYPE_DEVICE_EXTRAS): how warden recovers the
 *  device, and who hears of it. Zero fields take the defaults of WARDEN_DEVICE_EXTRAS_INIT. */
typedef struct WardenDeviceExtras {
  /** next and sType (WARDEN_STYPE_DEVICE_EXTRAS). */
  WGPUChainedStruct chain;
  /** Keep a spare device, asked for ahead of a loss, so that a recovery adopts it. */
  WGPUBool standbyDevice;
  /** The rebuild policy: at most this many losses within lossWindowMs, then warden gives up
   *  (0: warden's defaults). */
  uint32_t maxLosses;
  /** The rebuild policy's window, in milliseconds (0: warden's default). */
  uint32_t lossWindowMs;
  /** How long a call waits for a recovery under way before it gives up (0: 10 seconds). */
  uint32_t recoveryTimeoutMs;
  /** Told of losses, rebuilds, lost contents and giving up; may be NULL. */
  WardenRecoveryCallback recoveryCallback;
  /** Passed to recoveryCallback. */
  void* userdata;
} WardenDeviceExtras;

/** WardenDeviceExtras with warden's defaults. */
#define WARDEN_DEVICE_EXTRAS_INIT                                                     \
  {                                                                                   \
    /* chain */ {NULL, WARDEN_STYPE_DEVICE_EXTRAS}, /* standbyDevice */ 0,             \
        /* maxLosses */ 0, /* lossWindowMs */ 0, /* recoveryTimeoutMs */ 0,           \
        /* recoveryCallback */ NULL, /* userdata */ NULL                              \
  }

/** How many device generations `device` has had (1 before any loss); 0 for a device that is
 *  not warden's. */
uint64_t wardenDeviceGetGeneration(WGPUDevice device);

/** How many losses warden recovered from on `device`. */
uint64_t wardenDeviceGetRecoveryCount(WGPUDevice device);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* WARDEN_WEBGPU_WARDEN_WEBGPU_H_ */
