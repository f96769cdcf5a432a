/// @file
/// The shaders layer's messages, each X(shaders, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (shaders's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_SHADERS(X) \
  X(shaders, SourceNotUtf8, 0, "a shader source is not valid UTF-8; the message names the byte and its offset") \
  X(shaders, SourceFileNotFound, 1, "a shader file does not exist") \
  X(shaders, SourceSymlinkLoop, 2, "a shader file's path is a symbolic link loop") \
  X(shaders, SourceCannotOpen, 3, "a shader file exists but cannot be opened") \
  X(shaders, SourceIsDirectory, 4, "a shader file's path names a directory") \
  X(shaders, SourceNotRegularFile, 5, "a shader file's path names a FIFO, device or socket, not a regular file") \
  X(shaders, SourceTooLarge, 6, "a shader source is larger than the limit") \
  X(shaders, SourceReadFailed, 7, "reading a shader source failed") \
  X(shaders, ShaderFeatureUnknown, 8, "a shader feature name is not one warden knows") \
  X(shaders, ShaderCompileFailed, 9, "a shader did not compile; the message lists the compiler's diagnostics with their places") \
  X(shaders, ShaderCompilerMessage, 10, "a message of the WGSL compiler about a place in a shader") \
  X(shaders, ShaderNeedsDeviceFeature, 11, "a shader enables an extension whose device feature the device was not created with") \
  X(shaders, ShaderModuleMissing, 12, "the implementation returned no shader module and said nothing about why") \
  X(shaders, WatcherInitFailed, 13, "the file watcher could not be created (inotify)") \
  X(shaders, WatchPathInvalid, 14, "a path to watch could not be made absolute") \
  X(shaders, WatchDirectoryFailed, 15, "the directory of a file to watch could not be watched") \
  X(shaders, WeslSyntaxError, 16, "the WESL linker could not read an import, a condition or a declaration of a module") \
  X(shaders, WeslUnknownImport, 17, "an import or qualified name names a module or item that does not exist") \
  X(shaders, WeslUnknownFeature, 18, "an @if or @elif names a feature the application gave no value") \
  X(shaders, WeslNameConflict, 19, "two imports, or an import and a declaration, bring the same name into a module") \
  X(shaders, WeslDeclarationCycle, 20, "declarations of linked modules depend on each other in a cycle") \
  X(shaders, WeslNotAnItem, 21, "a module is used where a declaration is needed, or a declaration where a module is") \
  X(shaders, ShaderNotFromFile, 22, "a shader module that was not loaded from a file was asked for its file")
// clang-format on
