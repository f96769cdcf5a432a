/// @file
/// The demo's messages: X(demo, Id, number, "what the message means"), of value
/// (demo's layer number << 8) | number (core/messages.h says how numbers are kept).
/// Not installed: the demo is a program of the `warden` tool, not part of the library.
#pragma once

#include <array>

#include "warden/core/messages.h"

// clang-format off
#define WARDEN_MESSAGES_DEMO(X) \
  X(demo, StampScaleZero, 0, "draw_stamp was asked to draw at scale 0") \
  X(demo, StampGlyphMissing, 1, "the stamp text holds a character the stamp font has no glyph for") \
  X(demo, TileFetchFailureRateOutOfRange, 2, "a tile fetch failure rate is outside [0, 1]") \
  X(demo, TileFetchLatencyNegative, 3, "a tile fetch latency is negative") \
  X(demo, TileFetchInjectedFailure, 4, "a tile fetch failed on purpose, drawn from the fetch failure rate") \
  X(demo, TileFetchFaultBurst, 5, "a tile fetch failed on purpose, in a planned burst of failures") \
  X(demo, DemoFramesZero, 6, "the demo was asked for no frames") \
  X(demo, DemoSizeOutOfRange, 7, "the demo's frame width or height is outside 1..4096") \
  X(demo, DemoWidthNotMultipleOf64, 8, "the demo's frame width is not a multiple of 64") \
  X(demo, DemoBudgetZero, 9, "the demo's VRAM budget is 0") \
  X(demo, DemoFrameIntervalNegative, 10, "the demo's frame interval is negative") \
  X(demo, DemoZoomTooDeep, 11, "the demo's deepest zoom is beyond the deepest its tile sources draw") \
  X(demo, DemoNullBackend, 12, "the demo was asked to run on the null backend, which draws nothing") \
  X(demo, DemoFaultBeyondRun, 13, "a planned fault is at a frame beyond the run") \
  X(demo, DemoOutFolderUncreatable, 14, "the demo's output folder cannot be created") \
  X(demo, DemoShaderUnwritable, 15, "the demo's tile shader file cannot be written") \
  X(demo, DemoWindowSurfaceMismatch, 16, "the window's surface differs in format or size from the demo's frames") \
  X(demo, DemoSnapshotUnmapped, 17, "a snapshot readback could not be mapped, so that snapshot is missing") \
  X(demo, DemoSnapshotsUnfinished, 18, "snapshot readbacks did not finish after the last frame") \
  X(demo, DemoReportUnwritable, 19, "a demo report file cannot be written") \
  X(demo, ReportInputUnreadable, 20, "a file the HTML report embeds (uPlot or a snapshot) cannot be read") \
  X(demo, TileFolderMissing, 21, "the --tiles folder does not exist") \
  X(demo, FolderTileMissing, 22, "a tile of the --tiles folder has no .png, .jpg or .jpeg file") \
  X(demo, FolderTileWrongSize, 23, "a tile image of the --tiles folder is not the tile size") \
  X(demo, TileSourceSizeZero, 24, "a demo tile source was given a tile size of 0") \
  X(demo, TileSourceZoomTooDeep, 25, "a tile key's zoom is beyond the deepest zoom the demo's tile sources draw") \
  X(demo, TileSourceKeyOutside, 26, "a tile key's x or y does not exist at its zoom") \
  X(demo, MercatorSourceEmpty, 27, "the MercatorTiler's source image is empty") \
  X(demo, ImageFormatUnknown, 28, "a file's extension names no image format warden reads") \
  X(demo, JpegUnopenable, 29, "a JPEG file cannot be opened") \
  X(demo, JpegEmpty, 30, "a JPEG file is empty") \
  X(demo, JpegUnreadable, 31, "a file is not a readable JPEG")
// clang-format on

namespace warden::demo {

/// The demo's message ids beside the library's: in this namespace `MessageId::<Id>` names
/// either, each a warden::MessageId.
struct MessageId {
  using enum warden::MessageId;
  WARDEN_MESSAGES_DEMO(WARDEN_MESSAGE_CONSTANT)
};

/// The demo's list, in number order.
inline constexpr std::array kMessages{WARDEN_MESSAGES_DEMO(WARDEN_MESSAGE_INFO)};

}  // namespace warden::demo
