/// @file
/// The resources layer's messages, each X(resources, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (resources's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_RESOURCES(X) \
  X(resources, RegistryCapacityClamped, 0, "a requested pool capacity exceeds what a handle can index; the registry uses the largest it can") \
  X(resources, ResourcesLeakedAtShutdown, 1, "objects were still alive when the registry shut down; the message names each kind and label") \
  X(resources, HandleNull, 2, "a null handle was given where an object is needed") \
  X(resources, HandleWrongKind, 3, "a handle of one kind was given where a handle of another kind is expected") \
  X(resources, HandleForeign, 4, "a handle issued by another registry was given to this one") \
  X(resources, HandleFromEarlierRegistry, 5, "a handle issued by an earlier registry that held the same id, now gone, was given") \
  X(resources, HandleNeverIssued, 6, "a handle this registry never issued (an index or generation it did not hand out) was given") \
  X(resources, HandleDestroyed, 7, "a handle whose object was destroyed was given") \
  X(resources, RegistryDeviceLost, 8, "the registry's device is lost and being rebuilt; the call did nothing") \
  X(resources, SlotRebuildFailed, 9, "the object could not be made again on the new device after a device loss") \
  X(resources, SlotLostWithoutRecipe, 10, "the object was lost with its device and warden keeps no recipe for it; its owner re-supplies it with replace_*") \
  X(resources, RegistryNullObject, 11, "adopt_*, import_* or replace_* was given a null object") \
  X(resources, ImportNotATextureView, 12, "an object other than a texture view was imported; only views have an outside owner") \
  X(resources, AdoptedObjectInvalid, 13, "an adopted buffer or texture breaks a WebGPU rule or device limit, so it cannot be a valid object") \
  X(resources, ResourcePoolFull, 14, "a kind's pool has no free slot; the object was released (owned), not adopted (borrowed), or not made (a creation while the device is lost or waiting for the frame thread)") \
  X(resources, TextureHasLiveViews, 15, "a texture cannot be destroyed or replaced while views of it are alive") \
  X(resources, DoubleDestroyIgnored, 16, "destroy_* of a handle of this registry whose object is already gone was ignored") \
  X(resources, DestroyImportedView, 17, "destroy_texture_view of an imported view was refused; its owner ends it (forget_texture_view)") \
  X(resources, ForgetViewNotImported, 18, "forget_texture_view of a view that is not imported was refused; use destroy_texture_view") \
  X(resources, SlotExhausted, 19, "a slot's generation reached the limit; the slot is exhausted and never reused") \
  X(resources, TouchIgnored, 20, "touch of a handle that names no live object was ignored") \
  X(resources, SubmitDroppedDeviceLost, 21, "a submit while the device is lost was dropped") \
  X(resources, ResourceMissingUsage, 22, "a buffer or texture lacks a usage the operation needs") \
  X(resources, CreateRejected, 23, "the device rejected a create call (validation or out of memory); Dawn's words follow") \
  X(resources, CreateReturnedNull, 24, "the device returned no object for a create call") \
  X(resources, WriteBufferNullData, 25, "write_buffer was given a non-zero size and no data") \
  X(resources, WriteBufferMisaligned, 26, "write_buffer's offset or size is not a multiple of 4") \
  X(resources, WriteBufferOutOfRange, 27, "write_buffer's bytes lie outside the buffer") \
  X(resources, WriteBufferRejected, 28, "the device rejected a write_buffer that warden's checks let through (a buffer still mapped); nothing was written or kept") \
  X(resources, WriteTextureEmptyRegion, 29, "write_texture's region has a zero dimension") \
  X(resources, WriteTextureMipOutOfRange, 30, "write_texture names a mip level the texture does not have") \
  X(resources, WriteTextureOutOfRange, 31, "write_texture's region lies outside the mip level") \
  X(resources, WriteTextureNoData, 32, "write_texture was given no data") \
  X(resources, WriteTextureFormatNotCopyable, 33, "write_texture names a texture whose format has no byte layout for copies (depth24plus)") \
  X(resources, WriteTextureRowTooShort, 34, "write_texture's bytes_per_row is shorter than one row of the region") \
  X(resources, WriteTextureRowsPerImageTooShort, 35, "write_texture's rows_per_image is below the region's height") \
  X(resources, WriteTextureDataTooSmall, 36, "write_texture was given fewer bytes than its region and layout need") \
  X(resources, WriteTextureRejected, 37, "the device rejected a write_texture that warden's checks let through; nothing was written or kept") \
  X(resources, BufferZeroSize, 38, "create_buffer was asked for a buffer of size 0") \
  X(resources, TextureZeroSize, 39, "create_texture was asked for a texture with a zero dimension") \
  X(resources, TextureZeroLevelsOrSamples, 40, "create_texture was asked for 0 mip levels or 0 samples") \
  X(resources, ResourceNoUsage, 41, "create_buffer or create_texture was given no usage") \
  X(resources, ResourceRefillMissing, 42, "a buffer or texture whose contents come from a callback was given no refill callback") \
  X(resources, BufferDescriptionInvalid, 43, "a buffer description breaks a WebGPU rule or a device limit (size, mapping, usage combination)") \
  X(resources, TextureDescriptionInvalid, 44, "a texture description breaks a WebGPU rule or a device limit (dimensions, layers, mip levels, samples)") \
  X(resources, QuerySetZeroCount, 45, "create_query_set was asked for 0 queries") \
  X(resources, QuerySetTooLarge, 46, "create_query_set was asked for more queries than WebGPU allows in one set") \
  X(resources, RecreateNotOwned, 47, "recreate_texture or recreate_buffer was given a borrowed object; warden makes again only objects it owns") \
  X(resources, RecreateDependentFailed, 48, "recreate_texture or recreate_buffer made the new object, but the device refused a view or bind group made again from it; that one is Failed") \
  X(resources, SlotAwaitsOwner, 49, "after a rebuild, an object with no recipe (adopted, borrowed or replaced by the caller's own) is still Lost until its owner re-supplies it with replace_*") \
  X(resources, RenderBundleNoRecord, 50, "create_render_bundle was given no record callback; a bundle's commands come only from it") \
  X(resources, RenderBundleRecordFailed, 51, "a render bundle's record callback returned an error, or a handle it resolved was stale or not back; the bundle's label and the error's words follow") \
  X(resources, RenderBundleRecordReentered, 52, "a call that makes, replaces or destroys an object was made from inside a render bundle's record callback; it was refused") \
  X(resources, RenderBundleNoRecipe, 53, "rerecord_render_bundle was given a bundle warden has no recipe for (adopted, or replaced by the caller's own)") \
  X(resources, HandleOfEndedRegistry, 54, "the error of a failed resolve was read after the registry that resolved it had ended; what the slot held is gone with it") \
  X(resources, WaitingForFrameThread, 55, "the object was created from another thread on a device that takes calls on one thread (GL, GLES); the frame thread's next poll makes it") \
  X(resources, CreatedWhileReleasingAll, 56, "a release hook created or adopted an object while shutdown was letting go of every object; it was refused (an owned object released)") \
  X(resources, ChainStructNotKept, 57, "a chained struct (nextInChain) cannot be kept in a recipe: only structs made of values are; the message names its sType") \
  X(resources, UnmapBufferNotMapped, 58, "unmap_buffer was given a buffer that is not mapped")
// clang-format on
