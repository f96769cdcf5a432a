/// @file
/// The engine layer's messages, each X(engine, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (engine's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_ENGINE(X) \
  X(engine, EngineUncapturedError, 0, "the WebGPU implementation reported an error that no error scope caught") \
  X(engine, EngineDeviceLost, 1, "the call needs a device, and the engine's device is lost and being rebuilt") \
  X(engine, EngineGaveUp, 2, "the engine gave up rebuilding its device, so calls that need one fail") \
  X(engine, EngineFrameFromLostDevice, 3, "a frame recorded on a device that was since lost was used or submitted; nothing was submitted") \
  X(engine, EngineFrameDropped, 4, "submit dropped a frame because an object it uses could not be used (Frame::use failed); nothing was submitted") \
  X(engine, EngineFrameEngineGone, 5, "Frame::use was called on a frame whose engine was destroyed") \
  X(engine, EngineReadyTimeout, 6, "no device was ready within the time wait_until_ready was given") \
  X(engine, EngineFrameEmpty, 7, "submit was given a frame that holds no encoder (moved from, or already submitted)") \
  X(engine, EngineFrameAlreadyOpen, 8, "begin_frame was called while another frame of the same device is open") \
  X(engine, EngineDestroying, 9, "the engine was called while it is being destroyed (from a diagnostics sink)") \
  X(engine, EngineWaitInsideCallback, 10, "wait_until_ready was called from inside a callback of a loss, where no device can become ready") \
  X(engine, EngineHang, 11, "a submission did not finish within EngineOptions::hang_limit: the device was let go as hung and, within the rebuild policy, the next one requested") \
  X(engine, EngineObserversOutlived, 12, "the engine was destroyed while observers were still added; they were told the engine ended") \
  X(engine, TileLayerEngineGone, 13, "the tile layer's engine was destroyed; the layer holds nothing and refuses calls") \
  X(engine, TileLayerHeadroomTooLarge, 14, "a tile layer's in-flight headroom alone needs as many array layers as the device has") \
  X(engine, TileLayerBudgetBelowLayer, 15, "a tile layer's byte budget is below one tile layer") \
  X(engine, TileLayerNoMemoryUploads, 16, "a tile layer keeps tiles in memory but may upload none of them a frame (memory_uploads_per_frame 0)") \
  X(engine, TileLayerTooManyLayers, 17, "a tile layer's budget plus its in-flight headroom needs more array layers than the device has") \
  X(engine, TileLayerUploadThreadsNeedImplicitSync, 18, "a tile layer was given upload threads on a device without WGPUFeatureName_ImplicitDeviceSynchronization") \
  X(engine, EngineAdoptFrameThreadOnGl, 19, "adopt_frame_thread was called on a GL or GLES device, whose context stays on the thread that made the device") \
  X(engine, EngineShaderFeaturesNeedHotReload, 20, "WESL feature values were changed while hot reload, which links the modules again, is not available") \
  X(engine, PresentTargetEngineGone, 21, "a present target was used after its engine was destroyed; it holds no surface and refuses calls") \
  X(engine, PresentTargetAttachFailed, 22, "a present target could not be attached to a device the engine showed (no surface for the window, or no format); frames are refused until the next device")
// clang-format on
