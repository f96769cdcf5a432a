# cmake -DVERSION_FILE=<wardenConfigVersion.cmake> -P print_package_version.cmake
# Prints the version the file declares, as find_package() reads it.
include("${VERSION_FILE}")
message("${PACKAGE_VERSION}")
