/// @file
/// Every message warden emits, by a stable id, in one list.
///
/// An Error and a Diagnostic carry a MessageId beside their text. The text says what happened
/// to this object, with its label and values, and may be reworded in any release; the id is
/// the contract: code and tests match ids, logs can be filtered on them. The list below is the
/// only place an id is declared; docs/messages.md is printed from it (`warden messages`), and a
/// test fails when the two differ.
///
/// One X-macro per layer, so that each layer's messages stay together. Each entry is
/// X(layer, Id, "what the message means"). Ids are never renumbered in meaning: a message that
/// goes away leaves its id unused rather than giving it to another message (its text then starts
/// "unused:", and the message check no longer looks for it).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

// clang-format off
#define WARDEN_MESSAGES_CORE(X) \
  X(core, Application, "an error made by the application (make_error without an id), carried through warden") \
  X(core, ResultMovedFrom, "a failed Result whose error was moved to another Result was read")

#define WARDEN_MESSAGES_GPU(X) \
  X(gpu, DawnLog, "a line of the WebGPU implementation's own log (a backend it could not load, a warning)") \
  X(gpu, LedgerSettingInvalid, "WARDEN_LEDGER is set to something other than 0 or 1") \
  X(gpu, LibraryNotLoaded, "no WebGPU library could be loaded from any of the places warden looks") \
  X(gpu, LibrarySymbolsMissing, "the WebGPU library that was loaded lacks entry points warden needs") \
  X(gpu, LedgerSecondLibrary, "the reference ledger already counts another WebGPU library in this process") \
  X(gpu, BackendUnknown, "a backend name is not one of auto, vulkan, gl, gles or null") \
  X(gpu, InstanceCreationFailed, "wgpuCreateInstance returned no instance") \
  X(gpu, FutureWaitTimedOut, "a bounded wait for a WebGPU future ran out") \
  X(gpu, FutureWaitFailed, "wgpuInstanceWaitAny failed") \
  X(gpu, AdapterRequestFailed, "an adapter request for one backend gave no adapter") \
  X(gpu, AdapterNoneSuitable, "no adapter of the backend choice satisfied the request") \
  X(gpu, DeviceFeatureMissing, "the adapter lacks a feature the device requires") \
  X(gpu, DeviceRequestFailed, "the WebGPU implementation rejected a device request") \
  X(gpu, QueueIdleWaitFailed, "the queue's submitted work did not complete") \
  X(gpu, ReadMappedMapFailed, "mapping a buffer for reading failed") \
  X(gpu, ReadMappedRangeNull, "a buffer mapped for reading gave no mapped range")

#define WARDEN_MESSAGES_DEVICE(X) \
  X(device, DeviceStarting, "a new device generation started: the controller asks for an adapter and a device") \
  X(device, DeviceReady, "a device generation is ready: its resources are prepared and it is shown") \
  X(device, DeviceLost, "the device of the current generation was lost (the API's words follow) or hung") \
  X(device, DeviceFailed, "a device generation failed: no device could be made or prepared, or the rebuild policy gave up") \
  X(device, DeviceStopped, "the controller was stopped or shut down; no device is shown until a retry") \
  X(device, DeviceRetired, "a generation's device was retired: destroyed, released (it presented), or kept for the next engine") \
  X(device, ProviderApiUnavailable, "the device provider has no WebGPU library to ask for adapters and devices") \
  X(device, NewDeviceRefused, "a new device is refused because devices that presented were destroyed in this process") \
  X(device, PreparationFinishedLate, "a resource preparation finished after its device generation ended") \
  X(device, RebuildGaveUp, "the rebuild policy gave up on the device, so a retry is refused") \
  X(device, ShutdownOvertaken, "a hook started a new device generation while shutdown retired the device") \
  X(device, KeepDeviceNeedsStash, "a shutdown asked to keep the device, with no device stash to keep it in") \
  X(device, MarkPresentedNoDevice, "mark_presented was called while no device is shown") \
  X(device, TestRequestNotPending, "a TestProvider request number names no pending request") \
  X(device, TestDeviceNotLosable, "a TestProvider device has no unsettled lost promise to settle")

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
  X(resources, WriteBufferRejected, "the device rejected a write_buffer that warden's checks let through (a buffer still mapped); nothing was written or kept") \
  X(resources, WriteTextureEmptyRegion, "write_texture's region has a zero dimension") \
  X(resources, WriteTextureMipOutOfRange, "write_texture names a mip level the texture does not have") \
  X(resources, WriteTextureOutOfRange, "write_texture's region lies outside the mip level") \
  X(resources, WriteTextureNoData, "write_texture was given no data") \
  X(resources, WriteTextureFormatNotCopyable, "write_texture names a texture whose format has no byte layout for copies (depth24plus)") \
  X(resources, WriteTextureRowTooShort, "write_texture's bytes_per_row is shorter than one row of the region") \
  X(resources, WriteTextureRowsPerImageTooShort, "write_texture's rows_per_image is below the region's height") \
  X(resources, WriteTextureDataTooSmall, "write_texture was given fewer bytes than its region and layout need") \
  X(resources, WriteTextureRejected, "the device rejected a write_texture that warden's checks let through; nothing was written or kept") \
  X(resources, BufferZeroSize, "create_buffer was asked for a buffer of size 0") \
  X(resources, TextureZeroSize, "create_texture was asked for a texture with a zero dimension") \
  X(resources, TextureZeroLevelsOrSamples, "create_texture was asked for 0 mip levels or 0 samples") \
  X(resources, ResourceNoUsage, "create_buffer or create_texture was given no usage") \
  X(resources, ResourceRefillMissing, "a buffer or texture whose contents come from a callback was given no refill callback") \
  X(resources, BufferDescriptionInvalid, "a buffer description breaks a WebGPU rule or a device limit (size, mapping, usage combination)") \
  X(resources, TextureDescriptionInvalid, "a texture description breaks a WebGPU rule or a device limit (dimensions, layers, mip levels, samples)") \
  X(resources, QuerySetZeroCount, "create_query_set was asked for 0 queries") \
  X(resources, QuerySetTooLarge, "create_query_set was asked for more queries than WebGPU allows in one set") \
  X(resources, RecreateNotOwned, "recreate_texture or recreate_buffer was given a borrowed object; warden makes again only objects it owns") \
  X(resources, RecreateDependentFailed, "recreate_texture or recreate_buffer made the new object, but the device refused a view or bind group made again from it; that one is Failed") \
  X(resources, SlotAwaitsOwner, "after a rebuild, an object with no recipe (adopted, borrowed or replaced by the caller's own) is still Lost until its owner re-supplies it with replace_*")

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

#define WARDEN_MESSAGES_PRESENT(X) \
  X(present, ReadImageFormatUnreadable, "read_image was given a texture whose format is not readable as an 8-bit RGBA image") \
  X(present, ReadImageMissingCopySrc, "read_image was given a texture created without CopySrc usage, so it cannot be copied out") \
  X(present, PngImageSizeMismatch, "write_png was given an image whose byte count is not width*height*4") \
  X(present, PngWriteFailed, "libpng could not write the PNG file") \
  X(present, PngReadFailed, "a PNG file could not be read: missing (NotFound), or not a PNG libpng can read (InvalidArgument)") \
  X(present, SurfaceCapabilitiesUnreadable, "the surface's capabilities could not be read for the device's adapter") \
  X(present, SwapchainAttachWithoutDevice, "Swapchain::attach was given no device or no registry") \
  X(present, SwapchainNoSurface, "the WebGPU library made no surface for the window") \
  X(present, SwapchainNoSurfaceFormat, "the surface offers no texture format for the device's adapter") \
  X(present, SwapchainAcquireDetached, "Swapchain::acquire was called with no device attached") \
  X(present, SwapchainAcquireInFlight, "Swapchain::acquire was called before the previous frame was presented") \
  X(present, SwapchainSurfaceNoFrame, "the surface gave no frame to render into, even after reconfiguring once where its status allowed") \
  X(present, SwapchainPresentWithoutFrame, "Swapchain::present was called without an acquired frame") \
  X(present, GlfwInitFailed, "GLFW could not be started on X11") \
  X(present, DisplayNotSet, "DISPLAY is not set, so no window can be opened") \
  X(present, DisplayNotAnswering, "the X server that DISPLAY names does not answer") \
  X(present, WindowZeroSize, "a window was asked for a size with no area") \
  X(present, WindowNotCreated, "GLFW could not create the window") \
  X(present, RenderTargetZeroSize, "a render target was given a size with no area") \
  X(present, RenderTargetNoTexture, "the device made no texture for a render target")

#define WARDEN_MESSAGES_TILES(X) \
  X(tiles, TileDeviceLost, "tile objects cannot be made while the device is lost; they are made again on the next device") \
  X(tiles, TileMipPipelineNotCreated, "a pipeline that renders tile mip levels was not created") \
  X(tiles, TileArrayTileSizeOutOfRange, "a tile array's tile size is 0 or above the device's largest 2D texture") \
  X(tiles, TileArrayLayerCountOutOfRange, "a tile array's layer count is 0 or above the device's array layer limit") \
  X(tiles, TileArrayDestroyed, "a tile array was used after it was destroyed") \
  X(tiles, TileArrayLayerOutOfRange, "a call named a layer beyond the tile array's layers") \
  X(tiles, TileMipLevelOutOfRange, "a mip pass named level 0 (written by uploads) or a level the tile array does not have") \
  X(tiles, TileTexelsSizeMismatch, "the texels given for one tile are not tile size x tile size texels of the format") \
  X(tiles, TileMipPassInScratchArray, "a mip pass was recorded into a tile array whose chains are rendered in its scratch array") \
  X(tiles, TileMipPassWidthOutOfRange, "a mip pass was given no layers, or more than one pass renders") \
  X(tiles, TileMipLayerTwice, "a mip pass named the same layer twice") \
  X(tiles, TileArrayLayersStillAllocated, "a tile array was to be destroyed while its pool still has layers allocated") \
  X(tiles, TileArrayStillInUse, "a tile array was to be destroyed while a submission that reads it has not retired") \
  X(tiles, TileRendererZeroInstances, "a TileRenderer was asked for room for 0 instances") \
  X(tiles, TileDrawShaderIncomplete, "an application's tile draw shader was given without its module or without the pipeline library") \
  X(tiles, TileDrawPipelineNotCreated, "the pipeline that draws tiles was not created") \
  X(tiles, TileRendererTooManyInstances, "more tile instances were written than the TileRenderer has room for") \
  X(tiles, TileReplyReplaced, "a TileReply was overwritten before it answered; its fetch fails") \
  X(tiles, TileReplyUnanswered, "a TileReply was destroyed without delivering texels or an error; its fetch fails") \
  X(tiles, TileKeyOutsidePyramid, "a tile key lies outside the pyramid (x or y not below 2^z, or z beyond the deepest zoom)") \
  X(tiles, TileCacheLayerBytesZero, "a TileCache was given a layer size of 0 bytes") \
  X(tiles, TileCacheBudgetBelowLayer, "a TileCache's byte budget holds no tile layer") \
  X(tiles, TileCacheByteCountOverflow, "a TileCache's pool layers times the layer size overflow a 64-bit byte count") \
  X(tiles, TileCacheNoFetches, "a TileCache was allowed 0 fetches in flight, so no fetch could start") \
  X(tiles, TileCacheCalledInsideCallback, "a call that changes a TileCache was made from inside one of its fill, upload or fetch callbacks") \
  X(tiles, TileCacheChangedDuringFill, "the tile cache changed while a fill ran (a bug in warden)") \
  X(tiles, TilePinNotResident, "pin named a tile that is not resident") \
  X(tiles, TileEvictPinned, "evict named a pinned tile") \
  X(tiles, TileEvictUnknown, "evict named a tile that is neither resident nor requested") \
  X(tiles, LayerPoolLayerOutOfRange, "a layer index beyond the layer pool's layers") \
  X(tiles, LayerPoolLayerNotAllocated, "a layer was touched or released that the pool had not handed out (free, or already released)") \
  X(tiles, LayerPoolInvariantBroken, "the layer pool's bookkeeping contradicts itself (a bug in warden)") \
  X(tiles, UploadRingZeroSize, "an upload ring's tile size, texel bytes, buffer count or tiles per buffer is 0") \
  X(tiles, UploadRingStagingNotMapped, "a staging buffer of an upload ring was not created mapped") \
  X(tiles, UploadMeasurementZero, "the upload measurement was given 0 for the tile size, the tile count or the rounds") \
  X(tiles, UploadMeasurementNoMappedBuffer, "the upload measurement's ring had no mapped buffer (a bug in warden)") \
  X(tiles, LayerPoolSizingZero, "size_layer_pool was given 0 for the viewport width or height or the tile size") \
  X(tiles, TexelSizeUnknown, "warden has no byte size for the texture format") \
  X(tiles, TextureBytesEmpty, "texture_bytes was given a texture with no width, height or layers") \
  X(tiles, TextureBytesMipLevelsOutOfRange, "texture_bytes was given 0 mip levels or more than the size has") \
  X(tiles, TextureBytesOverflow, "a texture's byte count overflows 64 bits")

#define WARDEN_MESSAGES_DEBUGDRAW(X) \
  X(debugdraw, DebugDrawerCapacityTooSmall, "a debug drawer's initial capacity leaves no room for vertices after its matrix block") \
  X(debugdraw, DebugDrawerBufferNotCreated, "the device made no larger vertex buffer for a debug drawer")

#define WARDEN_MESSAGES_ENGINE(X) \
  X(engine, EngineUncapturedError, "the WebGPU implementation reported an error that no error scope caught") \
  X(engine, EngineDeviceLost, "the call needs a device, and the engine's device is lost and being rebuilt") \
  X(engine, EngineGaveUp, "the engine gave up rebuilding its device, so calls that need one fail") \
  X(engine, EngineFrameFromLostDevice, "a frame recorded on a device that was since lost was used or submitted; nothing was submitted") \
  X(engine, EngineFrameDropped, "submit dropped a frame because an object it uses could not be used (Frame::use failed); nothing was submitted") \
  X(engine, EngineFrameEngineGone, "Frame::use was called on a frame whose engine was destroyed") \
  X(engine, EngineReadyTimeout, "no device was ready within the time wait_until_ready was given") \
  X(engine, EngineFrameEmpty, "submit was given a frame that holds no encoder (moved from, or already submitted)") \
  X(engine, EngineFrameAlreadyOpen, "begin_frame was called while another frame of the same device is open") \
  X(engine, EngineDestroying, "the engine was called while it is being destroyed (from a diagnostics sink)") \
  X(engine, EngineWaitInsideCallback, "wait_until_ready was called from inside a callback of a loss, where no device can become ready") \
  X(engine, EngineHang, "a submission did not finish within EngineOptions::hang_limit: the device was let go as hung and, within the rebuild policy, the next one requested") \
  X(engine, EngineObserversOutlived, "the engine was destroyed while observers were still added; they were told the engine ended") \
  X(engine, TileLayerEngineGone, "the tile layer's engine was destroyed; the layer holds nothing and refuses calls") \
  X(engine, TileLayerHeadroomTooLarge, "a tile layer's in-flight headroom alone needs as many array layers as the device has") \
  X(engine, TileLayerBudgetBelowLayer, "a tile layer's byte budget is below one tile layer") \
  X(engine, TileLayerNoMemoryUploads, "a tile layer keeps tiles in memory but may upload none of them a frame (memory_uploads_per_frame 0)") \
  X(engine, TileLayerTooManyLayers, "a tile layer's budget plus its in-flight headroom needs more array layers than the device has")

#define WARDEN_MESSAGES_DEMO(X) \
  X(demo, StampScaleZero, "draw_stamp was asked to draw at scale 0") \
  X(demo, StampGlyphMissing, "the stamp text holds a character the stamp font has no glyph for") \
  X(demo, TileFetchFailureRateOutOfRange, "a tile fetch failure rate is outside [0, 1]") \
  X(demo, TileFetchLatencyNegative, "a tile fetch latency is negative") \
  X(demo, TileFetchInjectedFailure, "a tile fetch failed on purpose, drawn from the fetch failure rate") \
  X(demo, TileFetchFaultBurst, "a tile fetch failed on purpose, in a planned burst of failures") \
  X(demo, DemoFramesZero, "the demo was asked for no frames") \
  X(demo, DemoSizeOutOfRange, "the demo's frame width or height is outside 1..4096") \
  X(demo, DemoWidthNotMultipleOf64, "the demo's frame width is not a multiple of 64") \
  X(demo, DemoBudgetZero, "the demo's VRAM budget is 0") \
  X(demo, DemoFrameIntervalNegative, "the demo's frame interval is negative") \
  X(demo, DemoZoomTooDeep, "the demo's deepest zoom is beyond the deepest its tile sources draw") \
  X(demo, DemoNullBackend, "the demo was asked to run on the null backend, which draws nothing") \
  X(demo, DemoFaultBeyondRun, "a planned fault is at a frame beyond the run") \
  X(demo, DemoOutFolderUncreatable, "the demo's output folder cannot be created") \
  X(demo, DemoShaderUnwritable, "the demo's tile shader file cannot be written") \
  X(demo, DemoWindowSurfaceMismatch, "the window's surface differs in format or size from the demo's frames") \
  X(demo, DemoSnapshotUnmapped, "a snapshot readback could not be mapped, so that snapshot is missing") \
  X(demo, DemoSnapshotsUnfinished, "snapshot readbacks did not finish after the last frame") \
  X(demo, DemoReportUnwritable, "a demo report file cannot be written") \
  X(demo, ReportInputUnreadable, "a file the HTML report embeds (uPlot or a snapshot) cannot be read") \
  X(demo, TileFolderMissing, "the --tiles folder does not exist") \
  X(demo, FolderTileMissing, "a tile of the --tiles folder has no .png, .jpg or .jpeg file") \
  X(demo, FolderTileWrongSize, "a tile image of the --tiles folder is not the tile size") \
  X(demo, TileSourceSizeZero, "a demo tile source was given a tile size of 0") \
  X(demo, TileSourceZoomTooDeep, "a tile key's zoom is beyond the deepest zoom the demo's tile sources draw") \
  X(demo, TileSourceKeyOutside, "a tile key's x or y does not exist at its zoom") \
  X(demo, MercatorSourceEmpty, "the MercatorTiler's source image is empty") \
  X(demo, ImageFormatUnknown, "a file's extension names no image format warden reads") \
  X(demo, JpegUnopenable, "a JPEG file cannot be opened") \
  X(demo, JpegEmpty, "a JPEG file is empty") \
  X(demo, JpegUnreadable, "a file is not a readable JPEG") \
  X(demo, PngMissing, "unused: was a missing PNG file; PNG files are read by the present layer (present.PngReadFailed)") \
  X(demo, PngUnreadable, "unused: was a file that is not a readable PNG (now present.PngReadFailed)") \
  X(demo, PngImageInvalid, "unused: was an image with no area or not 4 bytes per pixel to write as PNG (now present.PngImageSizeMismatch)") \
  X(demo, PngUnwritable, "unused: was a PNG file that cannot be written (now present.PngWriteFailed)")

#define WARDEN_MESSAGES_APP(X) \
  X(app, SmokeJobGpuError, "the smoke job's error scope caught a WebGPU error")

#define WARDEN_MESSAGES_CLI(X) \
  X(cli, SizeOptionMalformed, "a --size value is not WIDTHxHEIGHT with both at least 1") \
  X(cli, ShaderCheckFeatureNotOffered, "a feature named to shader check is not offered by the adapter") \
  X(cli, ShaderCheckUnknownOption, "an argument to shader check looks like an option, is none, and names no file") \
  X(cli, ShaderCheckNoFiles, "shader check was given no file to check") \
  X(cli, WindowDeviceNotReady, "the window command's device did not become ready") \
  X(cli, ShaderCheckByteOrderMarkRemoved, "shader check removed a UTF-8 byte order mark from a file before compiling it") \
  X(cli, ShaderCheckStandardInputClosed, "shader check was to read '-' while standard input is closed") \
  X(cli, ShaderCheckStandardInputTwice, "shader check was given '-' more than once; standard input can be read only once") \
  X(cli, ShaderCheckMaxBytesInvalid, "a --max-bytes value is not a whole number from 1 to 18446744073709551615")
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
  MessageId id{};
  /// The layer that emits it: "core", "gpu", "resources", ...
  std::string_view layer{};
  /// The stable name logs and filters use: "<layer>.<Id>", e.g. "resources.HandleDestroyed".
  std::string_view name{};
  /// What the message means, in one sentence.
  std::string_view text{};
};

/// The whole list, in declaration order (layer by layer, bottom up).
std::span<const MessageInfo> all_messages();
/// The entry of `id`; for a value outside the list (cast from a number), an entry named
/// "unknown".
const MessageInfo& describe(MessageId id);
/// The stable name of `id` ("<layer>.<Id>").
std::string_view to_string(MessageId id);

}  // namespace warden
