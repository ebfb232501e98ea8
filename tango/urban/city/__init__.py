"""The stand-in district: layout (streets, blocks, shops, landmarks), its walkable raster, 3D scene and map."""
