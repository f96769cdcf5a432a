// Every message warden emits, by a stable id, in one list.
//
// An Error and a Diagnostic carry a MessageId beside their text. The text says what happened
// to this object, with its label and values, and may be reworded in any release; the id is
// the contract: code and tests match ids, logs can be filtered on them. The list below is the
// only place an id is declared; docs/messages.md is printed from it (`warden messages`), and a
// test fails when the two differ.
//
// One X-macro per layer, so that each layer's messages stay together. Each entry is
// X(layer, Id, "what the message means"). Ids are never renumbered in meaning: a message that
// goes away leaves its id unused rather than giving it to another message.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

// clang-format off
#define WARDEN_MESSAGES_CORE(X) \
  X(core, Application, "an error made by the application (make_error without an id), carried through warden") \
  X(core, ResultMovedFrom, "a failed Result whose error was moved to another Result was read")

#define WARDEN_MESSAGES_GPU(X) \
  X(gpu, DawnLog, "a line of the WebGPU implementation's own log (a backend it could not load, a warning)")
#define WARDEN_MESSAGES_DEVICE(X) \
  X(device, DeviceStarting, "a new device generation started: the controller asks for an adapter and a device") \
  X(device, DeviceReady, "a device generation is ready: its resources are prepared and it is shown") \
  X(device, DeviceLost, "the device of the current generation was lost (the API's words follow) or hung") \
  X(device, DeviceFailed, "a device generation failed: no device could be made or prepared, or the rebuild policy gave up") \
  X(device, DeviceStopped, "the controller was stopped or shut down; no device is shown until a retry") \
  X(device, DeviceRetired, "a generation's device was retired: destroyed, released (it presented), or kept for the next engine")
#define WARDEN_MESSAGES_RESOURCES(X) \
  X(resources, RegistryCapacityClamped, "a requested pool capacity exceeds what a handle can index; the registry uses the largest it can") \
  X(resources, ResourcesLeakedAtShutdown, "objects were still alive when the registry shut down; the message names each kind and label") \
  X(resources, HandleNull, "a null handle was given where an object is needed") \
  X(resources, HandleWrongKind, "a handle of one kind was given where a handle of another kind is expected") \
  X(resources, HandleForeign, "a handle issued by another registry was given to this one") \
  X(resources, HandleFromEarlierRegistry, "a handle issued by an earlier registry that held the same id, now gone, was given") \
  X(resources, HandleNeverIssued, "a handle this registry never issued (an index or generation it did not hand out) was given") \
  X(resources, HandleDestroyed, "a handle whose object was destroyed was given") \
  X(resources, RegistryDeviceLost, "the registry's device is lost and being rebuilt; the call did nothing") \
  X(resources, SlotRebuildFailed, "the object could not be made again on the new device after a device loss") \
  X(resources, SlotLostWithoutRecipe, "the object was lost with its device and warden keeps no recipe for it; its owner re-supplies it with replace_*") \
  X(resources, RegistryNullObject, "adopt_*, import_* or replace_* was given a null object") \
  X(resources, ImportNotATextureView, "an object other than a texture view was imported; only views have an outside owner") \
  X(resources, AdoptedObjectInvalid, "an adopted buffer or texture breaks a WebGPU rule or device limit, so it cannot be a valid object") \
  X(resources, ResourcePoolFull, "a kind's pool has no free slot; the object was released (owned) or not adopted (borrowed)") \
  X(resources, TextureHasLiveViews, "a texture cannot be destroyed or replaced while views of it are alive") \
  X(resources, DoubleDestroyIgnored, "destroy_* of a handle of this registry whose object is already gone was ignored") \
  X(resources, DestroyImportedView, "destroy_texture_view of an imported view was refused; its owner ends it (forget_texture_view)") \
  X(resources, ForgetViewNotImported, "forget_texture_view of a view that is not imported was refused; use destroy_texture_view") \
  X(resources, SlotRetired, "a slot's generation reached the limit; the slot is retired and never reused") \
  X(resources, TouchIgnored, "touch of a handle that names no live object was ignored") \
  X(resources, SubmitDroppedDeviceLost, "a submit while the device is lost was dropped") \
  X(resources, ResourceMissingUsage, "a buffer or texture lacks a usage the operation needs") \
  X(resources, CreateRejected, "the device rejected a create call (validation or out of memory); Dawn's words follow") \
  X(resources, CreateReturnedNull, "the device returned no object for a create call") \
  X(resources, WriteBufferNullData, "write_buffer was given a non-zero size and no data") \
  X(resources, WriteBufferMisaligned, "write_buffer's offset or size is not a multiple of 4") \
  X(resources, WriteBufferOutOfRange, "write_buffer's bytes lie outside the buffer") \
  X(resources, WriteTextureEmptyRegion, "write_texture's region has a zero dimension") \
  X(resources, WriteTextureMipOutOfRange, "write_texture names a mip level the texture does not have") \
  X(resources, WriteTextureOutOfRange, "write_texture's region lies outside the mip level") \
  X(resources, WriteTextureNoData, "write_texture was given no data") \
  X(resources, BufferZeroSize, "create_buffer was asked for a buffer of size 0") \
  X(resources, TextureZeroSize, "create_texture was asked for a texture with a zero dimension") \
  X(resources, TextureZeroLevelsOrSamples, "create_texture was asked for 0 mip levels or 0 samples") \
  X(resources, ResourceNoUsage, "create_buffer or create_texture was given no usage") \
  X(resources, ResourceRefillMissing, "a buffer or texture whose contents come from a callback was given no refill callback") \
  X(resources, BufferDescriptionInvalid, "a buffer description breaks a WebGPU rule or a device limit (size, mapping, usage combination)") \
  X(resources, TextureDescriptionInvalid, "a texture description breaks a WebGPU rule or a device limit (dimensions, layers, mip levels, samples)") \
  X(resources, QuerySetZeroCount, "create_query_set was asked for 0 queries") \
  X(resources, QuerySetTooLarge, "create_query_set was asked for more queries than WebGPU allows in one set")
#define WARDEN_MESSAGES_SHADERS(X) \
  X(shaders, SourceNotUtf8, "a shader source is not valid UTF-8; the message names the byte and its offset") \
  X(shaders, SourceFileNotFound, "a shader file does not exist") \
  X(shaders, SourceSymlinkLoop, "a shader file's path is a symbolic link loop") \
  X(shaders, SourceCannotOpen, "a shader file exists but cannot be opened") \
  X(shaders, SourceIsDirectory, "a shader file's path names a directory") \
  X(shaders, SourceNotRegularFile, "a shader file's path names a FIFO, device or socket, not a regular file") \
  X(shaders, SourceTooLarge, "a shader source is larger than the limit") \
  X(shaders, SourceReadFailed, "reading a shader source failed") \
  X(shaders, ShaderFeatureUnknown, "a shader feature name is not one warden knows") \
  X(shaders, ShaderCompileFailed, "a shader did not compile; the message lists the compiler's diagnostics with their places") \
  X(shaders, ShaderCompilerMessage, "a message of the WGSL compiler about a place in a shader") \
  X(shaders, ShaderNeedsDeviceFeature, "a shader enables an extension whose device feature the device was not created with") \
  X(shaders, ShaderModuleMissing, "the implementation returned no shader module and said nothing about why") \
  X(shaders, WatcherInitFailed, "the file watcher could not be created (inotify)") \
  X(shaders, WatchPathInvalid, "a path to watch could not be made absolute") \
  X(shaders, WatchDirectoryFailed, "the directory of a file to watch could not be watched")
#define WARDEN_MESSAGES_PIPELINES(X) \
  X(pipelines, PipelineBuildRejected, "the device rejected a bind group layout or pipeline the pipeline library built; Dawn's words follow") \
  X(pipelines, PipelineBuildReturnedNull, "the implementation returned no object for a pipeline build") \
  X(pipelines, PipelineBuildCancelled, "an asynchronous pipeline build was cancelled because the instance went away") \
  X(pipelines, PipelineBuildInternalError, "the implementation failed an asynchronous pipeline build with an internal error") \
  X(pipelines, PipelineNotFromLibrary, "a pipeline that the pipeline library did not make was given to it") \
  X(pipelines, HotReloadDeviceLost, "a hot reloader was asked for on a registry whose device is lost") \
  X(pipelines, HotReloadNeedsImplicitSync, "hot reload needs a device requested with kFeatureImplicitDeviceSynchronization") \
  X(pipelines, HotReloadNotFromFile, "a shader module not loaded from a file was given to watch") \
  X(pipelines, HotReloadNotWatched, "reload was asked for a shader module that is not watched") \
  X(pipelines, HotReloadKeptPrevious, "a hot reload failed; the previous module and pipelines stay in use") \
  X(pipelines, HotReloadApplied, "a hot reload swapped in a new module and its pipelines")
#define WARDEN_MESSAGES_PRESENT(X)
#define WARDEN_MESSAGES_TILES(X)
#define WARDEN_MESSAGES_DEBUGDRAW(X)
#define WARDEN_MESSAGES_ENGINE(X)
#define WARDEN_MESSAGES_DEMO(X)
#define WARDEN_MESSAGES_APP(X)
#define WARDEN_MESSAGES_CLI(X)
// clang-format on

/// Every message, layer by layer, bottom up.
#define WARDEN_MESSAGES(X)                                                                      \
  WARDEN_MESSAGES_CORE(X) WARDEN_MESSAGES_GPU(X) WARDEN_MESSAGES_DEVICE(X)                      \
  WARDEN_MESSAGES_RESOURCES(X) WARDEN_MESSAGES_SHADERS(X) WARDEN_MESSAGES_PIPELINES(X)          \
  WARDEN_MESSAGES_PRESENT(X) WARDEN_MESSAGES_TILES(X) WARDEN_MESSAGES_DEBUGDRAW(X)              \
  WARDEN_MESSAGES_ENGINE(X) WARDEN_MESSAGES_DEMO(X) WARDEN_MESSAGES_APP(X) WARDEN_MESSAGES_CLI(X)

namespace warden {

/// The stable id of one message warden emits (see the list in this header).
enum class MessageId : uint16_t {
#define WARDEN_MESSAGE_ENUMERATOR(layer, id, text) id,
  WARDEN_MESSAGES(WARDEN_MESSAGE_ENUMERATOR)
#undef WARDEN_MESSAGE_ENUMERATOR
};

/// One entry of the list.
struct MessageInfo {
  /// The id.
  MessageId id;
  /// The layer that emits it: "core", "gpu", "resources", ...
  std::string_view layer;
  /// The stable name logs and filters use: "<layer>.<Id>", e.g. "resources.HandleDestroyed".
  std::string_view name;
  /// What the message means, in one sentence.
  std::string_view text;
};

/// The whole list, in declaration order (layer by layer, bottom up).
std::span<const MessageInfo> all_messages();
/// The entry of `id`.
const MessageInfo& describe(MessageId id);
/// The stable name of `id` ("<layer>.<Id>").
std::string_view to_string(MessageId id);

}  // namespace warden
