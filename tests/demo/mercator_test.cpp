#include "warden/demo/mercator.h"

#include <gtest/gtest.h>

namespace warden::demo {
namespace {

TEST(WebMercator, KnownPlacesLandOnTheirPixels) {
  // Zoom 0 is one 256-pixel tile: (0, 0) is its centre, the corners are the projection's limits.
  WorldPixel centre = to_world_pixel({0, 0}, 0);
  EXPECT_DOUBLE_EQ(centre.x, 128.0);
  EXPECT_NEAR(centre.y, 128.0, 1e-9);
  WorldPixel top_left = to_world_pixel({kMercatorMaxLatitude, -180}, 0);
  EXPECT_NEAR(top_left.x, 0.0, 1e-9);
  EXPECT_NEAR(top_left.y, 0.0, 1e-6);
  EXPECT_NEAR(to_world_pixel({-kMercatorMaxLatitude, 180}, 0).y, 256.0, 1e-6);
  // London (51.5074 N, 0.1278 W) is OpenStreetMap tile 10/511/340.
  WorldPixel london = to_world_pixel({51.5074, -0.1278}, 10);
  EXPECT_EQ(static_cast<int>(london.x / 256), 511);
  EXPECT_EQ(static_cast<int>(london.y / 256), 340);
  // Sydney (33.8688 S, 151.2093 E) is tile 12/3768/2457.
  WorldPixel sydney = to_world_pixel({-33.8688, 151.2093}, 12);
  EXPECT_EQ(static_cast<int>(sydney.x / 256), 3768);
  EXPECT_EQ(static_cast<int>(sydney.y / 256), 2457);
}

TEST(WebMercator, PixelToLatLonInvertsLatLonToPixel) {
  for (double lat : {-85.0, -45.5, -1.0, 0.0, 12.25, 60.0, 85.0}) {
    for (double lon : {-179.5, -90.0, 0.0, 33.3, 179.9}) {
      for (uint32_t zoom : {0u, 3u, 11u, 20u}) {
        LatLon back = to_lat_lon(to_world_pixel({lat, lon}, zoom), zoom);
        EXPECT_NEAR(back.lat, lat, 1e-9) << lat << "," << lon << " z" << zoom;
        EXPECT_NEAR(back.lon, lon, 1e-9) << lat << "," << lon << " z" << zoom;
      }
    }
  }
}

TEST(WebMercator, LatitudesBeyondTheSquareClampToItsEdges) {
  EXPECT_NEAR(to_world_pixel({89.9, 0}, 2).y, 0.0, 1e-6);
  EXPECT_NEAR(to_world_pixel({-90, 0}, 2).y, 1024.0, 1e-6);
}

TEST(Equirectangular, LongitudeAndLatitudeAreLinear) {
  WorldPixel centre = to_equirectangular({0, 0}, 2048, 1024);
  EXPECT_DOUBLE_EQ(centre.x, 1024.0);
  EXPECT_DOUBLE_EQ(centre.y, 512.0);
  WorldPixel corner = to_equirectangular({90, -180}, 2048, 1024);
  EXPECT_DOUBLE_EQ(corner.x, 0.0);
  EXPECT_DOUBLE_EQ(corner.y, 0.0);
  WorldPixel south_east = to_equirectangular({-45, 90}, 2048, 1024);
  EXPECT_DOUBLE_EQ(south_east.x, 1536.0);
  EXPECT_DOUBLE_EQ(south_east.y, 768.0);
}

}  // namespace
}  // namespace warden::demo
