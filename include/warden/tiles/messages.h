/// @file
/// The tiles layer's messages, each X(tiles, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (tiles's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_TILES(X) \
  X(tiles, TileDeviceLost, 0, "tile objects cannot be made while the device is lost; they are made again on the next device") \
  X(tiles, TileMipPipelineNotCreated, 1, "a pipeline that renders tile mip levels was not created") \
  X(tiles, TileArrayTileSizeOutOfRange, 2, "a tile array's tile size is 0 or above the device's largest 2D texture") \
  X(tiles, TileArrayLayerCountOutOfRange, 3, "a tile array's layer count is 0 or above the device's array layer limit") \
  X(tiles, TileArrayDestroyed, 4, "a tile array was used after it was destroyed") \
  X(tiles, TileArrayLayerOutOfRange, 5, "a call named a layer beyond the tile array's layers") \
  X(tiles, TileMipLevelOutOfRange, 6, "a mip pass named level 0 (written by uploads) or a level the tile array does not have") \
  X(tiles, TileTexelsSizeMismatch, 7, "the texels given for one tile are not tile size x tile size texels of the format") \
  X(tiles, TileMipPassInScratchArray, 8, "a mip pass was recorded into a tile array whose chains are rendered in its scratch array") \
  X(tiles, TileMipPassWidthOutOfRange, 9, "a mip pass was given no layers, or more than one pass renders") \
  X(tiles, TileMipLayerTwice, 10, "a mip pass named the same layer twice") \
  X(tiles, TileArrayLayersStillAllocated, 11, "a tile array was to be destroyed while its pool still has layers allocated") \
  X(tiles, TileArrayStillInUse, 12, "a tile array was to be destroyed while a submission that reads it has not retired") \
  X(tiles, TileRendererZeroInstances, 13, "a TileRenderer was asked for room for 0 instances") \
  X(tiles, TileDrawShaderIncomplete, 14, "an application's tile draw shader was given without its module or without the pipeline library") \
  X(tiles, TileDrawPipelineNotCreated, 15, "the pipeline that draws tiles was not created") \
  X(tiles, TileRendererTooManyInstances, 16, "more tile instances were written than the TileRenderer has room for") \
  X(tiles, TileReplyReplaced, 17, "a TileReply was overwritten before it answered; its fetch fails") \
  X(tiles, TileReplyUnanswered, 18, "a TileReply was destroyed without delivering texels or an error; its fetch fails") \
  X(tiles, TileKeyOutsidePyramid, 19, "a tile key lies outside the pyramid (x or y not below 2^z, or z beyond the deepest zoom)") \
  X(tiles, TileCacheLayerBytesZero, 20, "a TileCache was given a layer size of 0 bytes") \
  X(tiles, TileCacheBudgetBelowLayer, 21, "a TileCache's byte budget holds no tile layer") \
  X(tiles, TileCacheByteCountOverflow, 22, "a TileCache's pool layers times the layer size overflow a 64-bit byte count") \
  X(tiles, TileCacheNoFetches, 23, "a TileCache was allowed 0 fetches in flight, so no fetch could start") \
  X(tiles, TileCacheCalledInsideCallback, 24, "a call that changes a TileCache was made from inside one of its fill, upload or fetch callbacks") \
  X(tiles, TileCacheChangedDuringFill, 25, "the tile cache changed while a fill ran (a bug in warden)") \
  X(tiles, TilePinNotResident, 26, "pin named a tile that is not resident") \
  X(tiles, TileEvictPinned, 27, "evict named a pinned tile") \
  X(tiles, TileEvictUnknown, 28, "evict named a tile that is neither resident nor requested") \
  X(tiles, LayerPoolLayerOutOfRange, 29, "a layer index beyond the layer pool's layers") \
  X(tiles, LayerPoolLayerNotAllocated, 30, "a layer was touched or released that the pool had not handed out (free, or already released)") \
  X(tiles, LayerPoolInvariantBroken, 31, "the layer pool's bookkeeping contradicts itself (a bug in warden)") \
  X(tiles, UploadRingZeroSize, 32, "an upload ring's tile size, texel bytes, buffer count or tiles per buffer is 0") \
  X(tiles, UploadRingStagingNotMapped, 33, "a staging buffer of an upload ring was not created mapped") \
  X(tiles, UploadMeasurementZero, 34, "the upload measurement was given 0 for the tile size, the tile count or the rounds") \
  X(tiles, UploadMeasurementNoMappedBuffer, 35, "the upload measurement's ring had no mapped buffer (a bug in warden)") \
  X(tiles, LayerPoolSizingZero, 36, "size_layer_pool was given 0 for the viewport width or height or the tile size") \
  X(tiles, TexelSizeUnknown, 37, "warden has no byte size for the texture format") \
  X(tiles, TextureBytesEmpty, 38, "texture_bytes was given a texture with no width, height or layers") \
  X(tiles, TextureBytesMipLevelsOutOfRange, 39, "texture_bytes was given 0 mip levels or more than the size has") \
  X(tiles, TextureBytesOverflow, 40, "a texture's byte count overflows 64 bits") \
  X(tiles, TileFillUnknown, 41, "finish_fill was given a fill the tile cache did not hand off, or one already finished")
// clang-format on
