/// @file
/// The pipelines layer's messages, each X(pipelines, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (pipelines's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_PIPELINES(X) \
  X(pipelines, PipelineBuildRejected, 0, "the device rejected a bind group layout or pipeline the pipeline library built; Dawn's words follow") \
  X(pipelines, PipelineBuildReturnedNull, 1, "the implementation returned no object for a pipeline build") \
  X(pipelines, PipelineBuildCancelled, 2, "an asynchronous pipeline build was cancelled because the instance went away") \
  X(pipelines, PipelineBuildInternalError, 3, "the implementation failed an asynchronous pipeline build with an internal error") \
  X(pipelines, PipelineNotFromLibrary, 4, "a pipeline that the pipeline library did not make was given to it") \
  X(pipelines, HotReloadDeviceLost, 5, "a hot reloader was asked for on a registry whose device is lost") \
  X(pipelines, HotReloadNeedsImplicitSync, 6, "hot reload needs a device requested with WGPUFeatureName_ImplicitDeviceSynchronization") \
  X(pipelines, HotReloadNotFromFile, 7, "a shader module not loaded from a file was given to watch") \
  X(pipelines, HotReloadNotWatched, 8, "reload was asked for a shader module that is not watched") \
  X(pipelines, HotReloadKeptPrevious, 9, "a hot reload failed; the previous module and pipelines stay in use") \
  X(pipelines, HotReloadApplied, 10, "a hot reload swapped in a new module and its pipelines")
// clang-format on
