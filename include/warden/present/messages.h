/// @file
/// The present layer's messages, each X(present, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (present's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_PRESENT(X) \
  X(present, ReadImageFormatUnreadable, 0, "read_image was given a texture whose format is not readable as an 8-bit RGBA image") \
  X(present, ReadImageMissingCopySrc, 1, "read_image was given a texture created without CopySrc usage, so it cannot be copied out") \
  X(present, PngImageSizeMismatch, 2, "write_png was given an image whose byte count is not width*height*4") \
  X(present, PngWriteFailed, 3, "libpng could not write the PNG file") \
  X(present, PngReadFailed, 4, "a PNG file could not be read: missing (NotFound), or not a PNG libpng can read (InvalidArgument)") \
  X(present, SurfaceCapabilitiesUnreadable, 5, "the surface's capabilities could not be read for the device's adapter") \
  X(present, SwapchainAttachWithoutDevice, 6, "Swapchain::attach was given no device or no registry") \
  X(present, SwapchainNoSurface, 7, "the WebGPU library made no surface for the window") \
  X(present, SwapchainNoSurfaceFormat, 8, "the surface offers no texture format for the device's adapter") \
  X(present, SwapchainAcquireDetached, 9, "Swapchain::acquire was called with no device attached") \
  X(present, SwapchainAcquireInFlight, 10, "Swapchain::acquire was called before the previous frame was presented") \
  X(present, SwapchainSurfaceNoFrame, 11, "the surface gave no frame to render into, even after reconfiguring once where its status allowed") \
  X(present, SwapchainPresentWithoutFrame, 12, "Swapchain::present was called without an acquired frame") \
  X(present, GlfwInitFailed, 13, "GLFW could not be started on X11") \
  X(present, DisplayNotSet, 14, "DISPLAY is not set, so no window can be opened") \
  X(present, DisplayNotAnswering, 15, "the X server that DISPLAY names does not answer") \
  X(present, WindowZeroSize, 16, "a window was asked for a size with no area") \
  X(present, WindowNotCreated, 17, "GLFW could not create the window") \
  X(present, RenderTargetZeroSize, 18, "a render target was given a size with no area") \
  X(present, RenderTargetNoTexture, 19, "the device made no texture for a render target")
// clang-format on
