"""Headless moderngl (EGL) renderer: RGB, metric depth and instance ids of a trimesh scene in one pass.

Geometry is uploaded once, flattened to world space. One draw writes three attachments (MRT): colour
(RGBA8, flat-shaded from screen-space derivatives), depth (R32F, the camera-space distance along the optical
axis written by the fragment shader, so it is exact rather than decoded from a z-buffer) and instance id (R32I).
Depth is metres along the optical axis (habitat's z-depth). Out-of-range handling (`depth_out_of_range`):
"zero" (default, docs/architecture.md): pixels outside [depth_min, depth_max] and pixels that see no geometry are 0;
"clip" (habitat-lab's depth sensor): depth is clipped into [depth_min, depth_max], pixels without geometry read
depth_min, exactly as habitat-lab clips habitat-sim's 0 for empty pixels.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, cast

import moderngl
import numpy as np
import trimesh

from tango.sim.scene import PlacedMesh, placed_meshes

LOG = logging.getLogger(__name__)

SENSOR_NAMES = ("rgb", "depth", "semantic")
DEFAULT_GREY = (180, 180, 180, 255)
_COLOUR_WRITES = ((True, True, True, True),) * 3
_NO_COLOUR_WRITES = ((False, False, False, False), (True, True, True, True), (True, True, True, True))
"""Write masks of the colour, depth and id attachments: without colour writes llvmpipe compiles the shading
out of the fragment shader (a quarter of a frame's time at 256x256), and depth and ids are the same bits."""
EGL_PACKAGES = "libegl1 libegl-mesa0 libgl1-mesa-dri"
CHUNK_SIZE = 1.0  # metres: geometry is culled and depth-sorted in xz chunks of this size
_NEAR_PLANE = 0.02
_FAR_PLANE = 1000.0

_VERTEX_SHADER = """
#version 330
uniform mat4 view;
uniform mat4 proj;
in vec3 in_pos;
in vec4 in_color;
in vec2 in_uv;
in int in_id;
out vec3 v_world;
out float v_depth;
out vec4 v_color;
out vec2 v_uv;
flat out int v_id;
void main() {
    vec4 view_pos = view * vec4(in_pos, 1.0);
    v_world = in_pos;
    v_depth = -view_pos.z;
    v_color = in_color;
    v_uv = in_uv;
    v_id = in_id;
    gl_Position = proj * view_pos;
}
"""

_FRAGMENT_SHADER = """
#version 330
uniform sampler2D tex;
uniform bool use_texture;
uniform float depth_min;
uniform float depth_max;
uniform bool zero_out_of_range;
in vec3 v_world;
in float v_depth;
in vec4 v_color;
in vec2 v_uv;
flat in int v_id;
layout(location = 0) out vec4 out_color;
layout(location = 1) out float out_depth;
layout(location = 2) out int out_id;
void main() {
    vec3 normal = normalize(cross(dFdx(v_world), dFdy(v_world)));
    float shade = 0.65 + 0.25 * abs(normal.y) + 0.1 * abs(normal.x);
    vec4 albedo = v_color;
    if (use_texture) {
        albedo *= texture(tex, v_uv);
    }
    out_color = vec4(min(albedo.rgb * shade, vec3(1.0)), 1.0);
    bool outside = v_depth < depth_min || v_depth > depth_max;
    out_depth = (zero_out_of_range && outside) ? 0.0 : v_depth;
    out_id = v_id;
}
"""

_VERTEX_DTYPE = np.dtype([("pos", "<f4", 3), ("color", "u1", 4), ("uv", "<f4", 2), ("id", "<i4")])


class RendererError(RuntimeError):
    """The renderer cannot run (no EGL, bad configuration)."""


@dataclass
class Frame:
    """One rendered view: rgb (H,W,3) uint8, depth (H,W) float32 metres (0 = no reading), semantic (H,W) int32.

    Sensors that were not requested are None.
    """

    rgb: np.ndarray | None
    depth: np.ndarray | None
    semantic: np.ndarray | None


def _load_triton_first() -> None:
    """Mesa's llvmpipe and triton each load their own LLVM; importing triton (which torchvision.ops and open_clip
    pull in through torch._dynamo) after an EGL context exists segfaults, while the other order works."""
    if importlib.util.find_spec("triton") is not None:
        importlib.import_module("triton")


def create_gl_context() -> moderngl.Context:
    """A headless OpenGL 3.3+ context through EGL; RendererError with the packages to install when unavailable."""
    _load_triton_first()
    try:
        return moderngl.create_standalone_context(require=330, backend="egl")  # type: ignore[arg-type]
    except Exception as exc:  # moderngl/glcontext raise plain Exceptions for missing libraries or devices
        raise RendererError(
            f"cannot create a headless EGL OpenGL context ({exc}). Install the Debian packages {EGL_PACKAGES} "
            f"(as root: apt-get install -y {EGL_PACKAGES}; without root, ask an administrator to). "
            "An NVIDIA driver's EGL library works as well."
        ) from exc


def perspective(hfov_deg: float, width: int, height: int, near: float, far: float) -> np.ndarray:
    """OpenGL projection for a pinhole camera with horizontal field of view hfov and square pixels."""
    if not 0.0 < hfov_deg < 180.0:
        raise RendererError(f"hfov must be in (0, 180) degrees, got {hfov_deg}")
    focal = 1.0 / np.tan(np.deg2rad(hfov_deg) / 2.0)
    proj = np.zeros((4, 4))
    proj[0, 0] = focal
    proj[1, 1] = focal * width / height
    proj[2, 2] = (far + near) / (near - far)
    proj[2, 3] = 2.0 * far * near / (near - far)
    proj[3, 2] = -1.0
    return proj


@dataclass
class DeferredRGB:
    """A frame's colour image not drawn yet: calling it renders the full frame at `pose` and reads the image."""

    renderer: Renderer
    pose: np.ndarray

    def __call__(self) -> np.ndarray:
        rgb = self.renderer.render(self.pose, ("rgb",)).rgb
        assert rgb is not None, "deferred rgb from a renderer without an rgb sensor"
        return rgb


@dataclass
class _Batch:
    """One texture's geometry; its index buffer is ordered by spatial chunk so chunks can be culled and drawn
    nearest first (fewer vertices processed, more fragments rejected by the early depth test)."""

    vao: moderngl.VertexArray
    texture: moderngl.Texture | None
    chunk_first: np.ndarray
    chunk_count: np.ndarray
    chunk_min: np.ndarray
    chunk_max: np.ndarray


class Renderer:
    """Renders a static trimesh scene from arbitrary camera poses (4x4 world-from-camera, OpenGL camera).

    Every GL call runs with the renderer's context made current (`with self.ctx`): moderngl issues calls to
    whichever context is current, so with several simulators in one process (the PointNav trainer's
    environments) a frame would otherwise be drawn and read in another simulator's context."""

    def __init__(
        self,
        scene: trimesh.Scene,
        width: int = 256,
        height: int = 256,
        hfov_deg: float = 79.0,
        depth_min: float = 0.0,
        depth_max: float = 10.0,
        sensors: tuple[str, ...] = SENSOR_NAMES,
        ctx: moderngl.Context | None = None,
        depth_out_of_range: str = "zero",
    ) -> None:
        unknown = sorted(set(sensors) - set(SENSOR_NAMES))
        if unknown:
            raise RendererError(f"unknown sensor(s) {unknown}; known: {list(SENSOR_NAMES)}")
        if depth_out_of_range not in ("zero", "clip"):
            raise RendererError(f"depth_out_of_range must be 'zero' or 'clip', got {depth_out_of_range!r}")
        if width <= 0 or height <= 0:
            raise RendererError(f"resolution must be positive, got {width}x{height}")
        self.width, self.height, self.hfov_deg = width, height, hfov_deg
        self.depth_min, self.depth_max = depth_min, depth_max
        self.sensors = tuple(sensors)
        self._clip_depth = depth_out_of_range == "clip"
        self._owns_ctx = ctx is None
        self.ctx = create_gl_context() if ctx is None else ctx
        with self.ctx:
            self._create(scene)

    def _create(self, scene: trimesh.Scene) -> None:
        """Program, attachments and geometry in this renderer's context."""
        width, height, hfov_deg = self.width, self.height, self.hfov_deg
        depth_min, depth_max = self.depth_min, self.depth_max
        self._proj = np.eye(4)
        self._program = self.ctx.program(vertex_shader=_VERTEX_SHADER, fragment_shader=_FRAGMENT_SHADER)
        self._uniform("depth_min").value = depth_min
        self._uniform("depth_max").value = depth_max
        self._uniform("zero_out_of_range").value = not self._clip_depth
        proj = perspective(hfov_deg, width, height, _NEAR_PLANE, _FAR_PLANE)
        proj[1, :] *= -1.0  # render upside down so that glReadPixels' first row is the image's top row
        self._proj = proj
        self._uniform("proj").write(proj.T.astype("f4").tobytes())
        self._color = self.ctx.texture((width, height), 4)
        self._depth = self.ctx.texture((width, height), 1, dtype="f4")
        self._ids = self.ctx.texture((width, height), 1, dtype="i4")
        self._zbuffer = self.ctx.depth_renderbuffer((width, height))
        self._fbo = self.ctx.framebuffer([self._color, self._depth, self._ids], self._zbuffer)
        self._batches = self._upload(placed_meshes(scene))
        self._released = False
        self._colour_writes = True

    def render(self, pose_world_from_camera: np.ndarray, sensors: Collection[str] | None = None) -> Frame:
        """Render the sensors (all of the renderer's by default; others are None) from the camera pose (its -z is
        the viewing direction, +y up). Without rgb the colour attachment is not written."""
        if self._released:
            raise RendererError("this renderer was released (its scene was unloaded)")
        with self.ctx:
            return self._render(pose_world_from_camera, sensors)

    def _render(self, pose_world_from_camera: np.ndarray, sensors: Collection[str] | None) -> Frame:
        wanted = self.sensors if sensors is None else tuple(name for name in self.sensors if name in sensors)
        colour = "rgb" in wanted
        if colour != self._colour_writes:
            # moderngl takes one mask per attachment (its stubs know only the single-attachment form)
            self._fbo.color_mask = _COLOUR_WRITES if colour else _NO_COLOUR_WRITES  # type: ignore[assignment]
            self._colour_writes = colour
        view = np.linalg.inv(np.asarray(pose_world_from_camera, dtype=np.float64))
        self._uniform("view").write(view.T.astype("f4").tobytes())
        self._fbo.use()
        self._fbo.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)  # moderngl clears the R32I ids with glClearBufferiv
        self.ctx.enable(moderngl.DEPTH_TEST)
        self.ctx.disable(moderngl.CULL_FACE)
        planes = _frustum_planes(self._proj @ view)
        eye = np.asarray(pose_world_from_camera, dtype=np.float64)[:3, 3]
        for batch in self._batches:
            self._uniform("use_texture").value = batch.texture is not None
            if batch.texture is not None:
                batch.texture.use(0)
                self._uniform("tex").value = 0
            visible = _boxes_in_frustum(batch.chunk_min, batch.chunk_max, planes)
            centers = (batch.chunk_min[visible] + batch.chunk_max[visible]) / 2.0
            order = np.flatnonzero(visible)[np.argsort(np.linalg.norm(centers - eye, axis=1))]
            for chunk in order:
                batch.vao.render(
                    moderngl.TRIANGLES,
                    vertices=int(batch.chunk_count[chunk]),
                    first=int(batch.chunk_first[chunk]),
                )
        depth = self._read(1, 1, "f4") if "depth" in wanted else None
        if depth is not None and self._clip_depth:
            depth = np.clip(depth, self.depth_min, self.depth_max)
        return Frame(
            rgb=self._read(0, 3, "f1") if "rgb" in wanted else None,
            depth=depth,
            semantic=self._read(2, 1, "i4") if "semantic" in wanted else None,
        )

    def deferred_rgb(self, pose_world_from_camera: np.ndarray) -> DeferredRGB:
        """The colour image from the pose, rendered when called (to the bits `render` gives it now)."""
        return DeferredRGB(self, np.array(pose_world_from_camera, dtype=np.float64))

    def release(self) -> None:
        """Free the GL objects (and the context when this renderer created it)."""
        with self.ctx:
            for batch in self._batches:
                batch.vao.release()
                if batch.texture is not None:
                    batch.texture.release()
            self._fbo.release()
        self._batches = []
        self._released = True
        if self._owns_ctx:
            self.ctx.release()

    def _uniform(self, name: str) -> moderngl.Uniform:
        return cast(moderngl.Uniform, self._program[name])

    def _read(self, attachment: int, components: int, dtype: str) -> np.ndarray:
        """One glReadPixels of an attachment straight into a fresh (writable) numpy array."""
        shape = (self.height, self.width, components) if components > 1 else (self.height, self.width)
        out = np.empty(shape, dtype=np.uint8 if dtype == "f1" else np.dtype(dtype))
        self._fbo.read_into(out, attachment=attachment, components=components, dtype=dtype)
        return out

    def _upload(self, meshes: list[PlacedMesh]) -> list[_Batch]:
        """Group geometry by texture (one batch for everything untextured) and upload each batch once."""
        groups: dict[int, tuple[Any, list[tuple[np.ndarray, np.ndarray]]]] = {}
        for item in meshes:
            vertices, faces, image = _mesh_geometry(item)
            key = 0 if image is None else id(image)
            groups.setdefault(key, (image, []))[1].append((vertices, faces))
        batches = []
        for image, parts in groups.values():
            offsets = np.cumsum([0] + [len(vertices) for vertices, _ in parts[:-1]])
            data = np.concatenate([vertices for vertices, _ in parts])
            faces = np.concatenate(
                [faces + offset for (_, faces), offset in zip(parts, offsets, strict=True)]
            )
            corners = data["pos"][faces].astype(np.float64)
            keys = np.floor(corners.mean(axis=1)[:, [0, 2]] / CHUNK_SIZE).astype(np.int64)
            order = np.lexsort((keys[:, 1], keys[:, 0]))
            faces, corners, keys = faces[order], corners[order], keys[order]
            starts = np.flatnonzero(np.r_[True, (np.diff(keys, axis=0) != 0).any(axis=1)])
            counts = np.diff(np.r_[starts, len(faces)])
            vao = self.ctx.vertex_array(
                self._program,
                [(self.ctx.buffer(data.tobytes()), "3f 4f1 2f 1i", "in_pos", "in_color", "in_uv", "in_id")],
                index_buffer=self.ctx.buffer(faces.astype(np.uint32).tobytes()),
                index_element_size=4,
            )
            batches.append(
                _Batch(
                    vao=vao,
                    texture=None if image is None else self._texture(image),
                    chunk_first=starts * 3,
                    chunk_count=counts * 3,
                    chunk_min=np.minimum.reduceat(corners.min(axis=1), starts, axis=0),
                    chunk_max=np.maximum.reduceat(corners.max(axis=1), starts, axis=0),
                )
            )
        LOG.debug(
            "uploaded %d batches, %d triangles", len(batches), sum(b.vao.vertices for b in batches) // 3
        )
        return batches

    def _texture(self, image: Any) -> moderngl.Texture:
        rgba = np.asarray(image.convert("RGBA"))[::-1].copy()
        texture = self.ctx.texture((rgba.shape[1], rgba.shape[0]), 4, rgba.tobytes())
        texture.build_mipmaps()
        texture.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        texture.repeat_x = texture.repeat_y = True
        return texture


def _frustum_planes(clip_from_world: np.ndarray) -> np.ndarray:
    """The six planes (a, b, c, d), inside where ax + by + cz + d >= 0, of a clip-from-world matrix."""
    rows = clip_from_world
    return np.array(
        [
            rows[3] + rows[0],
            rows[3] - rows[0],
            rows[3] + rows[1],
            rows[3] - rows[1],
            rows[3] + rows[2],
            rows[3] - rows[2],
        ]
    )


def _boxes_in_frustum(box_min: np.ndarray, box_max: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """Which axis-aligned boxes (N, 3) are not entirely outside one of the planes (conservative)."""
    normals, offsets = planes[:, :3], planes[:, 3]
    farthest = np.where(normals[None, :, :] >= 0, box_max[:, None, :], box_min[:, None, :])
    return ((farthest * normals[None]).sum(axis=2) + offsets[None] >= 0).all(axis=1)


def _mesh_geometry(item: PlacedMesh) -> tuple[np.ndarray, np.ndarray, Any]:
    """World-space vertices, triangle indices (F, 3) and texture image (or None) of a placed mesh; vertices are
    shared between triangles except for face-coloured meshes, which get one vertex per triangle corner."""
    mesh = item.mesh
    visual = mesh.visual
    faces = np.asarray(mesh.faces, dtype=np.int64)
    positions = trimesh.transform_points(np.asarray(mesh.vertices, dtype=np.float64), item.transform)
    image = None
    uv = None
    if isinstance(visual, trimesh.visual.ColorVisuals) and visual.kind == "face":
        positions = positions[faces].reshape(-1, 3)
        colors = np.repeat(np.asarray(visual.face_colors, np.uint8), 3, axis=0)
        faces = np.arange(len(positions)).reshape(-1, 3)
    elif isinstance(visual, trimesh.visual.ColorVisuals) and visual.kind == "vertex":
        colors = np.asarray(visual.vertex_colors, np.uint8)
    elif isinstance(visual, trimesh.visual.TextureVisuals):
        color, image = _material_color_and_image(visual)
        colors = np.tile(color, (len(positions), 1))
        if image is not None and visual.uv is not None and len(visual.uv) == len(positions):
            uv = np.asarray(visual.uv, np.float32)
        else:
            image = None
    else:
        colors = np.tile(np.array(DEFAULT_GREY, np.uint8), (len(positions), 1))
    out = np.zeros(len(positions), dtype=_VERTEX_DTYPE)
    out["pos"] = positions
    out["color"] = colors
    out["id"] = item.instance_id
    if uv is not None:
        out["uv"] = uv
    return out, faces, image


def _material_color_and_image(visual: trimesh.visual.TextureVisuals) -> tuple[np.ndarray, Any]:
    """RGBA uint8 base colour factor of the material and its base-colour texture image (None when absent)."""
    material = visual.material
    image = getattr(material, "baseColorTexture", None) or getattr(material, "image", None)
    factor = getattr(material, "baseColorFactor", None)
    if factor is None:  # a texture alone is the colour; without one, trimesh's main colour of the material
        factor = (255, 255, 255, 255) if image is not None else getattr(material, "main_color", None)
    values = np.asarray(factor if factor is not None else DEFAULT_GREY)
    if values.dtype.kind == "f":
        values = np.clip(values * 255.0, 0, 255)
    if values.size == 3:
        values = np.append(values, 255)
    return values.astype(np.uint8)[:4], image
