"""Procedural apartments (GLB + tango-scene/1 annotations) and their previews; synthetic datasets build on them."""

from tango.scenes.apartment import Apartment, ApartmentConfig, generate_apartment

__all__ = ["Apartment", "ApartmentConfig", "generate_apartment"]
