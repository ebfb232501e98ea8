"""Primitives: the functions programs may call, registered with `@primitive` into per-domain toolboxes."""

from tango.primitives.plugins import ENTRY_POINT_GROUP, get_toolbox, isolated, load_plugins
from tango.primitives.registry import (
    DEFAULT_TOOLBOX,
    REGISTRY,
    InputSpec,
    Parameter,
    PrimitiveSpec,
    Registry,
    RegistryError,
    Toolbox,
    define_input,
    define_toolbox,
    primitive,
)

__all__ = [
    "DEFAULT_TOOLBOX",
    "ENTRY_POINT_GROUP",
    "REGISTRY",
    "InputSpec",
    "Parameter",
    "PrimitiveSpec",
    "Registry",
    "RegistryError",
    "Toolbox",
    "define_input",
    "define_toolbox",
    "get_toolbox",
    "isolated",
    "load_plugins",
    "primitive",
]
